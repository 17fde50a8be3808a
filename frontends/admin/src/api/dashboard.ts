import { adminApi } from './admin-api';

/** `GET /api/v1/admin/dashboard/base`: the count tiles. */
export interface DashboardBase {
  usersCount: number;
  groupsCount: number;
  appsCount: number;
  areasCount: number;
  tenantsCount: number;
}

export const dashboardApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    dashboardBase: build.query<DashboardBase, void>({
      query: () => '/api/v1/admin/dashboard/base',
      // Creating or deleting users, groups… invalidates these tags, so the counts follow.
      providesTags: ['Dashboard', { type: 'User', id: 'LIST' }, { type: 'Group', id: 'LIST' }, { type: 'Area', id: 'LIST' }, { type: 'Tenant', id: 'LIST' }, { type: 'Application', id: 'LIST' }],
    }),
  }),
});

export const { useDashboardBaseQuery } = dashboardApi;
