// The sign-in of a browser application over plain HTTP, step by step, against any origin (a
// product in this process or in a child process): the fault scenarios cut a dependency between
// two steps.
import { Browser } from '../../support/browser.js';

export const PASSWORD = 'Correct-Horse-42!';
/** RFC 7636's example verifier and its S256 challenge. */
const PKCE_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const PKCE = { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };

/**
 * Areas, the Identity application, a browser application `spa` (code + PKCE, refresh tokens), a
 * confidential `worker` (client credentials) and `users` with PASSWORD. `${url}` is the product's
 * public URL (startTestServer replaces it; give `url` when it is known beforehand).
 */
export function faultBootstrap(options: { users: string[]; workerSecret: string; url?: string }): string {
  const url = options.url ?? '${url}';
  return `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, grantTypes: [authorization_code, refresh_token], redirectUris: ['${url}/spa/callback'] }
  - { id: worker, name: worker, displayName: Worker, type: confidential, secret: '${options.workerSecret}', grantTypes: [client_credentials] }
${options.users.length ? 'users:\n' : ''}${options.users.map((name) => `  - { userName: ${name}, area: Default, language: en, password: '${PASSWORD}' }\n`).join('')}`;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export interface Tokens {
  access_token?: string;
  refresh_token?: string;
  error?: string;
}

/** The path of a new authorization request of `spa` (code + PKCE). */
export const authorizePath = (origin: string): string =>
  `/oidc/auth?${new URLSearchParams({ client_id: 'spa', response_type: 'code', scope: 'openid', redirect_uri: `${origin}/spa/callback`, ...PKCE })}`;

/** A browser at the sign-in page of a new authorization request of `spa`. */
export async function signInPage(origin: string, browser = new Browser(origin)): Promise<Browser> {
  const started = await browser.get(authorizePath(origin));
  if (started.status !== 303) throw new Error(`the authorization request answered ${started.status}`);
  await browser.get('/api/v1/config');
  return browser;
}

/** The sign-in page's call with the user name and password. */
export async function submitPassword(browser: Browser, userName: string, password = PASSWORD): Promise<Answer> {
  const res = await browser.postJson('/api/v1/account/login', { userName, password }, { 'accept-language': 'en' });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Follows the provider's redirects back to `spa`: the code, or undefined when none comes. */
export async function codeAfter(browser: Browser, redirectTo: string): Promise<string | undefined> {
  let url = new URL(redirectTo, browser.origin);
  for (let hops = 0; hops < 6; hops++) {
    const res = await browser.get(url.toString());
    const location = res.headers.get('location');
    if (!location || res.status < 300 || res.status >= 400) return undefined;
    const next = new URL(location, url);
    if (next.pathname === '/spa/callback') return next.searchParams.get('code') ?? undefined;
    url = next;
  }
  return undefined;
}

/** Redeems a code of `spa`: the token answer. */
export async function redeem(origin: string, code: string): Promise<{ status: number; tokens: Tokens }> {
  const res = await fetch(`${origin}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: 'spa', redirect_uri: `${origin}/spa/callback`, code_verifier: PKCE_VERIFIER }),
  });
  return { status: res.status, tokens: (await res.json()) as Tokens };
}

/** Uses a refresh token of `spa`: the token answer. */
export async function refresh(origin: string, refreshToken: string): Promise<{ status: number; tokens: Tokens }> {
  const res = await fetch(`${origin}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'spa' }),
  });
  return { status: res.status, tokens: (await res.json()) as Tokens };
}

/** Whether an access token is accepted by the userinfo endpoint. */
export async function userinfoAccepts(origin: string, accessToken: string): Promise<boolean> {
  const res = await fetch(`${origin}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  return res.status === 200;
}

/** A whole sign-in in `browser` (a new one unless given): the tokens. */
export async function signIn(origin: string, userName: string, browser = new Browser(origin)): Promise<Tokens> {
  await signInPage(origin, browser);
  const answer = await submitPassword(browser, userName);
  if (answer.status !== 200) throw new Error(`the sign-in of ${userName} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const code = await codeAfter(browser, String(answer.body.redirectTo));
  if (!code) throw new Error(`no code after the sign-in of ${userName}`);
  const { status, tokens } = await redeem(origin, code);
  if (status !== 200) throw new Error(`the code of ${userName} answered ${status}: ${JSON.stringify(tokens)}`);
  return tokens;
}

/** Milliseconds since `start`. */
export const since = (start: number): number => Date.now() - start;

/** Polls `probe` every 50 ms until it is true: the milliseconds it took, or an error past `limitMs`. */
export async function waitUntil(what: string, probe: () => Promise<boolean>, limitMs: number): Promise<number> {
  const start = Date.now();
  while (!(await probe().catch(() => false))) {
    if (since(start) > limitMs) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return since(start);
}
