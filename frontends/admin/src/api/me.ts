import type { AdminMe, meRoutes } from '@gatehouse/contracts';
import { adminApi } from './admin-api';

/** `GET /api/v1/admin/me`: the signed-in administrator and their roles in the Identity application. */
export type { AdminMe };

const ME: typeof meRoutes.get.path = '/api/v1/admin/me';

export const meApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    me: build.query<AdminMe, void>({
      query: () => ME,
      providesTags: ['Me'],
    }),
  }),
});

export const { useMeQuery } = meApi;
