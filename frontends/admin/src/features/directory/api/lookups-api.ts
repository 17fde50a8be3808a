import type { applicationsRoutes, areasRoutes, ResponseOf, tenantsRoutes } from '@gatehouse/contracts';
import { adminApi, toQueryString, type ListQuery } from '../../../api/admin-api';

export { GLOBAL_TENANT_ID } from '@gatehouse/contracts';
export type { Area } from '@gatehouse/contracts';

/** The spec's limit of dropdown lookups. */
export const LOOKUP_LIMIT = 1000;

/** The spec's limit of a role list: every role of every application at once (the API's default page is 10). */
export const ROLE_LOOKUP_LIMIT = 10_000;

export const lookupsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    areas: build.query<ResponseOf<typeof areasRoutes.list>, ListQuery>({
      query: (query) => `/api/v1/admin/areas${toQueryString(query)}`,
      providesTags: [{ type: 'Area', id: 'LIST' }],
    }),
    tenantLookup: build.query<ResponseOf<typeof tenantsRoutes.list>, string>({
      query: (search) => `/api/v1/admin/tenants${toQueryString({ $search: search, top: 50 })}`,
      providesTags: [{ type: 'Tenant', id: 'LIST' }],
    }),
    // Every application's roles at once: the dialogs group them by application.
    appRoles: build.query<ResponseOf<typeof applicationsRoutes.roles>, void>({
      query: () => `/api/v1/admin/applications/approles${toQueryString({ top: ROLE_LOOKUP_LIMIT })}`,
      providesTags: [{ type: 'Application', id: 'ROLES' }],
    }),
  }),
});

export const { useAreasQuery, useTenantLookupQuery, useAppRolesQuery } = lookupsApi;
