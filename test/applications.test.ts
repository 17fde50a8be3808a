// The console's application changes as the provider sees them: an application created through the
// admin API signs users in at once with its generated secret; a changed redirect URI, a stopped
// application, a new secret or a deletion apply to the very next request.
import { expect } from 'chai';
import * as oidc from 'openid-client';
import { Browser } from './support/browser.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, redirectUris: ['\${url}/admin/auth/callback'] }
  - { id: portal, name: portal, displayName: Portal, type: public, firstParty: true, redirectUris: ['\${url}/auth/callback'] }
users:
  - userName: alice@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Global, application: '1', roles: [Administrator] }]
`;

const noTls = { execute: [oidc.allowInsecureRequests] };

describe('applications changed in the console reach the provider at once', function () {
  this.timeout(180_000);
  let server: TestServer;
  let adminToken: string;
  let aliceId: string;

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP });
    const console = await oidc.discovery(new URL(`${server.url}/oidc`), 'admin-console', undefined, oidc.None(), noTls);
    const { tokens } = await codeFlow(console, `${server.url}/admin/auth/callback`, 'openid profile admin');
    adminToken = tokens.access_token;
    aliceId = tokens.claims()!.sub;
  });
  after(() => server?.stop());

  /** A call of the admin API as Alice, an Administrator. */
  async function admin(method: string, path: string, body?: unknown) {
    const res = await fetch(`${server.url}/api/v1/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'accept-language': 'en', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  }

  /** Signs Alice in on the page the provider sent the browser to, approving the consent a new application asks for. */
  async function signIn(browser: Browser, authorizationUrl: URL): Promise<URL> {
    const start = await browser.get(authorizationUrl.toString());
    expect(start.status, await start.clone().text()).to.equal(303);
    let page = new URL(start.headers.get('location')!, server.url);
    if (page.pathname === '/account/login') {
      await browser.get('/api/v1/config');
      const login = await browser.postJson('/api/v1/account/login', { userName: 'alice@example.com', password: PASSWORD, interaction: page.searchParams.get('interaction') });
      expect(login.status).to.equal(200);
      page = new URL((await browser.follow(((await login.json()) as { redirectTo: string }).redirectTo)).url);
    }
    if (page.pathname === '/account/login') {
      const details = (await (await browser.get('/api/v1/account/interaction')).json()) as { uid: string; prompt: string };
      expect(details.prompt).to.equal('consent');
      const consent = await browser.postJson('/api/v1/account/consent', { approve: true, interaction: details.uid });
      page = new URL((await browser.follow(((await consent.json()) as { redirectTo: string }).redirectTo)).url);
    }
    return page;
  }

  /** The authorization code flow with PKCE, as openid-client runs it for a relying party. */
  async function codeFlow(config: oidc.Configuration, redirectUri: string, scope = 'openid profile', browser = new Browser(server.url)) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const callback = await signIn(browser, url);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    return { tokens, browser };
  }

  /** Where an authorization request of `clientId` for `redirectUri` goes, in a browser with a session: its status and location. */
  async function authorize(browser: Browser, clientId: string, redirectUri: string) {
    const params = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: redirectUri,
      state: 'st',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const res = await browser.get(`/oidc/auth?${params}`);
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  }

  const fields = (name: string, redirectUris: string[]) => ({
    displayName: `CRM ${name}`,
    type: 'confidential',
    privateUrl: `${server.url}/${name}/`,
    redirectUris,
  });

  it('signs a user in to a new confidential application with the secret answered at its creation', async () => {
    // Asked for before it exists: the provider remembers the client as unknown…
    const unknown = await authorize(new Browser(server.url), 'crm', `${server.url}/crm/callback`);
    expect(unknown.status).to.equal(400);
    expect(unknown.text).to.contain('invalid_client');
    // …until the application is created.
    const created = await admin('POST', '/applications', { name: 'crm', ...fields('crm', [`${server.url}/crm/callback`]) });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const secret = created.body!.sharedSecret as string;
    const crm = await oidc.discovery(new URL(`${server.url}/oidc`), 'crm', secret, oidc.ClientSecretBasic(secret), noTls);
    const { tokens } = await codeFlow(crm, `${server.url}/crm/callback`);
    expect(tokens.claims()).to.include({ sub: aliceId, aud: 'crm' });
  });

  it('accepts a changed redirect URI at once and refuses the old one', async () => {
    const created = await admin('POST', '/applications', { name: 'wiki', ...fields('wiki', [`${server.url}/wiki/callback`]) });
    const secret = created.body!.sharedSecret as string;
    const wiki = await oidc.discovery(new URL(`${server.url}/oidc`), 'wiki', secret, oidc.ClientSecretBasic(secret), noTls);
    const { browser } = await codeFlow(wiki, `${server.url}/wiki/callback`);

    const changed = await admin('PUT', '/applications/wiki', fields('wiki', [`${server.url}/wiki/new-callback`]));
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    const renewed = await authorize(browser, 'wiki', `${server.url}/wiki/new-callback`);
    expect(renewed.status).to.equal(303);
    expect(new URL(renewed.location!, server.url).pathname).to.equal('/wiki/new-callback');
    const old = await authorize(browser, 'wiki', `${server.url}/wiki/callback`);
    expect(old.status).to.equal(400);
    expect(old.text).to.contain('redirect_uri');
  });

  it('refuses sign-ins as soon as the application is stopped, and accepts them again once it runs', async () => {
    const created = await admin('POST', '/applications', { name: 'reports', ...fields('reports', [`${server.url}/reports/callback`]) });
    const secret = created.body!.sharedSecret as string;
    const reports = await oidc.discovery(new URL(`${server.url}/oidc`), 'reports', secret, oidc.ClientSecretBasic(secret), noTls);
    const { browser } = await codeFlow(reports, `${server.url}/reports/callback`);

    expect((await admin('PUT', '/applications/reports/Stopped')).status).to.equal(200);
    const stopped = await authorize(browser, 'reports', `${server.url}/reports/callback`);
    expect(stopped.status).to.equal(503);
    expect(stopped.text).to.contain('is stopped');

    expect((await admin('PUT', '/applications/reports/Running')).status).to.equal(200);
    const running = await authorize(browser, 'reports', `${server.url}/reports/callback`);
    expect(running.status).to.equal(303);
    expect(new URL(running.location!, server.url).pathname).to.equal('/reports/callback');
  });

  it('signs nobody in to a disabled application, nor refreshes its tokens, until it is enabled again', async () => {
    const created = await admin('POST', '/applications', { name: 'payroll', ...fields('payroll', [`${server.url}/payroll/callback`]) });
    const secret = created.body!.sharedSecret as string;
    const payroll = await oidc.discovery(new URL(`${server.url}/oidc`), 'payroll', secret, oidc.ClientSecretBasic(secret), noTls);
    const { browser, tokens } = await codeFlow(payroll, `${server.url}/payroll/callback`);

    const disabled = await admin('PUT', '/applications/payroll', { ...fields('payroll', [`${server.url}/payroll/callback`]), enabled: false });
    expect(disabled.status, JSON.stringify(disabled.body)).to.equal(200);
    expect(disabled.body).to.deep.include({ enabled: false, status: 'Running' });
    const refused = await authorize(browser, 'payroll', `${server.url}/payroll/callback`);
    expect(refused.status).to.equal(400);
    expect(refused.text).to.contain('invalid_client');
    const refresh = (await oidc.refreshTokenGrant(payroll, tokens.refresh_token!).catch((error: unknown) => error)) as oidc.WWWAuthenticateChallengeError;
    expect(refresh).to.be.instanceOf(oidc.WWWAuthenticateChallengeError);
    expect(refresh.cause[0]!.parameters.error).to.equal('invalid_client');

    // A change that does not mention it leaves it disabled.
    expect((await admin('PUT', '/applications/payroll', { ...fields('payroll', [`${server.url}/payroll/callback`]), displayName: 'Payroll' })).body).to.deep.include({ enabled: false });
    expect((await admin('PUT', '/applications/payroll', { ...fields('payroll', [`${server.url}/payroll/callback`]), enabled: true })).body).to.deep.include({ enabled: true });
    const again = await authorize(browser, 'payroll', `${server.url}/payroll/callback`);
    expect(again.status).to.equal(303);
    expect(new URL(again.location!, server.url).pathname).to.equal('/payroll/callback');
  });

  it('puts the portal in maintenance: the status its maintenance notice reads says so at once', async () => {
    const status = () => fetch(`${server.url}/api/v1/applications/status/portal`).then((res) => res.text());
    expect(await status()).to.equal('Running');
    expect((await admin('PUT', '/applications/portal/Maintenance')).status).to.equal(200);
    expect(await status()).to.equal('Maintenance');
    expect((await admin('PUT', '/applications/portal/Running')).status).to.equal(200);
  });

  it('takes a regenerated secret at once: the old one no longer authenticates the application', async () => {
    const created = await admin('POST', '/applications', { name: 'billing', ...fields('billing', [`${server.url}/billing/callback`]) });
    const oldSecret = created.body!.sharedSecret as string;
    const billing = await oidc.discovery(new URL(`${server.url}/oidc`), 'billing', oldSecret, oidc.ClientSecretBasic(oldSecret), noTls);
    const { tokens } = await codeFlow(billing, `${server.url}/billing/callback`);

    const rotated = await admin('POST', '/applications/billing/secret');
    const newSecret = rotated.body!.sharedSecret as string;
    // invalid_client, answered as a 401 with a Basic challenge.
    const refused = (await oidc.refreshTokenGrant(billing, tokens.refresh_token!).catch((error: unknown) => error)) as oidc.WWWAuthenticateChallengeError;
    expect(refused).to.be.instanceOf(oidc.WWWAuthenticateChallengeError);
    expect(refused.status).to.equal(401);
    expect(refused.cause[0]!.parameters.error).to.equal('invalid_client');
    const renewed = await oidc.discovery(new URL(`${server.url}/oidc`), 'billing', newSecret, oidc.ClientSecretBasic(newSecret), noTls);
    const refreshed = await oidc.refreshTokenGrant(renewed, tokens.refresh_token!);
    expect(refreshed.access_token).to.be.a('string');
  });

  it('forgets a deleted application at once', async () => {
    await admin('POST', '/applications', { name: 'legacy', ...fields('legacy', [`${server.url}/legacy/callback`]) });
    const browser = new Browser(server.url);
    expect((await authorize(browser, 'legacy', `${server.url}/legacy/callback`)).status).to.equal(303);
    expect((await admin('DELETE', '/applications/legacy')).status).to.equal(204);
    const gone = await authorize(browser, 'legacy', `${server.url}/legacy/callback`);
    expect(gone.status).to.equal(400);
    expect(gone.text).to.contain('invalid_client');
  });
});
