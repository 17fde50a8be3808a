import { z } from 'zod';
import { HIERARCHY_TYPES, IDENTITY_TYPES, OPERATION_REQUEST_STATUSES, OPERATION_REQUEST_TYPES } from '../domain.js';
import { idParams, idSchema, listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { roleOriginSchema } from './role-origins.js';
import { timestampSchema } from './users.js';

const OPERATION_REQUESTS = '/api/v1/admin/operationRequests';

/**
 * The internal categories (users.internal_category, compared case-insensitively) whose consultants
 * may approve a tenant's operation requests, and auto-approve their own at creation.
 */
export const APPROVER_CATEGORIES = [
  'manager',
  'project manager',
  'knowledge master',
  'team leader',
  'technical office leader',
  'country manager',
  'director',
] as const;

/** Whether an internal category is one of the approvers' (case and surrounding spaces ignored). */
export function isApproverCategory(category: string | null | undefined): boolean {
  return !!category && (APPROVER_CATEGORIES as readonly string[]).includes(category.trim().toLowerCase());
}

/** Bulk approve and bulk reject take at most this many requests at once. */
export const OPERATION_REQUESTS_BULK_MAX = 100;

const flag = z
  .enum(['true', 'false', 'True', 'False', 'TRUE', 'FALSE', '1', '0'])
  .transform((value) => value === '1' || value.toLowerCase() === 'true');

/** A role as a request names it. */
export const operationRequestRoleSchema = z.object({
  roleId: z.string(),
  roleName: z.string(),
  applicationId: z.string(),
  applicationName: z.string(),
});
export type OperationRequestRole = z.output<typeof operationRequestRoleSchema>;

/** An operation request as the Access Requests table shows it. */
export const operationRequestSchema = z.object({
  id: z.string(),
  type: z.enum(OPERATION_REQUEST_TYPES),
  status: z.enum(OPERATION_REQUEST_STATUSES),
  /** The target user's or group's name. */
  displayName: z.string(),
  email: z.string().nullable(),
  identityType: z.enum(IDENTITY_TYPES),
  identityId: z.string(),
  tenantId: z.string(),
  tenantName: z.string(),
  modificationDate: timestampSchema,
  createdByDisplayName: z.string().nullable(),
  /** The caller created it (and so may cancel or edit it while it waits). */
  isMine: z.boolean(),
  /** The caller may approve or reject it now. */
  canApprove: z.boolean(),
  /** The display names of who may approve it (the tenant's approving consultants; administrators always may). */
  approvers: z.array(z.string()),
  /** The complete set of operation-request roles the identity is to hold in the tenant. */
  roles: z.array(operationRequestRoleSchema),
  isInheritable: z.boolean(),
  /** Counts the changes of its roles: an approval names the version the approver saw. */
  version: z.number().int(),
  /** Why it was rejected or rolled back. */
  reason: z.string().nullable(),
});
export type OperationRequest = z.output<typeof operationRequestSchema>;

export const operationRequestListSchema = listPage(operationRequestSchema);

export const OPERATION_REQUEST_SORT_FIELDS = ['modificationDate', 'displayName', 'email', 'tenantName', 'status', 'createdByDisplayName'] as const;

/** The wizard's Done: the complete desired set of operation-request roles of the identity in the tenant. */
export const operationRequestBodySchema = z.strictObject({
  tenantId: idSchema,
  identityType: z.enum(IDENTITY_TYPES),
  identityId: idSchema,
  isInheritable: z.boolean().default(true),
  roles: z.array(idSchema).max(500),
  autoApprove: z.boolean().optional(),
});
export type OperationRequestBody = z.input<typeof operationRequestBodySchema>;

/** Editing a waiting request: its roles and inheritance. */
export const operationRequestEditSchema = z.strictObject({
  isInheritable: z.boolean().optional(),
  roles: z.array(idSchema).max(500),
});

export const operationRequestDecisionSchema = z.strictObject({ reason: z.string().trim().max(1000).optional() });

export const operationRequestBulkSchema = z.strictObject({
  ids: z.array(idSchema).min(1).max(OPERATION_REQUESTS_BULK_MAX),
  reason: z.string().trim().max(1000).optional(),
});

/** An approval names the version of the request the approver saw (a request changed since is not applied). */
export const operationRequestApprovalSchema = z.strictObject({ version: z.number().int().min(1) });

/** A bulk approval names, for each request, the version the approver saw. */
export const operationRequestBulkApprovalSchema = operationRequestBulkSchema.extend({
  versions: z.record(z.string(), z.number().int().min(1)),
});

/** One request's outcome in a bulk decision: its new status, or the message that refused it. */
export const operationRequestOutcomeSchema = z.object({
  id: z.string(),
  status: z.enum(OPERATION_REQUEST_STATUSES).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export const operationRequestBulkResultSchema = z.object({ items: z.array(operationRequestOutcomeSchema) });

/** One role of an application as the wizard's permission step shows it. */
export const permissionRoleSchema = z.object({
  roleId: z.string(),
  roleName: z.string(),
  /** Whether the identity holds it in the tenant, and how. */
  held: z.enum(HIERARCHY_TYPES).nullable(),
  /** False when held by hierarchy only: shown, never sent. */
  editable: z.boolean(),
  /** Every way the identity holds it in the tenant (empty when it does not): its own name, a group (named), a parent tenant (named). */
  origins: z.array(roleOriginSchema),
});

export const identityPermissionsSchema = z.object({
  identityType: z.enum(IDENTITY_TYPES),
  identityId: z.string(),
  tenantId: z.string(),
  isInheritable: z.boolean(),
  applications: z.array(z.object({ applicationId: z.string(), applicationName: z.string(), roles: z.array(permissionRoleSchema) })),
  /** The request waiting for approval for this identity and tenant, if any. */
  waitingRequest: operationRequestSchema.nullable(),
});
export type IdentityPermissions = z.output<typeof identityPermissionsSchema>;

export const operationRequestHistorySchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      /** Who acted. */
      email: z.string().nullable(),
      date: timestampSchema,
      requestType: z.string(),
      status: z.enum(OPERATION_REQUEST_STATUSES),
    }),
  ),
});

/** `/api/v1/admin/operationRequests`: requests for roles in a tenant, waiting for a second person's approval. */
export const operationRequestsRoutes = {
  list: defineRoute({
    method: 'GET',
    path: OPERATION_REQUESTS,
    endpoint: 'operationRequests.list',
    access: 'roles',
    summary:
      'Lists the operation requests of the tenants the caller consults for (every tenant for administrators); searchQuery ($search) matches the target, the requester or the tenant',
    query: listQuery({ sortable: OPERATION_REQUEST_SORT_FIELDS, defaultOrder: 'modificationDate desc' }).extend({
      tenantId: idSchema.optional(),
      status: z.enum(OPERATION_REQUEST_STATUSES).optional(),
      onlyUser: flag.default(false),
      external: flag.default(false),
      searchQuery: z.string().trim().max(200).optional(),
      take: z.coerce.number().int().min(1).max(1000).optional(),
    }),
    response: operationRequestListSchema,
  }),
  create: defineRoute({
    method: 'POST',
    path: OPERATION_REQUESTS,
    endpoint: 'operationRequests.create',
    access: 'roles',
    summary: 'Requests the complete set of operation-request roles of a user or group in a tenant; with autoApprove (approvers only) applies it at once',
    body: operationRequestBodySchema,
    response: operationRequestSchema,
    status: 201,
  }),
  permissions: defineRoute({
    method: 'GET',
    path: `${OPERATION_REQUESTS}/permissions`,
    endpoint: 'operationRequests.permissions',
    access: 'roles',
    summary: "The identity's operation-request roles in the tenant as the wizard shows them, with the request waiting for it",
    query: z.object({ identityId: idSchema, tenantId: idSchema, isGroup: flag.default(false) }),
    response: identityPermissionsSchema,
  }),
  createPermissions: defineRoute({
    method: 'POST',
    path: `${OPERATION_REQUESTS}/permissions`,
    endpoint: 'operationRequests.createPermissions',
    access: 'roles',
    summary: 'The same as POST /operationRequests, with the tenant and autoApprove in the query',
    query: z.object({ tenantId: idSchema, autoApprove: flag.default(false) }),
    // The query's tenant decides; the body may repeat it.
    body: operationRequestBodySchema.extend({ tenantId: idSchema.optional() }),
    response: operationRequestSchema,
    status: 201,
  }),
  edit: defineRoute({
    method: 'PUT',
    path: `${OPERATION_REQUESTS}/permissions/:id`,
    endpoint: 'operationRequests.edit',
    access: 'roles',
    summary: 'Changes the roles of a waiting request (its requester only)',
    params: idParams,
    body: operationRequestEditSchema,
    response: operationRequestSchema,
  }),
  approveInBulk: defineRoute({
    method: 'POST',
    path: `${OPERATION_REQUESTS}/approveInBulk`,
    endpoint: 'operationRequests.approveInBulk',
    access: 'roles',
    summary: `Approves up to ${OPERATION_REQUESTS_BULK_MAX} requests, each on its own and as the version the approver saw; answers each one's outcome`,
    body: operationRequestBulkApprovalSchema,
    response: operationRequestBulkResultSchema,
  }),
  rejectInBulk: defineRoute({
    method: 'POST',
    path: `${OPERATION_REQUESTS}/rejectInBulk`,
    endpoint: 'operationRequests.rejectInBulk',
    access: 'roles',
    summary: `Rejects up to ${OPERATION_REQUESTS_BULK_MAX} requests, each on its own; answers each one's outcome`,
    body: operationRequestBulkSchema,
    response: operationRequestBulkResultSchema,
  }),
  approve: defineRoute({
    method: 'POST',
    path: `${OPERATION_REQUESTS}/approve/:id`,
    endpoint: 'operationRequests.approve',
    access: 'roles',
    summary: 'Approves a waiting request, as the version the approver saw, and applies its roles (never one the caller created); 409 when changed since, already decided or rolled back',
    params: idParams,
    body: operationRequestApprovalSchema,
    response: operationRequestSchema,
  }),
  reject: defineRoute({
    method: 'POST',
    path: `${OPERATION_REQUESTS}/reject/:id`,
    endpoint: 'operationRequests.reject',
    access: 'roles',
    summary: 'Rejects a waiting request, with an optional reason',
    params: idParams,
    body: operationRequestDecisionSchema,
    response: operationRequestSchema,
  }),
  cancel: defineRoute({
    method: 'POST',
    path: `${OPERATION_REQUESTS}/cancel/:id`,
    endpoint: 'operationRequests.cancel',
    access: 'roles',
    summary: 'Cancels a waiting request (its requester only)',
    params: idParams,
    response: operationRequestSchema,
  }),
  history: defineRoute({
    method: 'GET',
    path: `${OPERATION_REQUESTS}/history/:id`,
    endpoint: 'operationRequests.history',
    access: 'roles',
    summary: 'The steps of a request, oldest first',
    params: idParams,
    response: operationRequestHistorySchema,
  }),
} satisfies Record<string, RouteContract>;
