import type { WebhookDeliveryStatus, WebhookEventType } from '@gatehouse/contracts';
import { likePattern, returnedRows } from '@gatehouse/core';
import type { Queryable } from '../../db.js';

export interface WebhookRow {
  id: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  application_id: string | null;
  application_name: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  created_by_name: string | null;
  pending_deliveries: number;
  failed_deliveries: number;
}

const COLUMNS = `w.id, w.url, w.description, w.events, w.application_id, a.display_name AS application_name, w.enabled, w.disabled_reason,
       CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret_expires_at END AS previous_secret_expires_at,
       w.created_at, u.user_name AS created_by_name,
       (SELECT count(*)::int FROM webhook_deliveries d WHERE d.endpoint_id = w.id AND d.status = 'Pending') AS pending_deliveries,
       (SELECT count(*)::int FROM webhook_deliveries d WHERE d.endpoint_id = w.id AND d.status = 'Failed' AND d.last_attempt_at > now() - interval '1 day') AS failed_deliveries
  FROM webhook_endpoints w
  LEFT JOIN applications a ON a.id = w.application_id
  LEFT JOIN users u ON u.id = w.created_by`;

export function listWebhooks(db: Queryable): Promise<WebhookRow[]> {
  return db.query(`SELECT ${COLUMNS} ORDER BY w.created_at, w.id`);
}

export async function findWebhook(db: Queryable, id: string, lock = false): Promise<WebhookRow | undefined> {
  if (lock) await db.query('SELECT id FROM webhook_endpoints WHERE id = $1 FOR UPDATE', [id]);
  const [row] = await db.query<WebhookRow[]>(`SELECT ${COLUMNS} WHERE w.id = $1`, [id]);
  return row;
}

export async function insertWebhook(
  db: Queryable,
  record: { url: string; description: string | null; events: string[]; applicationId: string | null; enabled: boolean; secretEncrypted: string; createdBy: string },
): Promise<string> {
  const [row] = await db.query<Array<{ id: string }>>(
    `INSERT INTO webhook_endpoints (url, description, events, application_id, enabled, secret_encrypted, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [record.url, record.description, record.events, record.applicationId, record.enabled, record.secretEncrypted, record.createdBy],
  );
  return row!.id;
}

/** Stores the settings; turned on again, an endpoint starts afresh (no longer failing). */
export async function updateWebhook(db: Queryable, id: string, record: { url: string; description: string | null; events: string[]; enabled: boolean }): Promise<void> {
  await db.query(
    `UPDATE webhook_endpoints
        SET url = $2, description = $3, events = $4, enabled = $5, modified_on = now(),
            disabled_reason = CASE WHEN $5 THEN NULL ELSE disabled_reason END,
            failing_since = CASE WHEN $5 AND NOT enabled THEN NULL ELSE failing_since END
      WHERE id = $1`,
    [id, record.url, record.description, record.events, record.enabled],
  );
}

export async function deleteWebhook(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM webhook_endpoints WHERE id = $1', [id]);
}

/** The new secret replaces the current one, which is kept (and signed with) until `overlapMs` from now. */
export async function rotateSecret(db: Queryable, id: string, secretEncrypted: string, overlapMs: number): Promise<Date> {
  const [row] = returnedRows<{ previous_secret_expires_at: Date }>(await db.query(
    `UPDATE webhook_endpoints
        SET previous_secret_encrypted = secret_encrypted, secret_encrypted = $2,
            previous_secret_expires_at = now() + $3::double precision * interval '1 millisecond', modified_on = now()
      WHERE id = $1 RETURNING previous_secret_expires_at`,
    [id, secretEncrypted, overlapMs],
  ));
  return row!.previous_secret_expires_at;
}

export async function applicationExists(db: Queryable, id: string): Promise<boolean> {
  const [row] = await db.query<unknown[]>('SELECT 1 FROM applications WHERE id = $1', [id]);
  return row !== undefined;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: WebhookEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  created_at: Date;
  last_attempt_at: Date | null;
  next_attempt_at: Date;
  delivered_at: Date | null;
}

const DELIVERY_COLUMNS = `d.id, d.event_id, ev.type AS event_type, d.status, d.attempts, d.last_status_code, d.last_duration_ms, d.last_error,
       d.created_at, d.last_attempt_at, d.next_attempt_at, d.delivered_at`;

/** A page of an endpoint's deliveries (of one status), newest first, and their total. */
export async function listDeliveries(
  db: Queryable,
  endpointId: string,
  options: { status: WebhookDeliveryStatus | null; search: string | null; top: number; skip: number; ascending: boolean },
): Promise<{ rows: DeliveryRow[]; count: number }> {
  // The search matches the event's type or the last error, as typed (no LIKE wildcard of the caller's).
  const where = `d.endpoint_id = $1 AND ($2::text IS NULL OR d.status = $2)
    AND ($3::text IS NULL OR ev.type ILIKE $3 OR d.last_error ILIKE $3)`;
  const filters = [endpointId, options.status, options.search ? likePattern(options.search) : null];
  const rows = await db.query<DeliveryRow[]>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
      WHERE ${where} ORDER BY d.created_at ${options.ascending ? 'ASC' : 'DESC'}, d.id LIMIT $4 OFFSET $5`,
    [...filters, options.top, options.skip],
  );
  const [total] = await db.query<Array<{ count: number }>>(
    `SELECT count(*)::int AS count FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id WHERE ${where}`,
    filters,
  );
  return { rows, count: total!.count };
}

/** Puts a delivery back in line now, for a fresh day of attempts; undefined when the endpoint has no such delivery. */
export async function requeueDelivery(db: Queryable, endpointId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
  const [updated] = returnedRows<{ id: string }>(await db.query(
    `UPDATE webhook_deliveries SET status = 'Pending', attempts = 0, next_attempt_at = now(), leased_until = NULL
      WHERE id = $1 AND endpoint_id = $2 RETURNING id`,
    [deliveryId, endpointId],
  ));
  if (!updated) return undefined;
  const [row] = await db.query<DeliveryRow[]>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id WHERE d.id = $1`, [deliveryId]);
  return row;
}
