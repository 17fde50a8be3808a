import { z } from 'zod';
import { idParams, idSchema, listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { timestampSchema } from './users.js';

/**
 * What a webhook endpoint may hear. Events about one application (its roles granted or revoked,
 * sign-ins to it, its own changes, operation requests for its roles) also reach the endpoints
 * registered for that application; the others reach the global endpoints only.
 */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deleted',
  'user.locked',
  'user.unlocked',
  'user.password_changed',
  'user.factors_changed',
  'role.granted',
  'role.revoked',
  'group.member_added',
  'group.member_removed',
  'sign_in.succeeded',
  'sign_in.failed',
  'operation_request.created',
  'operation_request.approved',
  'operation_request.rejected',
  'application.changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_LIMITS = { url: 2000, description: 500 } as const;

/** Where a delivery is: waiting for its (next) attempt, received (a 2xx answer), or given up after a day of attempts. */
export const WEBHOOK_DELIVERY_STATUSES = ['Pending', 'Succeeded', 'Failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

const webhookFields = {
  /** Where deliveries are posted: https (http only on this computer); private addresses only where the deployment allows them. */
  url: z.string().trim().min(1).max(WEBHOOK_LIMITS.url),
  description: z
    .string()
    .trim()
    .max(WEBHOOK_LIMITS.description)
    .nullish()
    .transform((value) => value || null),
  /** The events it hears, one at least. */
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length),
  /** Off: nothing is delivered to it (an endpoint that keeps failing is turned off by the product). */
  enabled: z.boolean().default(true),
};

/** Body of `POST /webhooks`. */
export const newWebhookSchema = z.strictObject({
  ...webhookFields,
  /** The application whose events it hears besides the global ones; null or absent: a global endpoint. */
  applicationId: z.string().trim().min(1).max(64).nullish(),
});
export type NewWebhook = z.input<typeof newWebhookSchema>;

/** Body of `PUT /webhooks/{id}`: the endpoint's settings; its application stays as created. */
export const updateWebhookSchema = z.strictObject(webhookFields);
export type WebhookChanges = z.input<typeof updateWebhookSchema>;

/** An endpoint as the console shows it. Its secret is never part of it. */
export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  applicationId: z.string().nullable(),
  applicationName: z.string().nullable(),
  enabled: z.boolean(),
  /** Why the product turned it off (it kept failing), or null. */
  disabledReason: z.string().nullable(),
  /** Until when the secret before the last rotation is still signed with, or null. */
  previousSecretExpiresAt: timestampSchema.nullable(),
  createdAt: timestampSchema,
  createdByName: z.string().nullable(),
  /** Deliveries waiting for an attempt, and those given up in the last day. */
  pendingDeliveries: z.number().int(),
  failedDeliveries: z.number().int(),
});
export type Webhook = z.output<typeof webhookSchema>;

/** What a creation answers: the endpoint and, this once, its signing secret (`whsec_…`). */
export const savedWebhookSchema = webhookSchema.extend({ secret: z.string().nullable() });
export type SavedWebhook = z.output<typeof savedWebhookSchema>;

/** A new signing secret, shown once; the previous one is still signed with for a day. */
export const webhookSecretSchema = z.object({ secret: z.string(), previousSecretExpiresAt: timestampSchema });
export type WebhookSecret = z.output<typeof webhookSecretSchema>;

/** One event's delivery to one endpoint. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The last attempt's HTTP status, or null (no answer: refused, timed out). */
  lastStatusCode: z.number().int().nullable(),
  lastDurationMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: timestampSchema,
  lastAttemptAt: timestampSchema.nullable(),
  nextAttemptAt: timestampSchema.nullable(),
  deliveredAt: timestampSchema.nullable(),
});
export type WebhookDelivery = z.output<typeof webhookDeliverySchema>;

export const webhookDeliveriesQuerySchema = listQuery({ sortable: ['createdAt'], defaultOrder: 'createdAt desc', maxTop: 500 }).extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});

const WEBHOOKS = '/api/v1/admin/webhooks';

/** `/api/v1/admin/webhooks/*`: administrators register endpoints and follow their deliveries. */
export const webhooksRoutes = {
  list: defineRoute({
    method: 'GET',
    path: WEBHOOKS,
    endpoint: 'webhooks.list',
    access: 'roles',
    summary: 'The webhook endpoints, with their pending and failed deliveries',
    response: listPage(webhookSchema),
  }),
  get: defineRoute({
    method: 'GET',
    path: `${WEBHOOKS}/:id`,
    endpoint: 'webhooks.get',
    access: 'roles',
    summary: 'One webhook endpoint',
    params: idParams,
    response: webhookSchema,
  }),
  create: defineRoute({
    method: 'POST',
    path: WEBHOOKS,
    endpoint: 'webhooks.create',
    access: 'roles',
    summary: 'Registers an endpoint for the events named (global, or for one application); answers its signing secret once',
    body: newWebhookSchema,
    status: 201,
    response: savedWebhookSchema,
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${WEBHOOKS}/:id`,
    endpoint: 'webhooks.update',
    access: 'roles',
    summary: 'Changes an endpoint: its address, description, events, on or off',
    params: idParams,
    body: updateWebhookSchema,
    response: webhookSchema,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: `${WEBHOOKS}/:id`,
    endpoint: 'webhooks.delete',
    access: 'roles',
    summary: 'Removes an endpoint and its deliveries',
    params: idParams,
    status: 204,
  }),
  rotateSecret: defineRoute({
    method: 'POST',
    path: `${WEBHOOKS}/:id/rotateSecret`,
    endpoint: 'webhooks.rotateSecret',
    access: 'roles',
    summary: 'A new signing secret, answered once; deliveries carry signatures of both for a day',
    params: idParams,
    response: webhookSecretSchema,
  }),
  deliveries: defineRoute({
    method: 'GET',
    path: `${WEBHOOKS}/:id/deliveries`,
    endpoint: 'webhooks.deliveries',
    access: 'roles',
    summary: "An endpoint's deliveries, newest first: status, attempts, the last answer's code and time",
    params: idParams,
    query: webhookDeliveriesQuerySchema,
    response: listPage(webhookDeliverySchema),
  }),
  resend: defineRoute({
    method: 'POST',
    path: `${WEBHOOKS}/:id/deliveries/:deliveryId/resend`,
    endpoint: 'webhooks.resend',
    access: 'roles',
    summary: 'Sends a delivery again (same event, same webhook-id), whatever its status',
    params: z.object({ id: idSchema, deliveryId: idSchema }),
    response: webhookDeliverySchema,
  }),
} satisfies Record<string, RouteContract>;
