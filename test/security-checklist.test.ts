// The security checklist: one test per requirement of OWASP ASVS 5.0 and of RFC 9700 (OAuth 2.0
// Security Best Current Practice) that the product claims, each asserted against the running
// product. docs/security-checklist.md maps every requirement to its test.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { SignJWT, UnsecuredJWT, decodeJwt, exportJWK, generateKeyPair } from 'jose';
import * as oidc from 'openid-client';
import { insertSigningKey, mintAccessToken, type TestSigningKey } from '../services/admin-api/src/testing/tokens.js';
import { Browser } from './support/browser.js';
import { startServerWithMail } from './support/flows.js';
import type { TestServer } from './support/server.js';
import type { MailCatcher } from './support/smtp.js';

const PASSWORD = 'Correct-Horse-42!';
const ADMIN_PASSWORD = 'Admin-Horse-42!!';
const RP_SECRET = 'rp-web-secret-0123456789-abcdefghijkl';
const PARTNER_SECRET = 'partner-secret-0123456789-abcdefghijk';
/** A password of 100 characters, with spaces, accents and an emoji, ending in a space. */
const LONG_PASSWORD = `Long-Pässwörd-🔑-${'x'.repeat(70)}-with spaces 9 `;

/** One user per requirement, so that no test depends on what another did. */
const USERS = ['lock', 'delete', 'adminset', 'reset', 'logout', 'session', 'entropy', 'brute', 'exact', 'long', 'known', 'mfa', 'code', 'refresh', 'consent', 'iss', 'hygiene', 'notice'];

const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
tenants:
  - { title: Secure Corp, area: Default, requiredTwoModeAuthentification: true }
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, redirectUris: ['\${url}/admin/auth/callback'] }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'] }
  - id: rp-web
    name: rp-web
    displayName: Web application
    type: confidential
    secret: '${RP_SECRET}'
    firstParty: true
    redirectUris: ['\${url}/rp/callback']
    postLogoutRedirectUris: ['\${url}/rp/signed-out']
    grantTypes: [authorization_code, refresh_token]
  - { id: partner, name: partner, displayName: Partner portal, type: confidential, secret: '${PARTNER_SECRET}', redirectUris: ['\${url}/partner/callback'] }
users:
  - userName: admin@example.com
    area: Default
    language: en
    password: '${ADMIN_PASSWORD}'
    memberships: [{ tenant: Global, application: '1', roles: [Administrator] }]
  - userName: mfa@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Secure Corp, application: '1', roles: [User] }]
${USERS.filter((name) => name !== 'mfa')
  .map((name) => `  - { userName: ${name}@example.com, firstName: ${name}, area: Default, language: en, password: '${PASSWORD}' }`)
  .join('\n')}
`;

const noTls = { execute: [oidc.allowInsecureRequests] };
const withLink = (mail: { text?: string }) => /changePassword\?/.test(mail.text ?? '');
type Tokens = oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;

describe('security checklist (ASVS 5.0, RFC 9700), against the running product', function () {
  this.timeout(180_000);
  let server: TestServer;
  let smtp: MailCatcher;
  let stop: () => Promise<void>;
  let rp: oidc.Configuration;
  let partner: oidc.Configuration;
  let spa: oidc.Configuration;
  let console_: oidc.Configuration;
  let adminToken: string;
  let issuer: string;
  const db = () => server.server.context.dataSource;

  before(async () => {
    ({ server, smtp, stop } = await startServerWithMail(BOOTSTRAP));
    issuer = `${server.url}/oidc`;
    rp = await oidc.discovery(new URL(issuer), 'rp-web', RP_SECRET, oidc.ClientSecretBasic(RP_SECRET), noTls);
    partner = await oidc.discovery(new URL(issuer), 'partner', PARTNER_SECRET, oidc.ClientSecretBasic(PARTNER_SECRET), noTls);
    spa = await oidc.discovery(new URL(issuer), 'spa', undefined, oidc.None(), noTls);
    console_ = await oidc.discovery(new URL(issuer), 'admin-console', undefined, oidc.None(), noTls);
    adminToken = (await signIn('admin@example.com', { config: console_, redirect: `${server.url}/admin/auth/callback`, password: ADMIN_PASSWORD, scope: 'openid profile admin' })).tokens.access_token;
  });
  after(() => stop?.());

  /** An authorization request of `config`'s client, with PKCE, state and nonce. */
  async function authorization(config: oidc.Configuration, redirect: string, extra: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirect,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...extra,
    });
    return { url, verifier, state };
  }

  /** The interaction uid of an authorization request, with the browser at the sign-in page. */
  async function toLoginPage(browser: Browser, url: URL): Promise<string> {
    const start = await browser.get(url.toString());
    expect(start.status, 'the authorization endpoint sends the browser to sign in').to.equal(303);
    const page = new URL(start.headers.get('location')!, server.url);
    expect(page.pathname).to.equal('/account/login');
    await browser.get('/api/v1/config');
    return page.searchParams.get('interaction')!;
  }

  async function login(browser: Browser, uid: string, userName: string, password = PASSWORD) {
    const res = await browser.postJson('/api/v1/account/login', { userName, password, interaction: uid }, { 'accept-language': 'en' });
    return { res, body: (await res.json()) as Record<string, unknown> & { redirectTo: string | null; errors: string[] } };
  }

  interface SignInOptions {
    config?: oidc.Configuration;
    redirect?: string;
    browser?: Browser;
    password?: string;
    scope?: string;
  }

  /** Signs the user in to a client (rp-web unless told) through the portal's JSON API, and redeems the code. */
  async function signIn(userName: string, options: SignInOptions = {}): Promise<{ browser: Browser; tokens: Tokens; callback: URL; verifier: string }> {
    const config = options.config ?? rp;
    const redirect = options.redirect ?? `${server.url}/rp/callback`;
    const browser = options.browser ?? new Browser(server.url);
    const { url, verifier, state } = await authorization(config, redirect, options.scope ? { scope: options.scope } : {});
    const uid = await toLoginPage(browser, url);
    const { res, body } = await login(browser, uid, userName, options.password);
    expect(res.status, JSON.stringify(body)).to.equal(200);
    const { url: landed } = await browser.follow(body.redirectTo!);
    const callback = new URL(landed);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    return { browser, tokens, callback, verifier };
  }

  /** What a silent authorization (prompt=none) in the browser answers: `code`, or the error. */
  async function silently(browser: Browser): Promise<string> {
    const { url } = await authorization(rp, `${server.url}/rp/callback`, { prompt: 'none' });
    const { url: landed } = await browser.follow(url.toString());
    const params = new URL(landed).searchParams;
    return params.get('code') ? 'code' : String(params.get('error'));
  }

  /** The grant error of a refresh, or `ok`. */
  const refreshOutcome = (refreshToken: string) =>
    oidc.refreshTokenGrant(rp, refreshToken).then(
      () => 'ok',
      (error: oidc.ResponseBodyError) => error.error,
    );

  const introspected = async (token: string) => (await oidc.tokenIntrospection(rp, token)).active;

  const idOf = async (userName: string): Promise<string> => (await db().query('SELECT id FROM users WHERE normalized_user_name = $1', [userName]))[0].id;

  const adminApi = (method: string, path: string, json?: unknown, token = adminToken) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en', ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });

  /** Everything a signed-in user holds must be dead: refresh token, access token, provider session. */
  async function expectSignedOut(session: { browser: Browser; tokens: Tokens }) {
    expect(await refreshOutcome(session.tokens.refresh_token!), 'the refresh token').to.equal('invalid_grant');
    expect(await introspected(session.tokens.access_token), 'the access token').to.equal(false);
    expect(await silently(session.browser), 'the provider session').to.equal('login_required');
  }

  /** Asks for a reset link (as the sign-in page does) and answers the token it mails. */
  async function resetToken(userName: string): Promise<string> {
    const browser = new Browser(server.url);
    await browser.get('/api/v1/config');
    // A new link is sent at most once a minute: the earlier ones are made older.
    await db().query(`UPDATE user_tokens SET created_at = created_at - interval '2 minutes' WHERE purpose = 'PasswordReset'`);
    const before = smtp.mails.length;
    const res = await browser.postJson('/api/v1/account/resetPassword', { username: userName });
    expect(res.status).to.equal(200);
    const mail = await smtp.next(userName, before, withLink);
    const token = new URL(/https?:\/\/\S+changePassword\S+/.exec(mail.text!)![0]).searchParams.get('token')!;
    expect((await browser.get(`/api/v1/account/validateToken/${encodeURIComponent(userName)}/${token}`)).status, 'the page checks the link').to.equal(200);
    // A password the policy refuses does not burn the link, but shows that the mailbox was read:
    // the account may ask for another link at once (mails are otherwise limited per account).
    const refused = await changeWithToken(userName, token, 'x');
    expect(refused.status).to.equal(400);
    return token;
  }

  async function changeWithToken(userName: string, token: string, newPassword: string) {
    const browser = new Browser(server.url);
    await browser.get('/api/v1/config');
    const res = await browser.postJson('/api/v1/account/changePassword', { identityName: userName, token, newPassword, confirmPassword: newPassword }, { 'accept-language': 'en' });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** The status and body of an answer, its request id left out (it differs on every call). */
  const comparable = async (res: Response) => {
    const body = (await res.json()) as Record<string, unknown>;
    delete body.requestId;
    return { status: res.status, body };
  };

  describe('ASVS V7 session management', () => {
    it('V7.2.3: session ids and tokens are random reference values of 256 bits, new at each sign-in', async () => {
      const first = await signIn('entropy@example.com');
      const second = await signIn('entropy@example.com');
      const opaque = /^[A-Za-z0-9_-]{43,}$/;
      for (const { browser, tokens } of [first, second]) {
        expect(browser.cookie('gh_session'), 'the session cookie').to.match(opaque);
        expect(tokens.access_token, 'the access token').to.match(opaque);
        expect(tokens.refresh_token, 'the refresh token').to.match(opaque);
      }
      expect(second.browser.cookie('gh_session')).to.not.equal(first.browser.cookie('gh_session'));
      expect(second.tokens.access_token).to.not.equal(first.tokens.access_token);
    });

    it('V7.2.4: a sign-in issues a new session id, and the session from before it ends', async () => {
      const { browser } = await signIn('session@example.com');
      const before = new CookieJar(server.url, { gh_session: browser.cookie('gh_session')!, 'gh_session.sig': browser.cookie('gh_session.sig')! });
      // The same browser signs in again (prompt=login): a new session id, and the old one is gone.
      const { url } = await authorization(rp, `${server.url}/rp/callback`, { prompt: 'login' });
      const uid = await toLoginPage(browser, url);
      const { body } = await login(browser, uid, 'session@example.com');
      await browser.follow(body.redirectTo!);
      expect(browser.cookie('gh_session')).to.be.a('string').and.not.equal(before.get('gh_session'));
      const after = new CookieJar(server.url, { gh_session: browser.cookie('gh_session')!, 'gh_session.sig': browser.cookie('gh_session.sig')! });
      const silent = async (jar: CookieJar) => new URL(await jar.follow((await authorization(rp, `${server.url}/rp/callback`, { prompt: 'none' })).url.toString())).searchParams;
      expect((await silent(after)).get('code'), 'the new session id').to.be.a('string');
      expect((await silent(before)).get('error'), 'the session id from before the sign-in').to.equal('login_required');
    });

    it('V7.4.1: signing out ends the session: no silent sign-in, its refresh token refused', async () => {
      const session = await signIn('logout@example.com');
      expect(await silently(session.browser)).to.equal('code');
      const page = await session.browser.get(oidc.buildEndSessionUrl(rp, { id_token_hint: session.tokens.id_token! }).toString());
      const html = await page.text();
      const action = /action="([^"]+)"/.exec(html)![1]!;
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
      const done = await session.browser.request('POST', action, { form: { xsrf, logout: 'yes' } });
      expect(done.status).to.equal(303);
      expect(await silently(session.browser), 'the provider session').to.equal('login_required');
      expect(await refreshOutcome(session.tokens.refresh_token!), 'the refresh token').to.equal('invalid_grant');
    });

    it('V7.4.2: an administrator locking (disabling) an account ends all its sessions and tokens at once', async () => {
      const sessions = [await signIn('lock@example.com'), await signIn('lock@example.com')];
      const res = await adminApi('GET', `/api/v1/account/lock/${await idOf('lock@example.com')}`);
      expect(res.status, await res.clone().text()).to.equal(200);
      for (const session of sessions) await expectSignedOut(session);
    });

    it('V7.4.2: deleting an account ends all its sessions and tokens at once', async () => {
      const session = await signIn('delete@example.com');
      const res = await adminApi('DELETE', `/api/v1/admin/users/${await idOf('delete@example.com')}`);
      expect(res.status, await res.clone().text()).to.equal(204);
      await expectSignedOut(session);
    });

    it('V7.4.3: a password reset ends the other sessions and refresh tokens of the account', async () => {
      const session = await signIn('reset@example.com');
      const token = await resetToken('reset@example.com');
      expect((await changeWithToken('reset@example.com', token, 'Reset-Horse-2026!!')).status).to.equal(200);
      await expectSignedOut(session);
    });

    it('V7.4.3: a password set by an administrator ends the sessions and refresh tokens of the account', async () => {
      const session = await signIn('adminset@example.com');
      const res = await adminApi('POST', `/api/v1/admin/users/change-password/${await idOf('adminset@example.com')}`, {
        password: 'Admin-Set-Horse-2026!',
        confirmPassword: 'Admin-Set-Horse-2026!',
      });
      expect(res.status, await res.clone().text()).to.equal(200);
      await expectSignedOut(session);
    });
  });

  describe('ASVS V6 authentication', () => {
    it('V6.2.1: a password shorter than the policy (12 characters, over ASVS\'s 8) is refused', async () => {
      const id = await idOf('adminset@example.com');
      const short = await adminApi('POST', `/api/v1/admin/users/change-password/${id}`, { password: 'Sh0rt-Pass!', confirmPassword: 'Sh0rt-Pass!' });
      expect(short.status).to.equal(400);
      expect(((await short.json()) as { errors: Array<{ code: string }> }).errors.map((e) => e.code)).to.include('password.too_short');
    });

    it('V6.2.9: a password of 100 characters is taken, and signs in', async () => {
      expect(Array.from(LONG_PASSWORD).length).to.be.at.least(64);
      const token = await resetToken('long@example.com');
      expect((await changeWithToken('long@example.com', token, LONG_PASSWORD)).status).to.equal(200);
      const { tokens } = await signIn('long@example.com', { password: LONG_PASSWORD });
      expect(tokens.access_token).to.be.a('string');
    });

    it('V6.2.8: the password is checked exactly as typed: no truncation, no case change, no trimming', async () => {
      const token = await resetToken('exact@example.com');
      expect((await changeWithToken('exact@example.com', token, LONG_PASSWORD)).status).to.equal(200);
      const variants = [LONG_PASSWORD.toUpperCase(), LONG_PASSWORD.slice(0, 72), LONG_PASSWORD.trimEnd(), `${LONG_PASSWORD}!`];
      for (const variant of variants) {
        const browser = new Browser(server.url);
        const uid = await toLoginPage(browser, (await authorization(rp, `${server.url}/rp/callback`)).url);
        const { res, body } = await login(browser, uid, 'exact@example.com', variant);
        expect(res.status, JSON.stringify(variant.slice(-12))).to.equal(401);
        expect(body.code).to.equal('account.invalid_credentials');
      }
      const { tokens } = await signIn('exact@example.com', { password: LONG_PASSWORD });
      expect(tokens.access_token, 'the exact password').to.be.a('string');
    });

    it('V6.3.1: five wrong passwords lock the account, and the right one is then refused', async () => {
      const browser = new Browser(server.url);
      const uid = await toLoginPage(browser, (await authorization(rp, `${server.url}/rp/callback`)).url);
      const codes: unknown[] = [];
      for (let i = 0; i < 5; i++) codes.push((await login(browser, uid, 'brute@example.com', `Wrong-Horse-${i}!`)).body.code);
      expect(codes.slice(0, 4)).to.deep.equal(Array(4).fill('account.invalid_credentials'));
      expect(codes[4]).to.equal('account.locked');
      const right = await login(browser, uid, 'brute@example.com', PASSWORD);
      expect(right.res.status).to.equal(423);
      expect(right.body.code).to.equal('account.locked');
    });

    it('V6.3.8: the sign-in answers an unknown user exactly as a known one with a wrong password', async () => {
      const browser = new Browser(server.url);
      const uid = await toLoginPage(browser, (await authorization(rp, `${server.url}/rp/callback`)).url);
      for (let attempt = 1; attempt <= 3; attempt++) {
        const known = await login(browser, uid, 'known@example.com', 'Wrong-Horse-0!');
        const unknown = await login(browser, uid, 'nobody@example.com', 'Wrong-Horse-0!');
        delete known.body.requestId;
        delete unknown.body.requestId;
        expect({ status: unknown.res.status, body: unknown.body }, `attempt ${attempt}`).to.deep.equal({ status: known.res.status, body: known.body });
      }
    });

    it('V6.3.8: a reset request and a reset-link check answer an unknown user exactly as a known one', async () => {
      const browser = new Browser(server.url);
      await browser.get('/api/v1/config');
      await db().query(`UPDATE user_tokens SET created_at = created_at - interval '2 minutes' WHERE purpose = 'PasswordReset'`);
      const known = await comparable(await browser.postJson('/api/v1/account/resetPassword', { username: 'known@example.com' }, { 'accept-language': 'en' }));
      const unknown = await comparable(await browser.postJson('/api/v1/account/resetPassword', { username: 'nobody@example.com' }, { 'accept-language': 'en' }));
      expect(unknown).to.deep.equal(known);
      const forged = randomBytes(32).toString('base64url');
      const knownCheck = await comparable(await browser.get(`/api/v1/account/validateToken/known@example.com/${forged}`, { 'accept-language': 'en' }));
      const unknownCheck = await comparable(await browser.get(`/api/v1/account/validateToken/nobody@example.com/${forged}`, { 'accept-language': 'en' }));
      expect(unknownCheck).to.deep.equal(knownCheck);
    });

    it('V6.4.3: a reset link carries 256 random bits, stored only as a hash', async () => {
      const token = await resetToken('hygiene@example.com');
      expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);
      const rows: Array<{ token_hash: string }> = await db().query(
        `SELECT t.token_hash FROM user_tokens t JOIN users u ON u.id = t.user_id WHERE u.normalized_user_name = 'hygiene@example.com' AND t.purpose = 'PasswordReset'`,
      );
      expect(rows.length).to.be.at.least(1);
      for (const row of rows) expect(row.token_hash).to.not.contain(token);
      const stored = JSON.stringify(await db().query(`SELECT * FROM user_tokens`));
      expect(stored, 'the token appears nowhere in the table').to.not.contain(token);
    });

    it('V6.4.3: a reset link works once, for its own account only, and a newer link replaces it', async () => {
      const first = await resetToken('hygiene@example.com');
      const second = await resetToken('hygiene@example.com');
      expect((await changeWithToken('hygiene@example.com', first, 'Hygiene-Horse-2026!')).status, 'the older link').to.equal(400);
      expect((await changeWithToken('known@example.com', second, 'Hygiene-Horse-2026!')).status, 'another account').to.equal(400);
      expect((await changeWithToken('hygiene@example.com', second, 'Hygiene-Horse-2026!')).status).to.equal(200);
      expect((await changeWithToken('hygiene@example.com', second, 'Hygiene-Horse-2027!')).status, 'used once').to.equal(400);
    });

    it('V6.4.3: a reset link expires (after an hour)', async () => {
      const token = await resetToken('hygiene@example.com');
      const [row] = await db().query(
        `SELECT extract(epoch FROM t.expires_at - t.created_at)::int AS lifetime FROM user_tokens t JOIN users u ON u.id = t.user_id
          WHERE u.normalized_user_name = 'hygiene@example.com' AND t.purpose = 'PasswordReset' AND t.consumed_at IS NULL ORDER BY t.created_at DESC LIMIT 1`,
      );
      expect(row.lifetime).to.equal(3600);
      await db().query(
        `UPDATE user_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'PasswordReset' AND consumed_at IS NULL
            AND user_id = (SELECT id FROM users WHERE normalized_user_name = 'hygiene@example.com')`,
      );
      expect((await changeWithToken('hygiene@example.com', token, 'Expired-Horse-2026!')).status).to.equal(400);
    });

    it('V6.4.3: a reset does not bypass the second factor: the next sign-in still asks for the code', async () => {
      const token = await resetToken('mfa@example.com');
      const reset = await changeWithToken('mfa@example.com', token, 'Second-Factor-2026!');
      expect(reset.status).to.equal(200);
      expect(reset.body.redirectTo ?? null, 'the reset signs nobody in').to.satisfy((to: unknown) => to === null || !String(to).includes('/oidc/auth/'));
      const browser = new Browser(server.url);
      const uid = await toLoginPage(browser, (await authorization(rp, `${server.url}/rp/callback`)).url);
      const { body } = await login(browser, uid, 'mfa@example.com', 'Second-Factor-2026!');
      expect(body).to.include({ success: false, twoAuthentificationRequired: true });
    });

    it('V6.3.7: the user is told by mail after a password reset', async () => {
      const token = await resetToken('notice@example.com');
      const before = smtp.mails.length;
      expect((await changeWithToken('notice@example.com', token, 'Notice-Horse-2026!')).status).to.equal(200);
      const notice = await smtp.next('notice@example.com', before, (mail) => !withLink(mail));
      expect(notice.subject).to.match(/password/i);
    });
  });

  describe('ASVS V9 self-contained tokens (the admin API)', () => {
    let key: TestSigningKey;
    let adminId: string;
    const context = () => server.server.context;

    before(async () => {
      // A published signing key whose private half the test holds: tokens as the provider signs them.
      key = await insertSigningKey(context());
      adminId = await idOf('admin@example.com');
    });

    const me = (token: string) => adminApi('GET', '/api/v1/admin/me', undefined, token);

    it('accepts a well-formed token of the provider (the baseline of the refusals below)', async () => {
      expect((await me(await mintAccessToken(context(), key, { sub: adminId, roles: ['Administrator'] }))).status).to.equal(200);
      expect((await me(adminToken)).status).to.equal(200);
    });

    it('V9.1.1: a token whose signature does not verify is refused', async () => {
      const [header, payload, signature] = adminToken.split('.') as [string, string, string];
      const claims = { ...decodeJwt(adminToken), roles: ['God', 'Administrator'] };
      const tampered = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
      expect((await me(tampered)).status).to.equal(401);
      expect((await me(`${header}.${payload}.${signature.slice(0, -4)}AAAA`)).status).to.equal(401);
    });

    it('V9.1.2: a token with alg "none", or signed with HS256 (the public key as secret), is refused', async () => {
      const claims = decodeJwt(adminToken);
      const unsigned = new UnsecuredJWT({ ...claims }).setIssuer(String(claims.iss)).encode();
      expect((await me(unsigned)).status).to.equal(401);
      const secret = new TextEncoder().encode(JSON.stringify(key.publicJwk));
      const hs256 = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'at+jwt' }).sign(secret);
      expect((await me(hs256)).status).to.equal(401);
    });

    it('V9.1.3: a key the token names itself (jwk, jku) is not trusted', async () => {
      const attacker = await generateKeyPair('RS256', { extractable: true });
      const jwk = await exportJWK(attacker.publicKey);
      const claims = decodeJwt(adminToken);
      const embedded = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', jwk }).sign(attacker.privateKey);
      expect((await me(embedded)).status).to.equal(401);
      const remote = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'attacker', jku: 'https://attacker.example/jwks' })
        .sign(attacker.privateKey);
      expect((await me(remote)).status).to.equal(401);
    });

    it('V9.2.1: an expired token, or one not valid yet, is refused', async () => {
      expect((await me(await mintAccessToken(context(), key, { sub: adminId, roles: ['Administrator'], expiresIn: -120 }))).status).to.equal(401);
      const notYet = await mintAccessToken(context(), key, { sub: adminId, roles: ['Administrator'], claims: { nbf: Math.floor(Date.now() / 1000) + 3600 } });
      expect((await me(notYet)).status).to.equal(401);
    });

    it('V9.2.2: an ID token is not taken as an access token', async () => {
      const { tokens } = await signIn('admin@example.com', { config: console_, redirect: `${server.url}/admin/auth/callback`, password: ADMIN_PASSWORD });
      expect(tokens.id_token).to.be.a('string');
      expect((await me(tokens.id_token!)).status).to.equal(401);
      expect((await me(await mintAccessToken(context(), key, { sub: adminId, roles: ['Administrator'], header: { typ: 'JWT' } }))).status, 'typ JWT').to.equal(401);
    });

    it('V9.2.3 / V10.3.1 / RFC 9700 §2.3: the admin API takes only tokens issued for its audience, to the admin console', async () => {
      const external = server.server.context.config.oidc.externalApiAudience;
      expect((await me(await mintAccessToken(context(), key, { sub: adminId, roles: ['Administrator'], audience: external }))).status, 'another audience').to.equal(401);
      expect((await me(await mintAccessToken(context(), key, { sub: adminId, roles: ['Administrator'], clientId: 'rp-web' }))).status, 'another client').to.equal(401);
      const { tokens } = await signIn('admin@example.com', { password: ADMIN_PASSWORD });
      expect((await me(tokens.access_token)).status, "a business application's token for its user").to.equal(401);
    });

    it('V10.3.3: the caller is identified by issuer and subject: a token of another issuer is refused', async () => {
      expect((await me(await mintAccessToken(context(), key, { sub: adminId, roles: ['Administrator'], issuer: 'https://attacker.example/oidc' }))).status).to.equal(401);
    });
  });

  describe('ASVS V10 OAuth and OIDC, RFC 9700', () => {
    it('V10.4.1 / RFC 9700 §2.1, §4.1.3: redirect URIs match the registered ones exactly; anything else is an error page, not a redirect', async () => {
      const registered = `${server.url}/rp/callback`;
      const u = new URL(registered);
      const variants = [
        `${registered}/`,
        `${registered}?next=x`,
        `${registered}#x`,
        `${registered}/evil`,
        `${u.origin}/RP/callback`,
        `${u.origin}/rp/callback/..`,
        `${u.origin}/rp/%63allback`,
        `https://${u.host}/rp/callback`,
        `${u.protocol}//localhost:${u.port}/rp/callback`,
        `${u.protocol}//${u.host}.attacker.example/rp/callback`,
        `${u.protocol}//${u.host}@attacker.example/rp/callback`,
        'https://attacker.example/rp/callback',
      ];
      for (const redirect of variants) {
        const { url } = await authorization(rp, redirect);
        const res = await new Browser(server.url).get(url.toString());
        expect(res.status, redirect).to.equal(400);
        expect(res.headers.get('location'), redirect).to.equal(null);
      }
      const { url } = await authorization(rp, registered);
      expect((await new Browser(server.url).get(url.toString())).status, 'the registered one').to.equal(303);
    });

    it('V10.4.2 / RFC 6749 §4.1.2: a code is redeemed once; its replay is refused and revokes the tokens it gave', async () => {
      const { tokens, callback, verifier } = await signIn('code@example.com');
      const replay = await oidc.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier, expectedState: callback.searchParams.get('state')! }).catch((e: oidc.ResponseBodyError) => e);
      expect((replay as oidc.ResponseBodyError).error).to.equal('invalid_grant');
      expect(await introspected(tokens.access_token), 'the access token of the first redemption').to.equal(false);
      expect(await refreshOutcome(tokens.refresh_token!), 'its refresh token').to.equal('invalid_grant');
    });

    it('V10.4.3: a code lives at most a minute (ASVS: 10 minutes at most)', async () => {
      const browser = new Browser(server.url);
      const { url } = await authorization(rp, `${server.url}/rp/callback`);
      const uid = await toLoginPage(browser, url);
      const { body } = await login(browser, uid, 'code@example.com');
      const { url: landed } = await browser.follow(body.redirectTo!);
      expect(new URL(landed).searchParams.get('code')).to.be.a('string');
      const [row] = await db().query(`SELECT payload FROM oidc_model_instances WHERE model = 'AuthorizationCode' ORDER BY expires_at DESC LIMIT 1`);
      expect(row.payload.exp - row.payload.iat).to.be.at.most(60);
    });

    it('V10.4.4 / V10.6.1 / RFC 9700 §2.1.2, §2.4: the code flow only: no implicit or password grant; a client gets only its own grants', async () => {
      const meta = rp.serverMetadata();
      expect(meta.response_types_supported).to.deep.equal(['code']);
      expect(meta.grant_types_supported).to.not.include.members(['implicit', 'password']);
      for (const responseType of ['token', 'id_token token', 'code id_token', 'id_token']) {
        const res = await new Browser(server.url).get(
          `/oidc/auth?${new URLSearchParams({ client_id: 'rp-web', response_type: responseType, scope: 'openid', redirect_uri: `${server.url}/rp/callback`, nonce: 'n', state: 's' })}`,
        );
        const location = res.headers.get('location');
        // The error comes in the query or, for a response type that would put tokens there, in the fragment.
        const answer = location ? new URL(location) : undefined;
        const error = answer ? (answer.searchParams.get('error') ?? new URLSearchParams(answer.hash.slice(1)).get('error')) : `status ${res.status}`;
        expect(error, responseType).to.equal('unsupported_response_type');
        expect(location ?? '', responseType).to.not.match(/access_token|id_token=/);
      }
      const basic = `Basic ${Buffer.from(`rp-web:${RP_SECRET}`).toString('base64')}`;
      const token = (form: Record<string, string>) =>
        fetch(`${issuer}/token`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
      const password = await token({ grant_type: 'password', username: 'code@example.com', password: PASSWORD });
      expect(((await password.json()) as { error: string }).error).to.equal('unsupported_grant_type');
      const machine = await token({ grant_type: 'client_credentials' });
      const machineBody = (await machine.json()) as { error: string; error_description: string };
      expect(machineBody.error_description, 'rp-web was not given client_credentials').to.equal('requested grant type is not allowed for this client');
    });

    it('V10.4.5 / RFC 9700 §4.14.2: refresh tokens rotate; a used one coming back revokes the whole grant', async () => {
      const { tokens } = await signIn('refresh@example.com');
      const rotated = await oidc.refreshTokenGrant(rp, tokens.refresh_token!);
      expect(rotated.refresh_token).to.be.a('string').and.not.equal(tokens.refresh_token);
      expect(await refreshOutcome(tokens.refresh_token!), 'the used one').to.equal('invalid_grant');
      expect(await refreshOutcome(rotated.refresh_token!), 'the rotated one, with the grant').to.equal('invalid_grant');
      expect(await introspected(rotated.access_token)).to.equal(false);
    });

    it('V10.4.6 / RFC 9700 §2.1.1, §4.8: PKCE with S256 is required of public clients, and the verifier is checked', async () => {
      const base = { client_id: 'spa', response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/spa/callback`, state: 's' };
      const errorOf = async (params: Record<string, string>) => {
        const res = await new Browser(server.url).get(`/oidc/auth?${new URLSearchParams(params)}`);
        return new URL(res.headers.get('location')!).searchParams.get('error');
      };
      expect(await errorOf(base), 'no code_challenge').to.equal('invalid_request');
      expect(await errorOf({ ...base, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }), 'plain').to.equal('invalid_request');
      const browser = new Browser(server.url);
      const { url, verifier } = await authorization(spa, `${server.url}/spa/callback`);
      const uid = await toLoginPage(browser, url);
      const { body } = await login(browser, uid, 'code@example.com');
      const code = new URL((await browser.follow(body.redirectTo!)).url).searchParams.get('code')!;
      const redeem = (extra: Record<string, string>) =>
        fetch(`${issuer}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: 'spa', redirect_uri: `${server.url}/spa/callback`, ...extra }),
        });
      const wrong = await redeem({ code_verifier: `${verifier.slice(0, -1)}${verifier.endsWith('A') ? 'B' : 'A'}` });
      expect(((await wrong.json()) as { error: string }).error, 'another verifier').to.equal('invalid_grant');
      const missing = await redeem({});
      expect(((await missing.json()) as { error: string }).error, 'no verifier').to.be.oneOf(['invalid_grant', 'invalid_request']);
    });

    it('V10.4.10: a confidential client must authenticate at the token and revocation endpoints', async () => {
      const { tokens } = await signIn('refresh@example.com');
      const wrongSecret = `Basic ${Buffer.from('rp-web:not-the-secret').toString('base64')}`;
      const refresh = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: wrongSecret, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }),
      });
      expect(refresh.status).to.equal(401);
      expect(((await refresh.json()) as { error: string }).error).to.equal('invalid_client');
      const revoke = await fetch(`${issuer}/token/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokens.refresh_token!, client_id: 'rp-web' }),
      });
      expect(revoke.status).to.equal(401);
      expect(await refreshOutcome(tokens.refresh_token!), 'the token is still good').to.equal('ok');
    });

    it('V10.6.2: signing out from another site needs the user to confirm; the session stays until then', async () => {
      const session = await signIn('logout@example.com');
      const res = await session.browser.get(`/oidc/session/end?client_id=rp-web`, { 'sec-fetch-site': 'cross-site' });
      const html = await res.text();
      expect(res.status).to.equal(200);
      expect(html).to.not.contain('<script');
      expect(html).to.match(/name="logout" value="yes"/);
      expect(await silently(session.browser), 'still signed in').to.equal('code');
    });

    it('V10.7.1: a third-party application gets nothing before the user consents', async () => {
      const browser = new Browser(server.url);
      const { url } = await authorization(partner, `${server.url}/partner/callback`, { scope: 'openid email' });
      const uid = await toLoginPage(browser, url);
      const { body } = await login(browser, uid, 'consent@example.com');
      const { url: landed } = await browser.follow(body.redirectTo!);
      expect(new URL(landed).pathname, 'back to the portal, for consent').to.equal('/account/login');
      const details = (await (await browser.get('/api/v1/account/interaction')).json()) as { prompt: string; uid: string };
      expect(details.prompt).to.equal('consent');
      const refused = (await (await browser.postJson('/api/v1/account/consent', { approve: false, interaction: details.uid })).json()) as { redirectTo: string };
      const { url: callback } = await browser.follow(refused.redirectTo);
      expect(new URL(callback).searchParams.get('error')).to.equal('access_denied');
      expect(new URL(callback).searchParams.get('code')).to.equal(null);
    });

    it('RFC 9700 §4.4.2.1 (RFC 9207): every authorization response names the issuer in `iss`, errors included', async () => {
      expect(rp.serverMetadata().authorization_response_iss_parameter_supported).to.equal(true);
      const { callback } = await signIn('iss@example.com');
      expect(callback.searchParams.get('iss')).to.equal(issuer);
      const { url } = await authorization(rp, `${server.url}/rp/callback`, { prompt: 'none' });
      const { url: failed } = await new Browser(server.url).follow(url.toString());
      expect(new URL(failed).searchParams.get('error')).to.equal('login_required');
      expect(new URL(failed).searchParams.get('iss'), 'on an error').to.equal(issuer);
    });

    it('RFC 9700 §4.12: the product redirects with 303 (never 307), and the credentials POST is answered, not redirected', async () => {
      const browser = new Browser(server.url);
      const { url } = await authorization(rp, `${server.url}/rp/callback`);
      const get = await browser.get(url.toString());
      expect(get.status, 'GET /oidc/auth').to.equal(303);
      const form = await browser.request('POST', `${issuer}/auth`, { form: Object.fromEntries(url.searchParams) });
      expect(form.status, 'POST /oidc/auth is not served').to.equal(404);
      const uid = new URL(get.headers.get('location')!, server.url).searchParams.get('interaction')!;
      await browser.get('/api/v1/config');
      const { res, body } = await login(browser, uid, 'iss@example.com');
      expect(res.status, 'the sign-in POST answers JSON').to.equal(200);
      expect(res.headers.get('location')).to.equal(null);
      const resume = await browser.get(body.redirectTo!);
      expect(resume.status, 'the resumed authorization').to.equal(303);
      expect(new URL(resume.headers.get('location')!).searchParams.get('code')).to.be.a('string');
      const page = await (await browser.get(`${issuer}/session/end?client_id=rp-web`)).text();
      const action = /action="([^"]+)"/.exec(page)![1]!;
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)![1]!;
      const signedOut = await browser.request('POST', action, { form: { xsrf, logout: 'yes' } });
      expect(signedOut.status, 'the sign-out form POST').to.equal(303);
    });

    it('RFC 9700 §4.11: returnUrl never leads off the product (no open redirector)', async () => {
      const browser = new Browser(server.url);
      await browser.get('/api/v1/config');
      for (const returnUrl of ['https://attacker.example/', '//attacker.example/', '/\\attacker.example/', 'javascript:alert(1)']) {
        const res = await browser.postJson('/api/v1/account/login', { userName: 'iss@example.com', password: PASSWORD, returnUrl }, { 'accept-language': 'en' });
        const body = (await res.json()) as { redirectTo: string | null };
        expect(body.redirectTo, returnUrl).to.be.a('string');
        expect(new URL(body.redirectTo!, server.url).origin, returnUrl).to.equal(server.url);
      }
    });
  });

  describe('ASVS V3 cookies and headers of the sign-in', () => {
    it('V3.3.2 / V3.3.4: the session and sign-in cookies are HttpOnly and SameSite; only the XSRF cookie is readable by the page', async () => {
      const jar = new CookieJar(server.url);
      const { url } = await authorization(rp, `${server.url}/rp/callback`);
      const start = await jar.fetch(url.toString());
      const uid = new URL(start.headers.get('location')!, server.url).searchParams.get('interaction')!;
      await jar.fetch('/api/v1/config');
      const signedIn = await jar.fetch('/api/v1/account/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-xsrf-token': jar.get('XSRF-TOKEN')! },
        body: JSON.stringify({ userName: 'iss@example.com', password: PASSWORD, interaction: uid }),
      });
      await jar.follow(((await signedIn.json()) as { redirectTo: string }).redirectTo);
      const set = jar.setCookies.filter((line) => !/expires=thu, 01 jan 1970/i.test(line));
      const named = (name: string) => set.filter((line) => line.startsWith(`${name}=`));
      expect(named('gh_session'), 'the session cookie was set').to.have.length.greaterThan(0);
      for (const line of set.filter((c) => c.startsWith('gh_'))) {
        expect(line, line.split('=')[0]).to.match(/;\s*httponly/i);
        expect(line, line.split('=')[0]).to.match(/;\s*samesite=(lax|strict)/i);
      }
      for (const line of named('XSRF-TOKEN')) {
        expect(line).to.match(/;\s*samesite=strict/i);
        expect(line, 'the page echoes it in a header').to.not.match(/httponly/i);
      }
    });

    it('V3.4.5 / RFC 9700 §4.2: the reset page, whose URL carries the token, sends no Referer', async () => {
      const res = await fetch(`${server.url}/account/changePassword?identityName=x%40example.com&token=${randomBytes(32).toString('base64url')}`);
      expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
    });

    it('V3.4.6 / RFC 9700 §4.16: the sign-in, consent and provider pages cannot be framed', async () => {
      const { url } = await authorization(rp, 'https://attacker.example/cb');
      const pages = {
        login: await fetch(`${server.url}/account/login?interaction=x`),
        providerError: await fetch(url),
        logout: await fetch(`${issuer}/session/end?client_id=rp-web`),
      };
      for (const [name, res] of Object.entries(pages)) {
        const frameAncestors = /frame-ancestors ([^;]+)/.exec(res.headers.get('content-security-policy') ?? '')?.[1]?.trim();
        expect(frameAncestors, name).to.equal("'none'");
      }
    });
  });
});

/** A cookie jar over fetch, keeping every Set-Cookie line it received (cookies by name; paths are ignored). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  readonly setCookies: string[] = [];

  constructor(
    private readonly origin: string,
    initial: Record<string, string> = {},
  ) {
    for (const [name, value] of Object.entries(initial)) this.cookies.set(name, value);
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(new URL(url, this.origin), { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
    for (const line of res.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Follows redirects until one leaves the origin or lands on a client's callback: answers that URL. */
  async follow(url: string): Promise<string> {
    let current = new URL(url, this.origin).toString();
    for (let hops = 0; hops < 10; hops++) {
      if (!current.startsWith(this.origin) || /\/callback\b/.test(new URL(current).pathname)) return current;
      const res = await this.fetch(current);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return current;
      current = new URL(location, current).toString();
    }
    throw new Error('too many redirects');
  }
}
