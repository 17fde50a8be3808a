import { Browser } from './browser.js';
import { startTestServer, type TestServer } from './server.js';
import { MailCatcher } from './smtp.js';

/** RFC 7636's example verifier and its S256 challenge. */
export const PKCE_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
export const PKCE = { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };

/**
 * The product plus a real SMTP server it delivers to; call `stop()` after the suite. The `spa`
 * client plays the portal there (the self-service API accepts the portal's tokens only).
 */
export async function startServerWithMail(bootstrap: string): Promise<{ server: TestServer; smtp: MailCatcher; stop(): Promise<void> }> {
  const smtp = await new MailCatcher().start();
  const server = await startTestServer({ bootstrap, overrides: { 'mail.smtpUrl': smtp.url, 'oidc.portalClientId': 'spa' } });
  return {
    server,
    smtp,
    async stop() {
      await server.stop();
      await smtp.stop();
    },
  };
}

/** A browser at the sign-in page of a new authorization request of the `spa` client. */
export async function atLoginPage(server: TestServer): Promise<Browser> {
  const browser = new Browser(server.url);
  const params = new URLSearchParams({ client_id: 'spa', response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/spa/callback`, ...PKCE });
  await browser.get(`/oidc/auth?${params}`);
  await browser.get('/api/v1/config');
  return browser;
}

/** Follows a finished sign-in to the client's callback (`spa` unless told) and redeems the code: the token response. */
export async function tokensAfter<T extends { access_token: string } = { access_token: string }>(
  server: TestServer,
  browser: Browser,
  redirectTo: string,
  client = 'spa',
): Promise<T> {
  const { url } = await browser.follow(redirectTo);
  const res = await fetch(`${server.url}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: new URL(url).searchParams.get('code')!,
      client_id: client,
      redirect_uri: `${server.url}/${client}/callback`,
      code_verifier: PKCE_VERIFIER,
    }),
  });
  return (await res.json()) as T;
}

/** The same, the user's access token only. */
export async function accessTokenAfter(server: TestServer, browser: Browser, redirectTo: string, client = 'spa'): Promise<string> {
  return (await tokensAfter(server, browser, redirectTo, client)).access_token;
}
