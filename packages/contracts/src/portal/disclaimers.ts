import { z } from 'zod';
import { listPage } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';

/** The most a list call asks for: the spec's portal sends `skip=0&take=9999`. */
export const DISCLAIMERS_MAX_TAKE = 9999;

/**
 * An application's disclaimer as the signed-in user sees it: the latest version, its text in the
 * caller's language (else English, else French, else the first one written), and whether the user
 * accepted that version.
 */
export const disclaimerItemSchema = z.object({
  appInfoId: z.string(),
  /** The application's name (its client_id). */
  appName: z.string(),
  displayAppName: z.string(),
  privateUrl: z.string().nullable(),
  /** Where the application's icon is served; null when it has none (a default glyph then). */
  icon: z.string().nullable(),
  /** The latest version's number: a new version needs a new acceptance. */
  version: z.number().int(),
  text: z.string(),
  /** The language `text` is written in: the caller's when the disclaimer exists in it. */
  textLanguage: z.string().nullable(),
  /** Every language the disclaimer exists in. */
  languages: z.array(z.string()),
  accepted: z.boolean(),
  /** When the user accepted the latest version (ISO 8601), null while not accepted. */
  onAcceptedDate: z.string().nullable(),
});
export type DisclaimerItem = z.output<typeof disclaimerItemSchema>;

export const disclaimersPageSchema = listPage(disclaimerItemSchema);
export type DisclaimersPage = z.output<typeof disclaimersPageSchema>;

/** The list's paging, as the portal sends it; the order is the spec's, fixed. */
export const disclaimersQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
  take: z.coerce.number().int().min(1).max(DISCLAIMERS_MAX_TAKE).default(DISCLAIMERS_MAX_TAKE),
});
export type DisclaimersQuery = z.input<typeof disclaimersQuerySchema>;

/**
 * Accepting from the list. `version`, when given, is the version the user read: a newer one
 * published since is refused (409) rather than accepted unread.
 */
export const acceptDisclaimerBodySchema = z.object({ version: z.number().int().min(1).optional() });
export type AcceptDisclaimerBody = z.input<typeof acceptDisclaimerBodySchema>;

/** The gate's answer for one application and the signed-in user. */
export const disclaimerGateSchema = z.object({
  /** True when the latest version is accepted, or when the application has no disclaimer at all. */
  accepted: z.boolean(),
  onAcceptedDate: z.string().nullable(),
  /** The latest version, null when the application has no disclaimer. */
  version: z.number().int().nullable(),
  /** Its text in the caller's language (as in the list), null when there is none. */
  text: z.string().nullable(),
  /** The language `text` is written in, null when there is none. */
  textLanguage: z.string().nullable(),
  /** Every language the disclaimer exists in (none without a disclaimer). */
  languages: z.array(z.string()),
});
export type DisclaimerGate = z.output<typeof disclaimerGateSchema>;

const gateParams = z.object({ userId: z.string().max(64), applicationName: z.string().min(1).max(200) });

const GATE_ACCESS =
  'Only the signed-in user for themself (another userId: 403), with an access token of a first-party application ' +
  '(the portal, the admin console, …) or of the application named (any other client: 403); an unknown or disabled application: 404';

/** `/api/v1/profile/disclaimer(s)`: per-application terms a signed-in user must accept. */
export const disclaimersRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/profile/disclaimers',
    endpoint: 'disclaimers.list',
    access: 'signed-in',
    summary:
      "The disclaimers of the applications the signed-in user may open (portal token), accepted ones first, then by acceptance date ascending",
    query: disclaimersQuerySchema,
    response: disclaimersPageSchema,
  }),
  accept: defineRoute({
    method: 'PUT',
    path: '/api/v1/profile/disclaimer/:id',
    endpoint: 'disclaimers.accept',
    access: 'signed-in',
    summary:
      "Accepts the latest version of the disclaimer of application `id` for the signed-in user (portal token); idempotent; 404 when the application has none or the user may not open it",
    params: z.object({ id: z.string().min(1).max(64) }),
    body: acceptDisclaimerBodySchema,
    response: disclaimerItemSchema,
  }),
  gate: defineRoute({
    method: 'GET',
    path: '/api/v1/profile/disclaimer/:userId/:applicationName',
    endpoint: 'disclaimers.gate',
    access: 'signed-in',
    summary: `Whether the user accepted the latest disclaimer of an application (by its client_id), with its text. ${GATE_ACCESS}`,
    params: gateParams,
    response: disclaimerGateSchema,
  }),
  acceptGate: defineRoute({
    method: 'POST',
    path: '/api/v1/profile/disclaimer/:userId/:applicationName',
    endpoint: 'disclaimers.acceptGate',
    access: 'signed-in',
    summary: `Records the user's acceptance of the latest disclaimer of an application (empty body; idempotent). ${GATE_ACCESS}`,
    params: gateParams,
    response: disclaimerGateSchema,
  }),
} satisfies Record<string, RouteContract>;
