import { randomBytes } from 'node:crypto';
import { AppError, webhookAddressProblem, writeSystemLog, type AppContext } from '@gatehouse/core';
import type { savedWebhookSchema, webhookDeliverySchema, webhookSchema, webhookSecretSchema, webhooksRoutes } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { Queryable } from '../../db.js';
import { findUserName } from '../directory/lookups.js';
import {
  applicationExists,
  deleteWebhook,
  findWebhook,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  requeueDelivery,
  rotateSecret,
  updateWebhook,
  type DeliveryRow,
  type WebhookRow,
} from './repository.js';

type Webhook = z.input<typeof webhookSchema>;
type SavedWebhook = z.input<typeof savedWebhookSchema>;
type WebhookSecret = z.input<typeof webhookSecretSchema>;
type WebhookDelivery = z.input<typeof webhookDeliverySchema>;
type NewWebhookBody = z.output<typeof webhooksRoutes.create.body>;
type WebhookChangesBody = z.output<typeof webhooksRoutes.update.body>;
type DeliveriesQuery = z.output<typeof webhooksRoutes.deliveries.query>;

/** How long deliveries carry a signature with the previous secret after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

const notFound = () => new AppError('webhooks.not_found', 404);

/** A signing secret as Standard Webhooks writes them: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The webhook endpoints: registered by administrators (global, or for one application), with a
 * signing secret shown once; every change in the system log, never the secret.
 */
export class WebhooksService {
  constructor(
    private readonly context: AppContext,
    /** Asks this node's deliverer to look for due deliveries now (a delivery sent again). */
    private readonly wake: () => void = () => undefined,
  ) {}

  async list(): Promise<{ items: Webhook[]; count: number }> {
    const rows = await listWebhooks(this.context.dataSource);
    return { items: rows.map(present), count: rows.length };
  }

  async get(id: string): Promise<Webhook> {
    const row = await findWebhook(this.context.dataSource, id);
    if (!row) throw notFound();
    return present(row);
  }

  async create(caller: Caller, body: NewWebhookBody): Promise<SavedWebhook> {
    this.checkAddress(body.url);
    const secret = newSecret();
    const id = await this.context.dataSource.transaction(async (em) => {
      if (body.applicationId && !(await applicationExists(em, body.applicationId))) {
        throw new AppError('webhooks.application_not_found', 400, {}, [{ field: 'applicationId', code: 'webhooks.application_not_found' }]);
      }
      const created = await insertWebhook(em, {
        url: body.url,
        description: body.description,
        events: [...new Set(body.events)],
        applicationId: body.applicationId ?? null,
        enabled: body.enabled,
        secretEncrypted: this.context.secrets.encrypt(secret),
        createdBy: caller.userId,
      });
      await this.log(em, caller, 'CreateWebhook', { webhookId: created, url: body.url, events: body.events, applicationId: body.applicationId ?? null });
      return created;
    });
    return { ...(await this.get(id)), secret };
  }

  async update(caller: Caller, id: string, body: WebhookChangesBody): Promise<Webhook> {
    this.checkAddress(body.url);
    await this.context.dataSource.transaction(async (em) => {
      const current = await findWebhook(em, id, true);
      if (!current) throw notFound();
      const next = { url: body.url, description: body.description, events: [...new Set(body.events)], enabled: body.enabled };
      await updateWebhook(em, id, next);
      const changes = Object.fromEntries(
        (['url', 'description', 'events', 'enabled'] as const)
          .filter((field) => JSON.stringify(current[field]) !== JSON.stringify(next[field]))
          .map((field) => [field, { from: current[field], to: next[field] }]),
      );
      if (Object.keys(changes).length) await this.log(em, caller, 'UpdateWebhook', { webhookId: id, url: current.url, changes });
    });
    return this.get(id);
  }

  async remove(caller: Caller, id: string): Promise<void> {
    await this.context.dataSource.transaction(async (em) => {
      const current = await findWebhook(em, id, true);
      if (!current) throw notFound();
      await deleteWebhook(em, id);
      await this.log(em, caller, 'DeleteWebhook', { webhookId: id, url: current.url });
    });
  }

  /** A new secret, answered once; the previous one is still signed with for a day, so the receiver can switch without losing a delivery. */
  async rotateSecret(caller: Caller, id: string): Promise<WebhookSecret> {
    const secret = newSecret();
    const previousSecretExpiresAt = await this.context.dataSource.transaction(async (em) => {
      const current = await findWebhook(em, id, true);
      if (!current) throw notFound();
      const expires = await rotateSecret(em, id, this.context.secrets.encrypt(secret), SECRET_OVERLAP_MS);
      await this.log(em, caller, 'RotateWebhookSecret', { webhookId: id, url: current.url });
      return expires;
    });
    return { secret, previousSecretExpiresAt };
  }

  async deliveries(id: string, query: DeliveriesQuery): Promise<{ items: WebhookDelivery[]; count: number }> {
    if (!(await findWebhook(this.context.dataSource, id))) throw notFound();
    const { rows, count } = await listDeliveries(this.context.dataSource, id, {
      status: query.status ?? null,
      search: query.$search ?? null,
      top: query.top,
      skip: query.skip,
      ascending: query.orderBy.direction === 'asc',
    });
    return { items: rows.map(presentDelivery), count };
  }

  /** Sends a delivery again now (the same event and webhook-id), with a fresh day of attempts. */
  async resend(caller: Caller, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const row = await this.context.dataSource.transaction(async (em) => {
      const current = await findWebhook(em, id, true);
      if (!current) throw notFound();
      const requeued = await requeueDelivery(em, id, deliveryId);
      if (!requeued) throw new AppError('webhooks.delivery_not_found', 404);
      await this.log(em, caller, 'ResendWebhookDelivery', { webhookId: id, url: current.url, deliveryId, eventId: requeued.event_id });
      return requeued;
    });
    this.wake();
    return presentDelivery(row);
  }

  /** An address deliveries may go to (the private-network rule of back-channel logout), else a 400 naming the problem. */
  private checkAddress(url: string): void {
    const problem = webhookAddressProblem(url, this.context.config.oidc.allowPrivateNetworkRequests);
    if (!problem) return;
    const code = problem === 'private' ? 'webhooks.private_address' : 'webhooks.invalid_url';
    throw new AppError(code, 400, {}, [{ field: 'url', code }]);
  }

  private async log(db: Queryable, caller: Caller, operation: string, metadata: Record<string, unknown>): Promise<void> {
    await writeSystemLog(db, { operation, userId: caller.userId, userName: await findUserName(db, caller.userId), metadata });
  }
}

function present(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    applicationId: row.application_id,
    applicationName: row.application_name,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    createdAt: row.created_at,
    createdByName: row.created_by_name,
    pendingDeliveries: row.pending_deliveries,
    failedDeliveries: row.failed_deliveries,
  };
}

function presentDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastDurationMs: row.last_duration_ms,
    lastError: row.last_error,
    createdAt: row.created_at,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.status === 'Pending' ? row.next_attempt_at : null,
    deliveredAt: row.delivered_at,
  };
}
