import type { DashboardSummary, dashboardRoutes } from '@gatehouse/contracts';
import { adminApi } from './admin-api';

/** `GET /api/v1/admin/dashboard/base`: the count tiles. */
const DASHBOARD_BASE: typeof dashboardRoutes.base.path = '/api/v1/admin/dashboard/base';

export const dashboardApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    dashboardBase: build.query<DashboardSummary, void>({
      query: () => DASHBOARD_BASE,
      // Creating or deleting users, groups… invalidates these tags, so the counts follow.
      providesTags: ['Dashboard', { type: 'User', id: 'LIST' }, { type: 'Group', id: 'LIST' }, { type: 'Area', id: 'LIST' }, { type: 'Tenant', id: 'LIST' }, { type: 'Application', id: 'LIST' }],
    }),
  }),
});

export const { useDashboardBaseQuery } = dashboardApi;
