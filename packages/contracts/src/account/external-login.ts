import { z } from 'zod';
import { defineRoute, type RouteContract } from '../route.js';

/** The Microsoft sign-in's routes, and the path its state cookie is bound to. */
export const EXTERNAL_LOGIN_PATH = '/api/v1/account/externalLogin';

/** A query value the handler reads only when it is a single string. */
const text = z.string().optional().catch(undefined);

export const externalLoginQuerySchema = z.object({
  /** `mslive`, the spec's name of the Microsoft provider. */
  provider: text,
  returnUrl: text,
  /** The interaction the sign-in page was opened for (its cookie is authoritative). */
  interaction: text,
  /** `true` or `1`: a persistent provider session. */
  rememberLogin: text,
});

export const externalLoginCallbackQuerySchema = z.object({
  state: text,
  code: text,
  error: text,
  error_description: text,
});

/** The Microsoft (Entra ID) sign-in: browser navigations answered by a redirect or a page. */
export const externalLoginRoutes = {
  start: defineRoute({
    method: 'GET',
    path: EXTERNAL_LOGIN_PATH,
    endpoint: 'account.external_login',
    access: 'public',
    summary: 'Sends the browser of a pending sign-in to Microsoft (or a page saying why not)',
    query: externalLoginQuerySchema,
    produces: 'text/html',
  }),
  callback: defineRoute({
    method: 'GET',
    path: `${EXTERNAL_LOGIN_PATH}/callback`,
    endpoint: 'account.external_login_callback',
    access: 'public',
    summary: "Takes Microsoft's answer and resumes the OpenID Connect flow (303), or a page saying why not",
    query: externalLoginCallbackQuerySchema,
    produces: 'text/html',
  }),
} satisfies Record<string, RouteContract>;
