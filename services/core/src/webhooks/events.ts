import type { WebhookEventType } from '@gatehouse/contracts';
import type { Queryable } from '../db/data-source.js';

/** An event to deliver: its type, what it says, and the applications it concerns (by id or by client_id). */
export interface WebhookEventInput {
  type: WebhookEventType;
  data: Record<string, unknown>;
  applicationIds?: readonly string[];
  applicationNames?: readonly string[];
}

/**
 * The statement that writes an event and its deliveries, its parameters from `$first`: the
 * endpoints that hear it (on, subscribed to its type, global or of an application it concerns)
 * each get a delivery; an event nobody hears is not written at all. Meant to follow the CTEs of the
 * caller's own statement, so that the change and its event are one statement.
 */
export function eventStatement(first: number): string {
  const [type, payload, ids, names] = [first, first + 1, first + 2, first + 3].map((n) => `$${n}`);
  return `targets AS (
     SELECT e.id FROM webhook_endpoints e
      WHERE e.enabled AND ${type}::text = ANY(e.events)
        AND (e.application_id IS NULL OR e.application_id = ANY(${ids}::text[])
             OR e.application_id IN (SELECT a.id FROM applications a WHERE a.name = ANY(${names}::text[])))
   ), event AS (
     INSERT INTO webhook_events (type, payload, application_ids)
     SELECT ${type}, ${payload}::jsonb,
            ${ids}::text[] || COALESCE((SELECT array_agg(a.id) FROM applications a WHERE a.name = ANY(${names}::text[])), '{}'::text[])
      WHERE EXISTS (SELECT 1 FROM targets)
     RETURNING id
   )
   INSERT INTO webhook_deliveries (endpoint_id, event_id) SELECT t.id, ev.id FROM targets t CROSS JOIN event ev`;
}

/** The parameters of {@link eventStatement} for one event. */
export function eventParameters(event: WebhookEventInput, now = new Date()): unknown[] {
  const payload = { type: event.type, timestamp: now.toISOString(), data: event.data };
  return [event.type, JSON.stringify(payload), [...(event.applicationIds ?? [])], [...(event.applicationNames ?? [])]];
}

/**
 * Writes an event for the webhooks, with one delivery per endpoint that hears it. Pass the
 * transaction of the change it describes: a change rolled back sends nothing, one committed is
 * never lost.
 */
export async function recordWebhookEvent(db: Queryable, event: WebhookEventInput): Promise<void> {
  await db.query(`WITH ${eventStatement(1)}`, eventParameters(event));
}

/** The rows an UPDATE or DELETE … RETURNING answered (TypeORM answers those as [rows, affectedCount] on PostgreSQL). */
export function returnedRows<T>(result: unknown): T[] {
  return Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : (result as T[]);
}
