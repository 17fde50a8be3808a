import { adminApi, toQueryString, type ListQuery, type ListResult } from '../../../api/admin-api';
import { GLOBAL_TENANT_ID } from './lookups-api';
import { GROUP_LIST_TAG, groupMembersTag, groupTag, USER_LIST_TAG, userGroupsTag, userRolesTag, userTag, userTenantsTag } from './tags';

const USERS = '/api/v1/admin/users';
const segment = encodeURIComponent;

/** A row of `GET /users`. */
export interface UserRow {
  id: string;
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  areaId: string | null;
  areaName: string | null;
  /** Restricted client access by scope. */
  validateScopes: boolean;
  locked: boolean;
  /** Created by an import and never completed: no link, no invitation. */
  draft: boolean;
  modifiedOn: string;
  language: string | null;
}

/** `GET /users/{id}`. */
export interface UserDetail extends UserRow {
  jobTitle: string | null;
  manager: string | null;
  teams: string[];
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  lastLoginAt: string | null;
  createdAt: string;
}

export interface NewUser {
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  areaId: string;
  language: string;
  validateScopes?: boolean;
  sendEmailInvite?: boolean;
  /** Both absent: the server generates a random password. */
  password?: string;
  confirmPassword?: string;
}

export interface UserChanges {
  email: string;
  firstName: string;
  lastName: string;
  language: string;
  areaId: string;
  validateScopes?: boolean;
}

/** The answer of invitations and password changes. */
export interface OperationReply {
  success: boolean;
  message?: string;
}

export interface LockReply {
  success: boolean;
  user: Pick<UserRow, 'id' | 'userName' | 'firstName' | 'lastName' | 'locked'>;
}

export type Permission = 'Reader' | 'Owner';

export interface UserGroup {
  groupId: string;
  groupName: string;
  permission: Permission;
  areaName: string | null;
}

export interface TenantRole {
  roleId: string;
  roleName: string;
  applicationId: string;
  applicationName: string;
  hierarchyType: string;
  isGlobal: boolean;
}

export interface UserTenant {
  tenantId: string;
  tenantName: string;
  isGlobal: boolean;
  isInheritable: boolean;
  hierarchyType: string;
  roles: TenantRole[];
}

export interface AccessRole {
  roleId: string;
  roleName: string;
  description: string | null;
  tenantId: string | null;
  tenantName: string | null;
  isGlobal: boolean;
  hierarchyType: string;
  /** False for roles inherited through the tenant hierarchy. */
  removable: boolean;
}

export interface AvailableRole {
  id: string;
  name: string;
  description: string | null;
  /** Granted by the hierarchy only: never picked by hand. */
  byHierarchy: boolean;
}

/** One application of the Role access section. */
export interface ApplicationAccess {
  applicationId: string;
  applicationName: string;
  displayName: string;
  hasAccess: boolean;
  /** The access comes (at least partly) from the tenant hierarchy. */
  byHierarchy: boolean;
  roles: AccessRole[];
  availableRoles: AvailableRole[];
}

/** The bulk import answer (users, user name changes, group members). */
export interface ImportResult {
  success: boolean;
  totalElements: number;
  importedElements: number;
  errors: Array<{ row: number; reason: string }>;
  warnings: Array<{ row: number; reason: string }>;
}

export const userUrls = {
  export: (query: ListQuery) => `${USERS}/export${toQueryString(query)}`,
  template: `${USERS}/template`,
  bulkInsert: `${USERS}/bulk_insert`,
  changeUserNameTemplate: `${USERS}/changeUserNameTemplate`,
  changeUserName: `${USERS}/changeUserName`,
};

export const usersApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    users: build.query<ListResult<UserRow>, ListQuery>({
      query: (query) => `${USERS}${toQueryString(query)}`,
      providesTags: [USER_LIST_TAG],
    }),
    user: build.query<UserDetail, string>({
      query: (id) => `${USERS}/${segment(id)}`,
      providesTags: (_result, _error, id) => [userTag(id)],
    }),
    createUser: build.mutation<UserDetail, NewUser>({
      query: (body) => ({ url: USERS, method: 'POST', body }),
      invalidatesTags: [USER_LIST_TAG, 'Dashboard'],
    }),
    updateUser: build.mutation<UserDetail, { id: string; changes: UserChanges }>({
      query: ({ id, changes }) => ({ url: `${USERS}/${segment(id)}`, method: 'PUT', body: changes }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [userTag(id), USER_LIST_TAG]),
    }),
    // No invalidation: a bulk delete sends one call per user and reloads the list once at the end.
    deleteUser: build.mutation<void, string>({
      query: (id) => ({ url: `${USERS}/${segment(id)}`, method: 'DELETE' }),
    }),
    inviteUser: build.mutation<OperationReply, string>({
      query: (id) => ({ url: `${USERS}/inviteUser/${segment(id)}`, method: 'POST' }),
    }),
    changeUserPassword: build.mutation<OperationReply, { userId: string; password: string; confirmPassword: string }>({
      query: ({ userId, ...body }) => ({ url: `${USERS}/change-password/${segment(userId)}`, method: 'POST', body }),
    }),
    // GETs with an effect, so mutations: never cached, never sent twice by a re-render.
    lockUser: build.mutation<LockReply, string>({
      query: (id) => ({ url: `/api/v1/account/lock/${segment(id)}`, method: 'GET' }),
      invalidatesTags: (_result, error, id) => (error ? [] : [userTag(id), USER_LIST_TAG]),
    }),
    unlockUser: build.mutation<LockReply, string>({
      query: (id) => ({ url: `/api/v1/account/unlock/${segment(id)}`, method: 'GET' }),
      invalidatesTags: (_result, error, id) => (error ? [] : [userTag(id), USER_LIST_TAG]),
    }),
    userGroups: build.query<ListResult<UserGroup>, string>({
      query: (id) => `${USERS}/${segment(id)}/groups`,
      providesTags: (_result, _error, id) => [userGroupsTag(id)],
    }),
    addUserToGroup: build.mutation<void, { userId: string; groupId: string; permission: Permission }>({
      query: ({ userId, ...body }) => ({ url: `${USERS}/${segment(userId)}/groups`, method: 'POST', body }),
      invalidatesTags: (_result, error, { userId, groupId }) =>
        error ? [] : [userGroupsTag(userId), groupMembersTag(groupId), groupTag(groupId), GROUP_LIST_TAG, userTenantsTag(userId), userRolesTag(userId)],
    }),
    removeUserFromGroup: build.mutation<void, { userId: string; groupId: string }>({
      query: ({ userId, groupId }) => ({ url: `${USERS}/${segment(userId)}/groups/${segment(groupId)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, { userId, groupId }) =>
        error ? [] : [userGroupsTag(userId), groupMembersTag(groupId), groupTag(groupId), GROUP_LIST_TAG, userTenantsTag(userId), userRolesTag(userId)],
    }),
    userTenants: build.query<{ items: UserTenant[] }, string>({
      query: (id) => `${USERS}/${segment(id)}/tenants`,
      providesTags: (_result, _error, id) => [userTenantsTag(id)],
    }),
    userRoles: build.query<{ items: ApplicationAccess[] }, string>({
      query: (id) => `${USERS}/${segment(id)}/roles`,
      providesTags: (_result, _error, id) => [userRolesTag(id)],
    }),
    setUserRoles: build.mutation<ApplicationAccess, { userId: string; applicationId: string; tenantId?: string; roleIds: string[] }>({
      query: ({ userId, applicationId, ...body }) => ({
        url: `${USERS}/${segment(userId)}/roles/${segment(applicationId)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: (_result, error, { userId }) => (error ? [] : [userRolesTag(userId), userTenantsTag(userId)]),
    }),
    /**
     * Without `roleId`, revokes every own role in the application; with it, that one badge (a null
     * tenant being the Global one).
     */
    revokeUserRoles: build.mutation<ApplicationAccess, { userId: string; applicationId: string; roleId?: string; tenantId?: string | null }>({
      query: ({ userId, applicationId, roleId, tenantId }) => ({
        url: `${USERS}/${segment(userId)}/roles/${segment(applicationId)}${toQueryString(
          roleId ? { roleId, tenantId: tenantId ?? GLOBAL_TENANT_ID } : {},
        )}`,
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
  useSetUserRolesMutation,
  useRevokeUserRolesMutation,
} = usersApi;
