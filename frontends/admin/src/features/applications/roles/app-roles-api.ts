import { pathOf, type appRolesRoutes, type BodyOf, type ResponseOf } from '@gatehouse/contracts';
import { adminApi, toQueryString, type ListQuery } from '../../../api/admin-api';

export type { AppRole, RoleScope } from '@gatehouse/contracts';

type Routes = typeof appRolesRoutes;

/** What the role forms send: the role's general properties. */
export type RoleChanges = BodyOf<Routes['create']>;

/** The paths of the roles routes, each one its contract's (the type says so). */
const PATHS = {
  roles: '/api/v1/admin/app/:appId/roles',
  role: '/api/v1/admin/app/:appId/roles/:roleId',
  scopes: '/api/v1/admin/app/:appId/roles/:roleId/scopes',
  scope: '/api/v1/admin/app/:appId/roles/:roleId/scopes/:scopeId',
} as const satisfies Record<string, Routes[keyof Routes]['path']>;

const url = (path: string, params: Record<string, string>) => pathOf({ path }, params);

/** An application's roles list, one role, one role's scopes. */
export const rolesTag = (appId: string) => ({ type: 'Application' as const, id: `${appId}/roles` });
export const roleTag = (roleId: string) => ({ type: 'Application' as const, id: `role/${roleId}` });
export const roleScopesTag = (roleId: string) => ({ type: 'Application' as const, id: `role/${roleId}/scopes` });
/** The roles every picker lists (the directory's lookups). */
const PICKER_ROLES_TAG = { type: 'Application' as const, id: 'ROLES' };
/** An application's users list (with their roles). */
export const applicationUsersTag = (appId: string) => ({ type: 'Application' as const, id: `${appId}/users` });

export interface RoleKey {
  appId: string;
  roleId: string;
}

export const appRolesApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    applicationRoles: build.query<ResponseOf<Routes['list']>, { appId: string; query: ListQuery }>({
      query: ({ appId, query }) => `${url(PATHS.roles, { appId })}${toQueryString(query)}`,
      providesTags: (_result, _error, { appId }) => [rolesTag(appId)],
    }),
    appRole: build.query<ResponseOf<Routes['get']>, RoleKey>({
      query: ({ appId, roleId }) => url(PATHS.role, { appId, roleId }),
      providesTags: (_result, _error, { roleId }) => [roleTag(roleId)],
    }),
    createAppRole: build.mutation<ResponseOf<Routes['create']>, { appId: string; changes: RoleChanges }>({
      query: ({ appId, changes }) => ({ url: url(PATHS.roles, { appId }), method: 'POST', body: changes }),
      invalidatesTags: (_result, error, { appId }) => (error ? [] : [rolesTag(appId), PICKER_ROLES_TAG]),
    }),
    updateAppRole: build.mutation<ResponseOf<Routes['update']>, RoleKey & { changes: RoleChanges }>({
      query: ({ appId, roleId, changes }) => ({ url: url(PATHS.role, { appId, roleId }), method: 'PUT', body: changes }),
      // A new name shows wherever the role is listed: its application's users, the pickers, users' badges.
      invalidatesTags: (_result, error, { appId, roleId }) =>
        error ? [] : [roleTag(roleId), rolesTag(appId), applicationUsersTag(appId), PICKER_ROLES_TAG, 'User'],
    }),
    deleteAppRole: build.mutation<void, RoleKey>({
      query: ({ appId, roleId }) => ({ url: url(PATHS.role, { appId, roleId }), method: 'DELETE' }),
      // Its holders lose it: their pages and the application's users list change too.
      invalidatesTags: (_result, error, { appId }) => (error ? [] : [rolesTag(appId), applicationUsersTag(appId), PICKER_ROLES_TAG, 'User', 'Group']),
    }),
    roleScopes: build.query<ResponseOf<Routes['scopes']>, RoleKey & { query: ListQuery }>({
      query: ({ appId, roleId, query }) => `${url(PATHS.scopes, { appId, roleId })}${toQueryString(query)}`,
      providesTags: (_result, _error, { roleId }) => [roleScopesTag(roleId)],
    }),
    createRoleScope: build.mutation<ResponseOf<Routes['createScope']>, RoleKey & { scope: string }>({
      query: ({ appId, roleId, scope }) => ({ url: url(PATHS.scopes, { appId, roleId }), method: 'POST', body: { scope } }),
      invalidatesTags: (_result, error, { appId, roleId }) => (error ? [] : [roleScopesTag(roleId), roleTag(roleId), rolesTag(appId)]),
    }),
    updateRoleScope: build.mutation<ResponseOf<Routes['updateScope']>, RoleKey & { scopeId: string; scope: string }>({
      query: ({ appId, roleId, scopeId, scope }) => ({ url: url(PATHS.scope, { appId, roleId, scopeId }), method: 'PUT', body: { scope } }),
      invalidatesTags: (_result, error, { roleId }) => (error ? [] : [roleScopesTag(roleId)]),
    }),
    deleteRoleScope: build.mutation<void, RoleKey & { scopeId: string }>({
      query: ({ appId, roleId, scopeId }) => ({ url: url(PATHS.scope, { appId, roleId, scopeId }), method: 'DELETE' }),
      invalidatesTags: (_result, error, { appId, roleId }) => (error ? [] : [roleScopesTag(roleId), roleTag(roleId), rolesTag(appId)]),
    }),
  }),
});

export const {
  useApplicationRolesQuery,
  useAppRoleQuery,
  useCreateAppRoleMutation,
  useUpdateAppRoleMutation,
  useDeleteAppRoleMutation,
  useRoleScopesQuery,
  useCreateRoleScopeMutation,
  useUpdateRoleScopeMutation,
  useDeleteRoleScopeMutation,
} = appRolesApi;
