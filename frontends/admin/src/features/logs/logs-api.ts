import type { AuthenticationLog, ExternalApiAccessLog, logsRoutes, ResponseOf, SessionLog, SystemLog } from '@gatehouse/contracts';
import { adminApi, toQueryString, type ListQuery } from '../../api/admin-api';

export type { AuthenticationLog, ExternalApiAccessLog, SessionLog, SystemLog };

type Routes = typeof logsRoutes;

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const PATHS = {
  authentication: '/api/v1/admin/logs/authenticationlogs',
  authenticationExport: '/api/v1/admin/logs/authenticationlogs/export',
  system: '/api/v1/admin/logs/systemlog',
  systemExport: '/api/v1/admin/logs/systemlog/export',
  session: '/api/v1/admin/logs/sessionlog',
  externalApiAccess: '/api/v1/admin/logs/externalApiAccessLog',
} as const satisfies { [K in keyof Routes]: Routes[K]['path'] };

// Logs only grow, and nothing the console does changes them: no tags, and each visit asks again.
export const logsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    authenticationLogs: build.query<ResponseOf<Routes['authentication']>, ListQuery>({
      query: (query) => `${PATHS.authentication}${toQueryString(query)}`,
    }),
    systemLogs: build.query<ResponseOf<Routes['system']>, ListQuery>({
      query: (query) => `${PATHS.system}${toQueryString(query)}`,
    }),
    sessionLogs: build.query<ResponseOf<Routes['session']>, ListQuery>({
      query: (query) => `${PATHS.session}${toQueryString(query)}`,
    }),
    externalApiAccessLogs: build.query<ResponseOf<Routes['externalApiAccess']>, ListQuery>({
      query: (query) => `${PATHS.externalApiAccess}${toQueryString(query)}`,
    }),
    // The exports queue a background job with the list's filters and sort; the file comes back in a notification.
    exportAuthenticationLogs: build.mutation<ResponseOf<Routes['authenticationExport']>, ListQuery>({
      query: (query) => `${PATHS.authenticationExport}${toQueryString(query)}`,
    }),
    exportSystemLogs: build.mutation<ResponseOf<Routes['systemExport']>, ListQuery>({
      query: (query) => `${PATHS.systemExport}${toQueryString(query)}`,
    }),
  }),
});

export const {
  useAuthenticationLogsQuery,
  useSystemLogsQuery,
  useSessionLogsQuery,
  useExternalApiAccessLogsQuery,
  useExportAuthenticationLogsMutation,
  useExportSystemLogsMutation,
} = logsApi;
