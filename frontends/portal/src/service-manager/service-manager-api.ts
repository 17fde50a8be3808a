import type { ServiceManagerPermissions, ServiceManagerPermissionsBody, ServiceManagerTenant, ServiceManagerUser, serviceManagerRoutes } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { portalApi } from '../api/portal-api';
import { queryString, type Page, type TenantSearch } from '../clients/clients-api';

export type { ServiceManagerPermissions, ServiceManagerTenant, ServiceManagerUser };

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const TENANTS: typeof serviceManagerRoutes.tenants.path = '/api/v1/admin/serviceManager/tenants';
const USERS: typeof serviceManagerRoutes.users.path = '/api/v1/admin/serviceManager/:tenantId/users';
const PERMISSIONS: typeof serviceManagerRoutes.permissions.path = '/api/v1/admin/serviceManager/:tenantId/users/:userId/permissions';

export interface ServiceManagerUsersArgs {
  tenantId: string;
  skip: number;
  take: number;
}

export interface UserInTenant {
  tenantId: string;
  userId: string;
}

export const serviceManagerApi = portalApi.enhanceEndpoints({ addTagTypes: ['ServiceManagerUser'] }).injectEndpoints({
  endpoints: (build) => ({
    serviceManagerTenants: build.query<Page<ServiceManagerTenant>, TenantSearch>({
      query: ({ searchQuery, take }) => `${TENANTS}${queryString({ searchQuery: searchQuery?.trim(), skip: 0, take, orderBy: 'title asc' })}`,
    }),
    serviceManagerUsers: build.query<Page<ServiceManagerUser>, ServiceManagerUsersArgs>({
      query: ({ tenantId, skip, take }) => `${pathOf({ path: USERS }, { tenantId })}${queryString({ skip, take })}`,
      providesTags: ['ServiceManagerUser'],
    }),
    serviceManagerPermissions: build.query<ServiceManagerPermissions, UserInTenant>({
      query: (args) => pathOf({ path: PERMISSIONS }, { ...args }),
      keepUnusedDataFor: 0,
    }),
    setServiceManagerPermissions: build.mutation<ServiceManagerPermissions, UserInTenant & { body: ServiceManagerPermissionsBody }>({
      query: ({ body, ...args }) => ({ url: pathOf({ path: PERMISSIONS }, { ...args }), method: 'PUT', body }),
      invalidatesTags: ['ServiceManagerUser'],
    }),
  }),
});

export const { useServiceManagerTenantsQuery, useServiceManagerUsersQuery, useServiceManagerPermissionsQuery, useSetServiceManagerPermissionsMutation } =
  serviceManagerApi;
