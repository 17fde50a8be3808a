import { expect } from 'chai';
import * as oidc from 'openid-client';
import { Browser } from './support/browser.js';
import { accessTokenAfter, atLoginPage, startServerWithMail } from './support/flows.js';
import type { TestServer } from './support/server.js';
import type { MailCatcher } from './support/smtp.js';

const PASSWORD = 'Correct-Horse-42!';
const SECRET = 'rp-secret-0123456789-abcdefghijklmnopq';
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }] }
  - { id: spa, name: spa, displayName: Browser app, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'] }
  - { id: rp, name: rp, displayName: Web app, type: confidential, secret: '${SECRET}', firstParty: true, redirectUris: ['\${url}/rp/callback'] }
users:
  - { userName: ivy@example.com, firstName: Ivy, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: jack@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: kate@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: liam@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: mona@example.com, area: Default, language: fr, password: '${PASSWORD}' }
  - { userName: nina@example.com, area: Default, language: en, password: '${PASSWORD}' }
`;
const withLink = (mail: { text?: string }) => /changePassword\?/.test(mail.text ?? '');

describe('password lifecycle: policy, expiry, reset', function () {
  this.timeout(90_000);
  let server: TestServer;
  let smtp: MailCatcher;
  const db = () => server.server.context.dataSource;

  let stop: () => Promise<void>;

  before(async () => {
    ({ server, smtp, stop } = await startServerWithMail(BOOTSTRAP));
  });
  after(() => stop());

  async function login(userName: string, password = PASSWORD) {
    const browser = await atLoginPage(server);
    const res = await browser.postJson('/api/v1/account/login', { userName, password }, { 'accept-language': 'en' });
    return { browser, status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  const post = async (browser: Browser, path: string, json: unknown, language = 'en') => {
    const res = await browser.postJson(path, json, { 'accept-language': language });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { errors: string[] } };
  };

  /** Sets a password through a reset link, as a user would. */
  async function resetTo(userName: string, newPassword: string) {
    const browser = new Browser(server.url);
    await browser.get('/api/v1/config');
    // A minute has passed since any earlier request (a new link is sent at most once a minute).
    await db().query(`UPDATE user_tokens SET created_at = created_at - interval '2 minutes' WHERE purpose = 'PasswordReset'`);
    const before = smtp.mails.length;
    await post(browser, '/api/v1/account/resetPassword', { username: userName });
    const link = new URL(/https?:\/\/\S+changePassword\S+/.exec((await smtp.next(userName, before, withLink)).text!)![0]);
    const token = link.searchParams.get('token')!;
    return { browser, token, result: await post(browser, '/api/v1/account/changePassword', { identityName: userName, token, newPassword, confirmPassword: newPassword }) };
  }

  it('asks for a new password when it is older than 90 days, applies the policy, then finishes the sign-in', async () => {
    await db().query(`UPDATE users SET password_changed_at = now() - interval '91 days' WHERE normalized_user_name = 'ivy@example.com'`);
    const { browser, body } = await login('ivy@example.com');
    expect(body).to.include({ success: false, changePassword: true });
    expect(body.errors).to.deep.equal(['Your password has expired, please create a new password to login']);

    const weak = await post(browser, '/api/v1/account/changePassword', { token: body.token, newPassword: 'short', confirmPassword: 'shorter' });
    expect(weak.status).to.equal(400);
    expect(weak.body).to.include({ success: false, code: 'password.too_short' });
    expect(weak.body.errors).to.deep.equal([
      'The password must have at least 12 characters',
      'The password must have an uppercase letter',
      'The password must have a digit',
      'The password must have a symbol',
      "Passwords don't match.",
    ]);
    const same = await post(browser, '/api/v1/account/changePassword', { token: body.token, newPassword: PASSWORD, confirmPassword: PASSWORD });
    expect(same.body).to.include({ success: false, code: 'password.reused' });
    expect(same.body.errors).to.deep.equal(['The password cannot be one of your last 7 passwords']);

    const done = await post(browser, '/api/v1/account/changePassword', { token: body.token, newPassword: 'Brand-New-Pass-2026!', confirmPassword: 'Brand-New-Pass-2026!' });
    expect(done.status).to.equal(200);
    expect(done.body.success).to.equal(true);
    const { url } = await browser.follow(String(done.body.redirectTo));
    expect(new URL(url).searchParams.get('code')).to.be.a('string');
    expect((await login('ivy@example.com', 'Brand-New-Pass-2026!')).body.success).to.equal(true);
  });

  it('calls a password an administrator set temporary, not expired, and asks for the user’s own', async () => {
    // Set by an administrator: never chosen by its user.
    await db().query(`UPDATE users SET password_changed_at = NULL WHERE normalized_user_name = 'nina@example.com'`);
    const { browser, body } = await login('nina@example.com');
    expect(body).to.include({ success: false, changePassword: true, code: 'account.temporary_password' });
    expect(body.errors).to.deep.equal(['You signed in with a temporary password. Choose your own password to continue.']);
    const done = await post(browser, '/api/v1/account/changePassword', { token: body.token, newPassword: 'Her-Own-Choice-2026!', confirmPassword: 'Her-Own-Choice-2026!' });
    expect(done.body.success).to.equal(true);
    expect((await login('nina@example.com', 'Her-Own-Choice-2026!')).body.success, 'her own password is not asked again').to.equal(true);
  });

  it('refuses the last 7 passwords and accepts the eighth oldest', async () => {
    const passwords = Array.from({ length: 8 }, (_, i) => `History-Pass-${i}-2026!`);
    for (const password of passwords) expect((await resetTo('jack@example.com', password)).result.status, password).to.equal(200);
    // Now current = #7; history holds #1..#6 (and #0 has aged out after 7).
    for (const reused of passwords.slice(1)) {
      const { result } = await resetTo('jack@example.com', reused);
      expect(result.status, reused).to.equal(400);
      expect(result.body.errors[0]).to.equal('The password cannot be one of your last 7 passwords');
    }
    expect((await resetTo('jack@example.com', passwords[0]!)).result.status, 'the eighth oldest is allowed again').to.equal(200);
  });

  it('mails a single-use reset link, valid for an hour, and answers the same for unknown users', async () => {
    const browser = new Browser(server.url);
    await browser.get('/api/v1/config');
    const known = await post(browser, '/api/v1/account/resetPassword', { username: 'kate@example.com', language: 'pt-BR' });
    const unknown = await post(browser, '/api/v1/account/resetPassword', { username: 'nobody@example.com' });
    expect(known.status).to.equal(200);
    expect(unknown).to.deep.equal(known);
    expect(known.body.message).to.equal('Please check your email inbox. We have sent you instructions to reset your password.');

    const mail = await smtp.next('kate@example.com', 0, withLink);
    expect(mail.subject, 'the mail speaks the requested language').to.match(/senha/i);
    const link = new URL(/https?:\/\/\S+changePassword\S+/.exec(mail.text!)![0]);
    expect(link.pathname).to.equal('/account/changePassword');
    expect(link.searchParams.get('identityName')).to.equal('kate@example.com');
    const token = link.searchParams.get('token')!;
    expect(token).to.match(/^[\w-]{43}$/);
    const [row] = await db().query(`SELECT token_hash FROM user_tokens WHERE purpose = 'PasswordReset' ORDER BY created_at DESC LIMIT 1`);
    expect(row.token_hash).not.to.equal(token);

    expect((await browser.get(`/api/v1/account/validateToken/kate@example.com/${token}`)).status).to.equal(200);
    const wrongUser = await browser.get(`/api/v1/account/validateToken/liam@example.com/${token}`, { 'accept-language': 'en' });
    expect(wrongUser.status).to.equal(400);
    expect(((await wrongUser.json()) as { errors: string[] }).errors).to.deep.equal([
      'Invalid or expired sign-in link. Please ask your contact or your administrator to send you a new one.',
    ]);

    const page = await browser.get(`/account/changePassword?identityName=kate%40example.com&token=${token}`);
    expect(page.headers.get('referrer-policy')).to.equal('no-referrer');

    const changed = await post(browser, '/api/v1/account/changePassword', { identityName: 'kate@example.com', token, newPassword: 'Reset-Pass-2026!!', confirmPassword: 'Reset-Pass-2026!!' });
    expect(changed.status).to.equal(200);
    const reused = await post(browser, '/api/v1/account/changePassword', { identityName: 'kate@example.com', token, newPassword: 'Other-Pass-2026!!' });
    expect(reused.status, 'single use').to.equal(400);

    // An hour later (the row's expiry moved back), a fresh link no longer works.
    const { token: late } = await (async () => {
      await db().query(`UPDATE user_tokens SET created_at = now() - interval '2 minutes' WHERE purpose = 'PasswordReset'`);
      const before = smtp.mails.length;
      await post(browser, '/api/v1/account/resetPassword', { username: 'kate@example.com' });
      return { token: new URL(/https?:\/\/\S+changePassword\S+/.exec((await smtp.next('kate@example.com', before, withLink)).text!)![0]).searchParams.get('token')! };
    })();
    await db().query(`UPDATE user_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'PasswordReset' AND consumed_at IS NULL`);
    expect((await browser.get(`/api/v1/account/validateToken/kate@example.com/${late}`)).status).to.equal(400);
  });

  it('sends a signed-in user a reset link for their own account only', async () => {
    const { browser, body } = await login('liam@example.com');
    const auth = { authorization: `Bearer ${await accessTokenAfter(server, browser, String(body.redirectTo))}` };
    const before = smtp.mails.length;
    const mine = await fetch(`${server.url}/api/v1/profile/resetPassword/liam@example.com`, { headers: auth });
    expect(mine.status).to.equal(200);
    expect((await smtp.next('liam@example.com', before, withLink)).text).to.contain('identityName=liam%40example.com');
    expect((await fetch(`${server.url}/api/v1/profile/resetPassword/kate@example.com`, { headers: auth })).status).to.equal(403);
    expect((await fetch(`${server.url}/api/v1/profile/resetPassword/liam@example.com`)).status, 'signed-in users only').to.equal(401);
  });

  it('answers locked and draft users as any other, and mails them why there is no link', async () => {
    // The account's mails are limited (one a minute): the counts of the tests before start again.
    const mayMailAgain = async () => server.server.context.throttle.mailUsed((await db().query(`SELECT id FROM users WHERE normalized_user_name = 'liam@example.com'`))[0].id);
    await db().query(`UPDATE users SET locked = true WHERE normalized_user_name = 'liam@example.com'`);
    await mayMailAgain();
    const browser = new Browser(server.url);
    await browser.get('/api/v1/config');
    const unknown = await post(browser, '/api/v1/account/resetPassword', { username: 'nobody@example.com' });
    let before = smtp.mails.length;
    const locked = await post(browser, '/api/v1/account/resetPassword', { username: 'liam@example.com' });
    expect(locked).to.deep.equal(unknown);
    const lockedMail = await smtp.next('liam@example.com', before);
    expect(withLink(lockedMail)).to.equal(false);
    expect(lockedMail.text).to.contain('Your account is locked');

    await db().query(`UPDATE users SET locked = false, draft = true WHERE normalized_user_name = 'liam@example.com'`);
    await mayMailAgain();
    before = smtp.mails.length;
    const draft = await post(browser, '/api/v1/account/resetPassword', { username: 'liam@example.com' });
    expect(draft).to.deep.equal(unknown);
    const draftMail = await smtp.next('liam@example.com', before);
    expect(withLink(draftMail)).to.equal(false);
    expect(draftMail.text).to.contain('waiting for approval');
    await db().query(`UPDATE users SET draft = false WHERE normalized_user_name = 'liam@example.com'`);
  });

  it('after a reset: other sessions and refresh tokens end, the lockout count resets, a notice is mailed', async () => {
    const config = await oidc.discovery(new URL(`${server.url}/oidc`), 'rp', SECRET, undefined, { execute: [oidc.allowInsecureRequests] });
    const browser = new Browser(server.url);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: `${server.url}/rp/callback`, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    await browser.get(url.toString());
    await browser.get('/api/v1/config');
    const signedIn = await post(browser, '/api/v1/account/login', { userName: 'mona@example.com', password: PASSWORD });
    const { url: callback } = await browser.follow(String(signedIn.body.redirectTo));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier });
    for (let i = 0; i < 3; i++) await login('mona@example.com', 'wrong-password');

    const before = smtp.count('mona@example.com');
    const { result } = await resetTo('mona@example.com', 'Fresh-Start-2026!!');
    expect(result.status).to.equal(200);
    const refused = await oidc.refreshTokenGrant(config, tokens.refresh_token!).catch((e: oidc.ResponseBodyError) => e);
    expect((refused as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).to.equal(false);
    const [row] = await db().query(`SELECT failed_attempts FROM users WHERE normalized_user_name = 'mona@example.com'`);
    expect(row.failed_attempts).to.equal(0);
    const notice = await smtp.next('mona@example.com', 0, (mail) => !withLink(mail) && /modifi/i.test(mail.subject ?? ''));
    expect(notice.subject, 'the password-changed notice, in French').to.match(/mot de passe/i);
    expect(smtp.count('mona@example.com')).to.be.greaterThan(before);
  });
});
