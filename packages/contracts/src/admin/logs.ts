import { z } from 'zod';
import { AUTHENTICATION_PROVIDERS, AUTHENTICATION_RESULTS } from '../domain.js';
import { backgroundJobStartedSchema } from './dashboard.js';
import { idSchema, listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { EXTERNAL_API_ENTRIES, LOG_EXPORT_MAX_ROWS } from './log-names.js';

// The lists and limits without schemas, which the console imports.
export * from './log-names.js';

const LOGS = '/api/v1/admin/logs';

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * An instant of a date filter and the unit it was given in: `from` is its first millisecond,
 * `until` the first millisecond after it (`2025-03-01 10:00:00` stands for the whole second, a
 * bare date for the whole day).
 */
export interface LogInstant {
  from: Date;
  until: Date;
}

/** Reads `YYYY-MM-DD HH:mm:ss` (UTC), a bare date (UTC) or an ISO 8601 date-time with its offset; undefined when it is none of these or no real date. */
export function parseLogInstant(text: string): LogInstant | undefined {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const parts = [Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0)] as const;
  const millis = fraction ? Number(fraction.padEnd(3, '0').slice(0, 3)) : 0;
  const local = Date.UTC(...parts, millis);
  const check = new Date(local);
  // 2025-02-30 or 25:00 roll over into another date: they name none.
  if (
    check.getUTCFullYear() !== parts[0] ||
    check.getUTCMonth() !== parts[1] ||
    check.getUTCDate() !== parts[2] ||
    check.getUTCHours() !== parts[3] ||
    check.getUTCMinutes() !== parts[4] ||
    check.getUTCSeconds() !== parts[5]
  ) {
    return undefined;
  }
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const hours = Number(digits.slice(0, 2));
    const minutes = Number(digits.slice(2) || 0);
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
  }
  const from = local - offsetMinutes * 60_000;
  const unit = fraction ? 1 : s !== undefined ? 1000 : mi !== undefined ? 60_000 : 86_400_000;
  return { from: new Date(from), until: new Date(from + unit) };
}

/** A date filter: `YYYY-MM-DD HH:mm:ss` (UTC, as the console sends it), a bare date, or ISO 8601. */
const logDate = z
  .string()
  .trim()
  .max(40)
  .transform((value, ctx) => {
    if (value === '') return undefined;
    const instant = parseLogInstant(value);
    if (!instant) {
      ctx.addIssue({ code: 'invalid_format', format: 'datetime', input: value, message: 'expected YYYY-MM-DD HH:mm:ss or an ISO 8601 date' });
      return z.NEVER;
    }
    return instant;
  })
  .optional();

/** A free-text filter: blank is none. */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => value || undefined);

/** One of a closed list, or blank for none. */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .union([z.literal(''), z.enum(values)])
    .optional()
    .transform((value) => value || undefined);

/** An id, or blank for none. */
const optionalId = z
  .union([z.literal(''), idSchema])
  .optional()
  .transform((value) => value || undefined);

/** A query-string flag: `true` / `false` (any case), `1` / `0`. */
const flag = z
  .enum(['true', 'false', 'True', 'False', 'TRUE', 'FALSE', '1', '0'])
  .transform((value) => value === '1' || value.toLowerCase() === 'true');

/** Every tab's filters: the date range (both ends included) and the user. */
const commonFilters = {
  /** From this instant on. */
  startDate: logDate,
  /** Up to the end of this instant (its second, or its day for a bare date); never before startDate (400 `logs.end_before_start`). */
  endDate: logDate,
  /** A user id (their rows), or a text found in the user name. */
  user: text(256),
};

export const authenticationLogQuery = listQuery({
  sortable: ['date', 'userName', 'result', 'authenticationProvider', 'applicationName', 'ip'],
  defaultOrder: 'date desc',
}).extend({
  ...commonFilters,
  result: oneOf(AUTHENTICATION_RESULTS),
  provider: oneOf(AUTHENTICATION_PROVIDERS),
});

export const systemLogQuery = listQuery({ sortable: ['date', 'userName', 'tenantName', 'operation'], defaultOrder: 'date desc' }).extend({
  ...commonFilters,
  /** An operation name, exactly (see SYSTEM_LOG_OPERATIONS). */
  operation: text(60),
  /** A text found anywhere in the metadata (keys and values, any case). */
  intoMetadata: text(200),
  /** Rows about this tenant: their tenant, or a `tenantId` in their metadata. */
  metadataTenantId: optionalId,
  /** Rows about this user: a `targetUserId`, `memberId` or `ownerId` in their metadata. */
  metadataUserId: optionalId,
});

export const sessionLogQuery = listQuery({ sortable: ['date', 'userName', 'applicationName'], defaultOrder: 'date desc' }).extend({
  ...commonFilters,
  /** An application's name, exactly. */
  application: text(200),
  /** Sessions opened with this tenant as the current company. */
  tenant: optionalId,
  /** With `tenant`: also the sessions of the tenants below it. */
  includeHierarchy: flag.optional(),
});

export const externalApiAccessLogQuery = listQuery({ sortable: ['date', 'userName', 'apiEntry', 'ip'], defaultOrder: 'date desc' }).extend({
  ...commonFilters,
  /** The caller's address, exactly. */
  ip: text(64),
  apiEntry: oneOf(EXTERNAL_API_ENTRIES),
});

export type AuthenticationLogQuery = z.output<typeof authenticationLogQuery>;
export type SystemLogQuery = z.output<typeof systemLogQuery>;
export type SessionLogQuery = z.output<typeof sessionLogQuery>;
export type ExternalApiAccessLogQuery = z.output<typeof externalApiAccessLogQuery>;

const metadataSchema = z.record(z.string(), z.unknown());

/** Every row's actor: who wrote it on behalf of its user, while signed in as them (Identify As). */
const actedBy = {
  /** The user who acted on behalf of the row's user, null otherwise. */
  actorId: z.string().nullable(),
  /** That user's display name (else user name) now; null when none, or when the account was deleted since. */
  actorName: z.string().nullable(),
};

/** One sign-in attempt (spec 3: authentication log). */
export const authenticationLogSchema = z.object({
  id: z.string(),
  date: z.string(),
  userId: z.string().nullable(),
  userName: z.string(),
  reason: z.string().nullable(),
  result: z.enum(AUTHENTICATION_RESULTS),
  authenticationProvider: z.enum(AUTHENTICATION_PROVIDERS),
  returnUrl: z.string().nullable(),
  applicationName: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  ...actedBy,
});
export type AuthenticationLog = z.output<typeof authenticationLogSchema>;

/** One administrative change (spec 3: system log). */
export const systemLogSchema = z.object({
  id: z.string(),
  date: z.string(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  tenantId: z.string().nullable(),
  tenantName: z.string().nullable(),
  operation: z.string(),
  metadata: metadataSchema,
  ...actedBy,
});
export type SystemLog = z.output<typeof systemLogSchema>;

/** One token issued to an application for a user (spec 3: session log). */
export const sessionLogSchema = z.object({
  id: z.string(),
  date: z.string(),
  userId: z.string().nullable(),
  userName: z.string(),
  roles: z.array(z.string()),
  applicationName: z.string(),
  tenantId: z.string().nullable(),
  /** The tenant's title now; null when it has none or was deleted since. */
  tenantName: z.string().nullable(),
  ...actedBy,
});
export type SessionLog = z.output<typeof sessionLogSchema>;

/** One call of the external API (spec 3: external API access log). */
export const externalApiAccessLogSchema = z.object({
  id: z.string(),
  date: z.string(),
  ip: z.string().nullable(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  apiEntry: z.string(),
  metadata: metadataSchema,
  ...actedBy,
});
export type ExternalApiAccessLog = z.output<typeof externalApiAccessLogSchema>;

/** The Logs page: four lists, newest first, and the exports of two of them. */
export const logsRoutes = {
  authentication: defineRoute({
    method: 'GET',
    path: `${LOGS}/authenticationlogs`,
    endpoint: 'logs.authentication',
    access: 'roles',
    summary: 'Lists the sign-in attempts, newest first, by date range, user, result and provider',
    query: authenticationLogQuery,
    response: listPage(authenticationLogSchema),
  }),
  authenticationExport: defineRoute({
    method: 'GET',
    path: `${LOGS}/authenticationlogs/export`,
    endpoint: 'logs.authenticationExport',
    access: 'roles',
    summary: `Starts the export of the sign-in attempts the filters select (AuthenticationLogs.xlsx, at most ${LOG_EXPORT_MAX_ROWS.toLocaleString('en')} rows) as a background job; its file is announced by a notification`,
    query: authenticationLogQuery.omit({ skip: true, top: true }),
    status: 202,
    response: backgroundJobStartedSchema,
  }),
  system: defineRoute({
    method: 'GET',
    path: `${LOGS}/systemlog`,
    endpoint: 'logs.system',
    access: 'roles',
    summary: 'Lists the administrative changes, newest first, by date range, user, operation, metadata text, tenant and user concerned',
    query: systemLogQuery,
    response: listPage(systemLogSchema),
  }),
  systemExport: defineRoute({
    method: 'GET',
    path: `${LOGS}/systemlog/export`,
    endpoint: 'logs.systemExport',
    access: 'roles',
    summary: `Starts the export of the administrative changes the filters select (SystemLogs.xlsx, at most ${LOG_EXPORT_MAX_ROWS.toLocaleString('en')} rows) as a background job; its file is announced by a notification`,
    query: systemLogQuery.omit({ skip: true, top: true }),
    status: 202,
    response: backgroundJobStartedSchema,
  }),
  session: defineRoute({
    method: 'GET',
    path: `${LOGS}/sessionlog`,
    endpoint: 'logs.session',
    access: 'roles',
    summary: 'Lists the tokens issued to applications for users, newest first, by date range, user, application and tenant (with includeHierarchy, the tenants below it too)',
    query: sessionLogQuery,
    response: listPage(sessionLogSchema),
  }),
  externalApiAccess: defineRoute({
    method: 'GET',
    path: `${LOGS}/externalApiAccessLog`,
    endpoint: 'logs.externalApiAccess',
    access: 'roles',
    summary: 'Lists the calls of the external API, newest first, by date range, user, address and event',
    query: externalApiAccessLogQuery,
    response: listPage(externalApiAccessLogSchema),
  }),
} satisfies Record<string, RouteContract>;
