import {
  GLOBAL_TENANT_ID,
  pathOf,
  type BodyOf,
  type GroupPermission,
  type groupsRoutes,
  type ResponseOf,
  type usersRoutes,
} from '@gatehouse/contracts';
import { adminApi, toQueryString, type ListQuery } from '../../../api/admin-api';
import { GROUP_LIST_TAG, groupMembersTag, groupTag, USER_LIST_TAG, userFactorsTag, userGroupsTag, userRolesTag, userTag, userTenantsTag } from './tags';

export type {
  AccessRole,
  ApplicationAccess,
  AvailableRole,
  ImportResult,
  LockReply,
  OperationReply,
  ResetFactorsReply,
  ResettableFactor,
  TenantRole,
  UserDetail,
  UserFactors,
  UserGroup,
  UserPasskey,
  UserRow,
  UserTenant,
} from '@gatehouse/contracts';

type Routes = typeof usersRoutes;

/** What the New user form sends. */
export type NewUser = BodyOf<Routes['create']>;
/** What the edit form sends (the read-only fields are never sent). */
export type UserChanges = Omit<BodyOf<Routes['update']>, 'userName' | 'jobTitle' | 'manager' | 'teams'>;
/** A member's permission in a group. */
export type Permission = GroupPermission;

/** The paths of the users routes, each one its contract's (the type says so). */
const PATHS = {
  users: '/api/v1/admin/users',
  user: '/api/v1/admin/users/:id',
  invite: '/api/v1/admin/users/inviteUser/:id',
  changePassword: '/api/v1/admin/users/change-password/:userId',
  lock: '/api/v1/account/lock/:id',
  unlock: '/api/v1/account/unlock/:id',
  groups: '/api/v1/admin/users/:id/groups',
  tenants: '/api/v1/admin/users/:id/tenants',
  roles: '/api/v1/admin/users/:id/roles',
  factors: '/api/v1/admin/users/:id/factors',
  resetFactors: '/api/v1/admin/users/:id/factors/reset',
  applicationRoles: '/api/v1/admin/users/:id/roles/:applicationId',
  export: '/api/v1/admin/users/export',
  template: '/api/v1/admin/users/template',
  bulkInsert: '/api/v1/admin/users/bulk_insert',
  changeUserNameTemplate: '/api/v1/admin/users/changeUserNameTemplate',
  changeUserName: '/api/v1/admin/users/changeUserName',
} as const satisfies Record<string, Routes[keyof Routes]['path']>;

/** The user's own membership routes, declared with the groups. */
const MEMBERSHIP_PATHS = {
  add: '/api/v1/admin/users/:id/groups',
  remove: '/api/v1/admin/users/:id/groups/:groupId',
} as const satisfies Record<string, (typeof groupsRoutes)['addUserToGroup' | 'removeUserFromGroup']['path']>;

const url = (path: string, params: Record<string, string>) => pathOf({ path }, params);

export const userUrls = {
  export: (query: ListQuery) => `${PATHS.export}${toQueryString(query)}`,
  template: PATHS.template,
  bulkInsert: PATHS.bulkInsert,
  changeUserNameTemplate: PATHS.changeUserNameTemplate,
  changeUserName: PATHS.changeUserName,
};

export const usersApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    users: build.query<ResponseOf<Routes['list']>, ListQuery>({
      query: (query) => `${PATHS.users}${toQueryString(query)}`,
      providesTags: [USER_LIST_TAG],
    }),
    user: build.query<ResponseOf<Routes['get']>, string>({
      query: (id) => url(PATHS.user, { id }),
      providesTags: (_result, _error, id) => [userTag(id)],
    }),
    createUser: build.mutation<ResponseOf<Routes['create']>, NewUser>({
      query: (body) => ({ url: PATHS.users, method: 'POST', body }),
      invalidatesTags: [USER_LIST_TAG, 'Dashboard'],
    }),
    updateUser: build.mutation<ResponseOf<Routes['update']>, { id: string; changes: UserChanges }>({
      query: ({ id, changes }) => ({ url: url(PATHS.user, { id }), method: 'PUT', body: changes }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [userTag(id), USER_LIST_TAG]),
    }),
    // No invalidation: a bulk delete sends one call per user and reloads the list once at the end.
    deleteUser: build.mutation<void, string>({
      query: (id) => ({ url: url(PATHS.user, { id }), method: 'DELETE' }),
    }),
    inviteUser: build.mutation<ResponseOf<Routes['invite']>, string>({
      query: (id) => ({ url: url(PATHS.invite, { id }), method: 'POST' }),
    }),
    changeUserPassword: build.mutation<ResponseOf<Routes['changePassword']>, { userId: string } & BodyOf<Routes['changePassword']>>({
      query: ({ userId, ...body }) => ({ url: url(PATHS.changePassword, { userId }), method: 'POST', body }),
    }),
    // GETs with an effect, so mutations: never cached, never sent twice by a re-render.
    lockUser: build.mutation<ResponseOf<Routes['lock']>, string>({
      query: (id) => ({ url: url(PATHS.lock, { id }), method: 'GET' }),
      invalidatesTags: (_result, error, id) => (error ? [] : [userTag(id), USER_LIST_TAG]),
    }),
    unlockUser: build.mutation<ResponseOf<Routes['unlock']>, string>({
      query: (id) => ({ url: url(PATHS.unlock, { id }), method: 'GET' }),
      invalidatesTags: (_result, error, id) => (error ? [] : [userTag(id), USER_LIST_TAG]),
    }),
    userGroups: build.query<ResponseOf<Routes['groups']>, string>({
      query: (id) => url(PATHS.groups, { id }),
      providesTags: (_result, _error, id) => [userGroupsTag(id)],
    }),
    addUserToGroup: build.mutation<void, { userId: string } & BodyOf<(typeof groupsRoutes)['addUserToGroup']>>({
      query: ({ userId, ...body }) => ({ url: url(MEMBERSHIP_PATHS.add, { id: userId }), method: 'POST', body }),
      invalidatesTags: (_result, error, { userId, groupId }) =>
        error ? [] : [userGroupsTag(userId), groupMembersTag(groupId), groupTag(groupId), GROUP_LIST_TAG, userTenantsTag(userId), userRolesTag(userId)],
    }),
    removeUserFromGroup: build.mutation<void, { userId: string; groupId: string }>({
      query: ({ userId, groupId }) => ({ url: url(MEMBERSHIP_PATHS.remove, { id: userId, groupId }), method: 'DELETE' }),
      invalidatesTags: (_result, error, { userId, groupId }) =>
        error ? [] : [userGroupsTag(userId), groupMembersTag(groupId), groupTag(groupId), GROUP_LIST_TAG, userTenantsTag(userId), userRolesTag(userId)],
    }),
    userTenants: build.query<ResponseOf<Routes['tenants']>, string>({
      query: (id) => url(PATHS.tenants, { id }),
      providesTags: (_result, _error, id) => [userTenantsTag(id)],
    }),
    userFactors: build.query<ResponseOf<Routes['factors']>, string>({
      query: (id) => url(PATHS.factors, { id }),
      providesTags: (_result, _error, id) => [userFactorsTag(id)],
    }),
    resetUserFactors: build.mutation<ResponseOf<Routes['resetFactors']>, { id: string } & BodyOf<Routes['resetFactors']>>({
      query: ({ id, ...body }) => ({ url: url(PATHS.resetFactors, { id }), method: 'POST', body }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [userFactorsTag(id)]),
    }),
    userRoles: build.query<ResponseOf<Routes['roles']>, string>({
      query: (id) => url(PATHS.roles, { id }),
      providesTags: (_result, _error, id) => [userRolesTag(id)],
    }),
    setUserRoles: build.mutation<ResponseOf<Routes['grantRoles']>, { userId: string; applicationId: string } & BodyOf<Routes['grantRoles']>>({
      query: ({ userId, applicationId, ...body }) => ({ url: url(PATHS.applicationRoles, { id: userId, applicationId }), method: 'PUT', body }),
      invalidatesTags: (_result, error, { userId }) => (error ? [] : [userRolesTag(userId), userTenantsTag(userId)]),
    }),
    /**
     * Without `roleId`, revokes every own role in the application; with it, that one badge (a null
     * tenant being the Global one).
     */
    revokeUserRoles: build.mutation<ResponseOf<Routes['revokeRoles']>, { userId: string; applicationId: string; roleId?: string; tenantId?: string | null }>({
      query: ({ userId, applicationId, roleId, tenantId }) => ({
        url: `${url(PATHS.applicationRoles, { id: userId, applicationId })}${toQueryString(roleId ? { roleId, tenantId: tenantId ?? GLOBAL_TENANT_ID } : {})}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, error, { userId }) => (error ? [] : [userRolesTag(userId), userTenantsTag(userId)]),
    }),
  }),
});

export const {
  useUsersQuery,
  useUserQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
  useInviteUserMutation,
  useChangeUserPasswordMutation,
  useLockUserMutation,
  useUnlockUserMutation,
  useUserGroupsQuery,
  useAddUserToGroupMutation,
  useRemoveUserFromGroupMutation,
  useUserTenantsQuery,
  useUserRolesQuery,
  useUserFactorsQuery,
  useResetUserFactorsMutation,
  useSetUserRolesMutation,
  useRevokeUserRolesMutation,
} = usersApi;
