// The product under a base path: PUBLIC_URL=http://127.0.0.1:<port>/identity mounts everything
// under /identity (the spec's /identity/... paths), and nothing answers outside it but the probes.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NOTIFICATION_HUB_EVENTS, NOTIFICATIONS_HUB_PATH } from '@gatehouse/contracts';
import { loadConfig } from '@gatehouse/core';
import { createTestDatabase, type TestDatabase } from '@gatehouse/core/testing';
import { startServer, type RunningServer } from '@gatehouse/launcher';
import { expect } from 'chai';
import { io } from 'socket.io-client';
import { Browser } from './support/browser.js';
import { PKCE, PKCE_VERIFIER } from './support/flows.js';
import { freePort } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: portal, name: portal, displayName: Portal, type: public, firstParty: true, redirectUris: ['\${publicUrl}/auth/callback'] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, redirectUris: ['\${publicUrl}/admin/auth/callback'] }
users:
  - { userName: ada@example.com, area: Default, language: en, password: '${PASSWORD}', memberships: [{ tenant: Global, application: '1', roles: [Administrator] }] }
`;

/** A product folder with built shells of both applications, as Vite writes them with a relative base. */
function productRoot(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'gatehouse-base-'));
  mkdirSync(path.join(root, 'config'));
  writeFileSync(path.join(root, 'config/bootstrap.yaml'), BOOTSTRAP);
  for (const app of ['portal', 'admin']) {
    mkdirSync(path.join(root, `frontends/${app}/dist/assets`), { recursive: true });
    writeFileSync(path.join(root, `frontends/${app}/dist/assets/index-Base1234.js`), `console.log('${app}')`);
    writeFileSync(path.join(root, `frontends/${app}/dist/index.html`), `<!doctype html><html><head><script type="module" src="./assets/index-Base1234.js"></script></head><body>${app}</body></html>`);
  }
  return root;
}

describe('the product under a base path (PUBLIC_URL with a path)', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let server: RunningServer;
  let origin: string;
  let base: string;

  before(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    base = `${origin}/identity`;
    const root = productRoot();
    const config = loadConfig({
      configDir: path.join(root, 'config'),
      overrides: {
        'database.url': database.url,
        'server.port': port,
        'server.publicUrl': `${base}/`,
        'security.encryptionKey': randomBytes(32).toString('base64'),
        'log.level': 'silent',
      },
    });
    server = await startServer({ config });
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });

  it('publishes the provider under it: issuer, endpoints and signing keys', async () => {
    const res = await get(`${base}/oidc/.well-known/openid-configuration`);
    expect(res.status).to.equal(200);
    const discovery = (await res.json()) as Record<string, string>;
    expect(discovery.issuer).to.equal(`${base}/oidc`);
    for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint', 'end_session_endpoint']) {
      expect(discovery[endpoint], endpoint).to.match(new RegExp(`^${base}/oidc/`));
    }
    const jwks = (await (await get(discovery.jwks_uri!)).json()) as { keys: Array<{ kid: string; kty: string }> };
    expect(jwks.keys.length).to.be.at.least(1);
    const [row] = await server.context.dataSource.query(`SELECT count(*)::int AS n FROM signing_keys WHERE status = 'active'`);
    expect(jwks.keys).to.have.length(row.n);
  });

  it('signs in through its pages and APIs, and the console’s token opens the admin API and the hub under it', async () => {
    const browser = new Browser(origin);
    const redirectUri = `${base}/admin/auth/callback`;
    const auth = await browser.get(`/identity/oidc/auth?${new URLSearchParams({ client_id: 'admin-console', response_type: 'code', scope: 'openid profile admin', redirect_uri: redirectUri, ...PKCE })}`);
    expect(auth.status).to.equal(303);
    const loginPage = new URL(auth.headers.get('location')!, origin);
    expect(loginPage.pathname, 'the sign-in page').to.equal('/identity/account/login');
    for (const cookie of auth.headers.getSetCookie()) expect(cookie, 'every cookie stays under the base path').to.match(/path=\/identity(\/|;|$)/i);

    const page = await browser.get(loginPage.toString());
    expect(page.status).to.equal(200);
    const html = await page.text();
    expect(html).to.contain('<meta name="gatehouse-base-path" content="/identity">');
    expect(html).to.contain('src="/identity/assets/index-Base1234.js"');
    expect((await browser.get('/identity/assets/index-Base1234.js')).status).to.equal(200);

    await browser.get('/identity/api/v1/config');
    const login = await browser.postJson('/identity/api/v1/account/login', { userName: 'ada@example.com', password: PASSWORD });
    const body = (await login.json()) as { success: boolean; redirectTo: string };
    expect(login.status, JSON.stringify(body)).to.equal(200);
    expect(body.redirectTo).to.match(new RegExp(`^${base}/oidc/`));
    const { url } = await browser.follow(body.redirectTo);
    expect(url.startsWith(redirectUri), url).to.equal(true);
    const token = await fetch(`${base}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: new URL(url).searchParams.get('code')!, client_id: 'admin-console', redirect_uri: redirectUri, code_verifier: PKCE_VERIFIER }),
    });
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    expect(accessToken).to.be.a('string');

    const me = await get(`${base}/api/v1/admin/me`, { authorization: `Bearer ${accessToken}` });
    expect(me.status).to.equal(200);
    expect(((await me.json()) as { userName: string }).userName).to.equal('ada@example.com');
    expect((await get(`${base}/api/v1/admin/me`)).status, 'the admin API asks who calls').to.equal(401);
    const consoleShell = await (await get(`${base}/admin/users`)).text();
    expect(consoleShell).to.contain('src="/identity/admin/assets/index-Base1234.js"');

    const hub = (hubPath: string) =>
      new Promise<string>((resolve) => {
        const socket = io(origin, { path: hubPath, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: accessToken } });
        socket.once(NOTIFICATION_HUB_EVENTS.beginConnection, () => resolve('accepted'));
        socket.once('connect_error', (error: Error) => resolve(error.message));
        setTimeout(() => resolve('no answer'), 5000).unref();
      }).finally(() => undefined);
    expect(await hub(`/identity${NOTIFICATIONS_HUB_PATH}`)).to.equal('accepted');
    expect(await hub(NOTIFICATIONS_HUB_PATH)).to.not.equal('accepted');
  });

  it('links its own pages under it', async () => {
    const res = await get(`${base}/oidc/auth?client_id=nobody&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(`${base}/x`)}`);
    expect(res.status).to.equal(400);
    const html = await res.text();
    expect(html).to.contain('href="/identity/"');
    expect(html).to.not.match(/href="\/(?!identity)/);
  });

  it('answers nothing outside it but the probes, in the caller’s language', async () => {
    for (const outside of ['/oidc/.well-known/openid-configuration', '/oidc/jwks', '/api/v1/config', '/api/v1/admin/me', '/admin', '/account/login', '/', '/identityx']) {
      const res = await get(`${origin}${outside}`, { 'accept-language': 'en' });
      expect(res.status, outside).to.equal(404);
      expect(await res.json(), outside).to.deep.include({ code: 'errors.not_found', message: 'Not found' });
    }
    expect((await get(`${origin}/health/ready`)).status, 'a probe addresses the node').to.equal(200);
    expect((await get(`${base}/health/live`)).status).to.equal(200);
  });
});
