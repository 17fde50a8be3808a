import { GLOBAL_TENANT_ID, pathOf, type BodyOf, type Group, type GroupPermission, type groupsRoutes, type ResponseOf } from '@gatehouse/contracts';
import { adminApi, toQueryString, type ListQuery } from '../../../api/admin-api';
import { GROUP_LIST_TAG, groupMembersTag, groupRolesTag, groupTag, userGroupsTag, userRolesTag, userTenantsTag } from './tags';

export type { Group, GroupMember, GroupTenantRoles } from '@gatehouse/contracts';

type Routes = typeof groupsRoutes;

/** A tenant of a group; a null id is the Global entry. */
export type GroupTenant = Group['tenants'][number];
/** What the group form sends, to create a group or to change one. */
export type GroupChanges = BodyOf<Routes['create']>;

/** The paths of the groups routes, each one its contract's (the type says so). */
const PATHS = {
  groups: '/api/v1/admin/groups',
  group: '/api/v1/admin/groups/:id',
  members: '/api/v1/admin/groups/:id/users',
  member: '/api/v1/admin/groups/:id/users/:userId',
  roles: '/api/v1/admin/groups/:id/roles',
  tenant: '/api/v1/admin/groups/:id/roles/:tenantId',
  template: '/api/v1/admin/groups/template/:groupId',
  bulkInsert: '/api/v1/admin/groups/bulk_insert/:groupId',
} as const satisfies Record<string, Routes[keyof Routes]['path']>;

const url = (path: string, params: Record<string, string>) => pathOf({ path }, params);

// A membership shows on the member's page too: groups, and the tenant roles the group grants.
const memberTags = (userId: string) => [userGroupsTag(userId), userTenantsTag(userId), userRolesTag(userId)];

export const groupUrls = {
  template: (groupId: string) => url(PATHS.template, { groupId }),
  bulkInsert: (groupId: string) => url(PATHS.bulkInsert, { groupId }),
};

export const groupsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    groups: build.query<ResponseOf<Routes['list']>, ListQuery>({
      query: (query) => `${PATHS.groups}${toQueryString(query)}`,
      providesTags: [GROUP_LIST_TAG],
    }),
    group: build.query<ResponseOf<Routes['get']>, string>({
      query: (id) => url(PATHS.group, { id }),
      providesTags: (_result, _error, id) => [groupTag(id)],
    }),
    createGroup: build.mutation<ResponseOf<Routes['create']>, GroupChanges>({
      query: (body) => ({ url: PATHS.groups, method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : [GROUP_LIST_TAG, 'Dashboard']),
    }),
    updateGroup: build.mutation<ResponseOf<Routes['update']>, { id: string; changes: GroupChanges }>({
      query: ({ id, changes }) => ({ url: url(PATHS.group, { id }), method: 'PUT', body: changes }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [groupTag(id), GROUP_LIST_TAG]),
    }),
    deleteGroup: build.mutation<void, string>({
      query: (id) => ({ url: url(PATHS.group, { id }), method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [GROUP_LIST_TAG, 'Dashboard']),
    }),
    groupMembers: build.query<ResponseOf<Routes['members']>, { groupId: string; query: ListQuery }>({
      query: ({ groupId, query }) => `${url(PATHS.members, { id: groupId })}${toQueryString(query)}`,
      providesTags: (_result, _error, { groupId }) => [groupMembersTag(groupId)],
    }),
    addGroupMember: build.mutation<void, { groupId: string } & BodyOf<Routes['addMember']>>({
      query: ({ groupId, ...body }) => ({ url: url(PATHS.members, { id: groupId }), method: 'POST', body }),
      invalidatesTags: (_result, error, { groupId, userId }) =>
        error ? [] : [groupMembersTag(groupId), groupTag(groupId), GROUP_LIST_TAG, ...memberTags(userId)],
    }),
    updateGroupMember: build.mutation<void, { groupId: string; userId: string; permission: GroupPermission }>({
      query: ({ groupId, userId, permission }) => ({
        url: url(PATHS.member, { id: groupId, userId }),
        method: 'PUT',
        body: { permission },
      }),
      invalidatesTags: (_result, error, { groupId, userId }) =>
        error ? [] : [groupMembersTag(groupId), groupTag(groupId), ...memberTags(userId)],
    }),
    removeGroupMember: build.mutation<void, { groupId: string; userId: string }>({
      query: ({ groupId, userId }) => ({ url: url(PATHS.member, { id: groupId, userId }), method: 'DELETE' }),
      invalidatesTags: (_result, error, { groupId, userId }) =>
        error ? [] : [groupMembersTag(groupId), groupTag(groupId), GROUP_LIST_TAG, ...memberTags(userId)],
    }),
    groupRoles: build.query<ResponseOf<Routes['tenants']>, string>({
      query: (id) => url(PATHS.roles, { id }),
      providesTags: (_result, _error, id) => [groupRolesTag(id)],
    }),
    addGroupRoles: build.mutation<void, { groupId: string } & BodyOf<Routes['addTenantRoles']>>({
      query: ({ groupId, ...body }) => ({ url: url(PATHS.roles, { id: groupId }), method: 'POST', body }),
      // The group's tenant tags come with the group and its list row.
      invalidatesTags: (_result, error, { groupId }) => (error ? [] : [groupRolesTag(groupId), groupTag(groupId), GROUP_LIST_TAG]),
    }),
    removeGroupRoles: build.mutation<void, { groupId: string; tenantId: string | null }>({
      query: ({ groupId, tenantId }) => ({
        url: url(PATHS.tenant, { id: groupId, tenantId: tenantId ?? GLOBAL_TENANT_ID }),
        method: 'DELETE',
      }),
      invalidatesTags: (_result, error, { groupId }) => (error ? [] : [groupRolesTag(groupId), groupTag(groupId), GROUP_LIST_TAG]),
    }),
  }),
});

export const {
  useGroupsQuery,
  useGroupQuery,
  useCreateGroupMutation,
  useUpdateGroupMutation,
  useDeleteGroupMutation,
  useGroupMembersQuery,
  useAddGroupMemberMutation,
  useUpdateGroupMemberMutation,
  useRemoveGroupMemberMutation,
  useGroupRolesQuery,
  useAddGroupRolesMutation,
  useRemoveGroupRolesMutation,
} = groupsApi;
