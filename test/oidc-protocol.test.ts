import http from 'node:http';
import { expect } from 'chai';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { Browser } from './support/browser.js';
import { freePort, startTestServer, type TestServer } from './support/server.js';

const SECRET = 'rp-web-secret-0123456789-abcdefghijkl';
const PASSWORD = 'Correct-Horse-42!';

const BOOTSTRAP = `
areas:
  - { name: Default, default: true }
  - { name: Customers }
tenants:
  - { title: ACME, area: Customers }
applications:
  - id: '1'
    name: identity
    displayName: Identity Management
    type: public
    roles: [{ name: God }, { name: Administrator }, { name: User }]
  - id: admin-console
    name: admin-console
    displayName: Administration console
    type: public
    firstParty: true
    redirectUris: ['\${url}/admin/auth/callback']
  - id: spa
    name: spa
    displayName: Browser app
    type: public
    firstParty: true
    redirectUris: ['\${url}/spa/callback']
  - id: rp-web
    name: rp-web
    displayName: Web application
    type: confidential
    secret: '${SECRET}'
    firstParty: true
    redirectUris: ['\${url}/rp/callback']
    postLogoutRedirectUris: ['\${url}/rp/signed-out']
    grantTypes: [authorization_code, refresh_token, client_credentials]
    roles: [{ name: Viewer }, { name: Editor }]
  - id: es-rp
    name: es-rp
    displayName: ES256 application
    type: confidential
    secret: 'es-rp-secret-0123456789-abcdefghijklm'
    firstParty: true
    idTokenAlgorithm: ES256
    redirectUris: ['\${url}/es/callback']
  - id: partner
    name: partner
    displayName: Partner portal
    type: confidential
    secret: 'partner-secret-0123456789-abcdefghijk'
    redirectUris: ['\${url}/partner/callback']
  - id: stopped
    name: stopped
    displayName: Old Reports
    type: public
    status: Stopped
    redirectUris: ['\${url}/stopped/callback']
users:
  - userName: alice@example.com
    firstName: Alice
    lastName: Martin
    area: Customers
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: ACME, application: rp-web, roles: [Viewer] }
      - { tenant: Global, application: '1', roles: [Administrator] }
`;

/** Signs in through the JSON API the portal uses, and returns the browser at the client's callback. */
async function signIn(server: TestServer, browser: Browser, authorizationUrl: URL, credentials = { userName: 'alice@example.com', password: PASSWORD }) {
  const start = await browser.get(authorizationUrl.toString());
  expect(start.status).to.equal(303);
  const loginPage = new URL(start.headers.get('location')!, server.url);
  expect(loginPage.pathname).to.equal('/account/login');
  const uid = loginPage.searchParams.get('interaction');
  expect(uid).to.be.a('string');
  await browser.get('/api/v1/config'); // the page's first call: it also sets the XSRF cookie
  const login = await browser.postJson('/api/v1/account/login', { ...credentials, rememberLogin: true, interaction: uid });
  const body = (await login.json()) as { redirectTo: string };
  expect(login.status, JSON.stringify(body)).to.equal(200);
  expect(body).to.include({ success: true, changePassword: false, twoAuthentificationRequired: false });
  const { url } = await browser.follow(body.redirectTo);
  return new URL(url);
}

describe('OpenID Connect provider, driven by openid-client as a relying party', function () {
  this.timeout(120_000);
  let server: TestServer;
  let config: oidc.Configuration;
  let publicConfig: oidc.Configuration;
  const noTls = { execute: [oidc.allowInsecureRequests] };

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP });
    config = await oidc.discovery(new URL(`${server.url}/oidc`), 'rp-web', SECRET, oidc.ClientSecretBasic(SECRET), noTls);
    publicConfig = await oidc.discovery(new URL(`${server.url}/oidc`), 'spa', undefined, oidc.None(), noTls);
  });
  after(() => server.stop());

  async function codeFlow(options: { config?: oidc.Configuration; redirect?: string; scope?: string; prompt?: string; browser?: Browser } = {}) {
    const browser = options.browser ?? new Browser(server.url);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const redirect_uri = options.redirect ?? `${server.url}/rp/callback`;
    const url = oidc.buildAuthorizationUrl(options.config ?? config, {
      redirect_uri,
      scope: options.scope ?? 'openid profile email roles',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...(options.prompt ? { prompt: options.prompt } : {}),
    });
    let callback = await signIn(server, browser, url);
    if (callback.pathname === '/account/login') {
      // The consent screen, asked for by the request (prompt=consent): "Allow".
      const details = (await (await browser.get('/api/v1/account/interaction')).json()) as { uid: string; prompt: string };
      expect(details.prompt).to.equal('consent');
      const consent = (await (await browser.postJson('/api/v1/account/consent', { approve: true, interaction: details.uid })).json()) as { redirectTo: string };
      callback = new URL((await browser.follow(consent.redirectTo)).url);
    }
    const tokens = await oidc.authorizationCodeGrant(options.config ?? config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    return { tokens, callback, verifier, browser };
  }

  it('publishes discovery: code flow only, S256 PKCE, no implicit or password grant', () => {
    const meta = config.serverMetadata();
    expect(meta.issuer).to.equal(`${server.url}/oidc`);
    expect(meta.response_types_supported).to.deep.equal(['code']);
    expect(meta.code_challenge_methods_supported).to.deep.equal(['S256']);
    expect(meta.grant_types_supported).to.include.members(['authorization_code', 'refresh_token', 'client_credentials']);
    expect(meta.grant_types_supported).not.to.include.members(['implicit', 'password']);
    expect(meta.id_token_signing_alg_values_supported).to.include.members(['RS256', 'ES256', 'EdDSA']);
    expect(meta.introspection_endpoint).to.be.a('string');
    expect(meta.revocation_endpoint).to.be.a('string');
    expect(meta.end_session_endpoint).to.be.a('string');
  });

  it('signs in with code + PKCE through the JSON API and issues a valid RS256 ID token with the claims', async () => {
    const { tokens } = await codeFlow();
    const claims = tokens.claims()!;
    expect(decodeJwtHeader(tokens.id_token!).alg).to.equal('RS256');
    expect(claims).to.include({
      iss: `${server.url}/oidc`,
      aud: 'rp-web',
      name: 'Alice Martin',
      given_name: 'Alice',
      family_name: 'Martin',
      email: 'alice@example.com',
      locale: 'en',
      area: 'Customers',
    });
    expect(claims.roles, 'only the roles of the requesting application').to.deep.equal(['Viewer']);
    expect(tokens.refresh_token).to.be.a('string');

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).to.include({ sub: claims.sub, email: 'alice@example.com', email_verified: false, name: 'Alice Martin' });
    expect(info.roles).to.deep.equal(['Viewer']);
    expect(info.groups).to.deep.equal([]);
  });

  it('signs ID tokens with ES256 for a client that asks for it', async () => {
    const es = await oidc.discovery(new URL(`${server.url}/oidc`), 'es-rp', 'es-rp-secret-0123456789-abcdefghijklm', undefined, noTls);
    const { tokens } = await codeFlow({ config: es, redirect: `${server.url}/es/callback` });
    expect(decodeJwtHeader(tokens.id_token!).alg).to.equal('ES256');
  });

  it('rotates refresh tokens and revokes the whole grant when a used one comes back', async () => {
    const { tokens } = await codeFlow();
    const first = tokens.refresh_token!;
    const second = await oidc.refreshTokenGrant(config, first);
    expect(second.refresh_token).to.be.a('string').and.not.equal(first);
    expect(second.claims()!.sub).to.equal(tokens.claims()!.sub);

    const reuse = await oidc.refreshTokenGrant(config, first).catch((e: oidc.ResponseBodyError) => e);
    expect((reuse as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    const afterReuse = await oidc.refreshTokenGrant(config, second.refresh_token!).catch((e: oidc.ResponseBodyError) => e);
    expect((afterReuse as oidc.ResponseBodyError).error, 'the rotated token died with the grant').to.equal('invalid_grant');
    const introspected = await oidc.tokenIntrospection(config, second.access_token);
    expect(introspected.active, 'access tokens of the grant are revoked too').to.equal(false);
  });

  it('grants offline_access only when consent was asked (prompt=consent); refreshing with it otherwise is invalid_scope', async () => {
    // Without prompt=consent the scope is dropped (OpenID Connect Core §11), yet an application
    // with the refresh_token grant gets a refresh token, one that ends with the session.
    const plain = await codeFlow({ scope: 'openid email offline_access' });
    expect(plain.tokens.scope?.split(' ')).to.have.members(['openid', 'email']);
    expect(plain.tokens.refresh_token).to.be.a('string');
    const refreshed = await oidc.refreshTokenGrant(config, plain.tokens.refresh_token!);
    expect(refreshed.access_token).to.be.a('string');
    const askingMore = await oidc.refreshTokenGrant(config, refreshed.refresh_token!, { scope: 'openid offline_access' }).catch((e: oidc.ResponseBodyError) => e);
    expect((askingMore as oidc.ResponseBodyError).error, 'a refresh cannot widen the grant').to.equal('invalid_scope');

    // With prompt=consent it is granted, and a refresh may ask for it again.
    const consented = await codeFlow({ scope: 'openid email offline_access', prompt: 'consent' });
    expect(consented.tokens.scope?.split(' ')).to.have.members(['openid', 'email', 'offline_access']);
    const again = await oidc.refreshTokenGrant(config, consented.tokens.refresh_token!, { scope: 'openid offline_access' });
    expect(again.scope?.split(' ')).to.have.members(['openid', 'offline_access']);
  });

  it('refuses to redeem an authorization code twice', async () => {
    const { callback, verifier } = await codeFlow();
    const replay = await oidc
      .authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: callback.searchParams.get('state')! })
      .catch((e: oidc.ResponseBodyError) => e);
    expect((replay as oidc.ResponseBodyError).error).to.equal('invalid_grant');
  });

  it('answers an unregistered redirect_uri with an error page, never a redirect', async () => {
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: 'https://attacker.example/callback',
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const res = await new Browser(server.url).get(url.toString());
    expect(res.status).to.equal(400);
    expect(res.headers.get('location')).to.equal(null);
    expect(await res.text()).to.contain('redirect_uri');
  });

  it('requires S256 PKCE from public clients and refuses the plain method', async () => {
    const browser = new Browser(server.url);
    const base = { client_id: 'spa', response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/spa/callback` };
    const withoutPkce = await browser.get(`/oidc/auth?${new URLSearchParams(base)}`);
    expect(new URL(withoutPkce.headers.get('location')!).searchParams.get('error_description')).to.match(/PKCE/);
    const plain = await browser.get(`/oidc/auth?${new URLSearchParams({ ...base, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' })}`);
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).to.equal('invalid_request');
    const { tokens } = await codeFlow({ config: publicConfig, redirect: `${server.url}/spa/callback` });
    expect(tokens.refresh_token, 'browser apps renew with rotating refresh tokens').to.be.a('string');
  });

  it('introspects and revokes tokens', async () => {
    const { tokens } = await codeFlow();
    const active = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(active).to.include({ active: true, client_id: 'rp-web', sub: tokens.claims()!.sub });
    await oidc.tokenRevocation(config, tokens.access_token);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).to.equal(false);
  });

  it('issues client-credentials tokens to confidential clients only', async () => {
    const tokens = await oidc.clientCredentialsGrant(config, {});
    expect(tokens.access_token).to.be.a('string');
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).to.equal(true);
    const refused = await oidc.clientCredentialsGrant(publicConfig, {}).catch((e: oidc.ResponseBodyError) => e);
    expect((refused as oidc.ResponseBodyError).error_description).to.equal('requested grant type is not allowed for this client');
  });

  it('gives the admin console a JWT access token for the admin API audience, with the global roles', async () => {
    const admin = await oidc.discovery(new URL(`${server.url}/oidc`), 'admin-console', undefined, oidc.None(), noTls);
    const { tokens } = await codeFlow({ config: admin, redirect: `${server.url}/admin/auth/callback`, scope: 'openid profile admin' });
    const jwks = createRemoteJWKSet(new URL(`${server.url}/oidc/jwks`));
    const { payload } = await jwtVerify(tokens.access_token, jwks, {
      issuer: `${server.url}/oidc`,
      audience: `${server.url}/api/v1/admin`,
    });
    expect(payload.roles).to.deep.equal(['Administrator']);
    expect(payload.scope).to.contain('admin');
    expect(payload.exp! - payload.iat!).to.equal(15 * 60);
  });

  it('asks a third-party application for consent, and continues once the user approves', async () => {
    const partner = await oidc.discovery(new URL(`${server.url}/oidc`), 'partner', 'partner-secret-0123456789-abcdefghijk', undefined, noTls);
    const browser = new Browser(server.url);
    const url = oidc.buildAuthorizationUrl(partner, {
      redirect_uri: `${server.url}/partner/callback`,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const afterLogin = await signIn(server, browser, url);
    expect(afterLogin.pathname).to.equal('/account/login');
    const details = (await (await browser.get('/api/v1/account/interaction')).json()) as Record<string, unknown> & { uid: string; missingScopes: string[] };
    expect(details).to.include({ prompt: 'consent' });
    expect(details.client).to.deep.equal({ clientId: 'partner', displayName: 'Partner portal', firstParty: false });
    expect(details.missingScopes).to.include('email');
    // "Allow" names the interaction whose details the page showed.
    const consent = (await (await browser.postJson('/api/v1/account/consent', { approve: true, interaction: details.uid })).json()) as { redirectTo: string };
    const { url: callback } = await browser.follow(consent.redirectTo);
    expect(new URL(callback).searchParams.get('code')).to.be.a('string');
  });

  it('refuses to start a sign-in for a stopped application, with a clear page', async () => {
    const res = await new Browser(server.url).get(
      `/oidc/auth?${new URLSearchParams({ client_id: 'stopped', response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/stopped/callback` })}`,
    );
    expect(res.status).to.equal(503);
    expect(await res.text()).to.contain('Old Reports');
  });

  it('writes a session-log row for every token issued to an application for a user', async () => {
    // Rows are written in the background: count those dated from this test on.
    const since = new Date();
    const count = () => countRows(server, `SELECT count(*) FROM session_logs WHERE application_name = 'rp-web' AND date >= '${since.toISOString()}'`);
    const { tokens } = await codeFlow();
    await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    await waitFor(async () => (await count()) === 2);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await count(), 'exactly one row per token response').to.equal(2);
    const [row] = await server.server.context.dataSource.query(
      `SELECT user_name, roles FROM session_logs WHERE application_name = 'rp-web' ORDER BY id DESC LIMIT 1`,
    );
    expect(row).to.deep.equal({ user_name: 'alice@example.com', roles: ['Viewer'] });
  });

  it('ends the session (RP-initiated logout) to registered post-logout URIs only, and tells back-channel clients', async () => {
    const received: string[] = [];
    const port = await freePort();
    const rp = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        received.push(body);
        res.end();
      });
    });
    await new Promise<void>((resolve) => rp.listen(port, '127.0.0.1', resolve));
    await server.server.context.dataSource.query(`UPDATE applications SET backchannel_logout_uri = $1 WHERE id = 'rp-web'`, [
      `http://127.0.0.1:${port}/backchannel`,
    ]);
    server.server.context.broadcast.publish('application.changed', { clientId: 'rp-web' });
    try {
      const { tokens, browser } = await codeFlow();
      const refused = await browser.get(
        oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://elsewhere.example/' }).toString(),
      );
      expect(refused.status).to.equal(400);

      const endSession = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${server.url}/rp/signed-out`, state: 's1' });
      const page = await browser.get(endSession.toString());
      const html = await page.text();
      const action = /action="([^"]+)"/.exec(html)![1]!;
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
      const done = await browser.request('POST', action, { form: { xsrf, logout: 'yes' } });
      expect(done.status).to.equal(303);
      expect(done.headers.get('location')).to.equal(`${server.url}/rp/signed-out?state=s1`);
      await waitFor(async () => received.length > 0);
      const logoutToken = new URLSearchParams(received[0]).get('logout_token')!;
      const claims = decodeJwt(logoutToken);
      expect(claims.sub).to.equal(tokens.claims()!.sub);
      expect(claims.events).to.have.property('http://schemas.openid.net/event/backchannel-logout');
      const renewed = await oidc.refreshTokenGrant(config, tokens.refresh_token!).catch((e: oidc.ResponseBodyError) => e);
      expect((renewed as oidc.ResponseBodyError).error, 'signing out ends the session tokens').to.equal('invalid_grant');
    } finally {
      await server.server.context.dataSource.query(`UPDATE applications SET backchannel_logout_uri = NULL WHERE id = 'rp-web'`);
      server.server.context.broadcast.publish('application.changed', { clientId: 'rp-web' });
      rp.close();
    }
  });

  it('keeps signing keys, sessions and refresh tokens across a restart of the process', async () => {
    const browser = new Browser(server.url);
    const { tokens } = await codeFlow({ browser });
    const keysBefore = await (await fetch(`${server.url}/oidc/jwks`)).json();
    await server.restart();
    const keysAfter = await (await fetch(`${server.url}/oidc/jwks`)).json();
    expect(keysAfter).to.deep.equal(keysBefore);
    await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${server.url}/oidc/jwks`)), { audience: 'rp-web' });
    const renewed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(renewed.access_token).to.be.a('string');
    // The browser's provider session survived: a new authorization needs no sign-in.
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${server.url}/rp/callback`,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const { url: landed } = await browser.follow(url.toString());
    expect(new URL(landed).pathname).to.equal('/rp/callback');
    expect(new URL(landed).searchParams.get('code')).to.be.a('string');
  });
});

function decodeJwtHeader(jwt: string): { alg: string; kid?: string } {
  return JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString());
}

async function countRows(server: TestServer, sql: string): Promise<number> {
  const [row] = await server.server.context.dataSource.query(sql);
  return Number(row.count);
}

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not met in time');
}
