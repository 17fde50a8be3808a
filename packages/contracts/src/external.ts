import { z } from 'zod';
import type { ExternalApiEntry } from './admin/log-names.js';
import { HIERARCHY_TYPES, LANGUAGES } from './domain.js';
import { idSchema, listPage, listQuery } from './list.js';
import { defineRoute, type RouteContract } from './route.js';

// The external API: what a business application federating through the provider asks about its
// own users and does to them. The caller is an application, never a console user: its
// client-credentials token for this API, or a personal access token issued for it. It sees and
// changes only its own roles, in the tenants where they are held (and those below them).

const EXTERNAL = '/api/v1/external';

/** Users invited in one call at most. */
export const EXTERNAL_INVITATIONS_MAX = 100;
/** Roles given in one invitation at most. */
export const EXTERNAL_ROLES_MAX = 50;
/** The header naming an idempotency key, lower-cased as the server reads headers. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** How long the first answer to an idempotency key is replayed. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;

const text = (max: number) => z.string().trim().min(1).max(max);
// pipe: a blank address is reported once, as missing, not also as malformed.
const email = text(256).pipe(z.email());

/** A role of the calling application: its id, or its name (as the application's tokens carry it). */
const roleReference = text(200);

/** A role of the application a user holds in a tenant: own, through the hierarchy (a group, an ancestor, the Global tenant) or both. */
export const externalRoleSchema = z.object({ roleId: z.string(), roleName: z.string(), hierarchyType: z.enum(HIERARCHY_TYPES) });

/** GetRoles: the user's roles of the application, tenant by tenant. */
export const externalUserRolesSchema = z.object({
  userId: z.string(),
  userName: z.string(),
  email: z.string(),
  tenants: z.array(z.object({ tenantId: z.string(), tenantName: z.string(), roles: z.array(externalRoleSchema) })),
});
export type ExternalUserRoles = z.output<typeof externalUserRolesSchema>;

/** RemoveRolesInTenant: what went, and what the user still holds there (through a group or the hierarchy). */
export const externalRemovedRolesSchema = z.object({
  userId: z.string(),
  tenantId: z.string(),
  removed: z.array(z.object({ roleId: z.string(), roleName: z.string() })),
  remaining: z.array(externalRoleSchema),
});

/** GetUserWithRole: one holder of the role, and the tenants where it is granted to them or to one of their groups. */
export const externalRoleHolderSchema = z.object({
  id: z.string(),
  userName: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  locked: z.boolean(),
  draft: z.boolean(),
  tenants: z.array(z.object({ tenantId: z.string(), tenantName: z.string() })),
});

/** One person to invite. A new user needs the names; an existing user (same user name or e-mail) keeps theirs. */
export const externalInviteeSchema = z.strictObject({
  email,
  firstName: text(100).optional(),
  lastName: text(100).optional(),
  /** A new user's language; the call's language when absent. */
  language: z.enum(LANGUAGES).optional(),
});

/** Body of both invitations: who, with which roles of the application, and whether the roles flow into the tenants below. */
export const externalInvitationSchema = z.strictObject({
  users: z.array(externalInviteeSchema).min(1).max(EXTERNAL_INVITATIONS_MAX),
  roles: z.array(roleReference).min(1).max(EXTERNAL_ROLES_MAX),
  isInheritable: z.boolean().default(true),
});
export type ExternalInvitation = z.output<typeof externalInvitationSchema>;

/** What became of one invitee. */
export const EXTERNAL_INVITATION_STATUSES = ['Created', 'Granted', 'Requested', 'Failed'] as const;

export const externalInvitationResultSchema = z.object({
  email: z.string(),
  /**
   * Created: a new user, given the roles (InviteUsers) and mailed an invitation; Granted: an existing
   * user, given the roles; Requested: an operation request waits for approval (a new user is a
   * draft until then); Failed: see `error`, nothing changed for this invitee.
   */
  status: z.enum(EXTERNAL_INVITATION_STATUSES),
  userId: z.string().nullable(),
  created: z.boolean(),
  /** Whether the invitation mail (a link to choose a password, valid 7 days) was queued. */
  invitationSent: z.boolean(),
  /** The roles the user did not hold there before (InviteUsers). */
  rolesAdded: z.array(z.string()),
  operationRequestId: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type ExternalInvitationResult = z.output<typeof externalInvitationResultSchema>;

export const externalInvitationAnswerSchema = z.object({ tenantId: z.string(), tenantName: z.string(), items: z.array(externalInvitationResultSchema) });
export type ExternalInvitationAnswer = z.output<typeof externalInvitationAnswerSchema>;

/** LockUser's answer. */
export const externalLockedUserSchema = z.object({
  id: z.string(),
  userName: z.string(),
  /** Whether the account itself is locked (one the application created and that holds nothing else). */
  locked: z.boolean(),
  wasLocked: z.boolean(),
  /** `account`: the account is locked; `application`: only its access to the calling application ended. */
  scope: z.enum(['account', 'application']),
});

/** A tenant the application sees; in the tree view with the visible tenants below it. */
export interface ExternalEntity {
  id: string;
  title: string;
  parentId: string | null;
  areaId: string | null;
  areaName: string | null;
  children: ExternalEntity[];
}
export const externalEntitySchema: z.ZodType<ExternalEntity> = z.lazy(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    parentId: z.string().nullable(),
    areaId: z.string().nullable(),
    areaName: z.string().nullable(),
    children: z.array(externalEntitySchema),
  }),
).meta({ id: 'ExternalEntity' }); // its name in the API document, where it refers to itself

/** The optional idempotency key of the invitations: a retry with the same key and body gets the first answer. */
const idempotencyHeaders = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[\x21-\x7e]+$/, 'visible ASCII characters only')
    .optional(),
});

/** A comma-separated list of role ids or names; blank is none. */
const roleList = z
  .string()
  .trim()
  .max(4000)
  .optional()
  .transform((value) => (value ? [...new Set(value.split(',').map((role) => role.trim()).filter(Boolean))] : undefined))
  .pipe(z.array(roleReference).max(EXTERNAL_ROLES_MAX).optional());

const userParams = z.object({ userId: idSchema });
const tenantParams = z.object({ tenantId: idSchema });

const EXAMPLE = {
  userId: '6f1c2a9e-3b7d-4c1e-9a8f-2d5e7b0c4a11',
  tenantId: '0b8e4f3a-1c2d-4e5f-8a9b-7c6d5e4f3a21',
  childTenantId: '4d3c2b1a-0f9e-4d8c-b7a6-958473625140',
  roleId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  operationRequestId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
};

const invitationExample = {
  users: [
    { email: 'ana.garcia@acme.example', firstName: 'Ana', lastName: 'García', language: 'es' },
    { email: 'john.smith@acme.example' },
  ],
  roles: ['Sales', EXAMPLE.roleId],
  isInheritable: true,
};

const IDEMPOTENCY_ERRORS = {
  409: 'A call with this idempotency key is still running: try again shortly',
  422: 'This idempotency key was used for another call (another route, tenant or body)',
} as const;

/** One route per event of the external API access log: every call writes its row. */
export const externalRoutes = {
  GetRoles: defineRoute({
    method: 'GET',
    path: `${EXTERNAL}/users/:userId/roles`,
    endpoint: 'external.GetRoles',
    access: 'application',
    summary:
      "The user's roles of the calling application, per tenant: where they are granted to the user or to one of their groups, and inherited from the tenants above; with tenantId, the roles that apply in that tenant. A user holding none of its roles is not found",
    params: userParams,
    query: z.object({ tenantId: idSchema.optional() }),
    response: externalUserRolesSchema,
    examples: {
      params: { userId: EXAMPLE.userId },
      response: {
        userId: EXAMPLE.userId,
        userName: 'ana.garcia@acme.example',
        email: 'ana.garcia@acme.example',
        tenants: [{ tenantId: EXAMPLE.tenantId, tenantName: 'ACME', roles: [{ roleId: EXAMPLE.roleId, roleName: 'Sales', hierarchyType: 'Own' }] }],
      },
    },
  }),
  RemoveRolesInTenant: defineRoute({
    method: 'DELETE',
    path: `${EXTERNAL}/users/:userId/tenants/:tenantId/roles`,
    endpoint: 'external.RemoveRolesInTenant',
    access: 'application',
    summary:
      "Removes the user's own roles of the calling application in the tenant (all of them, or those `roles` names); roles held through a group or inherited from a tenant above stay, and are answered as `remaining`",
    params: z.object({ userId: idSchema, tenantId: idSchema }),
    query: z.object({ roles: roleList }),
    response: externalRemovedRolesSchema,
    errors: { 400: 'A role named in `roles` is not one of the application' },
    examples: {
      params: { userId: EXAMPLE.userId, tenantId: EXAMPLE.tenantId },
      query: { roles: 'Sales' },
      response: {
        userId: EXAMPLE.userId,
        tenantId: EXAMPLE.tenantId,
        removed: [{ roleId: EXAMPLE.roleId, roleName: 'Sales' }],
        remaining: [{ roleId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', roleName: 'Reader', hierarchyType: 'ByHierarchy' }],
      },
    },
  }),
  GetUserWithRole: defineRoute({
    method: 'GET',
    path: `${EXTERNAL}/roles/:role/users`,
    endpoint: 'external.GetUserWithRole',
    access: 'application',
    summary:
      'The users holding a role of the calling application (its id or its name), granted to them or to one of their groups; with tenantId, those holding it in that tenant (granted there, above it through an inheritable membership, or in the Global tenant). Paged',
    params: z.object({ role: roleReference }),
    query: listQuery({ sortable: ['userName', 'email', 'firstName', 'lastName'], defaultOrder: 'userName asc' }).extend({ tenantId: idSchema.optional() }),
    response: listPage(externalRoleHolderSchema),
    examples: {
      params: { role: 'Sales' },
      query: { tenantId: EXAMPLE.tenantId, skip: 0, top: 10 },
      response: {
        items: [
          {
            id: EXAMPLE.userId,
            userName: 'ana.garcia@acme.example',
            email: 'ana.garcia@acme.example',
            firstName: 'Ana',
            lastName: 'García',
            locked: false,
            draft: false,
            tenants: [{ tenantId: EXAMPLE.tenantId, tenantName: 'ACME' }],
          },
        ],
        count: 1,
      },
    },
  }),
  InviteUsers: defineRoute({
    method: 'POST',
    path: `${EXTERNAL}/tenants/:tenantId/invitations`,
    endpoint: 'external.InviteUsers',
    access: 'application',
    summary:
      'Gives users, by e-mail, roles of the calling application in the tenant: at once to users the application already serves (holding one of its roles); any other address, known or not, becomes an operation request for the tenant’s approvers (a new address a draft user, invited once approved), answered Requested alike, without a user id. Each invitee succeeds or fails on its own. With an Idempotency-Key, a retry gets the first answer and invites nobody twice',
    params: tenantParams,
    headers: idempotencyHeaders,
    body: externalInvitationSchema,
    response: externalInvitationAnswerSchema,
    errors: { ...IDEMPOTENCY_ERRORS, 400: 'A role is not one of the application, or the tenant is the Global tenant' },
    examples: {
      params: { tenantId: EXAMPLE.tenantId },
      headers: { [IDEMPOTENCY_KEY_HEADER]: '5f0c6a52-7d0e-4bb0-9a55-2b1f8f6c0d3e' },
      body: invitationExample,
      response: {
        tenantId: EXAMPLE.tenantId,
        tenantName: 'ACME',
        items: [
          {
            email: 'ana.garcia@acme.example',
            status: 'Requested',
            userId: null,
            created: false,
            invitationSent: false,
            rolesAdded: [],
            operationRequestId: EXAMPLE.operationRequestId,
            error: null,
          },
          {
            email: 'john.smith@acme.example',
            status: 'Failed',
            userId: null,
            created: false,
            invitationSent: false,
            rolesAdded: [],
            operationRequestId: null,
            error: { code: 'external.names_required', message: 'A new user needs a first name and a last name' },
          },
        ],
      },
    },
  }),
  InviteUsersWithOperationRequest: defineRoute({
    method: 'POST',
    path: `${EXTERNAL}/tenants/:tenantId/invitationRequests`,
    endpoint: 'external.InviteUsersWithOperationRequest',
    access: 'application',
    summary:
      "As InviteUsers, but every invitee gets an operation request waiting for the tenant's approvers instead of the roles (a new address is a draft user, invited once approved); the user id is answered only for users the application already serves. An invitee whose roles operation requests may not give fails on its own. With an Idempotency-Key, a retry gets the first answer",
    params: tenantParams,
    headers: idempotencyHeaders,
    body: externalInvitationSchema,
    response: externalInvitationAnswerSchema,
    errors: { ...IDEMPOTENCY_ERRORS, 400: 'A role is not one of the application, or the tenant is the Global tenant' },
    examples: {
      params: { tenantId: EXAMPLE.tenantId },
      headers: { [IDEMPOTENCY_KEY_HEADER]: '0d9a1f3e-8c4b-4e2a-b6d5-7f8e9a0b1c2d' },
      body: invitationExample,
      response: {
        tenantId: EXAMPLE.tenantId,
        tenantName: 'ACME',
        items: [
          {
            email: 'ana.garcia@acme.example',
            status: 'Requested',
            userId: null,
            created: false,
            invitationSent: false,
            rolesAdded: [],
            operationRequestId: EXAMPLE.operationRequestId,
            error: null,
          },
        ],
      },
    },
  }),
  LockUser: defineRoute({
    method: 'POST',
    path: `${EXTERNAL}/users/:userId/lock`,
    endpoint: 'external.LockUser',
    access: 'application',
    summary:
      'For a user holding a role of the calling application: locks the account (until an administrator unlocks it) and ends its sessions when the application created it and it holds nothing else; otherwise takes its roles of the application and ends its access to that application alone. Never an account holding an Identity role beyond User',
    params: userParams,
    response: externalLockedUserSchema,
    errors: { 400: 'The account is the personal access token owner’s own', 403: 'The account holds an Identity role beyond User' },
    examples: {
      params: { userId: EXAMPLE.userId },
      response: { id: EXAMPLE.userId, userName: 'ana.garcia@acme.example', locked: false, wasLocked: false, scope: 'application' },
    },
  }),
  GetEntities: defineRoute({
    method: 'GET',
    path: `${EXTERNAL}/tenants`,
    endpoint: 'external.GetEntities',
    access: 'application',
    summary:
      "The tenants the calling application sees (where one of its roles is granted, and every tenant below them; all of them when granted in the Global tenant, which is never listed), flat (by title, $search on the title) or as trees (`view=tree`: the topmost visible tenants, each with the visible tenants below it). Paged",
    query: listQuery({ sortable: ['title'], defaultOrder: 'title asc' }).extend({ view: z.enum(['flat', 'tree']).default('flat') }),
    response: listPage(externalEntitySchema),
    errors: { 400: '$search is given with view=tree (it searches the flat view only)' },
    examples: {
      query: { view: 'tree', skip: 0, top: 10 },
      response: {
        items: [
          {
            id: EXAMPLE.tenantId,
            title: 'ACME',
            parentId: null,
            areaId: '7e6d5c4b-3a29-4180-9f8e-7d6c5b4a3928',
            areaName: 'Customers',
            children: [{ id: EXAMPLE.childTenantId, title: 'ACME Iberia', parentId: EXAMPLE.tenantId, areaId: '7e6d5c4b-3a29-4180-9f8e-7d6c5b4a3928', areaName: 'Customers', children: [] }],
          },
        ],
        count: 1,
      },
    },
  }),
} satisfies Record<ExternalApiEntry, RouteContract>;

/** The access log's event of an external API route (its key in externalRoutes). */
export function externalApiEntryOf(contract: Pick<RouteContract, 'endpoint'>): ExternalApiEntry | undefined {
  const entry = contract.endpoint.startsWith('external.') ? contract.endpoint.slice('external.'.length) : undefined;
  return entry !== undefined && Object.hasOwn(externalRoutes, entry) ? (entry as ExternalApiEntry) : undefined;
}
