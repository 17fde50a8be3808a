import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import type { Queryable } from '../db/data-source.js';
import { AUTHENTICATION_PROVIDERS, AUTHENTICATION_RESULTS } from '../domain/constants.js';
import { eventParameters, eventStatement, recordWebhookEvent } from '../webhooks/events.js';
import { systemLogEvents } from '../webhooks/system-log-events.js';

type Db = DataSource | EntityManager;

const actors = new AsyncLocalStorage<string>();

/**
 * Runs `work` on behalf of a request whose user is acted for by `actorId` (a God user signed in as
 * them): every log row written meanwhile, by whichever writer, names that actor. Without an actor
 * it runs `work` as it is.
 */
export function withActor<T>(actorId: string | null | undefined, work: () => T): T {
  return actorId ? actors.run(actorId, work) : work();
}

/** The actor of the request under way (see {@link withActor}), or null. */
export function currentActorId(): string | null {
  return actors.getStore() ?? null;
}

export interface AuthenticationLogEntry {
  userId?: string | null;
  userName: string;
  result: (typeof AUTHENTICATION_RESULTS)[number];
  reason?: string | null;
  provider?: (typeof AUTHENTICATION_PROVIDERS)[number];
  returnUrl?: string | null;
  applicationName?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  /** Who acted on behalf of the user; the request's actor when not given. */
  actorId?: string | null;
  /** False for a row that records no sign-in of its own (a device's confirmation, a token exchange): no webhook event. */
  signIn?: boolean;
}

/** The sign-in outcomes the webhooks tell, by the log's result. */
const SIGN_IN_EVENTS: Record<AuthenticationLogEntry['result'], 'sign_in.succeeded' | 'sign_in.failed' | undefined> = {
  Success: 'sign_in.succeeded',
  Failure: 'sign_in.failed',
  UserLocked: 'sign_in.failed',
  FullUserLocked: 'sign_in.failed',
  Unlocked: undefined,
};

/**
 * One row per sign-in attempt, whatever its outcome, and its webhook event (sign-in succeeded or
 * failed, for the global endpoints and those of the application) in the same statement.
 */
export async function writeAuthenticationLog(db: Db, entry: AuthenticationLogEntry): Promise<void> {
  const row = [
    entry.userId ?? null,
    entry.userName.slice(0, 256),
    entry.result,
    entry.reason?.slice(0, 500) ?? null,
    entry.provider ?? 'Local',
    entry.returnUrl?.slice(0, 2000) ?? null,
    entry.applicationName?.slice(0, 200) ?? null,
    entry.ip?.slice(0, 64) ?? null,
    entry.userAgent?.slice(0, 500) ?? null,
    entry.actorId ?? currentActorId(),
  ];
  const insert = `INSERT INTO authentication_logs
       (user_id, user_name, result, reason, authentication_provider, return_url, application_name, ip, user_agent, actor_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;
  const type = entry.signIn === false ? undefined : SIGN_IN_EVENTS[entry.result];
  if (!type) {
    await db.query(insert, row);
    return;
  }
  const event = eventParameters({
    type,
    data: {
      userId: entry.userId ?? null,
      userName: entry.userName,
      result: entry.result,
      reason: entry.reason ?? null,
      provider: entry.provider ?? 'Local',
      applicationName: entry.applicationName ?? null,
      ip: entry.ip ?? null,
    },
    applicationNames: entry.applicationName ? [entry.applicationName] : [],
  });
  await db.query(`WITH log AS (${insert} RETURNING 1), ${eventStatement(row.length + 1)}`, [...row, ...event]);
}

/** One administrative change, as the System Logs page lists it. */
export interface SystemLogEntry {
  operation: string;
  userId: string | null;
  userName: string | null;
  tenantId?: string | null;
  tenantName?: string | null;
  metadata?: Record<string, unknown>;
  /** Who acted on behalf of the user (signed in as them); the request's actor when not given. */
  actorId?: string | null;
}

/**
 * Writes a `system_logs` row. Pass the transaction's manager so the row is stored with the
 * change it describes, or not at all. A request made while signed in as the user (Identify As)
 * names its actor, whichever feature writes the row.
 */
export async function writeSystemLog(db: Queryable, entry: SystemLogEntry): Promise<void> {
  await db.query(
    `INSERT INTO system_logs (user_id, user_name, tenant_id, tenant_name, operation, metadata, actor_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      entry.userId,
      // Log rows keep names as they were; the columns bound their length.
      entry.userName?.slice(0, 256) ?? null,
      entry.tenantId ?? null,
      entry.tenantName?.slice(0, 200) ?? null,
      entry.operation,
      entry.metadata ?? {},
      entry.actorId ?? currentActorId(),
    ],
  );
  // What the change means for the webhooks, in the same transaction.
  for (const event of systemLogEvents(entry)) await recordWebhookEvent(db, event);
}

export interface SessionLogEntry {
  userId: string | null;
  userName: string;
  roles: string[];
  applicationName: string;
  tenantId?: string | null;
  date?: Date;
  /** Who acted on behalf of the user (the impersonation of the session the token was issued in). */
  actorId?: string | null;
}

/**
 * Rows written in the background, several per statement: a hot path (a token endpoint) adds a row
 * and goes on. Flushed every `intervalMs`, when `maxRows` are waiting, and on close.
 */
export class BufferedWriter<T> {
  private rows: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (rows: T[]) => Promise<void>,
    private readonly onError: (error: Error) => void,
    private readonly options: { maxRows: number; intervalMs: number } = { maxRows: 200, intervalMs: 250 },
  ) {}

  add(row: T): void {
    this.rows.push(row);
    if (this.rows.length >= this.options.maxRows) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes what is waiting; resolves when it (and any earlier flush) is stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.rows;
    this.rows = [];
    this.flushing = this.flushing.then(() => (rows.length ? this.write(rows).catch((e: Error) => this.onError(e)) : undefined));
    return this.flushing;
  }
}

/** One row per token issued to an application for a user; several rows in one statement. */
export async function writeSessionLogs(db: Db, entries: SessionLogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  // roles travel as one JSON document: unnest cannot take an array of arrays.
  await db.query(
    `INSERT INTO session_logs (user_id, user_name, roles, application_name, tenant_id, date, actor_id)
     SELECT r.user_id, r.user_name, ARRAY(SELECT jsonb_array_elements_text(r.roles)), r.application_name, r.tenant_id, r.date, r.actor_id
       FROM unnest($1::uuid[], $2::text[], $3::jsonb[], $4::text[], $5::uuid[], $6::timestamptz[], $7::uuid[])
            AS r(user_id, user_name, roles, application_name, tenant_id, date, actor_id)`,
    [
      entries.map((e) => e.userId),
      entries.map((e) => e.userName.slice(0, 256)),
      entries.map((e) => JSON.stringify(e.roles)),
      entries.map((e) => e.applicationName.slice(0, 200)),
      entries.map((e) => e.tenantId ?? null),
      entries.map((e) => e.date ?? new Date()),
      entries.map((e) => e.actorId ?? null),
    ],
  );
}
