import { adminApi, toQueryString, type ListQuery, type ListResult } from '../../../api/admin-api';
import { GLOBAL_TENANT_ID } from './lookups-api';
import { GROUP_LIST_TAG, groupMembersTag, groupRolesTag, groupTag, userGroupsTag, userRolesTag, userTenantsTag } from './tags';
import type { Permission } from './users-api';

const GROUPS = '/api/v1/admin/groups';
const segment = encodeURIComponent;

/** A tenant of a group; a null id is the Global entry. */
export interface GroupTenant {
  id: string | null;
  title: string;
}

export interface Group {
  id: string;
  name: string;
  description: string | null;
  areaId: string | null;
  areaName: string | null;
  tenants: GroupTenant[];
  membersCount: number;
  /** The caller owns the group: only then may they change its members. */
  userIsOwner: boolean;
}

export interface GroupChanges {
  name: string;
  description?: string;
  areaId: string;
}

export interface GroupMember {
  userId: string;
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  groupId: string;
  groupName: string;
  permission: Permission;
}

export interface GroupTenantRoles {
  tenantId: string | null;
  tenantName: string;
  isInheritable: boolean;
  roles: Array<{ roleId: string; roleName: string; applicationId: string; applicationName: string }>;
}

// A membership shows on the member's page too: groups, and the tenant roles the group grants.
const memberTags = (userId: string) => [userGroupsTag(userId), userTenantsTag(userId), userRolesTag(userId)];

export const groupUrls = {
  template: (groupId: string) => `${GROUPS}/template/${segment(groupId)}`,
  bulkInsert: (groupId: string) => `${GROUPS}/bulk_insert/${segment(groupId)}`,
};

export const groupsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    groups: build.query<ListResult<Group>, ListQuery>({
      query: (query) => `${GROUPS}${toQueryString(query)}`,
      providesTags: [GROUP_LIST_TAG],
    }),
    group: build.query<Group, string>({
      query: (id) => `${GROUPS}/${segment(id)}`,
      providesTags: (_result, _error, id) => [groupTag(id)],
    }),
    createGroup: build.mutation<Group, GroupChanges>({
      query: (body) => ({ url: GROUPS, method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : [GROUP_LIST_TAG, 'Dashboard']),
    }),
    updateGroup: build.mutation<Group, { id: string; changes: GroupChanges }>({
      query: ({ id, changes }) => ({ url: `${GROUPS}/${segment(id)}`, method: 'PUT', body: changes }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [groupTag(id), GROUP_LIST_TAG]),
    }),
    deleteGroup: build.mutation<void, string>({
      query: (id) => ({ url: `${GROUPS}/${segment(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [GROUP_LIST_TAG, 'Dashboard']),
    }),
    groupMembers: build.query<ListResult<GroupMember>, { groupId: string; query: ListQuery }>({
      query: ({ groupId, query }) => `${GROUPS}/${segment(groupId)}/users${toQueryString(query)}`,
      providesTags: (_result, _error, { groupId }) => [groupMembersTag(groupId)],
    }),
    addGroupMember: build.mutation<void, { groupId: string; userId: string; permission: Permission }>({
      query: ({ groupId, ...body }) => ({ url: `${GROUPS}/${segment(groupId)}/users`, method: 'POST', body }),
      invalidatesTags: (_result, error, { groupId, userId }) =>
        error ? [] : [groupMembersTag(groupId), groupTag(groupId), GROUP_LIST_TAG, ...memberTags(userId)],
    }),
    updateGroupMember: build.mutation<void, { groupId: string; userId: string; permission: Permission }>({
      query: ({ groupId, userId, permission }) => ({
        url: `${GROUPS}/${segment(groupId)}/users/${segment(userId)}`,
        method: 'PUT',
        body: { permission },
      }),
      invalidatesTags: (_result, error, { groupId, userId }) =>
        error ? [] : [groupMembersTag(groupId), groupTag(groupId), ...memberTags(userId)],
    }),
    removeGroupMember: build.mutation<void, { groupId: string; userId: string }>({
      query: ({ groupId, userId }) => ({ url: `${GROUPS}/${segment(groupId)}/users/${segment(userId)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, { groupId, userId }) =>
        error ? [] : [groupMembersTag(groupId), groupTag(groupId), GROUP_LIST_TAG, ...memberTags(userId)],
    }),
    groupRoles: build.query<{ items: GroupTenantRoles[] }, string>({
      query: (id) => `${GROUPS}/${segment(id)}/roles`,
      providesTags: (_result, _error, id) => [groupRolesTag(id)],
    }),
    addGroupRoles: build.mutation<void, { groupId: string; tenantId: string | null; roleIds: string[]; isInheritable?: boolean }>({
      query: ({ groupId, ...body }) => ({ url: `${GROUPS}/${segment(groupId)}/roles`, method: 'POST', body }),
      // The group's tenant tags come with the group and its list row.
      invalidatesTags: (_result, error, { groupId }) => (error ? [] : [groupRolesTag(groupId), groupTag(groupId), GROUP_LIST_TAG]),
    }),
    removeGroupRoles: build.mutation<void, { groupId: string; tenantId: string | null }>({
      query: ({ groupId, tenantId }) => ({
        url: `${GROUPS}/${segment(groupId)}/roles/${segment(tenantId ?? GLOBAL_TENANT_ID)}`,
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
