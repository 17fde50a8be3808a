import { expect } from 'chai';
import { Browser } from './support/browser.js';
import { startTestServer, type TestServer } from './support/server.js';

const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
applications:
  - id: '1'
    name: identity
    displayName: Identity Management
    type: public
    roles: [{ name: God }, { name: Administrator }]
  - id: spa
    name: spa
    displayName: Browser app
    type: public
    firstParty: true
    redirectUris: ['\${url}/spa/callback']
users:
  - { userName: bob@example.com, area: Default, password: 'Correct-Horse-42!' }
  - { userName: carol@example.com, area: Default, language: en, password: 'Correct-Horse-42!' }
`;

describe('POST /api/v1/account/login', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP, overrides: { 'signIn.groupDomains': 'group.example', 'server.trustProxy': true } });
  });
  after(() => server.stop());

  /** A browser at the sign-in page of a fresh authorization request. */
  async function atLoginPage(): Promise<{ browser: Browser; uid: string }> {
    const browser = new Browser(server.url);
    const params = new URLSearchParams({
      client_id: 'spa',
      response_type: 'code',
      scope: 'openid',
      redirect_uri: `${server.url}/spa/callback`,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const res = await browser.get(`/oidc/auth?${params}`);
    const uid = new URL(res.headers.get('location')!, server.url).searchParams.get('interaction')!;
    await browser.get('/api/v1/config');
    return { browser, uid };
  }

  const login = async (browser: Browser, body: Record<string, unknown>, language = 'en') => {
    const res = await browser.postJson('/api/v1/account/login', body, { 'accept-language': language });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('sends the browser to the portal sign-in page with the interaction id', async () => {
    const { uid } = await atLoginPage();
    expect(uid).to.match(/^[\w-]{10,}$/);
  });

  it('requires the user name and the password, with the spec messages', async () => {
    const { browser } = await atLoginPage();
    const { status, body } = await login(browser, { userName: ' ', password: '' });
    expect(status).to.equal(400);
    expect(body).to.include({ success: false, code: 'account.user_name_required' });
    expect(body.errors).to.deep.equal(['Enter your username', 'Enter your password']);
    const french = await login(browser, { userName: 'bob@example.com', password: '' }, 'fr-FR');
    expect(french.body.errors).to.deep.equal(['Saisissez votre mot de passe']);
  });

  it('refuses a state-changing call without the XSRF header', async () => {
    const { browser } = await atLoginPage();
    const res = await browser.postJson('/api/v1/account/login', { userName: 'bob@example.com', password: 'x' }, { 'x-xsrf-token': 'forged' });
    expect(res.status).to.equal(403);
    expect(((await res.json()) as { code: string }).code).to.equal('errors.xsrf');
  });

  it('answers a wrong password and an unknown user with the same status and body', async () => {
    const { browser } = await atLoginPage();
    const wrong = await login(browser, { userName: 'bob@example.com', password: 'nope' });
    const unknown = await login(browser, { userName: 'nobody@example.com', password: 'nope' });
    expect(wrong.status).to.equal(401);
    expect(unknown).to.deep.equal(wrong);
    expect(wrong.body).to.deep.include({
      success: false,
      code: 'account.invalid_credentials',
      attemptsLeft: 4,
      errors: ['Incorrect username or password. 4 attempts left'],
    });
  });

  it('says when the account is locked, and until when', async () => {
    const { browser } = await atLoginPage();
    let last = { status: 0, body: {} as Record<string, unknown> };
    for (let i = 0; i < 5; i++) last = await login(browser, { userName: 'locked-soon@example.com', password: 'nope' });
    expect(last.status).to.equal(423);
    expect(last.body.code).to.equal('account.locked');
    expect(String((last.body.errors as string[])[0])).to.match(/^Your account is locked after 5 failed attempts\. Try again after \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);
    expect(Date.parse(String(last.body.lockedUntil))).to.be.greaterThan(Date.now());
    // The page shows that instant in the user's time zone; the message keeps it in UTC for API clients.
    const lockedUntil = String(last.body.lockedUntil);
    expect(lockedUntil).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(new Date(lockedUntil).toISOString()).to.equal(lockedUntil);
    const named = /after (\d{4}-\d\d-\d\d \d\d:\d\d) UTC/.exec(String((last.body.errors as string[])[0]))?.[1];
    expect(named, 'the message keeps the UTC time for clients that do not read the field').to.equal(lockedUntil.slice(0, 16).replace('T', ' '));
  });

  it('tells group users to use their professional account', async () => {
    const { browser } = await atLoginPage();
    const { status, body } = await login(browser, { userName: 'ana@group.example', password: 'whatever' });
    expect(status).to.equal(403);
    expect(body).to.include({ code: 'account.use_professional_account', externalLoginRequired: true });
  });

  it('answers an expired sign-in when no interaction is in progress', async () => {
    const browser = new Browser(server.url);
    await browser.get('/api/v1/config');
    const { status, body } = await login(browser, { userName: 'bob@example.com', password: 'Correct-Horse-42!', returnUrl: 'https://evil.example/' });
    expect(status).to.equal(400);
    expect(body).to.include({ code: 'account.interaction_expired', redirectTo: '/' });
  });

  it('finishes the interaction on success and sets a persistent session only with "remember me"', async () => {
    for (const remember of [true, false]) {
      const { browser } = await atLoginPage();
      const { status, body } = await login(browser, { userName: 'bob@example.com', password: 'Correct-Horse-42!', rememberLogin: remember });
      expect(status).to.equal(200);
      expect(String(body.redirectTo)).to.match(new RegExp(`^${server.url}/oidc/auth/`));
      const resumed = await browser.get(String(body.redirectTo));
      const sessionCookie = resumed.headers.getSetCookie().find((c) => c.startsWith('gh_session='))!;
      expect(sessionCookie, 'a session cookie is set at sign-in').to.be.a('string');
      expect(sessionCookie).to.match(/httponly/i).and.match(/samesite=lax/i);
      expect(/expires=/i.test(sessionCookie), `remember=${remember}`).to.equal(remember);
      expect(new URL(resumed.headers.get('location')!).searchParams.get('code')).to.be.a('string');
    }
  });

  it('marks the session cookie Secure behind TLS, and issues a new session id at each sign-in', async () => {
    const tls = { 'x-forwarded-proto': 'https' };
    const { browser } = await atLoginPage();
    const first = await login(browser, { userName: 'bob@example.com', password: 'Correct-Horse-42!' });
    const resumed = await browser.get(String(first.body.redirectTo), tls);
    expect(resumed.headers.getSetCookie().find((c) => c.startsWith('gh_session='))).to.match(/;\s*secure/i);
    const before = browser.cookie('gh_session');

    // Signing in again in the same browser (prompt=login) must not keep the old session id.
    const params = new URLSearchParams({
      client_id: 'spa',
      response_type: 'code',
      scope: 'openid',
      prompt: 'login',
      redirect_uri: `${server.url}/spa/callback`,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const again = await browser.get(`/oidc/auth?${params}`);
    expect(new URL(again.headers.get('location')!, server.url).pathname).to.equal('/account/login');
    const second = await login(browser, { userName: 'bob@example.com', password: 'Correct-Horse-42!' });
    await browser.get(String(second.body.redirectTo));
    expect(browser.cookie('gh_session')).to.be.a('string').and.not.equal(before);
  });

  it('redirects /api/v1/account/logout to the end-session endpoint', async () => {
    const res = await new Browser(server.url).get('/api/v1/account/logout?post_logout_redirect_uri=%2F&client_id=spa');
    expect(res.status).to.equal(302);
    expect(res.headers.get('location')).to.equal('/oidc/session/end?post_logout_redirect_uri=%2F&client_id=spa');
  });
});

describe('refusals of /api/v1/account/*: the spec\'s login response', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP });
  });
  after(() => server.stop());

  async function browserWithCookie(): Promise<Browser> {
    const browser = new Browser(server.url);
    await browser.get('/api/v1/config');
    return browser;
  }

  const read = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });
  const post = async (browser: Browser, path: string, json: unknown, headers: Record<string, string> = {}) =>
    read(await browser.postJson(`/api/v1/account/${path}`, json, { 'accept-language': 'en', ...headers }));

  /** `success: false`, the messages as texts, no step to take: the spec's shape, not the common error body. */
  function expectRefusal(body: Record<string, unknown>, code: string, errors: string[]): void {
    expect(body).to.include({ success: false, code, changePassword: false, twoAuthentificationRequired: false, token: null });
    expect(body.errors).to.deep.equal(errors);
    expect(body).to.have.property('redirectTo');
    expect(body, 'no common error body fields').not.to.have.any.keys('message');
  }

  it('answers a new password refused by the policy with success false and every broken rule', async () => {
    await server.server.context.dataSource.query(`UPDATE users SET password_changed_at = now() - interval '91 days' WHERE normalized_user_name = 'carol@example.com'`);
    const params = new URLSearchParams({ client_id: 'spa', response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/spa/callback`, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' });
    const browser = new Browser(server.url);
    await browser.get(`/oidc/auth?${params}`);
    await browser.get('/api/v1/config');
    const step = await post(browser, 'login', { userName: 'carol@example.com', password: 'Correct-Horse-42!' });
    expect(step.body).to.include({ changePassword: true });

    const weak = await post(browser, 'changePassword', { token: step.body.token, newPassword: 'short', confirmPassword: 'shorter' });
    expect(weak.status).to.equal(400);
    expectRefusal(weak.body, 'password.too_short', [
      'The password must have at least 12 characters',
      'The password must have an uppercase letter',
      'The password must have a digit',
      'The password must have a symbol',
      "Passwords don't match.",
    ]);
    expect(weak.body.redirectTo).to.equal(null);
    expect(weak.body.requestId).to.be.a('string');
    expect(weak.body.fieldErrors, 'the field each message is about').to.deep.equal([
      { field: 'newPassword', code: 'password.too_short', message: 'The password must have at least 12 characters' },
      { field: 'newPassword', code: 'password.uppercase', message: 'The password must have an uppercase letter' },
      { field: 'newPassword', code: 'password.digit', message: 'The password must have a digit' },
      { field: 'newPassword', code: 'password.symbol', message: 'The password must have a symbol' },
      { field: 'confirmPassword', code: 'password.mismatch', message: "Passwords don't match." },
    ]);
  });

  it('answers an unusable reset link, on the change and on the check, in the same shape', async () => {
    const browser = await browserWithCookie();
    const message = 'Invalid or expired sign-in link. Please ask your contact or your administrator to send you a new one.';
    const change = await post(browser, 'changePassword', { identityName: 'carol@example.com', token: 'not-a-token', newPassword: 'Reset-Pass-2026!!', confirmPassword: 'Reset-Pass-2026!!' });
    expect(change.status).to.equal(400);
    expectRefusal(change.body, 'account.invalid_token', [message]);
    const check = await read(await browser.get('/api/v1/account/validateToken/carol@example.com/not-a-token', { 'accept-language': 'en' }));
    expect(check.status).to.equal(400);
    expectRefusal(check.body, 'account.invalid_token', [message]);
  });

  it('answers a missing or malformed field with its message', async () => {
    const browser = await browserWithCookie();
    const reset = await post(browser, 'resetPassword', { username: 42 });
    expect(reset.status).to.equal(400);
    expect(reset.body).to.include({ success: false, token: null, redirectTo: null });
    expect(reset.body.errors).to.be.an('array').with.length(1);
    expect((reset.body.errors as unknown[])[0]).to.be.a('string');
    const verify = await post(browser, 'verifyCode', { code: '123456' });
    expect(verify.status).to.equal(400);
    expect(verify.body).to.include({ success: false, twoAuthentificationRequired: false });
    expect((verify.body.errors as unknown[]).every((e) => typeof e === 'string')).to.equal(true);
  });

  it('answers a body that is not JSON, a forged XSRF header and an unknown path in the same shape', async () => {
    const browser = await browserWithCookie();
    const raw = await fetch(`${server.url}/api/v1/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en', cookie: `XSRF-TOKEN=${browser.cookie('XSRF-TOKEN')}`, 'x-xsrf-token': browser.cookie('XSRF-TOKEN')! },
      body: '{"userName":',
    });
    const malformed = await read(raw);
    expect(malformed.status).to.equal(400);
    expect(malformed.body).to.include({ success: false, code: 'errors.invalid_json' });

    const forged = await post(browser, 'login', { userName: 'carol@example.com', password: 'x' }, { 'x-xsrf-token': 'forged' });
    expect(forged.status).to.equal(403);
    expect(forged.body).to.include({ success: false, code: 'errors.xsrf', redirectTo: null });
    expect((forged.body.errors as string[])[0]).to.be.a('string').and.not.equal('');

    const unknown = await read(await browser.get('/api/v1/account/nothing-here', { 'accept-language': 'en' }));
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.include({ success: false, code: 'errors.route_not_found' });
  });

  it('answers the calls that need a sign-in in progress, without one, with its refusal', async () => {
    const browser = await browserWithCookie();
    const resend = await post(browser, 'resendCode', { token: 'whatever' });
    expect(resend.status).to.equal(400);
    expectRefusal(resend.body, 'account.interaction_expired', [(resend.body.errors as string[])[0]!]);
    const interaction = await read(await browser.get('/api/v1/account/interaction', { 'accept-language': 'en' }));
    expect(interaction.status).to.equal(404);
    expect(interaction.body).to.include({ success: false, code: 'account.interaction_expired' });
    const abort = await post(browser, 'interaction/abort', {});
    expect(abort.status).to.equal(400);
    expect(abort.body).to.include({ success: false, code: 'account.interaction_expired', redirectTo: '/' });
  });
});
