import { z } from 'zod';
import { defineRoute, type RouteContract } from '../route.js';
import { loginResponseSchema } from './sign-in.js';

const IDENTIFY_AS = '/api/v1/account/identifyAs';

/** The identity provider's page that redeems the console's one-time code (`?code=…`). */
export const IDENTIFY_AS_START_PATH = `${IDENTIFY_AS}/start`;

/** Seconds the console's one-time code stays valid: enough for the browser to follow it at once. */
export const IDENTIFY_AS_CODE_TTL_SECONDS = 60;

/**
 * Signing in as another user (Identify As): a God user's browser follows the console's one-time
 * link to the provider, which switches that browser's session to the user for a bounded time;
 * the portal ends it.
 */
export const identifyAsRoutes = {
  start: defineRoute({
    method: 'GET',
    path: IDENTIFY_AS_START_PATH,
    endpoint: 'account.identify_as_start',
    access: 'public',
    summary:
      "Redeems the console's one-time code in the browser of the God user who asked for it: that browser's session becomes the user's until the end or the configured time, then 303 to the portal (or a page saying why not)",
    query: z.object({ code: z.string().optional().catch(undefined) }),
    produces: 'text/html',
  }),
  end: defineRoute({
    method: 'POST',
    path: `${IDENTIFY_AS}/end`,
    endpoint: 'account.identify_as_end',
    access: 'signed-in',
    summary:
      "Ends signing in as another user, with the portal's token of that session: its tokens are revoked, the session is closed and redirectTo is the sign-in page",
    response: loginResponseSchema,
  }),
} satisfies Record<string, RouteContract>;
