import { z } from 'zod';
import { backgroundJobStartedSchema } from './dashboard.js';
import { importResultSchema, type ImportResult } from './imports.js';
import { GROUP_PERMISSIONS } from '../domain.js';
import { idParams, idSchema, listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';

/** The media type of the members template. */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const groupPermissionSchema = z.enum(GROUP_PERMISSIONS);

/** Body of `POST /groups` and `PUT /groups/{id}`. */
export const groupBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  // An empty description is no description.
  description: z
    .string()
    .trim()
    .max(1000)
    .nullish()
    .transform((value) => value || null),
  areaId: idSchema,
});
export type GroupBody = z.output<typeof groupBodySchema>;

/** Body of `POST /groups/{id}/users`: the select defaults to Reader ("No"). */
export const addGroupMemberBodySchema = z.strictObject({
  userId: idSchema,
  permission: groupPermissionSchema.default('Reader'),
});
export type AddGroupMemberBody = z.output<typeof addGroupMemberBodySchema>;

/** Body of `POST /users/{id}/groups` (the user detail's "Add user to group" dialog). */
export const addUserToGroupBodySchema = z.strictObject({
  groupId: idSchema,
  permission: groupPermissionSchema.default('Reader'),
});
export type AddUserToGroupBody = z.output<typeof addUserToGroupBodySchema>;

/** Body of `PUT /groups/{id}/users/{userId}`. */
export const updateGroupMemberBodySchema = z.strictObject({ permission: groupPermissionSchema });
export type UpdateGroupMemberBody = z.output<typeof updateGroupMemberBodySchema>;

/**
 * Body of `POST /groups/{id}/roles`. tenantId must be given: null (or the all-zero id) is the Global
 * tenant, so a forgotten field never grants roles everywhere by default.
 */
export const addGroupTenantRolesBodySchema = z.strictObject({
  tenantId: idSchema.nullable(),
  roleIds: z.array(idSchema).min(1).max(1000),
  isInheritable: z.boolean().optional(),
});
export type AddGroupTenantRolesBody = z.output<typeof addGroupTenantRolesBodySchema>;

export const groupSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  areaId: z.string(),
  areaName: z.string(),
  /** id null is the Global tenant. */
  tenants: z.array(z.object({ id: z.string().nullable(), title: z.string() })),
  membersCount: z.number(),
  /** The caller owns the group (administrators own every group): only then may they change its members. */
  userIsOwner: z.boolean(),
});
export type Group = z.output<typeof groupSchema>;

export const groupMemberSchema = z.object({
  userId: z.string(),
  userName: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  groupId: z.string(),
  groupName: z.string(),
  permission: groupPermissionSchema,
});
export type GroupMember = z.output<typeof groupMemberSchema>;

export const groupTenantRolesSchema = z.object({
  /** null is the Global tenant. */
  tenantId: z.string().nullable(),
  tenantName: z.string(),
  isInheritable: z.boolean(),
  roles: z.array(z.object({ roleId: z.string(), roleName: z.string(), applicationId: z.string(), applicationName: z.string(), applicationDisplayName: z.string() })),
});
export type GroupTenantRoles = z.output<typeof groupTenantRolesSchema>;

/** What the members import answers: the same result as every Excel import. */
export const groupImportOutcomeSchema = importResultSchema;
export type GroupImportOutcome = ImportResult;

const groupIdParams = z.object({ groupId: idSchema });
const memberParams = z.object({ id: idSchema, userId: idSchema });

/** The groups, their members and tenant roles, and the user detail's own membership routes. */
export const groupsRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/groups',
    endpoint: 'groups.list',
    access: 'roles',
    summary: 'Lists the groups of the caller’s areas, optionally of one area',
    // The spec's lookups ask for up to 10,000 groups at once.
    query: listQuery({ sortable: ['name', 'description', 'areaName'], defaultOrder: 'name asc', maxTop: 10_000 }).extend({ area: idSchema.optional() }),
    response: listPage(groupSchema),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/groups',
    endpoint: 'groups.create',
    access: 'roles',
    summary: 'Creates a group; a creator who is not an administrator becomes its Owner',
    body: groupBodySchema,
    required: { name: 'groups.name_required', areaId: 'groups.area_required' },
    response: groupSchema,
    status: 201,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/groups/:id',
    endpoint: 'groups.get',
    access: 'roles',
    summary: 'Reads a group',
    params: idParams,
    response: groupSchema,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/v1/admin/groups/:id',
    endpoint: 'groups.update',
    access: 'roles',
    summary: 'Renames, describes or moves a group',
    params: idParams,
    body: groupBodySchema,
    required: { name: 'groups.name_required', areaId: 'groups.area_required' },
    response: groupSchema,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/api/v1/admin/groups/:id',
    endpoint: 'groups.delete',
    access: 'roles',
    summary: 'Deletes a group with its members and tenant memberships',
    params: idParams,
  }),
  members: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/groups/:id/users',
    endpoint: 'groups.members',
    access: 'roles',
    summary: 'Lists a group’s members',
    params: idParams,
    query: listQuery({ sortable: ['userName', 'email', 'permission'], defaultOrder: 'userName asc' }),
    response: listPage(groupMemberSchema),
  }),
  addMember: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/groups/:id/users',
    endpoint: 'groups.addMember',
    access: 'roles',
    summary: 'Adds a user to the group',
    params: idParams,
    body: addGroupMemberBodySchema,
    required: { userId: 'groups.user_required', permission: 'groups.permission_required' },
    response: groupMemberSchema,
    status: 201,
  }),
  updateMember: defineRoute({
    method: 'PUT',
    path: '/api/v1/admin/groups/:id/users/:userId',
    endpoint: 'groups.updateMember',
    access: 'roles',
    summary: 'Changes a member’s permission (Reader or Owner)',
    params: memberParams,
    body: updateGroupMemberBodySchema,
    required: { permission: 'groups.permission_required' },
    response: groupMemberSchema,
  }),
  removeMember: defineRoute({
    method: 'DELETE',
    path: '/api/v1/admin/groups/:id/users/:userId',
    endpoint: 'groups.removeMember',
    access: 'roles',
    summary: 'Removes a member from the group',
    params: memberParams,
  }),
  tenants: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/groups/:id/roles',
    endpoint: 'groups.tenants',
    access: 'roles',
    summary: 'Lists the tenants where the group holds roles, with those roles (Global first)',
    params: idParams,
    response: listPage(groupTenantRolesSchema),
  }),
  addTenantRoles: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/groups/:id/roles',
    endpoint: 'groups.addTenantRoles',
    access: 'roles',
    summary: 'Gives the group roles in a tenant: 201 when it had none there, 200 when they are added to its membership',
    params: idParams,
    body: addGroupTenantRolesBodySchema,
    required: { tenantId: 'groups.tenant_required', roleIds: 'groups.roles_required' },
    response: groupTenantRolesSchema,
    status: 201,
    alternativeStatus: 200,
  }),
  removeTenant: defineRoute({
    method: 'DELETE',
    path: '/api/v1/admin/groups/:id/roles/:tenantId',
    endpoint: 'groups.removeTenant',
    access: 'roles',
    summary: 'Removes the group’s membership in a tenant (the all-zero id: Global) with its roles',
    params: z.object({ id: idSchema, tenantId: idSchema }),
  }),
  template: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/groups/template/:groupId',
    endpoint: 'groups.template',
    access: 'roles',
    summary: 'Downloads the Excel template of the group’s members import',
    params: groupIdParams,
    produces: XLSX,
  }),
  bulkInsert: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/groups/bulk_insert/:groupId',
    endpoint: 'groups.bulkInsert',
    access: 'roles',
    summary: 'Queues the import of the group’s members from an uploaded Excel file (multipart field `file`) as a background job; its result comes as a notification',
    params: groupIdParams,
    consumes: 'multipart/form-data',
    status: 202,
    response: backgroundJobStartedSchema,
  }),
  addUserToGroup: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/users/:id/groups',
    endpoint: 'groups.addMember',
    operationId: 'groups.addUserToGroup',
    access: 'roles',
    summary: 'Adds the user to a group (the user detail’s dialog)',
    params: idParams,
    body: addUserToGroupBodySchema,
    required: { groupId: 'groups.group_required', permission: 'groups.permission_required' },
    response: groupMemberSchema,
    status: 201,
  }),
  removeUserFromGroup: defineRoute({
    method: 'DELETE',
    path: '/api/v1/admin/users/:id/groups/:groupId',
    endpoint: 'groups.removeMember',
    operationId: 'groups.removeUserFromGroup',
    access: 'roles',
    summary: 'Removes the user from a group (the user detail)',
    params: z.object({ id: idSchema, groupId: idSchema }),
  }),
} satisfies Record<string, RouteContract>;
