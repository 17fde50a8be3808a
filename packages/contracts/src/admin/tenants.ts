import { z } from 'zod';
import { HIERARCHY_TYPES, IDENTITY_TYPES, TENANT_CREATION_TYPES } from '../domain.js';
import { backgroundJobStartedSchema } from './dashboard.js';
import { idParams, idSchema, listPage, listQuery } from '../list.js';
import { roleOriginSchema } from './role-origins.js';
import { defineRoute, type RouteContract } from '../route.js';

/** The media type of the tenant templates. */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const TENANTS = '/api/v1/admin/tenants';
const IDENTITIES = '/api/v1/admin/tenantIdentities';

/** A query-string flag: `true` / `false` (any case), `1` / `0`. */
const flag = z
  .enum(['true', 'false', 'True', 'False', 'TRUE', 'FALSE', '1', '0'])
  .transform((value) => value === '1' || value.toLowerCase() === 'true');

/** An optional free text: blank is none. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);

/** One ancestor of a tenant, from the root (`order` 0) down to its parent. */
export const hierarchyItemSchema = z.object({ id: z.string(), title: z.string(), order: z.number().int() });
export type HierarchyItem = z.output<typeof hierarchyItemSchema>;

/** A node of a hierarchy tree, with its children (titles ascending). */
export interface TenantTreeNode {
  id: string;
  title: string;
  areaId: string | null;
  children: TenantTreeNode[];
}
export const tenantTreeNodeSchema: z.ZodType<TenantTreeNode> = z.lazy(() =>
  z.object({ id: z.string(), title: z.string(), areaId: z.string().nullable(), children: z.array(tenantTreeNodeSchema) }),
).meta({ id: 'TenantTreeNode' }); // its name in the API document, where it refers to itself

/** A tenant as lists, pickers and the details page show it (spec 3, "Tenant"). */
export const tenantSchema = z.object({
  id: z.string(),
  title: z.string(),
  areaId: z.string().nullable(),
  areaName: z.string().nullable(),
  parentId: z.string().nullable(),
  parentTitle: z.string().nullable(),
  /** Shown as CIF. */
  taxNumber: z.string().nullable(),
  /** Shown as European VAT. */
  viesNumber: z.string().nullable(),
  groupAlias: z.string().nullable(),
  /** How it was created: Auto (by an import or an application) or Manual. */
  auto: z.enum(TENANT_CREATION_TYPES),
  isUserCustomized: z.boolean(),
  requiredTwoModeAuthentification: z.boolean(),
  /** The second factor must resist phishing: a passkey, or signing in with Microsoft (implies requiredTwoModeAuthentification). */
  phishingResistantOnly: z.boolean(),
  childrenCount: z.number().int(),
  modifiedOn: z.string(),
  /** The ancestors, root first: only when `includeHierarchy` was asked. */
  hierarchyItems: z.array(hierarchyItemSchema).optional(),
});
export type Tenant = z.output<typeof tenantSchema>;

/** The details page's answer: the tenant and, when asked, the whole tree it belongs to (from its root). */
export const tenantDetailSchema = tenantSchema.extend({ tree: tenantTreeNodeSchema.optional() });
export type TenantDetail = z.output<typeof tenantDetailSchema>;

/** Body of `POST /tenants` (the New Entity dialog). */
export const createTenantBodySchema = z.strictObject({
  title: z.string().trim().min(1).max(200),
  areaId: idSchema,
  parentId: idSchema.nullish().transform((value) => value ?? null),
  taxNumber: optionalText(50),
  viesNumber: optionalText(50),
});
export type CreateTenantBody = z.input<typeof createTenantBodySchema>;

/** Body of `PUT /tenants/{id}` (the General tab): the parent changes only through change-parent. */
export const updateTenantBodySchema = z.strictObject({
  title: z.string().trim().min(1).max(200),
  areaId: idSchema,
  taxNumber: optionalText(50),
  viesNumber: optionalText(50),
  groupAlias: optionalText(200),
});
export type UpdateTenantBody = z.input<typeof updateTenantBodySchema>;

/** Body of `PUT /tenants/{tenantId}/change-parent`: null makes it a root. */
export const changeParentBodySchema = z.strictObject({ newParentId: idSchema.nullable() });
export type ChangeParentBody = z.input<typeof changeParentBodySchema>;

/**
 * Body of `POST /tenants/twoModeAuth/{id}`. `phishingResistantOnly` accepts only passkeys (or
 * Microsoft) as the second factor: on, it needs `enable`; left out, it stays as it is, and turning
 * the second factor off turns it off too.
 */
export const twoModeAuthBodySchema = z.strictObject({ enable: z.boolean(), phishingResistantOnly: z.boolean().optional() });
export type TwoModeAuthBody = z.output<typeof twoModeAuthBodySchema>;

/** What the MFA switch answers: the tenant as it now stands. */
export const twoModeAuthResponseSchema = z.object({
  id: z.string(),
  title: z.string(),
  requiredTwoModeAuthentification: z.boolean(),
  phishingResistantOnly: z.boolean(),
});
export type TwoModeAuthResponse = z.output<typeof twoModeAuthResponseSchema>;

/** A role an identity holds in a tenant, and where it comes from. */
export const tenantMemberRoleSchema = z.object({
  roleId: z.string(),
  roleName: z.string(),
  applicationId: z.string(),
  applicationName: z.string(),
  /** The application as users see it: what a role is shown with. */
  applicationDisplayName: z.string(),
  /** Own: granted in this tenant; ByHierarchy: from an ancestor's inheritable membership or the Global tenant; Both. */
  hierarchyType: z.enum(HIERARCHY_TYPES),
  /** Every way the identity holds it there: in its own name, through a group (named), by hierarchy (the parent tenant named). */
  origins: z.array(roleOriginSchema),
});
export type TenantMemberRole = z.output<typeof tenantMemberRoleSchema>;

/** A user or a group with roles in a tenant (spec 3, "Tenant member"). */
export const tenantMemberSchema = z.object({
  /** The membership's id; null when every role comes from elsewhere (an ancestor or Global). */
  id: z.string().nullable(),
  tenantId: z.string(),
  tenantName: z.string(),
  identityType: z.enum(IDENTITY_TYPES),
  identityId: z.string(),
  /** The user's e-mail; null for a group. */
  email: z.string().nullable(),
  /** The user's full name (user name when none) or the group's name. */
  displayName: z.string(),
  isInheritable: z.boolean(),
  hierarchyType: z.enum(HIERARCHY_TYPES),
  /** Only when `includeRoles` was asked (always for members/identity). */
  roles: z.array(tenantMemberRoleSchema),
});
export type TenantMember = z.output<typeof tenantMemberSchema>;

/** Body of `POST /tenants/{id}/members` (the Add Member to Tenant dialog). */
export const addTenantMemberBodySchema = z.strictObject({
  identityType: z.enum(IDENTITY_TYPES),
  identityId: idSchema,
  /** Shown by the dialog; the server reads the identity's own. */
  displayName: z.string().max(400).optional(),
  email: z.string().max(256).optional(),
  /** Whether the roles also apply below the tenant: a new membership's flag (true when not given); an existing one's changes only when given. */
  isInheritable: z.boolean().optional(),
  /** Grant in the Global tenant instead (every tenant): administrators only. */
  global: z.boolean().default(false),
  roleIds: z.array(idSchema).min(1).max(1000),
});
export type AddTenantMemberBody = z.input<typeof addTenantMemberBodySchema>;

/** Body of `POST /tenants/members/revokeAccess`. */
export const revokeAccessBodySchema = z.strictObject({
  tenantId: idSchema,
  /** The user (or, with isGroup, the group) whose access goes. */
  userId: idSchema,
  isGroup: z.boolean().default(false),
  /** `applications.id` is free text of up to 64 characters (the Identity application's is `1`). */
  applicationIds: z.array(z.string().trim().min(1).max(64)).min(1).max(1000),
  /**
   * Also take away what the identity holds there by hierarchy: its inheritable grants of those
   * applications in the ancestors (and so in their other descendants). Administrators only.
   */
  includeParent: z.boolean().default(false),
});
export type RevokeAccessBody = z.input<typeof revokeAccessBodySchema>;

/** The tenants list's filters (also the export's). */
const tenantFilters = {
  area: idSchema.optional(),
  /** Customised by a user: true, false, or absent for both (the three-state checkbox). */
  isUserCustomized: flag.optional(),
  /** Creation type: Auto, Manual, or absent for both. */
  creation: z.enum(TENANT_CREATION_TYPES).optional(),
  /** Adds each tenant's ancestors (`hierarchyItems`). */
  includeHierarchy: flag.optional(),
  /** Only the children of this tenant. */
  parent: idSchema.optional(),
};
const tenantListQuery = listQuery({ sortable: ['title', 'areaName', 'modifiedOn', 'parentTitle', 'childrenCount'], defaultOrder: 'title asc', maxTop: 10_000 }).extend(tenantFilters);

const tenantIdParams = z.object({ tenantId: idSchema });

/** A tenant identity: a user or a group that holds roles somewhere, with its tenants as badges. */
export const tenantIdentityTenantSchema = z.object({
  /** null is the Global tenant. */
  id: z.string().nullable(),
  title: z.string(),
  isInheritable: z.boolean(),
});
export const tenantIdentityUserSchema = z.object({
  id: z.string(),
  userName: z.string(),
  email: z.string(),
  displayName: z.string(),
  areaName: z.string().nullable(),
  tenants: z.array(tenantIdentityTenantSchema),
});
export type TenantIdentityUser = z.output<typeof tenantIdentityUserSchema>;
export const tenantIdentityGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  areaName: z.string().nullable(),
  membersCount: z.number().int(),
  tenants: z.array(tenantIdentityTenantSchema),
});
export type TenantIdentityGroup = z.output<typeof tenantIdentityGroupSchema>;
export const tenantIdentityGroupUserSchema = z.object({
  userId: z.string(),
  userName: z.string(),
  email: z.string(),
  displayName: z.string(),
  permission: z.enum(['Reader', 'Owner']),
});
export type TenantIdentityGroupUser = z.output<typeof tenantIdentityGroupUserSchema>;

export const tenantsRoutes = {
  list: defineRoute({
    method: 'GET',
    path: TENANTS,
    endpoint: 'tenants.list',
    access: 'roles',
    summary: 'Lists the tenants of the caller’s areas (the Global tenant is not listed), with the area, creation-type and customised filters',
    query: tenantListQuery,
    response: listPage(tenantSchema),
  }),
  export: defineRoute({
    method: 'GET',
    path: `${TENANTS}/export`,
    endpoint: 'tenants.export',
    access: 'roles',
    summary: 'Starts the export of the tenants the list’s filters select (Tenants.xlsx) as a background job; its file is announced by a notification',
    query: tenantListQuery.omit({ skip: true, top: true }),
    status: 202,
    response: backgroundJobStartedSchema,
  }),
  create: defineRoute({
    method: 'POST',
    path: TENANTS,
    endpoint: 'tenants.create',
    access: 'roles',
    summary: 'Creates a tenant (Manual), optionally under a parent',
    body: createTenantBodySchema,
    required: { title: 'tenants.title_required', areaId: 'tenants.area_required' },
    response: tenantSchema,
    status: 201,
  }),
  get: defineRoute({
    method: 'GET',
    path: `${TENANTS}/:id`,
    endpoint: 'tenants.get',
    access: 'roles',
    summary: 'Reads a tenant; with includeHierarchy its ancestors, with includeHierarchyTree the tree it belongs to',
    params: idParams,
    query: z.object({ includeHierarchy: flag.optional(), includeHierarchyTree: flag.optional() }),
    response: tenantDetailSchema,
  }),
  hierarchyTree: defineRoute({
    method: 'GET',
    path: `${TENANTS}/:tenantId/hierarchy-tree`,
    endpoint: 'tenants.hierarchyTree',
    access: 'roles',
    summary: 'The hierarchy tree the tenant belongs to, from its root',
    params: tenantIdParams,
    response: tenantTreeNodeSchema,
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${TENANTS}/:id`,
    endpoint: 'tenants.update',
    access: 'roles',
    summary: 'Changes a tenant’s general properties (marks it customised by a user)',
    params: idParams,
    body: updateTenantBodySchema,
    required: { title: 'tenants.title_required', areaId: 'tenants.area_required' },
    response: tenantSchema,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: `${TENANTS}/:id`,
    endpoint: 'tenants.delete',
    access: 'roles',
    summary: 'Deletes a tenant without children, with its memberships',
    params: idParams,
    status: 204,
  }),
  changeParent: defineRoute({
    method: 'PUT',
    path: `${TENANTS}/:tenantId/change-parent`,
    endpoint: 'tenants.changeParent',
    access: 'roles',
    summary: 'Moves a tenant (and its subtree) under another parent, or to the top; a move that would make a cycle is refused',
    params: tenantIdParams,
    body: changeParentBodySchema,
    required: { newParentId: 'tenants.parent_required' },
    response: tenantSchema,
  }),
  twoModeAuth: defineRoute({
    method: 'POST',
    path: `${TENANTS}/twoModeAuth/:id`,
    endpoint: 'tenants.twoModeAuth',
    access: 'roles',
    summary: 'Requires (or stops requiring) a second factor from the tenant’s users, and whether it must resist phishing (a passkey or Microsoft)',
    params: idParams,
    body: twoModeAuthBodySchema,
    response: twoModeAuthResponseSchema,
    errors: { 400: 'phishing-resistant only without the second factor (tenants.phishing_resistant_needs_mfa)' },
  }),
  members: defineRoute({
    method: 'GET',
    path: `${TENANTS}/:id/members`,
    endpoint: 'tenants.members',
    access: 'roles',
    summary: 'Lists the users and groups with roles in the tenant: their own, and those they hold there by hierarchy',
    params: idParams,
    query: listQuery({ sortable: ['displayName', 'email', 'identityType', 'hierarchyType'], defaultOrder: 'displayName asc' }).extend({
      includeRoles: flag.optional(),
      /** Leave out users whose roles here come only from the Global tenant (the default). */
      excludeUserGlobal: flag.default(true),
    }),
    response: listPage(tenantMemberSchema),
  }),
  membersExport: defineRoute({
    method: 'GET',
    path: `${TENANTS}/:id/members/export`,
    endpoint: 'tenants.membersExport',
    access: 'roles',
    summary: 'Starts the export of the tenant’s members and their roles (Members.xlsx) as a background job; its file is announced by a notification',
    params: idParams,
    query: z.object({ excludeUserGlobal: flag.default(true) }),
    status: 202,
    response: backgroundJobStartedSchema,
  }),
  addMember: defineRoute({
    method: 'POST',
    path: `${TENANTS}/:id/members`,
    endpoint: 'tenants.addMember',
    access: 'roles',
    summary: 'Gives a user or a group roles in the tenant (or, with global, in the Global tenant)',
    params: idParams,
    body: addTenantMemberBodySchema,
    required: { identityType: 'tenants.identity_type_required', identityId: 'tenants.identity_required', roleIds: 'tenants.roles_required' },
    response: tenantMemberSchema,
    status: 201,
    alternativeStatus: 200,
  }),
  memberIdentity: defineRoute({
    method: 'GET',
    path: `${TENANTS}/members/identity`,
    endpoint: 'tenants.memberIdentity',
    access: 'roles',
    summary: 'One identity’s roles in one tenant, own and by hierarchy',
    query: z.object({ identityId: idSchema, tenantId: idSchema, isGroup: flag.default(false) }),
    response: tenantMemberSchema,
  }),
  revokeAccess: defineRoute({
    method: 'POST',
    path: `${TENANTS}/members/revokeAccess`,
    endpoint: 'tenants.revokeAccess',
    access: 'roles',
    summary: 'Takes away an identity’s roles of some applications in a tenant (and, with includeParent, those it holds there by hierarchy)',
    body: revokeAccessBodySchema,
    required: { tenantId: 'tenants.tenant_required', userId: 'tenants.identity_required', applicationIds: 'tenants.applications_required' },
    response: tenantMemberSchema,
  }),
} satisfies Record<string, RouteContract>;

/** The Permissions page: who holds roles where, and the tenant-membership imports. */
export const tenantIdentitiesRoutes = {
  users: defineRoute({
    method: 'GET',
    path: IDENTITIES,
    endpoint: 'tenantIdentities.users',
    access: 'roles',
    summary: 'Lists the users holding roles in some tenant, each with those tenants',
    query: listQuery({ sortable: ['userName', 'email', 'displayName', 'areaName'], defaultOrder: 'userName asc' }).extend({ area: idSchema.optional(), tenant: idSchema.optional() }),
    response: listPage(tenantIdentityUserSchema),
  }),
  groups: defineRoute({
    method: 'GET',
    path: `${IDENTITIES}/groups`,
    endpoint: 'tenantIdentities.groups',
    access: 'roles',
    summary: 'Lists the groups holding roles in some tenant, each with those tenants',
    query: listQuery({ sortable: ['name', 'areaName'], defaultOrder: 'name asc' }).extend({ area: idSchema.optional(), tenant: idSchema.optional() }),
    response: listPage(tenantIdentityGroupSchema),
  }),
  group: defineRoute({
    method: 'GET',
    path: `${IDENTITIES}/groups/:groupId`,
    endpoint: 'tenantIdentities.group',
    access: 'roles',
    summary: 'One group of the Permissions page, with its tenants',
    params: z.object({ groupId: idSchema }),
    response: tenantIdentityGroupSchema,
  }),
  groupUsers: defineRoute({
    method: 'GET',
    path: `${IDENTITIES}/groups/:groupId/users`,
    endpoint: 'tenantIdentities.groupUsers',
    access: 'roles',
    summary: 'The users of a group (the Group Details page)',
    params: z.object({ groupId: idSchema }),
    query: listQuery({ sortable: ['userName', 'email', 'displayName'], defaultOrder: 'userName asc' }),
    response: listPage(tenantIdentityGroupUserSchema),
  }),
  usersTemplate: defineRoute({
    method: 'GET',
    path: `${IDENTITIES}/template/users`,
    endpoint: 'tenantIdentities.usersTemplate',
    access: 'roles',
    summary: 'Downloads the Excel template of the users-with-tenant-roles import',
    produces: XLSX,
  }),
  groupsTemplate: defineRoute({
    method: 'GET',
    path: `${IDENTITIES}/template/groups`,
    endpoint: 'tenantIdentities.groupsTemplate',
    access: 'roles',
    summary: 'Downloads the Excel template of the groups-with-tenant-roles import',
    produces: XLSX,
  }),
  bulkInsertUsers: defineRoute({
    method: 'POST',
    path: `${IDENTITIES}/bulk_insert/users`,
    endpoint: 'tenantIdentities.bulkInsertUsers',
    access: 'roles',
    summary: 'Queues the granting of users’ roles in tenants from an uploaded Excel file (multipart field `file`) as a background job; its result comes as a notification',
    consumes: 'multipart/form-data',
    status: 202,
    response: backgroundJobStartedSchema,
  }),
  bulkInsertGroups: defineRoute({
    method: 'POST',
    path: `${IDENTITIES}/bulk_insert/groups`,
    endpoint: 'tenantIdentities.bulkInsertGroups',
    access: 'roles',
    summary: 'Queues the granting of groups’ roles in tenants from an uploaded Excel file (multipart field `file`) as a background job; its result comes as a notification',
    consumes: 'multipart/form-data',
    status: 202,
    response: backgroundJobStartedSchema,
  }),
} satisfies Record<string, RouteContract>;
