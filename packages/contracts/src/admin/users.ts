import { z } from 'zod';
import { HIERARCHY_TYPES, LANGUAGES } from '../domain.js';
import { groupPermissionSchema } from './groups.js';
import { roleOriginSchema } from './role-origins.js';
import { backgroundJobStartedSchema } from './dashboard.js';
import { estimatedListPage, idParams, idSchema, listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';

const USERS = '/api/v1/admin/users';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A point in time: a Date on the server, an ISO 8601 UTC string on the wire and in the browser. */
export const timestampSchema = z.codec(z.date(), z.iso.datetime(), {
  decode: (date) => date.toISOString(),
  encode: (text) => new Date(text),
});

const text = (max: number) => z.string().trim().min(1).max(max);
// pipe: a blank address is reported once, as missing, not also as malformed.
const email = text(256).pipe(z.email());
// Passwords are never trimmed: every character counts.
const password = z.string().max(256);

/** A user name, as the create form and the user-name change take it. */
export const userNameSchema = text(256);

/**
 * A preferred language: one of LANGUAGES, any other text refused with the spec's "Invalid preferred
 * language" (the custom check names its message; a blank one is "required" where the route says so).
 */
export const preferredLanguageSchema = z
  .string()
  .refine((value) => (LANGUAGES as readonly string[]).includes(value), { params: { code: 'users.language_invalid' } })
  .pipe(z.enum(LANGUAGES));

/** Body of `POST /users` (and one row of the Excel bulk import). */
export const newUserSchema = z.strictObject({
  userName: userNameSchema,
  email,
  firstName: text(100),
  lastName: text(100),
  areaId: idSchema,
  language: preferredLanguageSchema,
  validateScopes: z.boolean().default(false),
  sendEmailInvite: z.boolean().default(false),
  /** With confirmPassword when "Create Password" is ticked; otherwise a random password is generated. */
  password: password.nullish(),
  confirmPassword: password.nullish(),
});
export type NewUser = z.output<typeof newUserSchema>;

/** The spec's message for each missing field of the create form. */
export const NEW_USER_REQUIRED = {
  userName: 'users.user_name_required',
  email: 'users.email_required',
  firstName: 'users.first_name_required',
  lastName: 'users.last_name_required',
  areaId: 'users.area_required',
  language: 'users.language_required',
} as const;

/**
 * Shown on the edit form but read-only there (spec 5): a body that sets one is refused naming it,
 * rather than silently ignored, so a client never believes it changed them.
 */
export const READ_ONLY_USER_FIELDS = ['userName', 'jobTitle', 'manager', 'teams'] as const;

const readOnly = z.unknown().optional().describe('Read-only: a request that sends it is refused (users.read_only_field)');

/** Body of `PUT /users/{id}`. */
export const updateUserSchema = z.strictObject({
  email,
  firstName: text(100),
  lastName: text(100),
  language: preferredLanguageSchema,
  areaId: idSchema,
  validateScopes: z.boolean().optional(),
  userName: readOnly,
  jobTitle: readOnly,
  manager: readOnly,
  teams: readOnly,
});
export type UserChanges = z.output<typeof updateUserSchema>;

export const UPDATE_USER_REQUIRED = {
  email: NEW_USER_REQUIRED.email,
  firstName: NEW_USER_REQUIRED.firstName,
  lastName: NEW_USER_REQUIRED.lastName,
  areaId: NEW_USER_REQUIRED.areaId,
  language: NEW_USER_REQUIRED.language,
} as const;

/** Body of `POST /users/change-password/{userId}`. */
export const changePasswordSchema = z.strictObject({
  password: password.min(1),
  confirmPassword: password.min(1),
});
export type PasswordChange = z.output<typeof changePasswordSchema>;

/** The sortable fields of the users list, as `orderBy` names them. */
export const USER_SORT_FIELDS = ['userName', 'email', 'firstName', 'lastName', 'areaName', 'modifiedOn', 'locked'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/**
 * Query of `GET /users`: the list query, the lock state, the area, and a cursor: the `next` of the
 * previous page, with the same search, filters and sort. With a cursor, the page is the `top` rows
 * right after that page's last row (after passing `skip` more), however deep in the list, and
 * whatever was added or removed before it meanwhile; without one, `skip` counts from the start.
 */
export const userListQuerySchema = listQuery({ sortable: USER_SORT_FIELDS, defaultOrder: 'modifiedOn desc' }).extend({
  locked: z.enum(['true', 'false']).optional(),
  area: idSchema.optional(),
  cursor: z.string().min(1).max(4096).optional().describe('The `next` of the previous page (same search, filters and sort): the page after it'),
});
export type UserListQuery = z.output<typeof userListQuerySchema>;

/** Query of `GET /users/export`: the list's search, filters and sort; `skip`, `top` and `cursor` are ignored (every page). */
export const userExportQuerySchema = userListQuerySchema.omit({ skip: true, top: true, cursor: true });
export type UserExportQuery = z.output<typeof userExportQuerySchema>;

/** Body of `PUT /users/{id}/roles/{applicationId}`; no tenant means the Global tenant. */
export const grantRolesSchema = z.strictObject({
  tenantId: idSchema.nullish(),
  roleIds: z.array(idSchema).min(1).max(1000),
});
export type RoleGrant = z.output<typeof grantRolesSchema>;

/** Query of `DELETE /users/{id}/roles/{applicationId}`: one badge, or (no roleId) every own role of the application. */
export const revokeRolesQuerySchema = z.object({
  roleId: idSchema.optional(),
  tenantId: idSchema.optional(),
});
export type RoleRevocation = z.output<typeof revokeRolesQuerySchema>;

/** `{ id, applicationId }`: `applications.id` is free text of up to 64 characters. */
export const userApplicationParams = z.object({ id: idSchema, applicationId: z.string().min(1).max(64) });

// What the endpoints answer: declared, so a column added to a query never leaks by accident.

export const userListItemSchema = z.object({
  id: z.string(),
  userName: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  areaId: z.string(),
  areaName: z.string(),
  /** Restricted client access by scope. */
  validateScopes: z.boolean(),
  locked: z.boolean(),
  /** Created by an import and never completed: no link, no invitation. */
  draft: z.boolean(),
  modifiedOn: timestampSchema,
  language: z.string(),
});
export type UserRow = z.output<typeof userListItemSchema>;

export const userDetailSchema = userListItemSchema.extend({
  jobTitle: z.string().nullable(),
  manager: z.string().nullable(),
  teams: z.array(z.string()),
  emailVerified: z.boolean(),
  twoFactorEnabled: z.boolean(),
  lastLoginAt: timestampSchema.nullable(),
  createdAt: timestampSchema,
});
export type UserDetail = z.output<typeof userDetailSchema>;

/** What `POST /users` answers: the user, and whether the invitation went out when one was asked for. */
export const createdUserSchema = userDetailSchema.extend({ invitationSent: z.boolean().optional() });
export type CreatedUser = z.output<typeof createdUserSchema>;

/** The lock and unlock answers: the user, as the confirmation shows it. */
export const lockReplySchema = z.object({
  success: z.literal(true),
  user: z.object({ id: z.string(), userName: z.string(), firstName: z.string().nullable(), lastName: z.string().nullable(), locked: z.boolean() }),
});
export type LockReply = z.output<typeof lockReplySchema>;

/** The answer of an invitation or a password change: a message in the caller's language. */
export const operationReplySchema = z.object({ success: z.literal(true), message: z.string() });
export type OperationReply = z.output<typeof operationReplySchema>;

export const userGroupSchema = z.object({
  groupId: z.string(),
  groupName: z.string(),
  permission: groupPermissionSchema,
  areaName: z.string(),
});
export type UserGroup = z.output<typeof userGroupSchema>;

const hierarchyTypeSchema = z.enum(HIERARCHY_TYPES);

export const tenantRoleSchema = z.object({
  roleId: z.string(),
  roleName: z.string(),
  applicationId: z.string(),
  applicationName: z.string(),
  /** The application as users see it: what a role is shown with. */
  applicationDisplayName: z.string(),
  hierarchyType: hierarchyTypeSchema,
  isGlobal: z.boolean(),
  /** Every way the user holds it there: in their own name, through a group (named), by hierarchy (the parent tenant named). */
  origins: z.array(roleOriginSchema),
});
export type TenantRole = z.output<typeof tenantRoleSchema>;

export const userTenantSchema = z.object({
  tenantId: z.string(),
  tenantName: z.string(),
  isGlobal: z.boolean(),
  isInheritable: z.boolean(),
  hierarchyType: hierarchyTypeSchema,
  roles: z.array(tenantRoleSchema),
});
export type UserTenant = z.output<typeof userTenantSchema>;

export const accessRoleSchema = z.object({
  roleId: z.string(),
  roleName: z.string(),
  description: z.string().nullable(),
  tenantId: z.string(),
  tenantName: z.string(),
  isGlobal: z.boolean(),
  hierarchyType: hierarchyTypeSchema,
  /** False for roles inherited through the tenant hierarchy. */
  removable: z.boolean(),
  /** Every way the user holds it there: in their own name, through a group (named), by hierarchy (the parent tenant named). */
  origins: z.array(roleOriginSchema),
});
export type AccessRole = z.output<typeof accessRoleSchema>;

export const availableRoleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Granted by the hierarchy only: never picked by hand. */
  byHierarchy: z.boolean(),
});
export type AvailableRole = z.output<typeof availableRoleSchema>;

/** One application of the Role access section. */
export const applicationAccessSchema = z.object({
  applicationId: z.string(),
  applicationName: z.string(),
  displayName: z.string(),
  hasAccess: z.boolean(),
  /** The access comes (at least partly) from the tenant hierarchy. */
  byHierarchy: z.boolean(),
  /** The user's groups whose tenant memberships hold roles of the application: revoke-all leaves these to the group. */
  throughGroups: z.array(z.string()),
  roles: z.array(accessRoleSchema),
  availableRoles: z.array(availableRoleSchema),
});
export type ApplicationAccess = z.output<typeof applicationAccessSchema>;

export const userPermissionsSchema = z.object({
  groups: z.array(z.string()),
  applicationPermissions: z.array(
    z.object({
      applicationName: z.string(),
      /** The names of the roles held, in any tenant (the spec's shape). */
      roles: z.array(z.string()),
      /** What the console shows of the application, before each role's name. */
      applicationDisplayName: z.string(),
      /** Each role in each tenant where the user holds it, with how they hold it there. */
      grants: z.array(z.object({ roleId: z.string(), roleName: z.string(), tenantId: z.string(), tenantName: z.string(), origins: z.array(roleOriginSchema) })),
    }),
  ),
});
export type UserPermissions = z.output<typeof userPermissionsSchema>;


/** The kinds of sign-in factor an administrator may take off an account (the password stays). */
export const RESETTABLE_FACTORS = ['passkeys', 'totp', 'recoveryCodes'] as const;
export type ResettableFactor = (typeof RESETTABLE_FACTORS)[number];

/** A passkey as the console shows it: its name, dates and device, never its key. */
export const userPasskeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: timestampSchema,
  lastUsedAt: timestampSchema.nullable(),
  /** The browser and system it was last used from ("Chrome on Windows"). */
  lastUsedDevice: z.string().nullable(),
  /** The browser and system it was added from. */
  deviceHint: z.string().nullable(),
  /** Synced by its provider (iCloud Keychain, Google Password Manager…) rather than bound to one device. */
  backedUp: z.boolean(),
  deviceType: z.enum(['singleDevice', 'multiDevice']),
});
export type UserPasskey = z.output<typeof userPasskeySchema>;

/** What `GET /users/{id}/factors` answers: the user's factors besides the password, never a secret. */
export const userFactorsSchema = z.object({
  passkeys: z.array(userPasskeySchema),
  totp: z.object({ enrolled: z.boolean(), enrolledAt: timestampSchema.nullable() }),
  recoveryCodes: z.object({ remaining: z.number().int().min(0), generatedAt: timestampSchema.nullable() }),
  /** A code mailed at each sign-in, as the user's own setting. */
  emailCode: z.boolean(),
  /** Whether the caller may reset them (never their own; nobody who outranks them). */
  mayReset: z.boolean(),
});
export type UserFactors = z.output<typeof userFactorsSchema>;

/** Body of `POST /users/{id}/factors/reset`: each kind of factor to remove, once. */
export const resetFactorsBodySchema = z.strictObject({
  kinds: z
    .array(z.enum(RESETTABLE_FACTORS))
    .min(1)
    .refine((kinds) => new Set(kinds).size === kinds.length, { params: { code: 'users.factor_kinds_duplicate' } }),
});
export type ResetFactorsBody = z.output<typeof resetFactorsBodySchema>;

/** What a reset answers: the kinds it removed (none when the user held none of them any more). */
export const resetFactorsReplySchema = z.object({ removed: z.array(z.enum(RESETTABLE_FACTORS)) });
export type ResetFactorsReply = z.output<typeof resetFactorsReplySchema>;

/** The administration of users, their role access, their Excel files, and locking accounts. */
export const usersRoutes = {
  list: defineRoute({
    method: 'GET', path: USERS, endpoint: 'users.list', access: 'roles',
    summary: 'Lists the users the caller reaches, filtered, sorted and paged',
    query: userListQuerySchema,
    response: estimatedListPage(userListItemSchema).extend({
      next: z.string().optional().describe('Present when more rows follow: the `cursor` of the next page'),
    }),
  }),
  create: defineRoute({
    method: 'POST', path: USERS, endpoint: 'users.create', access: 'roles',
    summary: 'Creates a user, optionally with a password and an invitation',
    body: newUserSchema, required: NEW_USER_REQUIRED,
    response: createdUserSchema, status: 201,
  }),
  export: defineRoute({
    method: 'GET', path: `${USERS}/export`, endpoint: 'users.export', access: 'roles',
    summary: 'The users list, as filtered and sorted, as an Excel file',
    query: userExportQuerySchema, produces: XLSX,
  }),
  template: defineRoute({
    method: 'GET', path: `${USERS}/template`, endpoint: 'users.template', access: 'roles',
    summary: 'The Excel template of the users bulk import',
    produces: XLSX,
  }),
  bulkInsert: defineRoute({
    method: 'POST', path: `${USERS}/bulk_insert`, endpoint: 'users.bulkInsert', access: 'roles',
    summary: 'Queues the creation of the users of an uploaded Excel file (field `file`) as a background job; its result comes as a notification',
    consumes: 'multipart/form-data', status: 202, response: backgroundJobStartedSchema,
  }),
  changeUserNameTemplate: defineRoute({
    method: 'GET', path: `${USERS}/changeUserNameTemplate`, endpoint: 'users.changeUserNameTemplate', access: 'roles',
    summary: 'The Excel template of the user-name change',
    produces: XLSX,
  }),
  changeUserName: defineRoute({
    method: 'POST', path: `${USERS}/changeUserName`, endpoint: 'users.changeUserName', access: 'roles',
    summary: 'Queues the renaming of the users of an uploaded Excel file (field `file`) as a background job; its result comes as a notification',
    consumes: 'multipart/form-data', status: 202, response: backgroundJobStartedSchema,
  }),
  checkPermissions: defineRoute({
    method: 'GET', path: `${USERS}/check/permissions/:id`, endpoint: 'users.checkPermissions', access: 'roles',
    summary: "The user's groups and, per application, their effective role names",
    params: idParams, response: userPermissionsSchema,
  }),
  invite: defineRoute({
    method: 'POST', path: `${USERS}/inviteUser/:id`, endpoint: 'users.invite', access: 'roles',
    summary: 'Mails the user a 7-day link to choose their password',
    params: idParams, response: operationReplySchema,
  }),
  changePassword: defineRoute({
    method: 'POST', path: `${USERS}/change-password/:userId`, endpoint: 'users.changePassword', access: 'roles',
    summary: "Sets the user's password (temporary: changed at the next sign-in) and ends their sessions",
    params: z.object({ userId: idSchema }),
    body: changePasswordSchema,
    required: { password: 'users.new_password_required', confirmPassword: 'users.password_confirmation_required' },
    response: operationReplySchema,
  }),
  get: defineRoute({
    method: 'GET', path: `${USERS}/:id`, endpoint: 'users.get', access: 'roles',
    summary: 'The user, with the detail fields',
    params: idParams, response: userDetailSchema,
  }),
  update: defineRoute({
    method: 'PUT', path: `${USERS}/:id`, endpoint: 'users.update', access: 'roles',
    summary: "Changes the user's editable fields",
    params: idParams, body: updateUserSchema, required: UPDATE_USER_REQUIRED,
    response: userDetailSchema,
  }),
  delete: defineRoute({
    method: 'DELETE', path: `${USERS}/:id`, endpoint: 'users.delete', access: 'roles',
    summary: 'Deletes the user, their memberships and tokens, and ends their sessions',
    params: idParams,
  }),
  groups: defineRoute({
    method: 'GET', path: `${USERS}/:id/groups`, endpoint: 'users.groups', access: 'roles',
    summary: "The user's groups, by name",
    params: idParams, response: listPage(userGroupSchema),
  }),
  tenants: defineRoute({
    method: 'GET', path: `${USERS}/:id/tenants`, endpoint: 'users.tenants', access: 'roles',
    summary: 'The tenants the user belongs to, the Global tenant first, with role badges',
    params: idParams, response: listPage(userTenantSchema),
  }),
  roles: defineRoute({
    method: 'GET', path: `${USERS}/:id/roles`, endpoint: 'users.roles', access: 'roles',
    summary: "Per application, the user's role badges and the roles that can be picked",
    params: idParams, response: z.object({ items: z.array(applicationAccessSchema) }),
  }),
  grantRoles: defineRoute({
    method: 'PUT', path: `${USERS}/:id/roles/:applicationId`, endpoint: 'users.grantRoles', access: 'roles',
    summary: "Grants roles of the application on the user's own membership of a tenant (Global by default)",
    params: userApplicationParams, body: grantRolesSchema, response: applicationAccessSchema,
  }),
  revokeRoles: defineRoute({
    method: 'DELETE', path: `${USERS}/:id/roles/:applicationId`, endpoint: 'users.revokeRoles', access: 'roles',
    summary: "Removes one own role badge, or (no roleId) every own role of the application",
    params: userApplicationParams, query: revokeRolesQuerySchema, response: applicationAccessSchema,
  }),
  factors: defineRoute({
    method: 'GET', path: `${USERS}/:id/factors`, endpoint: 'users.factors', access: 'roles',
    summary: "The user's sign-in factors besides the password (passkeys, authenticator app, recovery codes, e-mailed code), never a secret",
    params: idParams, response: userFactorsSchema,
  }),
  resetFactors: defineRoute({
    method: 'POST', path: `${USERS}/:id/factors/reset`, endpoint: 'users.resetFactors', access: 'roles',
    summary: "Removes kinds of the user's sign-in factors (a lost device); the user is told by mail; their sessions go on",
    params: idParams, body: resetFactorsBodySchema, required: { kinds: 'users.factor_kinds_required' },
    response: resetFactorsReplySchema,
    errors: { 400: 'the caller’s own account (users.cannot_reset_own_factors)', 403: 'an account that outranks the caller' },
  }),
  /**
   * The spec's paths and method: a GET that changes state is safe here only because these paths
   * take nothing but the bearer token, which a cross-site page cannot attach to a link or an image.
   */
  lock: defineRoute({
    method: 'GET', path: '/api/v1/account/lock/:id', endpoint: 'users.lock', access: 'roles',
    summary: "Locks the account permanently and ends the user's sessions",
    params: idParams, response: lockReplySchema,
  }),
  unlock: defineRoute({
    method: 'GET', path: '/api/v1/account/unlock/:id', endpoint: 'users.unlock', access: 'roles',
    summary: 'Lifts every lock of the account and clears its failure counters',
    params: idParams, response: lockReplySchema,
  }),
} satisfies Record<string, RouteContract>;
