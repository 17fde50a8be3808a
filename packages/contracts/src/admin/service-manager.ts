import { z } from 'zod';
import { idSchema, listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { permissionRoleSchema } from './operation-requests.js';
import { tenantMemberRoleSchema } from './tenants.js';

const SERVICE_MANAGER = '/api/v1/admin/serviceManager';

/** The portal's own names for the list parameters (searchQuery, take), next to the product's ($search, top). */
const portalListParams = {
  searchQuery: z.string().trim().max(200).optional(),
  take: z.coerce.number().int().min(1).max(1000).optional(),
};

/** Query of `GET /serviceManager/tenants`: the tenant selector, ordered by title. */
export const serviceManagerTenantsQuerySchema = listQuery({ sortable: ['title'], defaultOrder: 'title asc', maxTop: 1000 }).extend(portalListParams);

export const serviceManagerTenantSchema = z.object({ id: z.string(), title: z.string() });
export type ServiceManagerTenant = z.output<typeof serviceManagerTenantSchema>;

export const SERVICE_MANAGER_USER_SORT_FIELDS = ['fullName', 'userName', 'email'] as const;

/** Query of `GET /serviceManager/{tenantId}/users`. */
export const serviceManagerUsersQuerySchema = listQuery({ sortable: SERVICE_MANAGER_USER_SORT_FIELDS, defaultOrder: 'fullName asc', maxTop: 1000 }).extend(
  portalListParams,
);

/** A user of the tenant as the Service Manager table shows it. */
export const serviceManagerUserSchema = z.object({
  id: z.string(),
  /** First and last name, else the user name. */
  fullName: z.string(),
  userName: z.string(),
  email: z.string(),
  /** Own: in their own membership of the tenant; ByHierarchy: through a group, an ancestor's inheritable membership or the Global tenant; Both. */
  roles: z.array(tenantMemberRoleSchema),
});
export type ServiceManagerUser = z.output<typeof serviceManagerUserSchema>;

/**
 * Why the caller may not change a role of the user on this screen (give it, or take it away when
 * the user holds it in their own name), as the rules that refuse the change decide it:
 * - group: held through a group in the tenant (changed on the group);
 * - hierarchy: inherited from a parent tenant or the Global tenant (changed there);
 * - notManaged: not one of the roles service managers manage;
 * - hierarchyOnly: a role only ever given through the hierarchy;
 * - yourOwn: the caller's own roles, which someone else changes;
 * - outranks: the user holds administration roles the caller does not;
 * - notAllowed: any other refusal of the rules.
 */
export const SERVICE_MANAGER_ROLE_REASONS = ['group', 'hierarchy', 'notManaged', 'hierarchyOnly', 'yourOwn', 'outranks', 'notAllowed'] as const;
export type ServiceManagerRoleReason = (typeof SERVICE_MANAGER_ROLE_REASONS)[number];

/** A role on the editor: every role of service-manager visibility, and every other role the user holds in the tenant. */
export const serviceManagerRoleSchema = permissionRoleSchema.extend({
  /** Why the caller may not change it; null when they may (then `editable`). */
  reason: z.enum(SERVICE_MANAGER_ROLE_REASONS).nullable(),
});
export type ServiceManagerRole = z.output<typeof serviceManagerRoleSchema>;

export const serviceManagerPermissionsSchema = z.object({
  userId: z.string(),
  tenantId: z.string(),
  /** The flag of the user's own membership of the tenant (true when they have none: a new one flows down). */
  isInheritable: z.boolean(),
  applications: z.array(z.object({ applicationId: z.string(), applicationName: z.string(), roles: z.array(serviceManagerRoleSchema) })),
});
export type ServiceManagerPermissions = z.output<typeof serviceManagerPermissionsSchema>;

/** The complete set of the user's own service-manager roles in the tenant. */
export const serviceManagerPermissionsBodySchema = z.strictObject({
  isInheritable: z.boolean().default(true),
  roles: z.array(idSchema).max(500),
});
export type ServiceManagerPermissionsBody = z.input<typeof serviceManagerPermissionsBodySchema>;

export const serviceManagerTenantParams = z.object({ tenantId: idSchema });
export const serviceManagerUserParams = z.object({ tenantId: idSchema, userId: idSchema });

/**
 * `/api/v1/admin/serviceManager`: the portal's Service Manager screen, for the tenants where the
 * caller holds ServiceManager (every tenant for administrators): the tenant selector, the tenant's
 * users with their roles, and changing their roles of service-manager visibility directly.
 */
export const serviceManagerRoutes = {
  tenants: defineRoute({
    method: 'GET',
    path: `${SERVICE_MANAGER}/tenants`,
    endpoint: 'serviceManager.tenants',
    access: 'roles',
    summary: 'The tenants where the caller holds ServiceManager (every tenant for administrators), by title; searchQuery ($search) matches the title, take (top) pages',
    query: serviceManagerTenantsQuerySchema,
    response: listPage(serviceManagerTenantSchema),
  }),
  users: defineRoute({
    method: 'GET',
    path: `${SERVICE_MANAGER}/:tenantId/users`,
    endpoint: 'serviceManager.users',
    access: 'roles',
    summary: "The tenant's users (own or inherited membership, never drafts) with their roles there; 404 outside the caller's tenants",
    params: serviceManagerTenantParams,
    query: serviceManagerUsersQuerySchema,
    response: listPage(serviceManagerUserSchema),
  }),
  permissions: defineRoute({
    method: 'GET',
    path: `${SERVICE_MANAGER}/:tenantId/users/:userId/permissions`,
    endpoint: 'serviceManager.permissions',
    access: 'roles',
    summary: "Every application's roles of service-manager visibility and every other role the user holds in the tenant, with how the user holds each and, when the caller may not change it, why",
    params: serviceManagerUserParams,
    response: serviceManagerPermissionsSchema,
  }),
  setPermissions: defineRoute({
    method: 'PUT',
    path: `${SERVICE_MANAGER}/:tenantId/users/:userId/permissions`,
    endpoint: 'serviceManager.setPermissions',
    access: 'roles',
    summary: "Sets the user's own roles of service-manager visibility in the tenant to exactly those given, at once (no approval); other roles stay",
    params: serviceManagerUserParams,
    body: serviceManagerPermissionsBodySchema,
    response: serviceManagerPermissionsSchema,
  }),
} satisfies Record<string, RouteContract>;
