import type {
  AdminsPerApplication,
  AdminsPerArea,
  ConnectedPerApplication,
  DashboardSummary,
  dashboardRoutes,
  LoginsPerHour,
} from '@gatehouse/contracts';
import { adminApi, toQueryString } from './admin-api';

export type { AdminsPerApplication, AdminsPerArea, ConnectedPerApplication, LoginsPerHour };

type Routes = typeof dashboardRoutes;

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const PATHS = {
  base: '/api/v1/admin/dashboard/base',
  loginLastHours: '/api/v1/admin/dashboard/loginLastHours',
  adminPerApp: '/api/v1/admin/dashboard/adminPerApp',
  globalAdminPerAreas: '/api/v1/admin/dashboard/globalAdminPerAreas',
  connectedPerApp: '/api/v1/admin/dashboard/connectedPerApp',
  adminReport: '/api/v1/admin/dashboard/adminReport',
} as const satisfies { [K in keyof Routes]?: Routes[K]['path'] };

/** Role changes show in the administrator reports. */
const ROLE_TAGS = ['Dashboard' as const, { type: 'User' as const, id: 'LIST' }, { type: 'Group' as const, id: 'LIST' }, { type: 'Application' as const, id: 'LIST' }];

export const dashboardApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    // `GET …/base`: the count tiles.
    dashboardBase: build.query<DashboardSummary, void>({
      query: () => PATHS.base,
      // Creating or deleting users, groups… invalidates these tags, so the counts follow.
      providesTags: ['Dashboard', { type: 'User', id: 'LIST' }, { type: 'Group', id: 'LIST' }, { type: 'Area', id: 'LIST' }, { type: 'Tenant', id: 'LIST' }, { type: 'Application', id: 'LIST' }],
    }),
    // The usage reports are figures of the moment: fetched afresh whenever a widget mounts again.
    loginsPerHour: build.query<LoginsPerHour[], void>({
      query: () => PATHS.loginLastHours,
      providesTags: ['Dashboard'],
      keepUnusedDataFor: 0,
    }),
    adminsPerApplication: build.query<AdminsPerApplication[], void>({
      query: () => PATHS.adminPerApp,
      providesTags: ROLE_TAGS,
      keepUnusedDataFor: 0,
    }),
    adminsPerArea: build.query<AdminsPerArea[], { tenant?: string; application?: string }>({
      query: (filters) => `${PATHS.globalAdminPerAreas}${toQueryString(filters)}`,
      providesTags: ROLE_TAGS,
      keepUnusedDataFor: 0,
    }),
    // `POST …/adminReport`: queues the full report; its file comes back in a notification.
    generateAdminReport: build.mutation<{ jobId: string }, void>({
      query: () => ({ url: PATHS.adminReport, method: 'POST', body: {} }),
    }),
    connectedPerApplication: build.query<ConnectedPerApplication[], void>({
      query: () => PATHS.connectedPerApp,
      providesTags: ['Dashboard'],
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useDashboardBaseQuery,
  useLoginsPerHourQuery,
  useAdminsPerApplicationQuery,
  useAdminsPerAreaQuery,
  useConnectedPerApplicationQuery,
  useGenerateAdminReportMutation,
} = dashboardApi;
