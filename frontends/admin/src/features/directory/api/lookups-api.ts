import { adminApi, toQueryString, type ListQuery, type ListResult } from '../../../api/admin-api';

/** The spec's empty GUID: the Global tenant where an id is required (paths, role removals). */
export const GLOBAL_TENANT_ID = '00000000-0000-0000-0000-000000000000';

export interface Area {
  id: string;
  name: string;
  default: boolean;
  system: boolean;
}

export interface TenantOption {
  id: string;
  title: string;
  areaId: string | null;
  areaName: string | null;
  parentId: string | null;
}

export interface AppRole {
  id: string;
  name: string;
  description: string | null;
  byHierarchy: boolean;
  applicationId: string;
  applicationName: string;
}

/** The spec's limit of dropdown lookups. */
export const LOOKUP_LIMIT = 1000;

export const lookupsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    areas: build.query<ListResult<Area>, ListQuery>({
      query: (query) => `/api/v1/admin/areas${toQueryString(query)}`,
      providesTags: [{ type: 'Area', id: 'LIST' }],
    }),
    tenantLookup: build.query<ListResult<TenantOption>, string>({
      query: (search) => `/api/v1/admin/tenants${toQueryString({ $search: search, top: 50 })}`,
      providesTags: [{ type: 'Tenant', id: 'LIST' }],
    }),
    // Every application's roles at once: the dialogs group them by application.
    appRoles: build.query<{ items: AppRole[] }, void>({
      query: () => '/api/v1/admin/applications/approles',
      providesTags: [{ type: 'Application', id: 'ROLES' }],
    }),
  }),
});

export const { useAreasQuery, useTenantLookupQuery, useAppRolesQuery } = lookupsApi;
