import { z } from 'zod';
import { roleOriginSchema } from './role-origins.js';
import { idSchema, listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { ROLE_DESCRIPTION_MAX, ROLE_NAME_MAX, ROLE_SCOPE_MAX, ROLE_SCOPE_PATTERN } from './app-role-rules.js';

export { ROLE_DESCRIPTION_MAX, ROLE_NAME_MAX, ROLE_SCOPE_MAX, ROLE_SCOPE_PATTERN };

/** `applications.id` is free text of up to 64 characters (the Identity application's is '1'). */
const applicationId = z.string().min(1).max(64);

/** `{ appId }` of `app/{appId}/roles`. */
export const appRolesParams = z.object({ appId: applicationId });
/** `{ appId, roleId }` of `app/{appId}/roles/{roleId}`. */
export const appRoleParams = appRolesParams.extend({ roleId: idSchema });
/** `{ appId, roleId, scopeId }` of `app/{appId}/roles/{roleId}/scopes/{scopeId}`. */
export const roleScopeParams = appRoleParams.extend({ scopeId: idSchema });
/** `{ id }` of `applications/{id}/users`. */
export const applicationUsersParams = z.object({ id: applicationId });

// An empty description is no description.
const description = z
  .string()
  .trim()
  .max(ROLE_DESCRIPTION_MAX)
  .nullish()
  .transform((value) => value || null);

/** Body of `POST app/{appId}/roles` and `PUT app/{appId}/roles/{roleId}`: the role's general properties. */
export const appRoleBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(ROLE_NAME_MAX),
  description,
  /** Only granted through the tenant hierarchy, never picked directly. */
  byHierarchy: z.boolean().default(false),
  operationRequestVisibility: z.boolean().default(false),
  serviceManagerVisibility: z.boolean().default(false),
});
export type AppRoleBody = z.input<typeof appRoleBodySchema>;

/** Body of `POST …/scopes` and `PUT …/scopes/{scopeId}`; the character rule is checked by the service. */
export const roleScopeBodySchema = z.strictObject({ scope: z.string().trim().min(1).max(ROLE_SCOPE_MAX) });
export type RoleScopeBody = z.input<typeof roleScopeBodySchema>;

export const appRoleSchema = z.object({
  id: z.string(),
  applicationId: z.string(),
  /** The application's display name (breadcrumbs). */
  applicationName: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  byHierarchy: z.boolean(),
  operationRequestVisibility: z.boolean(),
  serviceManagerVisibility: z.boolean(),
  /** How many users and groups hold the role in a tenant of their own: deleting the role takes it from all of them. */
  holders: z.number().int().min(0),
  scopesCount: z.number().int().min(0),
  /** A role of the Identity application the product itself relies on: it keeps its name and cannot be deleted. */
  system: z.boolean(),
});
export type AppRole = z.output<typeof appRoleSchema>;

export const roleScopeSchema = z.object({ id: z.string(), roleId: z.string(), scope: z.string() });
export type RoleScope = z.output<typeof roleScopeSchema>;

/**
 * A role badge of a user in an application's users list; isGlobal: held in the Global tenant;
 * origins: held in the user's own name and through which groups (in any tenant).
 */
export const applicationUserRoleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  isGlobal: z.boolean(),
  origins: z.array(roleOriginSchema),
});
export type ApplicationUserRole = z.output<typeof applicationUserRoleSchema>;

/** A user holding roles of the application (their own or through a group), with those roles. */
export const applicationUserSchema = z.object({
  id: z.string(),
  userName: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  areaName: z.string(),
  roles: z.array(applicationUserRoleSchema),
});
export type ApplicationUser = z.output<typeof applicationUserSchema>;

export const APPLICATION_USER_SORT_FIELDS = ['userName', 'email', 'firstName', 'lastName', 'areaName'] as const;

/**
 * Query of `GET applications/{id}/users`: the list query, `globalRoles` (true: only users holding
 * a role of the application in the Global tenant; false: only users holding none there) and the
 * users' area.
 */
export const applicationUsersQuerySchema = listQuery({ sortable: APPLICATION_USER_SORT_FIELDS, defaultOrder: 'email asc' }).extend({
  globalRoles: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  areaId: idSchema.optional(),
});

/** Query of `GET applications/{id}/usersWithRoles`: the same list, of the holders of these roles (`roleIds=a&roleIds=b` or `roleIds=a,b`). */
export const applicationUsersWithRolesQuerySchema = applicationUsersQuerySchema.extend({
  roleIds: z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (Array.isArray(value) ? value : value.split(',')).map((id) => id.trim()).filter(Boolean))
    .pipe(z.array(idSchema).min(1).max(100)),
});

/** One role of the application with its scopes: what a holder of the role is granted. */
export const applicationPermissionSchema = z.object({
  roleId: z.string(),
  roleName: z.string(),
  scopes: z.array(z.string()),
});
export type ApplicationPermission = z.output<typeof applicationPermissionSchema>;

const roleList = listQuery({ sortable: ['name', 'description'], defaultOrder: 'name asc' });

/** `/api/v1/admin/app/{appId}/roles…`: an application's roles and their scopes. */
export const appRolesRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/app/:appId/roles',
    endpoint: 'appRoles.list',
    access: 'roles',
    summary: 'Lists the roles of an application, sorted by name',
    params: appRolesParams,
    query: roleList,
    response: listPage(appRoleSchema),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/app/:appId/roles',
    endpoint: 'appRoles.create',
    access: 'roles',
    summary: 'Creates a role of the application (its name unique within the application, whatever the case)',
    params: appRolesParams,
    body: appRoleBodySchema,
    required: { name: 'appRoles.name_required' },
    response: appRoleSchema,
    status: 201,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/app/:appId/roles/:roleId',
    endpoint: 'appRoles.get',
    access: 'roles',
    summary: 'Reads a role of the application',
    params: appRoleParams,
    response: appRoleSchema,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/v1/admin/app/:appId/roles/:roleId',
    endpoint: 'appRoles.update',
    access: 'roles',
    summary: "Changes a role's general properties; the Identity application's own roles keep their names",
    params: appRoleParams,
    body: appRoleBodySchema,
    required: { name: 'appRoles.name_required' },
    response: appRoleSchema,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/api/v1/admin/app/:appId/roles/:roleId',
    endpoint: 'appRoles.delete',
    access: 'roles',
    summary: 'Deletes a role with its scopes, taking it from every user and group holding it; the Identity application’s own roles cannot be deleted',
    params: appRoleParams,
  }),
  scopes: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/app/:appId/roles/:roleId/scopes',
    endpoint: 'appRoles.scopes',
    access: 'roles',
    summary: "Lists a role's access scopes",
    params: appRoleParams,
    query: listQuery({ sortable: ['scope'], defaultOrder: 'scope asc' }),
    response: listPage(roleScopeSchema),
  }),
  createScope: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/app/:appId/roles/:roleId/scopes',
    endpoint: 'appRoles.createScope',
    access: 'roles',
    summary: 'Adds an access scope to a role (lowercase letters, numbers and . / : _ - only)',
    params: appRoleParams,
    body: roleScopeBodySchema,
    required: { scope: 'appRoles.scope_required' },
    response: roleScopeSchema,
    status: 201,
  }),
  updateScope: defineRoute({
    method: 'PUT',
    path: '/api/v1/admin/app/:appId/roles/:roleId/scopes/:scopeId',
    endpoint: 'appRoles.updateScope',
    access: 'roles',
    summary: 'Changes an access scope of a role',
    params: roleScopeParams,
    body: roleScopeBodySchema,
    required: { scope: 'appRoles.scope_required' },
    response: roleScopeSchema,
  }),
  deleteScope: defineRoute({
    method: 'DELETE',
    path: '/api/v1/admin/app/:appId/roles/:roleId/scopes/:scopeId',
    endpoint: 'appRoles.deleteScope',
    access: 'roles',
    summary: 'Removes an access scope from a role',
    params: roleScopeParams,
  }),
} satisfies Record<string, RouteContract>;

/** `/api/v1/admin/applications/{id}/users…`: who holds the application's roles, and what the roles grant. */
export const applicationUsersRoutes = {
  users: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/applications/:id/users',
    endpoint: 'applications.users',
    access: 'roles',
    summary: "Lists the users holding roles of the application (their own or through a group), with those roles",
    params: applicationUsersParams,
    query: applicationUsersQuerySchema,
    response: listPage(applicationUserSchema),
  }),
  usersWithRoles: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/applications/:id/usersWithRoles',
    endpoint: 'applications.usersWithRoles',
    access: 'roles',
    summary: 'Lists the users holding any of the given roles of the application, with their roles',
    params: applicationUsersParams,
    query: applicationUsersWithRolesQuerySchema,
    response: listPage(applicationUserSchema),
  }),
  permissions: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/applications/:id/permissions',
    endpoint: 'applications.permissions',
    access: 'roles',
    summary: 'Lists the roles of the application with the access scopes each grants, sorted by role name',
    params: applicationUsersParams,
    response: listPage(applicationPermissionSchema),
  }),
} satisfies Record<string, RouteContract>;
