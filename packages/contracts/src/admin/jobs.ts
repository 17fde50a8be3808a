import { z } from 'zod';
import { JOB_STATUSES, JOB_TYPES } from '../domain.js';
import { idSchema } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { blankAsNone } from './dashboard.js';

/** The jobs view: a page of the background jobs that a browser opens in a tab of its own. */
export const JOBS_VIEW_PATH = '/api/v1/admin/jobs/dashboard';
/** Jobs per page of the jobs view. */
export const JOBS_VIEW_PAGE_SIZE = 25;
/** How long the one-time code of a jobs view link stays good (seconds): the console uses it at once. */
export const JOBS_VIEW_CODE_SECONDS = 60;
/** How long the page's cookie session lasts (seconds); the link is asked again from the console after it. */
export const JOBS_VIEW_SESSION_SECONDS = 30 * 60;

/** The link that opens the jobs view: its path on the admin API's origin, carrying the one-time code. */
export const jobsViewLinkSchema = z.object({ url: z.string() });
export type JobsViewLink = z.output<typeof jobsViewLinkSchema>;

/**
 * Query of the jobs view: the one-time code once, then the filters, the page and the job shown in
 * detail. A blank value is none: the page's form sends `status=` for "All".
 */
export const jobsViewQuery = z.object({
  /** The one-time code of the link; the answer sets the page's session and sends the browser on without it. */
  code: z.string().max(200).optional(),
  status: blankAsNone(z.enum(JOB_STATUSES)),
  type: blankAsNone(z.enum(JOB_TYPES)),
  /** From 1. */
  page: blankAsNone(z.coerce.number().int().min(1).max(1_000_000)).transform((page) => page ?? 1),
  /** The job whose payload files, result and error are shown. */
  job: blankAsNone(idSchema),
});
export type JobsViewQuery = z.input<typeof jobsViewQuery>;

export const jobsViewRoutes = {
  dashboardLink: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/jobs/dashboard-link',
    endpoint: 'jobs.dashboardLink',
    access: 'roles',
    summary:
      'A link to the background jobs page for a new tab: its path with a one-time code good for 60 seconds (the admin console only, never a personal access token)',
    response: jobsViewLinkSchema,
  }),
  dashboard: defineRoute({
    method: 'GET',
    path: JOBS_VIEW_PATH,
    endpoint: 'jobs.dashboard',
    access: 'page-session',
    summary:
      "The background jobs page: with `code`, opens the page's 30-minute cookie session and sends the browser on without it (303); then the jobs, newest first, by status and type, 25 a page. The user's roles are checked again on every request: Administrator or God",
    query: jobsViewQuery,
    produces: 'text/html',
  }),
} satisfies Record<string, RouteContract>;
