import type {
  ResponseOf,
  TenantIdentityGroup,
  TenantIdentityGroupUser,
  tenantIdentitiesRoutes,
  TenantIdentityUser,
  UserPermissions,
  usersRoutes,
} from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { adminApi, toQueryString, type ListQuery } from '../../api/admin-api';
import { GROUP_LIST_TAG, groupMembersTag, groupRolesTag, groupTag, USER_LIST_TAG, userGroupsTag, userRolesTag } from '../directory/api/tags';

export type { TenantIdentityGroup, TenantIdentityGroupUser, TenantIdentityUser, UserPermissions };

/** A tenant badge of a user or a group: `id` null is the Global tenant. */
export type TenantBadge = TenantIdentityUser['tenants'][number];

type Routes = typeof tenantIdentitiesRoutes;

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const PATHS = {
  users: '/api/v1/admin/tenantIdentities',
  groups: '/api/v1/admin/tenantIdentities/groups',
  group: '/api/v1/admin/tenantIdentities/groups/:groupId',
  groupUsers: '/api/v1/admin/tenantIdentities/groups/:groupId/users',
  usersTemplate: '/api/v1/admin/tenantIdentities/template/users',
  groupsTemplate: '/api/v1/admin/tenantIdentities/template/groups',
  bulkInsertUsers: '/api/v1/admin/tenantIdentities/bulk_insert/users',
  bulkInsertGroups: '/api/v1/admin/tenantIdentities/bulk_insert/groups',
} as const satisfies Record<keyof Routes, Routes[keyof Routes]['path']>;
const CHECK_PERMISSIONS: (typeof usersRoutes)['checkPermissions']['path'] = '/api/v1/admin/users/check/permissions/:id';

/** Where the templates are downloaded from and the imports posted to (plain fetches with the token). */
export const tenantIdentityUrls = {
  usersTemplate: PATHS.usersTemplate,
  groupsTemplate: PATHS.groupsTemplate,
  bulkInsertUsers: PATHS.bulkInsertUsers,
  bulkInsertGroups: PATHS.bulkInsertGroups,
};

// A tenant grant, a membership or a deletion anywhere may add or remove a badge: these lists
// follow the users' and groups' list tags, which every such change invalidates.
export const permissionsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    tenantIdentityUsers: build.query<ResponseOf<Routes['users']>, ListQuery>({
      query: (query) => `${PATHS.users}${toQueryString(query)}`,
      providesTags: [USER_LIST_TAG, { type: 'Tenant', id: 'IDENTITIES' }],
    }),
    tenantIdentityGroups: build.query<ResponseOf<Routes['groups']>, ListQuery>({
      query: (query) => `${PATHS.groups}${toQueryString(query)}`,
      providesTags: [GROUP_LIST_TAG, { type: 'Tenant', id: 'IDENTITIES' }],
    }),
    tenantIdentityGroup: build.query<ResponseOf<Routes['group']>, string>({
      query: (groupId) => pathOf({ path: PATHS.group }, { groupId }),
      providesTags: (_result, _error, groupId) => [groupTag(groupId), groupRolesTag(groupId)],
    }),
    tenantIdentityGroupUsers: build.query<ResponseOf<Routes['groupUsers']>, { groupId: string; query: ListQuery }>({
      query: ({ groupId, query }) => `${pathOf({ path: PATHS.groupUsers }, { groupId })}${toQueryString(query)}`,
      providesTags: (_result, _error, { groupId }) => [groupMembersTag(groupId)],
    }),
    /** A user's groups and, per application, the roles they hold (the User Permissions page). */
    userPermissions: build.query<ResponseOf<(typeof usersRoutes)['checkPermissions']>, string>({
      query: (id) => pathOf({ path: CHECK_PERMISSIONS }, { id }),
      providesTags: (_result, _error, id) => [userGroupsTag(id), userRolesTag(id)],
    }),
  }),
});

export const {
  useTenantIdentityUsersQuery,
  useTenantIdentityGroupsQuery,
  useTenantIdentityGroupQuery,
  useTenantIdentityGroupUsersQuery,
  useUserPermissionsQuery,
} = permissionsApi;
