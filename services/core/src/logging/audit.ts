import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import type { Queryable } from '../db/data-source.js';
import { AUTHENTICATION_PROVIDERS, AUTHENTICATION_RESULTS } from '../domain/constants.js';

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
}

/** One row per sign-in attempt, whatever its outcome. */
export async function writeAuthenticationLog(db: Db, entry: AuthenticationLogEntry): Promise<void> {
  await db.query(
    `INSERT INTO authentication_logs
       (user_id, user_name, result, reason, authentication_provider, return_url, application_name, ip, user_agent, actor_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
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
    ],
  );
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
