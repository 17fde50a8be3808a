import type {
  BodyOf,
  ResponseOf,
  Tenant,
  TenantDetail,
  TenantMember,
  TenantMemberRole,
  tenantsRoutes,
  TenantTreeNode,
} from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { adminApi, toQueryString, type ListQuery } from '../../api/admin-api';

export type { Tenant, TenantDetail, TenantMember, TenantMemberRole, TenantTreeNode };

type Routes = typeof tenantsRoutes;

/** What the New Entity dialog sends. */
export type NewTenant = BodyOf<Routes['create']>;
/** What the General tab sends. */
export type TenantChanges = BodyOf<Routes['update']>;
/** What the Add Member to Tenant dialog sends. */
export type NewTenantMember = BodyOf<Routes['addMember']>;
/** What the Revoke access dialog sends. */
export type AccessRevocation = BodyOf<Routes['revokeAccess']>;

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const PATHS = {
  list: '/api/v1/admin/tenants',
  export: '/api/v1/admin/tenants/export',
  one: '/api/v1/admin/tenants/:id',
  tree: '/api/v1/admin/tenants/:tenantId/hierarchy-tree',
  changeParent: '/api/v1/admin/tenants/:tenantId/change-parent',
  members: '/api/v1/admin/tenants/:id/members',
  membersExport: '/api/v1/admin/tenants/:id/members/export',
  revokeAccess: '/api/v1/admin/tenants/members/revokeAccess',
} as const satisfies Record<string, Routes[keyof Routes]['path']>;

/** The tenants list, and every tenant lookup (pickers): the same tag as the directory's lookup. */
const TENANT_LIST_TAG = { type: 'Tenant' as const, id: 'LIST' };
/** The trees and ancestors shown anywhere: any move, creation or deletion may change them. */
const TENANT_TREE_TAG = { type: 'Tenant' as const, id: 'TREE' };
const tenantTag = (id: string) => ({ type: 'Tenant' as const, id });
const tenantMembersTag = (id: string) => ({ type: 'Tenant' as const, id: `${id}/members` });

export const tenantsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    tenants: build.query<ResponseOf<Routes['list']>, ListQuery>({
      query: (query) => `${PATHS.list}${toQueryString(query)}`,
      providesTags: [TENANT_LIST_TAG],
    }),
    /** A tenant with its ancestors and the whole tree it belongs to (the details page). */
    tenant: build.query<ResponseOf<Routes['get']>, string>({
      query: (id) => `${pathOf({ path: PATHS.one }, { id })}${toQueryString({ includeHierarchy: true, includeHierarchyTree: true })}`,
      providesTags: (_result, _error, id) => [tenantTag(id), TENANT_TREE_TAG],
    }),
    tenantHierarchyTree: build.query<ResponseOf<Routes['hierarchyTree']>, string>({
      query: (tenantId) => pathOf({ path: PATHS.tree }, { tenantId }),
      providesTags: [TENANT_TREE_TAG],
    }),
    createTenant: build.mutation<Tenant, NewTenant>({
      query: (body) => ({ url: PATHS.list, method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : [TENANT_LIST_TAG, TENANT_TREE_TAG, 'Dashboard']),
    }),
    updateTenant: build.mutation<Tenant, { id: string; changes: TenantChanges }>({
      query: ({ id, changes }) => ({ url: pathOf({ path: PATHS.one }, { id }), method: 'PUT', body: changes }),
      // The title shows in the trees, the pickers and the users' and groups' tenant badges.
      invalidatesTags: (_result, error, { id }) => (error ? [] : [TENANT_LIST_TAG, TENANT_TREE_TAG, tenantTag(id), 'User', 'Group']),
    }),
    deleteTenant: build.mutation<void, string>({
      query: (id) => ({ url: pathOf({ path: PATHS.one }, { id }), method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [TENANT_LIST_TAG, TENANT_TREE_TAG, 'Dashboard', 'User', 'Group']),
    }),
    changeTenantParent: build.mutation<Tenant, { tenantId: string; newParentId: string | null }>({
      query: ({ tenantId, newParentId }) => ({ url: pathOf({ path: PATHS.changeParent }, { tenantId }), method: 'PUT', body: { newParentId } }),
      // A move changes what every member of the subtree holds by hierarchy.
      invalidatesTags: (_result, error) => (error ? [] : ['Tenant', 'User', 'Group']),
    }),
    // `GET …/export`: queues the export of the list as filtered and sorted; its file comes back in a notification.
    exportTenants: build.mutation<ResponseOf<Routes['export']>, ListQuery>({
      query: (query) => `${PATHS.export}${toQueryString(query)}`,
    }),
    tenantMembers: build.query<ResponseOf<Routes['members']>, { id: string; query: ListQuery }>({
      query: ({ id, query }) => `${pathOf({ path: PATHS.members }, { id })}${toQueryString(query)}`,
      providesTags: (_result, _error, { id }) => [tenantMembersTag(id)],
    }),
    // `GET …/members/export`: queues the export of the tenant's members; its file comes back in a notification.
    exportTenantMembers: build.mutation<ResponseOf<Routes['membersExport']>, { id: string; excludeUserGlobal: boolean }>({
      query: ({ id, excludeUserGlobal }) => `${pathOf({ path: PATHS.membersExport }, { id })}${toQueryString({ excludeUserGlobal })}`,
    }),
    addTenantMember: build.mutation<TenantMember, { id: string; member: NewTenantMember }>({
      query: ({ id, member }) => ({ url: pathOf({ path: PATHS.members }, { id }), method: 'POST', body: member }),
      // A Global grant shows in every tenant's members.
      invalidatesTags: (_result, error, { id, member }) =>
        error ? [] : [member.global ? 'Tenant' : tenantMembersTag(id), 'User', 'Group'],
    }),
    revokeTenantAccess: build.mutation<TenantMember, AccessRevocation>({
      query: (body) => ({ url: PATHS.revokeAccess, method: 'POST', body }),
      // With includeParent the ancestors' grants go too: every member list below them changes.
      invalidatesTags: (_result, error, { tenantId, includeParent }) =>
        error ? [] : [includeParent ? 'Tenant' : tenantMembersTag(tenantId), 'User', 'Group'],
    }),
  }),
});

export const {
  useTenantsQuery,
  useTenantQuery,
  useTenantHierarchyTreeQuery,
  useCreateTenantMutation,
  useUpdateTenantMutation,
  useDeleteTenantMutation,
  useExportTenantsMutation,
  useChangeTenantParentMutation,
  useTenantMembersQuery,
  useExportTenantMembersMutation,
  useAddTenantMemberMutation,
  useRevokeTenantAccessMutation,
} = tenantsApi;
