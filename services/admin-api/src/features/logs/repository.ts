import type {
  AuthenticationLog,
  AuthenticationLogQuery,
  ExternalApiAccessLog,
  ExternalApiAccessLogQuery,
  LogInstant,
  SessionLog,
  SessionLogQuery,
  Sort,
  SystemLog,
  SystemLogQuery,
} from '@gatehouse/contracts';
import { likePattern } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { MAX_DEPTH } from '../directory/lookups.js';

/** The four tables of the Logs page, by the name of their tab. */
export const LOG_TABLES = {
  authentication: 'authentication_logs',
  system: 'system_logs',
  session: 'session_logs',
  externalApiAccess: 'external_api_access_logs',
} as const;
export type LogKind = keyof typeof LOG_TABLES;

/** A tab's query without its page: what its filters, its sort and an export take. */
type Unpaged<Q> = Omit<Q, 'skip' | 'top'>;

/** What filtering, counting and sorting need of a tab. */
type LogTable<Q extends CommonQuery> = Pick<LogSource<Q, unknown, unknown>, 'table' | 'sort' | 'filters' | 'scope'>;

/** What every query of a tab gets: its filters (the list's query without its page) and the caller's areas. */
export interface LogFilter<Q> {
  query: Q;
  /** The caller's areas (an AreaAdministrator's); null for every area. */
  areaIds: string[] | null;
}

/** Where a batch of an export starts: after the row with this sort key (its SQL text) and id. */
export interface LogCursor {
  key: string;
  id: string;
}

/** How a sortable field sorts, and the type its cursor key is read back as. */
interface SortKey {
  sql: string;
  type: 'timestamptz' | 'text';
}

/** A tab: its table, columns, sortable fields, filters and how a row is answered. */
interface LogSource<Q extends CommonQuery, Row, Item> {
  table: string;
  /** The selected columns, over `${table} l` (and `from`'s joins). */
  columns: string;
  from?: string;
  sort: Record<Q['orderBy']['field'], SortKey>;
  /** The tab's own filters, added to `where`. */
  filters: (query: Q, where: Where) => void;
  /** Who an AreaAdministrator sees: the rows of their areas' users (and, for the system log, tenants). */
  scope: (areaIds: string[], where: Where) => void;
  toItem: (row: Row) => Item;
}

/** What every tab's query carries. */
interface CommonQuery {
  $search?: string;
  orderBy: Sort;
  startDate?: LogInstant;
  endDate?: LogInstant;
  user?: string;
}

/** A WHERE clause built from trusted SQL and numbered parameters. */
class Where {
  readonly params: unknown[] = [];
  private readonly clauses: string[] = [];

  /** Adds a value and answers its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(clause: string): void {
    this.clauses.push(clause);
  }

  get sql(): string {
    return this.clauses.length ? `WHERE ${this.clauses.join('\n    AND ')}` : '';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The date range, the user and the search: every tab's filters. */
function commonFilters(query: CommonQuery, where: Where): void {
  if (query.startDate) where.add(`l.date >= ${where.param(query.startDate.from)}`);
  if (query.endDate) where.add(`l.date < ${where.param(query.endDate.until)}`);
  // `user_name ILIKE` is read through the `<table>__user_name_trgm` index on `user_name::text`.
  if (query.user && UUID.test(query.user)) where.add(`l.user_id = ${where.param(query.user.toLowerCase())}`);
  else if (query.user) where.add(`l.user_name ILIKE ${where.param(likePattern(query.user))}`);
  if (query.$search) where.add(`l.user_name ILIKE ${where.param(likePattern(query.$search))}`);
}

/** Rows whose user (who signed in, acted, opened the session or called) belongs to one of the areas. */
const userInAreas = (areaIds: string[], where: Where) => `l.user_id IN (SELECT u.id FROM users u WHERE u.area_id = ANY(${where.param(areaIds)}::uuid[]))`;

/**
 * Who acted on behalf of the row's user (Identify As): their id, and their name as it is now
 * (display name, else user name; null once the account is deleted, which clears the id too).
 */
const ACTOR_COLUMNS = `l.actor_id, coalesce(nullif(btrim(concat_ws(' ', actor.first_name, actor.last_name)), ''), actor.user_name) AS actor_name`;
const ACTOR_JOIN = 'LEFT JOIN users actor ON actor.id = l.actor_id';

/** The actor of a row as every tab answers it. */
interface ActorColumns {
  actor_id: string | null;
  actor_name: string | null;
}
const actorOf = (row: ActorColumns) => ({ actorId: row.actor_id, actorName: row.actor_name });

const date: SortKey = { sql: 'l.date', type: 'timestamptz' };
const text = (sql: string): SortKey => ({ sql, type: 'text' });
/** A nullable column sorts as empty text, so that an export's cursor can step over it. */
const nullableText = (column: string): SortKey => text(`coalesce(${column}, '')`);

interface AuthenticationRow extends ActorColumns {
  id: string;
  date: Date;
  user_id: string | null;
  user_name: string;
  reason: string | null;
  result: AuthenticationLog['result'];
  authentication_provider: AuthenticationLog['authenticationProvider'];
  return_url: string | null;
  application_name: string | null;
  ip: string | null;
  user_agent: string | null;
}

export const authenticationLogs: LogSource<Unpaged<AuthenticationLogQuery>, AuthenticationRow, AuthenticationLog> = {
  table: LOG_TABLES.authentication,
  columns: `l.id, l.date, l.user_id, l.user_name, l.reason, l.result, l.authentication_provider, l.return_url, l.application_name, l.ip, l.user_agent, ${ACTOR_COLUMNS}`,
  from: ACTOR_JOIN,
  sort: {
    date,
    userName: text('l.user_name'),
    result: text('l.result'),
    authenticationProvider: text('l.authentication_provider'),
    applicationName: nullableText('l.application_name'),
    ip: nullableText('l.ip'),
  },
  filters: (query, where) => {
    if (query.result) where.add(`l.result = ${where.param(query.result)}`);
    if (query.provider) where.add(`l.authentication_provider = ${where.param(query.provider)}`);
  },
  scope: (areaIds, where) => where.add(userInAreas(areaIds, where)),
  toItem: (row) => ({
    id: String(row.id),
    date: row.date.toISOString(),
    userId: row.user_id,
    userName: row.user_name,
    reason: row.reason,
    result: row.result,
    authenticationProvider: row.authentication_provider,
    returnUrl: row.return_url,
    applicationName: row.application_name,
    ip: row.ip,
    userAgent: row.user_agent,
    ...actorOf(row),
  }),
};

interface SystemRow extends ActorColumns {
  id: string;
  date: Date;
  user_id: string | null;
  user_name: string | null;
  tenant_id: string | null;
  tenant_name: string | null;
  operation: string;
  metadata: Record<string, unknown>;
}

/**
 * The user a system log row is about, from its metadata: the expression of the
 * `system_logs__metadata_users` GIN index (migration LogFilters1764851400000), character for character.
 */
const SUBJECT_USERS_SQL = `(ARRAY[metadata->>'targetUserId', metadata->>'memberId', metadata->>'ownerId'])`;

export const systemLogs: LogSource<Unpaged<SystemLogQuery>, SystemRow, SystemLog> = {
  table: LOG_TABLES.system,
  columns: `l.id, l.date, l.user_id, l.user_name, l.tenant_id, l.tenant_name, l.operation, l.metadata, ${ACTOR_COLUMNS}`,
  from: ACTOR_JOIN,
  sort: { date, userName: nullableText('l.user_name'), tenantName: nullableText('l.tenant_name'), operation: text('l.operation') },
  filters: (query, where) => {
    if (query.operation) where.add(`l.operation = ${where.param(query.operation)}`);
    // The `system_logs__metadata_trgm` index is on `metadata::text`: the search sees keys and values as JSON writes them.
    if (query.intoMetadata) where.add(`l.metadata::text ILIKE ${where.param(likePattern(query.intoMetadata))}`);
    if (query.metadataTenantId) {
      where.add(`(l.tenant_id = ${where.param(query.metadataTenantId)}::uuid OR l.metadata->>'tenantId' = ${where.param(query.metadataTenantId)}::text)`);
    }
    if (query.metadataUserId) where.add(`${SUBJECT_USERS_SQL} @> ARRAY[${where.param(query.metadataUserId)}::text]`);
  },
  // An AreaAdministrator sees what their areas' users did, and what was done in their areas' tenants.
  scope: (areaIds, where) => {
    const areas = where.param(areaIds);
    where.add(`(l.user_id IN (SELECT u.id FROM users u WHERE u.area_id = ANY(${areas}::uuid[]))
         OR l.tenant_id IN (SELECT t.id FROM tenants t WHERE t.area_id = ANY(${areas}::uuid[])))`);
  },
  toItem: (row) => ({
    id: String(row.id),
    date: row.date.toISOString(),
    userId: row.user_id,
    userName: row.user_name,
    tenantId: row.tenant_id,
    tenantName: row.tenant_name,
    operation: row.operation,
    metadata: row.metadata ?? {},
    ...actorOf(row),
  }),
};

interface SessionRow extends ActorColumns {
  id: string;
  date: Date;
  user_id: string | null;
  user_name: string;
  roles: string[];
  application_name: string;
  tenant_id: string | null;
  tenant_name: string | null;
}

export const sessionLogs: LogSource<Unpaged<SessionLogQuery>, SessionRow, SessionLog> = {
  table: LOG_TABLES.session,
  columns: `l.id, l.date, l.user_id, l.user_name, l.roles, l.application_name, l.tenant_id, t.title AS tenant_name, ${ACTOR_COLUMNS}`,
  // The tenant's title as it is now: session rows keep only its id.
  from: `LEFT JOIN tenants t ON t.id = l.tenant_id ${ACTOR_JOIN}`,
  sort: { date, userName: text('l.user_name'), applicationName: text('l.application_name') },
  filters: (query, where) => {
    if (query.application) where.add(`l.application_name = ${where.param(query.application)}`);
    if (query.tenant && query.includeHierarchy) {
      // The tenant and every tenant below it; the depth bound only guards against a damaged tree.
      where.add(`l.tenant_id IN (
        WITH RECURSIVE below AS (
          SELECT id, 0 AS depth FROM tenants WHERE id = ${where.param(query.tenant)}
          UNION ALL
          SELECT c.id, b.depth + 1 FROM tenants c JOIN below b ON c.parent_id = b.id WHERE b.depth < ${MAX_DEPTH})
        SELECT id FROM below)`);
    } else if (query.tenant) {
      where.add(`l.tenant_id = ${where.param(query.tenant)}`);
    }
  },
  scope: (areaIds, where) => where.add(userInAreas(areaIds, where)),
  toItem: (row) => ({
    id: String(row.id),
    date: row.date.toISOString(),
    userId: row.user_id,
    userName: row.user_name,
    roles: row.roles ?? [],
    applicationName: row.application_name,
    tenantId: row.tenant_id,
    tenantName: row.tenant_name,
    ...actorOf(row),
  }),
};

interface ExternalApiAccessRow extends ActorColumns {
  id: string;
  date: Date;
  ip: string | null;
  user_id: string | null;
  user_name: string | null;
  api_entry: string;
  metadata: Record<string, unknown>;
}

export const externalApiAccessLogs: LogSource<Unpaged<ExternalApiAccessLogQuery>, ExternalApiAccessRow, ExternalApiAccessLog> = {
  table: LOG_TABLES.externalApiAccess,
  columns: `l.id, l.date, l.ip, l.user_id, l.user_name, l.api_entry, l.metadata, ${ACTOR_COLUMNS}`,
  from: ACTOR_JOIN,
  sort: { date, userName: nullableText('l.user_name'), apiEntry: text('l.api_entry'), ip: nullableText('l.ip') },
  filters: (query, where) => {
    if (query.ip) where.add(`l.ip = ${where.param(query.ip)}`);
    if (query.apiEntry) where.add(`l.api_entry = ${where.param(query.apiEntry)}`);
  },
  scope: (areaIds, where) => where.add(userInAreas(areaIds, where)),
  toItem: (row) => ({
    id: String(row.id),
    date: row.date.toISOString(),
    ip: row.ip,
    userId: row.user_id,
    userName: row.user_name,
    apiEntry: row.api_entry,
    metadata: row.metadata ?? {},
    ...actorOf(row),
  }),
};

/** The WHERE clause of a tab's filters and the caller's areas. */
function whereOf<Q extends CommonQuery>(source: LogTable<Q>, filter: LogFilter<Q>): Where {
  const where = new Where();
  commonFilters(filter.query, where);
  source.filters(filter.query, where);
  if (filter.areaIds !== null) source.scope(filter.areaIds, where);
  return where;
}

/** How many rows the filters select. */
export async function countLogs<Q extends CommonQuery>(db: Queryable, source: LogTable<Q>, filter: LogFilter<Q>): Promise<number> {
  const where = whereOf(source, filter);
  const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) AS count FROM ${source.table} l ${where.sql}`, where.params);
  return Number(row!.count);
}

/** The SQL of one page of a tab: sorted (ties by id, in the same direction) and paged. */
export function logPageSql<Q extends CommonQuery>(
  source: LogTable<Q> & { columns: string; from?: string },
  filter: LogFilter<Q>,
  page: { skip: number; top: number },
): { text: string; values: unknown[] } {
  const where = whereOf(source, filter);
  const { sql, direction } = orderOf(source, filter.query.orderBy);
  const text = `SELECT ${source.columns} FROM ${source.table} l ${source.from ?? ''}
      ${where.sql}
      ORDER BY ${sql} ${direction}, l.id ${direction}
      LIMIT ${where.param(page.top)} OFFSET ${where.param(page.skip)}`;
  return { text, values: where.params };
}

/**
 * One page of a tab and the number of rows the filters select. The page and the count are two
 * queries: a window count would read every matching row before the page could stop early on the
 * date index.
 */
export async function listLogs<Q extends CommonQuery, R, I>(
  db: Queryable,
  source: LogSource<Q, R, I>,
  filter: LogFilter<Q>,
  page: { skip: number; top: number },
): Promise<{ items: I[]; count: number }> {
  const sql = logPageSql(source, filter, page);
  const rows = await db.query<R[]>(sql.text, sql.values);
  // A page that is not full ends the list: its rows tell the count (an empty one only on the first page).
  const last = rows.length < page.top && (rows.length > 0 || page.skip === 0);
  const count = last ? page.skip + rows.length : await countLogs(db, source, filter);
  return { items: rows.map(source.toItem), count };
}

/**
 * The next `size` rows of an export after `after` (from the first without it), in the list's
 * order: a keyset on the sort key and the id, so every batch is read from where the last ended
 * (an OFFSET would read again every row before it). Each row carries its cursor.
 */
export async function logBatch<Q extends CommonQuery, R, I>(
  db: Queryable,
  source: LogSource<Q, R, I>,
  filter: LogFilter<Q>,
  after: LogCursor | null,
  size: number,
): Promise<Array<{ item: I; cursor: LogCursor }>> {
  const where = whereOf(source, filter);
  const { sql, direction, type } = orderOf(source, filter.query.orderBy);
  if (after) {
    where.add(`(${sql}, l.id) ${direction === 'DESC' ? '<' : '>'} (${where.param(after.key)}::${type}, ${where.param(after.id)}::bigint)`);
  }
  const rows = await db.query<Array<R & { cursor_key: string; id: string }>>(
    `SELECT ${source.columns}, (${sql})::text AS cursor_key FROM ${source.table} l ${source.from ?? ''}
      ${where.sql}
      ORDER BY ${sql} ${direction}, l.id ${direction}
      LIMIT ${where.param(size)}`,
    where.params,
  );
  return rows.map((row) => ({ item: source.toItem(row), cursor: { key: row.cursor_key, id: String(row.id) } }));
}

function orderOf<Q extends CommonQuery>(source: LogTable<Q>, orderBy: Sort): SortKey & { direction: 'ASC' | 'DESC' } {
  const key = (source.sort as Record<string, SortKey>)[orderBy.field] ?? date;
  return { ...key, direction: orderBy.direction === 'desc' ? 'DESC' : 'ASC' };
}

/** Result of one purge run: rows deleted per table, or `skipped` when another node was purging. */
export interface PurgeResult {
  deleted: Record<LogKind, number>;
  skipped: boolean;
}

/** Any constant shared by every node: the one holding it purges, the others skip their turn. */
const PURGE_LOCK = 7_418_220_047;

/** TypeORM answers a DELETE on postgres as `[rows, affectedCount]`. */
function affectedRows(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

/**
 * Deletes the log rows older than `retentionDays` days, oldest first, `batchSize` at a time: one
 * short transaction per batch, so no long lock is held and other writers go on. Each batch first
 * takes a transaction-level advisory lock without waiting; while another node holds it, this run
 * stops and leaves the work to that node. The cut-off is the database's clock, read once.
 */
export async function purgeLogs(
  db: { transaction<T>(work: (em: Queryable) => Promise<T>): Promise<T> },
  { retentionDays, batchSize = 5000, shouldStop = () => false }: { retentionDays: number; batchSize?: number; shouldStop?: () => boolean },
): Promise<PurgeResult> {
  const deleted: Record<LogKind, number> = { authentication: 0, system: 0, session: 0, externalApiAccess: 0 };
  let cutoff: Date | undefined;
  for (const kind of Object.keys(LOG_TABLES) as LogKind[]) {
    const table = LOG_TABLES[kind];
    for (;;) {
      if (shouldStop()) return { deleted, skipped: false };
      const batch = await db.transaction(async (em) => {
        const [lock] = await em.query<Array<{ locked: boolean; cutoff: Date }>>(
          `SELECT pg_try_advisory_xact_lock($1::bigint) AS locked, now() - make_interval(days => $2::int) AS cutoff`,
          [PURGE_LOCK, retentionDays],
        );
        if (!lock!.locked) return undefined;
        cutoff ??= lock!.cutoff;
        // The oldest rows first, through the date index; ctid finds them again without a second lookup.
        const result = await em.query(
          `DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE date < $1 ORDER BY date LIMIT $2)`,
          [cutoff, batchSize],
        );
        return affectedRows(result);
      });
      if (batch === undefined) return { deleted, skipped: true };
      deleted[kind] += batch;
      if (batch < batchSize) break;
    }
  }
  return { deleted, skipped: false };
}
