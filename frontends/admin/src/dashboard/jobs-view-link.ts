import type { JobsViewLink, jobsViewRoutes } from '@gatehouse/contracts';
import { adminApi } from '../api/admin-api';

// The contract's path, written out so that the bundle carries no schema; its type keeps them equal.
const LINK_PATH = '/api/v1/admin/jobs/dashboard-link' as const satisfies (typeof jobsViewRoutes)['dashboardLink']['path'];

export const jobsViewApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    // `POST …/jobs/dashboard-link`: the background jobs page's address with a one-time code (60 s).
    jobsViewLink: build.mutation<JobsViewLink, void>({
      query: () => ({ url: LINK_PATH, method: 'POST', body: {} }),
    }),
  }),
});

export const { useJobsViewLinkMutation } = jobsViewApi;
