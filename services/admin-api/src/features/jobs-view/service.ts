import { AppError, IDENTITY_APPLICATION_ID, issueUserToken, LANGUAGES, resolveRoleNames, type AppContext, type Language } from '@gatehouse/core';
import {
  JOB_STATUSES,
  JOBS_VIEW_CODE_SECONDS,
  JOBS_VIEW_PAGE_SIZE,
  JOBS_VIEW_PATH,
  JOBS_VIEW_SESSION_SECONDS,
  type JobsViewLink,
  type jobsViewRoutes,
} from '@gatehouse/contracts';
import type { z } from 'zod';
import type { AccountStates } from '../../auth/account-state.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { rolesAllow } from '../../auth/permissions.js';
import { countJobsByStatus, findJob, findSessionUser, findUserLanguage, listJobs, redeemCode, type JobDetailRow, type JobFilters, type JobRow } from './repository.js';
import type { AdminContext } from '../../admin-context.js';

type PageQuery = z.output<typeof jobsViewRoutes.dashboard.query>;
type JobStatus = (typeof JOB_STATUSES)[number];

/** Why the page is refused: the phrases of its answer (`jobsView.<reason>` and `<reason>_title`). */
export type RefusalReason = 'link_expired' | 'session_ended' | 'forbidden';

/** A refusal of the page, answered as a page in the caller's language rather than as JSON. */
export class JobsViewRefusal extends Error {
  constructor(
    readonly status: 401 | 403,
    readonly reason: RefusalReason,
  ) {
    super(`jobs view refused: ${reason}`);
    this.name = 'JobsViewRefusal';
  }
}

/** Who is looking at the page, checked on this request. */
export interface Viewer {
  userId: string;
  /**
   * The page's language: the one of the console that opened it, else the user's saved preferred
   * language, when it is one the product speaks.
   */
  language: Language | undefined;
}

/** What a finished job left, as far as the page shows it: counts and file ids, never its rows' texts. */
export interface ResultSummary {
  success?: boolean;
  totalElements?: number;
  importedElements?: number;
  errors?: number;
  warnings?: number;
  fileId?: string;
}

export interface JobDetail extends JobRow {
  /** The stored files the job was given (an uploaded spreadsheet): their payload key and id, nothing else of the payload. */
  files: Array<{ name: string; id: string }>;
  result: ResultSummary | null;
}

export interface JobsPage {
  counts: Array<{ status: JobStatus; count: number }>;
  filters: JobFilters;
  page: number;
  pages: number;
  count: number;
  jobs: JobRow[];
  /** The job asked for with `job`: undefined when none was, null when it does not exist. */
  detail: JobDetail | null | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A code or a session as issueUserToken makes them (32 random bytes, base64url): anything else is not looked up. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/**
 * The background jobs page, opened from the console without a token in any URL: the console asks
 * for a one-time code (60 s), the new tab trades it for a cookie session of its own (30 min), and
 * every request checks that session, the account and the user's roles again.
 */
export class JobsViewService {
  private readonly accounts: AccountStates;

  constructor(private readonly context: AdminContext) {
    this.accounts = context.accountStates;
  }

  private get db() {
    return this.context.dataSource;
  }

  /**
   * A link for the console's new tab: the page's path with a one-time code, which keeps the
   * console's language (`language`, when it said one) for the page. Only the console's own token may ask.
   */
  async link(caller: Caller, language?: string): Promise<JobsViewLink> {
    // A personal access token is a program's key: it has no browser to open the page in, and must not mint browser sessions.
    if (caller.kind !== 'access_token') throw new AppError('pats.token_cannot_open_jobs_view', 403);
    const data = language ? { language } : undefined;
    const { token } = await issueUserToken(this.context, { userId: caller.userId, purpose: 'JobDashboard', ttlSeconds: JOBS_VIEW_CODE_SECONDS, data });
    // Same origin as the console, which calls the admin API on its own origin.
    return { url: `${JOBS_VIEW_PATH}?code=${encodeURIComponent(token)}` };
  }

  /** Uses a one-time code and opens a session of the page for its user, who must still be allowed in; answers the session's secret. */
  async openSession(code: string): Promise<string> {
    const holder = SECRET.test(code) ? await redeemCode(this.db, code) : undefined;
    if (!holder) throw new JobsViewRefusal(401, 'link_expired');
    const { userId, language } = holder;
    await this.assertMayView(userId, 'link_expired');
    const { token } = await issueUserToken(this.context, {
      userId,
      purpose: 'JobDashboard',
      ttlSeconds: JOBS_VIEW_SESSION_SECONDS,
      data: language ? { session: true, language } : { session: true },
    });
    return token;
  }

  /** The user of the page's session, if it is live and the user may still see the page. */
  async viewer(session: string | undefined): Promise<Viewer> {
    if (!session) throw new JobsViewRefusal(401, 'link_expired');
    const holder = SECRET.test(session) ? await findSessionUser(this.db, session) : undefined;
    if (!holder) throw new JobsViewRefusal(401, 'session_ended');
    const { userId } = holder;
    await this.assertMayView(userId, 'session_ended');
    const supported = (language: string | undefined) => LANGUAGES.find((l) => l === language);
    return { userId, language: supported(holder.language) ?? supported(await findUserLanguage(this.db, userId)) };
  }

  /** The counts, one page of the jobs the filters select (in SQL), and the job asked for. */
  async page(query: PageQuery): Promise<JobsPage> {
    const filters: JobFilters = { status: query.status, type: query.type };
    const byStatus = await countJobsByStatus(this.db);
    const { rows, count } = await listJobs(this.db, filters, query.page);
    const detail = query.job ? await findJob(this.db, query.job) : undefined;
    return {
      counts: JOB_STATUSES.map((status) => ({ status, count: byStatus.get(status) ?? 0 })),
      filters,
      page: query.page,
      pages: Math.max(1, Math.ceil(count / JOBS_VIEW_PAGE_SIZE)),
      count,
      jobs: rows,
      detail: query.job ? (detail ? presentDetail(detail) : null) : undefined,
    };
  }

  // A locked or deleted account has no session any more; a user who lost the roles is refused.
  private async assertMayView(userId: string, ended: RefusalReason): Promise<void> {
    if (!(await this.accounts.isActive(userId))) throw new JobsViewRefusal(401, ended);
    const roles = await resolveRoleNames(this.db, userId, IDENTITY_APPLICATION_ID);
    if (!rolesAllow('jobs.dashboardLink', roles)) throw new JobsViewRefusal(403, 'forbidden');
  }
}

function presentDetail(row: JobDetailRow): JobDetail {
  const { payload, result, ...job } = row;
  return { ...job, files: payloadFiles(payload), result: result ? summarize(result) : null };
}

/** The file ids a payload names (keys mentioning a file, values that are ids); the rest may hold anything and is not shown. */
export function payloadFiles(payload: Record<string, unknown> | null | undefined): Array<{ name: string; id: string }> {
  return Object.entries(payload ?? {}).flatMap(([name, value]) => {
    if (!/file/i.test(name)) return [];
    const values = Array.isArray(value) ? value : [value];
    return values.filter((v): v is string => typeof v === 'string' && UUID.test(v)).map((id) => ({ name, id }));
  });
}

/** The result's outcome, counts and file id; its rows' messages stay out. */
export function summarize(result: Record<string, unknown>): ResultSummary {
  const summary: ResultSummary = {};
  if (typeof result.success === 'boolean') summary.success = result.success;
  if (typeof result.totalElements === 'number') summary.totalElements = result.totalElements;
  if (typeof result.importedElements === 'number') summary.importedElements = result.importedElements;
  if (Array.isArray(result.errors)) summary.errors = result.errors.length;
  if (Array.isArray(result.warnings)) summary.warnings = result.warnings.length;
  if (typeof result.fileUrl === 'string' && UUID.test(result.fileUrl)) summary.fileId = result.fileUrl;
  return summary;
}
