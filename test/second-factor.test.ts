import FakeTimers from '@sinonjs/fake-timers';
import { totpCode } from '@gatehouse/core';
import { expect } from 'chai';
import { Browser } from './support/browser.js';
import { accessTokenAfter, atLoginPage, startServerWithMail } from './support/flows.js';
import type { TestServer } from './support/server.js';
import type { MailCatcher } from './support/smtp.js';

const PASSWORD = 'Correct-Horse-42!';
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
tenants:
  - { title: Secure Corp, area: Default, requiredTwoModeAuthentification: true }
  - { title: Relaxed Corp, area: Default }
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: spa, name: spa, displayName: Browser app, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'] }
users:
  - userName: carla@example.com
    firstName: Carla
    area: Default
    language: es
    password: '${PASSWORD}'
    memberships: [{ tenant: Secure Corp, application: '1', roles: [User] }]
  - userName: dan@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Relaxed Corp, application: '1', roles: [User] }]
  - { userName: erin@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: fred@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: gina@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - userName: hugo@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Secure Corp, application: '1', roles: [User] }]
`;


describe('second factor (e-mailed code and authenticator app)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let smtp: MailCatcher;

  let stop: () => Promise<void>;

  before(async () => {
    ({ server, smtp, stop } = await startServerWithMail(BOOTSTRAP));
  });
  after(() => stop());

  async function passwordStep(userName: string) {
    const browser = await atLoginPage(server);
    const res = await browser.postJson('/api/v1/account/login', { userName, password: PASSWORD }, { 'accept-language': 'en' });
    return { browser, status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  const post = async (browser: Browser, path: string, json: unknown) => {
    const res = await browser.postJson(path, json, { 'accept-language': 'en' });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')![1]!;

  it('asks for a code when a tenant of the user requires it, mails it in the user language, and accepts it once', async () => {
    const mailsBefore = smtp.mails.length;
    const { browser, status, body } = await passwordStep('carla@example.com');
    expect(status).to.equal(200);
    expect(body).to.include({ success: false, twoAuthentificationRequired: true, twoFactorMethod: 'email' });
    expect(body.token).to.be.a('string');
    const mail = await smtp.next('carla@example.com', mailsBefore);
    expect(mail.subject).to.match(/c[oó]digo/i);
    const code = codeIn(mail.text);

    const ok = await post(browser, '/api/v1/account/verifyCode', { token: body.token, code, userName: 'carla@example.com' });
    expect(ok.status).to.equal(200);
    expect(ok.body.success).to.equal(true);
    const { url } = await browser.follow(String(ok.body.redirectTo));
    expect(new URL(url).searchParams.get('code')).to.be.a('string');

    const again = await post(browser, '/api/v1/account/verifyCode', { token: body.token, code });
    expect(again.status, 'a code works once').to.equal(400);
  });

  it('does not ask for a code when no tenant requires it and the user has not turned it on', async () => {
    const { body } = await passwordStep('dan@example.com');
    expect(body).to.include({ success: true, twoAuthentificationRequired: false });
  });

  it('asks for a code when the user has turned it on', async () => {
    await server.server.context.dataSource.query(`UPDATE users SET two_factor_enabled = true WHERE normalized_user_name = 'erin@example.com'`);
    const { body } = await passwordStep('erin@example.com');
    expect(body).to.include({ twoAuthentificationRequired: true, twoFactorMethod: 'email' });
  });

  it('binds a code to its own sign-in: another sign-in cannot use it, nor its token', async () => {
    const first = await passwordStep('hugo@example.com');
    const firstCode = codeIn((await smtp.next('hugo@example.com', smtp.mails.length - 1)).text);
    const mailsBefore = smtp.mails.length;
    const second = await passwordStep('hugo@example.com');
    const secondCode = codeIn((await smtp.next('hugo@example.com', mailsBefore)).text);
    expect(secondCode === firstCode).to.equal(false);

    const crossedToken = await post(second.browser, '/api/v1/account/verifyCode', { token: first.body.token, code: firstCode });
    expect(crossedToken.status, "another browser's token").to.equal(400);
    expect(crossedToken.body.code).to.equal('account.interaction_expired');
    const crossedCode = await post(second.browser, '/api/v1/account/verifyCode', { token: second.body.token, code: firstCode });
    expect(crossedCode.status, "the other sign-in's code").to.equal(401);
    expect(crossedCode.body.code).to.equal('account.invalid_code');
    const right = await post(second.browser, '/api/v1/account/verifyCode', { token: second.body.token, code: secondCode });
    expect(right.body.success).to.equal(true);
  });

  it('says "Code expired!" after 5 minutes (clock moved), and a resent code replaces the old one', async () => {
    const mailsBefore = smtp.mails.length;
    const { browser, body } = await passwordStep('carla@example.com');
    const oldCode = codeIn((await smtp.next('carla@example.com', mailsBefore)).text);
    const tooSoon = await post(browser, '/api/v1/account/resendCode', { token: body.token });
    expect(tooSoon.status, 'resending is rate-limited').to.equal(429);

    const clock = FakeTimers.install({ now: Date.now() + 5 * 60_000 + 1000, toFake: ['Date'] });
    try {
      const expired = await post(browser, '/api/v1/account/verifyCode', { token: body.token, code: oldCode });
      expect(expired.status).to.equal(400);
      expect(expired.body.errors).to.deep.equal(['Code expired!']);

      const resendMails = smtp.mails.length;
      const resent = await post(browser, '/api/v1/account/resendCode', { token: body.token });
      expect(resent.status).to.equal(200);
      const newCode = codeIn((await smtp.next('carla@example.com', resendMails)).text);
      const stale = await post(browser, '/api/v1/account/verifyCode', { token: body.token, code: oldCode });
      expect(stale.body.code, 'the previous code stopped working').to.be.oneOf(['account.invalid_code', 'account.code_expired']);
      const ok = await post(browser, '/api/v1/account/verifyCode', { token: body.token, code: newCode });
      expect(ok.body.success).to.equal(true);
    } finally {
      clock.uninstall();
    }
  });

  it('counts wrong codes toward the lockout of wrong passwords', async () => {
    await server.server.context.dataSource.query(`UPDATE users SET two_factor_enabled = true WHERE normalized_user_name = 'fred@example.com'`);
    const { browser, body } = await passwordStep('fred@example.com');
    const left: unknown[] = [];
    for (let i = 0; i < 4; i++) left.push((await post(browser, '/api/v1/account/verifyCode', { token: body.token, code: '000000' })).body.attemptsLeft);
    expect(left).to.deep.equal([4, 3, 2, 1]);
    const locked = await post(browser, '/api/v1/account/verifyCode', { token: body.token, code: '000000' });
    expect(locked.status).to.equal(423);
    // Past the password, the user has proved who they are: the lock is said as such.
    expect(locked.body.code).to.equal('account.locked_out');
    const [headline, detail] = locked.body.errors as string[];
    expect(headline).to.equal('User Is Locked Out');
    expect(detail).to.match(/^Your account is locked after 5 failed attempts\. Try again after /);
    expect(locked.body.lockedUntil).to.be.a('string');
    const password = await passwordStep('fred@example.com');
    expect(password.body.code, 'the password cannot reset the count, and its step answers as it does to anyone').to.equal('account.locked');
    expect(password.body.errors).to.not.include('User Is Locked Out');
  });

  it('accepts an enrolled authenticator app instead of the mail, each code once per time step', async () => {
    // Gina signs in without a second factor and enrols an app from her profile.
    const { browser, body } = await passwordStep('gina@example.com');
    const access_token = await accessTokenAfter(server, browser, String(body.redirectTo));
    const auth = { authorization: `Bearer ${access_token}` };
    const enrol = await fetch(`${server.url}/api/v1/profile/totp`, { method: 'POST', headers: auth });
    const { secret, otpauthUri } = (await enrol.json()) as { secret: string; otpauthUri: string };
    expect(otpauthUri).to.match(/^otpauth:\/\/totp\/.*gina%40example\.com.*secret=/);
    const confirmed = await fetch(`${server.url}/api/v1/profile/totp/confirm`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ code: totpCode(secret) }),
    });
    expect(confirmed.status).to.equal(200);
    const [stored] = await server.server.context.dataSource.query(`SELECT totp_secret_encrypted FROM users WHERE normalized_user_name = 'gina@example.com'`);
    expect(stored.totp_secret_encrypted).not.to.contain(secret);

    // The next step is reused in a later time step: one code per step.
    const mailsBefore = smtp.count('gina@example.com');
    const later = Date.now() + 60_000;
    const clock = FakeTimers.install({ now: later, toFake: ['Date'] });
    try {
      const next = await passwordStep('gina@example.com');
      expect(next.body).to.include({ twoAuthentificationRequired: true, twoFactorMethod: 'totp' });
      expect(smtp.count('gina@example.com'), 'no mail with an authenticator app').to.equal(mailsBefore);
      const appCode = totpCode(secret, later);
      const ok = await post(next.browser, '/api/v1/account/verifyCode', { token: next.body.token, code: appCode });
      expect(ok.body.success).to.equal(true);

      const replay = await passwordStep('gina@example.com');
      const again = await post(replay.browser, '/api/v1/account/verifyCode', { token: replay.body.token, code: appCode });
      expect(again.body.code, 'the same code twice in one step').to.equal('account.invalid_code');
    } finally {
      clock.uninstall();
    }
  });
});
