import { z } from 'zod';
import { idParams, idSchema } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';

const count = z.number().int().min(0);

/** The dashboard's count tiles (spec: Dashboard summary). */
export const dashboardSummarySchema = z.object({
  usersCount: count,
  groupsCount: count,
  appsCount: count,
  areasCount: count,
  /** Tenants anyone created: the Global tenant is not counted. */
  tenantsCount: count,
});
export type DashboardSummary = z.output<typeof dashboardSummarySchema>;

/** How many hourly points the sign-in chart shows, the last one being the hour under way (spec 9). */
export const LOGIN_CHART_HOURS = 9;
/** A user is connected to an application when a token was issued to them for it this recently (spec 9). */
export const CONNECTED_WINDOW_MINUTES = 30;
/** The days the external API report covers when no start date is given. */
export const EXTERNAL_API_DEFAULT_DAYS = 30;
/**
 * The role that makes an administrator of an application: its role named exactly so. Roles that
 * merely contain the word (AreaAdministrator, TenantAdministrator) administer a part, not the whole.
 */
export const ADMINISTRATOR_ROLE = 'Administrator';

/** A background job was queued: follow it among the active tasks, its outcome comes as a notification. */
export const backgroundJobStartedSchema = z.object({ jobId: idSchema });
export type BackgroundJobStarted = z.output<typeof backgroundJobStartedSchema>;

/** Successful sign-ins of one UTC hour: `hour` is the hour's first instant (ISO 8601). */
export const loginsPerHourSchema = z.object({ hour: z.string(), count });
export type LoginsPerHour = z.output<typeof loginsPerHourSchema>;

/** The holders of an application's Administrator role in the Global tenant, directly or through a group, each once. */
export const adminsPerApplicationSchema = z.object({
  applicationId: z.string(),
  /** The application's name (its client id). */
  applicationName: z.string(),
  displayName: z.string(),
  count,
});
export type AdminsPerApplication = z.output<typeof adminsPerApplicationSchema>;

/** Administrators by the area of their account. */
export const adminsPerAreaSchema = z.object({ areaId: z.string(), areaName: z.string(), count });
export type AdminsPerArea = z.output<typeof adminsPerAreaSchema>;

/** Distinct users to whom a token was issued for the application within the connected window. */
export const connectedPerApplicationSchema = z.object({
  /** The application's name as the session log wrote it (its client id). */
  applicationName: z.string(),
  /** Its display name now; the logged name when the application no longer exists. */
  displayName: z.string(),
  count,
});
export type ConnectedPerApplication = z.output<typeof connectedPerApplicationSchema>;

/** Calls to one entry of the external API within the range. */
export const externalApiAccessCountSchema = z.object({ apiEntry: z.string(), count });
export type ExternalApiAccessCount = z.output<typeof externalApiAccessCountSchema>;

/** A query-string value where blank means none (`?tenant=` as the console's cleared filter sends it). */
export const blankAsNone = <T extends z.ZodType>(schema: T) =>
  z
    .union([z.literal(''), schema])
    .optional()
    .transform((value) => (value === '' ? undefined : (value as z.output<T> | undefined)));

/** Query of `globalAdminPerAreas`: the tenant (entity) and the application filters. */
export const adminsPerAreaQuery = z.object({
  /**
   * The tenant in which the Administrator role must apply: granted there, in one of its ancestors
   * through an inheritable membership, or in the Global tenant. None: the Global tenant only.
   */
  tenant: blankAsNone(idSchema),
  /** Only this application's Administrator role (its id). None: any application's. */
  application: blankAsNone(z.string().trim().min(1).max(64)),
});
export type AdminsPerAreaQuery = z.input<typeof adminsPerAreaQuery>;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * A point in time as the console sends it, `YYYY-MM-DD HH:mm:ss` (spec 7), or ISO 8601 (`…T…Z`,
 * `…+01:00`), or a day `YYYY-MM-DD`. Without an offset the time is UTC. Impossible dates
 * (2025-02-30, 25:00) are refused, not rolled over.
 */
export const dateTimeSchema = z.string().transform((text, ctx) => {
  const match = DATE_TIME.exec(text.trim());
  if (match) {
    const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', offset = 'Z'] = match;
    const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}${offset}`);
    // Date takes 2001-02-30 for 2 March and 24:00 for the next day: read back at the written
    // offset, the instant must give the very fields that were written.
    const minutes = offset === 'Z' ? 0 : (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
    const back = new Date(date.getTime() + minutes * 60_000);
    const read = [back.getUTCFullYear(), back.getUTCMonth() + 1, back.getUTCDate(), back.getUTCHours(), back.getUTCMinutes(), back.getUTCSeconds()];
    if (!Number.isNaN(date.getTime()) && read.every((value, i) => value === Number([y, mo, d, h, mi, s][i]))) return date;
  }
  ctx.addIssue({ code: 'custom', message: 'expected YYYY-MM-DD HH:mm:ss or an ISO 8601 date-time', input: text });
  return z.NEVER;
});

/** Query of `externalApiAccess`: the range, by default the last {@link EXTERNAL_API_DEFAULT_DAYS} days up to now. */
export const externalApiAccessQuery = z
  .object({ startDate: blankAsNone(dateTimeSchema), endDate: blankAsNone(dateTimeSchema) })
  .superRefine((range, ctx) => {
    if (range.startDate && range.endDate && range.endDate < range.startDate) {
      ctx.addIssue({ code: 'custom', message: 'the end comes before the start', path: ['endDate'], input: range.endDate });
    }
  });
export type ExternalApiAccessQuery = z.input<typeof externalApiAccessQuery>;

/** Whether the console offers Identify As to the caller, and how long one lasts at most. */
export const identifyAsEnabledSchema = z.object({
  /** True only when the deployment enables it and the caller is God. */
  enabled: z.boolean(),
  /** Minutes an impersonation lasts at most (the deployment's IDENTIFY_AS_MAX_MINUTES). */
  maxMinutes: z.number().int().positive(),
});
export type IdentifyAsEnabled = z.output<typeof identifyAsEnabledSchema>;

/** Where the browser goes to be signed in as the user: the identity provider's one-time link. */
export const identifyAsStartedSchema = z.object({ redirectUrl: z.string() });
export type IdentifyAsStarted = z.output<typeof identifyAsStartedSchema>;

const DASHBOARD = '/api/v1/admin/dashboard';

export const dashboardRoutes = {
  base: defineRoute({
    method: 'GET',
    path: `${DASHBOARD}/base`,
    endpoint: 'dashboard.base',
    access: 'roles',
    summary: 'The counts of users, groups, applications, areas and tenants',
    response: dashboardSummarySchema,
  }),
  loginLastHours: defineRoute({
    method: 'GET',
    path: `${DASHBOARD}/loginLastHours`,
    endpoint: 'dashboard.loginLastHours',
    access: 'roles',
    summary: 'Successful sign-ins per UTC hour: 9 points, the last one the hour under way, hours without any counted 0',
    response: z.array(loginsPerHourSchema),
  }),
  adminPerApp: defineRoute({
    method: 'GET',
    path: `${DASHBOARD}/adminPerApp`,
    endpoint: 'dashboard.adminPerApp',
    access: 'roles',
    summary: "Global administrators per application: users holding its Administrator role in the Global tenant, directly or through a group, each counted once",
    response: z.array(adminsPerApplicationSchema),
  }),
  globalAdminPerAreas: defineRoute({
    method: 'GET',
    path: `${DASHBOARD}/globalAdminPerAreas`,
    endpoint: 'dashboard.globalAdminPerAreas',
    access: 'roles',
    summary: 'Administrators per area of their account: holders of an Administrator role in the Global tenant, or applying in the given tenant; optionally of one application',
    query: adminsPerAreaQuery,
    response: z.array(adminsPerAreaSchema),
  }),
  connectedPerApp: defineRoute({
    method: 'GET',
    path: `${DASHBOARD}/connectedPerApp`,
    endpoint: 'dashboard.connectedPerApp',
    access: 'roles',
    summary: 'Users connected per application: distinct users to whom a token was issued for it in the last 30 minutes',
    response: z.array(connectedPerApplicationSchema),
  }),
  externalApiAccess: defineRoute({
    method: 'GET',
    path: `${DASHBOARD}/externalApiAccess`,
    endpoint: 'dashboard.externalApiAccess',
    access: 'roles',
    summary: 'Calls to the external API per entry between startDate and endDate (default: the last 30 days)',
    query: externalApiAccessQuery,
    response: z.array(externalApiAccessCountSchema),
  }),
  adminReport: defineRoute({
    method: 'POST',
    path: `${DASHBOARD}/adminReport`,
    endpoint: 'dashboard.adminReport',
    access: 'roles',
    summary: 'Starts the full report of global administrators per application (Excel) as a background job; its file is announced by a notification',
    status: 202,
    response: backgroundJobStartedSchema,
  }),
  identifyAsEnabled: defineRoute({
    method: 'GET',
    // The spec's spelling.
    path: `${DASHBOARD}/identyfyasEnabled`,
    endpoint: 'dashboard.identifyAsEnabled',
    access: 'roles',
    summary: 'Whether the caller may sign in as another user (the deployment enables it and the caller is God), and for how many minutes at most',
    response: identifyAsEnabledSchema,
  }),
  identifyAs: defineRoute({
    method: 'POST',
    path: `${DASHBOARD}/identifyAs/:id`,
    endpoint: 'dashboard.identifyAs',
    access: 'roles',
    summary: "Starts signing in as the user: a one-time link (60 s) of the identity provider, which this console session's browser alone can follow; refused for oneself, a God user, a locked or pending account, a personal access token and while already signed in as someone else",
    params: idParams,
    response: identifyAsStartedSchema,
  }),
} satisfies Record<string, RouteContract>;
