import { normalizeRecoveryCode, recoveryCodeHash, replaceRecoveryCodes, totpCode, type User } from '@gatehouse/core';
import { buildApplication, buildTenant, grant } from '@gatehouse/core/testing';
import type { RecoveryCodes, SecurityOverview, UserSessionInfo } from '@gatehouse/contracts';
import { expect } from 'chai';
import { PASSWORD, PortalBrowser, api, issuedToken, startIdp, userWithPassword, type Answer, type Idp } from './testing/portal-browser.js';

describe('My security: overview, password confirmation and recovery codes', function () {
  this.timeout(180_000);
  let idp: Idp;

  before(async () => {
    idp = await startIdp({ 'signIn.groupDomains': ['group.example'] });
  });
  after(() => idp?.app.close());

  const db = (sql: string, params: unknown[] = []) => idp.context.dataSource.query(sql, params);

  /** The current session's id of a portal token. */
  const sessionOf = async (token: string) => (await api<{ sessions: UserSessionInfo[] }>(idp, 'get', '/api/v1/profile/sessions', token)).body.sessions.find((s) => s.current)!.id;

  /** Makes a session's sign-in older than the ten minutes a factor change may follow it. */
  const age = async (token: string) =>
    db(`UPDATE oidc_model_instances SET payload = jsonb_set(payload, '{loginTs}', to_jsonb(extract(epoch FROM now())::int - 3600)) WHERE model = 'Session' AND uid = $1`, [await sessionOf(token)]);

  const overview = async (token: string) => (await api<SecurityOverview>(idp, 'get', '/api/v1/profile/security', token)).body;
  const generate = (token: string) => api<RecoveryCodes & { code?: string }>(idp, 'post', '/api/v1/profile/recoveryCodes', token);
  const failedAttempts = async (user: User) => Number((await db('SELECT failed_attempts FROM users WHERE id = $1', [user.id]))[0].failed_attempts);

  /** A user who signs in with a second factor (an e-mailed code), and their ten recovery codes. */
  async function userWithCodes(): Promise<{ user: User; codes: string[] }> {
    const user = await userWithPassword(idp, { twoFactorEnabled: true });
    const codes = ['abcde-fghjk', 'mnpqr-stvwx', 'yz012-34567', '89abc-defgh', 'jkmnp-qrstv', 'wxyz0-12345', '6789a-bcdef', 'ghjkm-npqrs', 'tvwxy-z0123', '45678-9abcd'];
    await replaceRecoveryCodes(idp.context.dataSource, idp.context.secrets, user.id, codes);
    return { user, codes };
  }

  /** A browser at the second-factor step of `user`'s sign-in, and the step's token. */
  async function atSecondFactor(user: User): Promise<{ browser: PortalBrowser; token: string }> {
    const browser = new PortalBrowser(idp);
    await browser.start();
    const login = await browser.login(user.userName);
    expect(login.body, JSON.stringify(login.body)).to.include({ twoAuthentificationRequired: true });
    return { browser, token: login.body.token as string };
  }

  const useCode = (step: { browser: PortalBrowser; token: string }, recoveryCode: string): Promise<Answer> =>
    step.browser.account('/api/v1/account/verifyCode', { token: step.token, recoveryCode });

  describe('GET /api/v1/profile/security', () => {
    it('shows the factors and the rules without a secret, and until when changes need no password', async () => {
      const user = await userWithPassword(idp);
      const { access_token: token } = await new PortalBrowser(idp).signIn(user.userName);
      await generate(token);
      await db("UPDATE users SET totp_secret_encrypted = 'sealed-secret', totp_enabled_at = now() WHERE id = $1", [user.id]);
      const seen = await overview(token);
      expect(seen).to.deep.include({ passkeysOffered: true, passkeys: [], secondFactorRequired: true, phishingResistantRequired: false });
      expect(seen.totp.enrolled).to.equal(true);
      expect(seen.recoveryCodes.remaining).to.equal(10);
      expect(Date.parse(seen.recentUntil!)).to.be.closeTo(Date.now() + 10 * 60_000, 60_000);
      const hashes: Array<{ code_hash: string }> = await db('SELECT code_hash FROM user_recovery_codes WHERE user_id = $1', [user.id]);
      const text = JSON.stringify(seen);
      for (const secret of ['sealed-secret', ...hashes.map((h) => h.code_hash)]) expect(text).to.not.include(secret);

      await age(token);
      expect((await overview(token)).recentUntil, 'long after signing in').to.equal(null);
    });

    it("follows the tenants' rules (directly or through a group), and offers no passkey to a group-domain account", async () => {
      const user = await userWithPassword(idp);
      const strict = await buildTenant(idp.context.dataSource);
      await db('UPDATE tenants SET required_two_mode_authentification = true, phishing_resistant_only = true WHERE id = $1', [strict.id]);
      await grant(idp.context.dataSource, { tenant: strict, user, roles: [] });
      expect(await overview(await issuedToken(idp, user))).to.deep.include({ secondFactorRequired: true, phishingResistantRequired: true, recentUntil: null });

      const staff = await userWithPassword(idp, { userName: `ana-${Date.now()}@group.example` });
      expect((await overview(await issuedToken(idp, staff))).passkeysOffered).to.equal(false);
    });
  });

  describe('POST /api/v1/profile/reauthenticate', () => {
    it('opens ten minutes of changes with the right password, long after signing in', async () => {
      const user = await userWithPassword(idp);
      const { access_token: token } = await new PortalBrowser(idp).signIn(user.userName);
      await age(token);
      expect((await generate(token)).body).to.include({ code: 'account.reauthentication_required' });

      const confirmed = await api(idp, 'post', '/api/v1/profile/reauthenticate', token, { password: PASSWORD });
      expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
      expect(Date.parse(confirmed.body.recentUntil as string)).to.be.closeTo(Date.now() + 10 * 60_000, 5_000);
      expect((await overview(token)).recentUntil).to.equal(confirmed.body.recentUntil);
      expect((await generate(token)).status).to.equal(200);
    });

    it('counts a wrong password toward the lockout, and opens nothing', async () => {
      const user = await userWithPassword(idp);
      const { access_token: token } = await new PortalBrowser(idp).signIn(user.userName);
      await age(token);
      const lefts: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        const wrong = await api(idp, 'post', '/api/v1/profile/reauthenticate', token, { password: 'Wrong-password-1!' });
        expect(wrong.body).to.include({ code: 'account.invalid_credentials' });
        lefts.push(wrong.status);
      }
      expect(lefts).to.deep.equal([400, 400, 400, 400]);
      expect(await failedAttempts(user)).to.equal(4);
      const locked = await api(idp, 'post', '/api/v1/profile/reauthenticate', token, { password: 'Wrong-password-1!' });
      expect(locked.status).to.equal(423);
      expect((await api(idp, 'post', '/api/v1/profile/reauthenticate', token, { password: PASSWORD })).status, 'locked: even the right one waits').to.equal(423);
      expect((await overview(token)).recentUntil).to.equal(null);
    });

    it('is refused to a God user signed in as the user, and tells an account without a password to sign in again', async () => {
      const user = await userWithPassword(idp);
      const god = await userWithPassword(idp);
      const sessionUid = `acting-${Date.now()}`;
      await db(`INSERT INTO impersonations (actor_id, target_id, session_uid, expires_at) VALUES ($1, $2, $3, now() + interval '1 hour')`, [god.id, user.id, sessionUid]);
      const acting = await issuedToken(idp, user, sessionUid);
      for (const [method, url, body] of [
        ['post', '/api/v1/profile/reauthenticate', { password: PASSWORD }],
        ['post', '/api/v1/profile/recoveryCodes', undefined],
        ['post', '/api/v1/profile/sessions/endOthers', undefined],
        ['delete', '/api/v1/profile/sessions/any', undefined],
      ] as const) {
        const refused = await api(idp, method, url, acting, body);
        expect(refused.status, url).to.equal(403);
        expect(refused.body, url).to.include({ code: 'identifyAs.not_while_impersonating' });
      }
      expect(await failedAttempts(user), 'no password was checked').to.equal(0);

      const microsoftOnly = await userWithPassword(idp);
      const { access_token: token } = await new PortalBrowser(idp).signIn(microsoftOnly.userName);
      await db('UPDATE users SET password_hash = NULL WHERE id = $1', [microsoftOnly.id]);
      const answer = await api(idp, 'post', '/api/v1/profile/reauthenticate', token, { password: PASSWORD });
      expect(answer.status).to.equal(403);
      expect(answer.body).to.include({ code: 'account.reauthenticate_by_signing_in' });
    });
  });

  describe('POST /api/v1/profile/totp (enrolling an authenticator app)', () => {
    it('takes the password confirmed in the session in place of the password', async () => {
      const user = await userWithPassword(idp);
      const { access_token: token } = await new PortalBrowser(idp).signIn(user.userName);
      await age(token);
      expect((await api(idp, 'post', '/api/v1/profile/totp', token, {})).body).to.include({ code: 'account.reauthentication_required' });
      await api(idp, 'post', '/api/v1/profile/reauthenticate', token, { password: PASSWORD });
      const enrolment = await api(idp, 'post', '/api/v1/profile/totp', token, {});
      expect(enrolment.status, JSON.stringify(enrolment.body)).to.equal(200);
      expect(enrolment.body.otpauthUri).to.match(/^otpauth:\/\/totp\//);
    });
  });

  describe('POST /api/v1/profile/recoveryCodes', () => {
    it('answers ten codes once, never cached, and stores only their hashes', async () => {
      const user = await userWithPassword(idp);
      const { access_token: token } = await new PortalBrowser(idp).signIn(user.userName);
      const answer = await generate(token);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.headers['cache-control']).to.equal('no-store');
      const { codes, generatedAt } = answer.body;
      expect(codes).to.have.length(10);
      for (const code of codes) expect(code).to.match(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
      expect(Date.parse(generatedAt)).to.be.closeTo(Date.now(), 60_000);
      const stored: string[] = (await db('SELECT code_hash FROM user_recovery_codes WHERE user_id = $1', [user.id])).map((r: { code_hash: string }) => r.code_hash);
      expect(stored.sort()).to.deep.equal(codes.map((c) => recoveryCodeHash(idp.context.secrets, user.id, normalizeRecoveryCode(c)!)).sort());
      for (const code of codes) expect(stored.join()).to.not.include(normalizeRecoveryCode(code)!);
      expect((await overview(token)).recoveryCodes).to.deep.equal({ remaining: 10, generatedAt });
    });

    it('refuses every My security and passkey call to a token issued to another application', async () => {
      const user = await userWithPassword(idp);
      await buildApplication(idp.context.dataSource, { id: 'crm-other', name: 'crm-other', displayName: 'CRM', clientType: 'public', redirectUris: ['https://crm.example.com/cb'] });
      const foreign = await issuedToken(idp, user, undefined, 'crm-other');
      const calls = [
        ['get', '/api/v1/profile/security'],
        ['post', '/api/v1/profile/reauthenticate', { password: PASSWORD }],
        ['post', '/api/v1/profile/recoveryCodes'],
        ['get', '/api/v1/profile/sessions'],
        ['post', '/api/v1/profile/sessions/endOthers'],
        ['post', '/api/v1/profile/passkeys/options'],
        ['delete', '/api/v1/profile/passkeys/00000000-0000-4000-8000-000000000000'],
      ] as const;
      for (const [method, url, body] of calls) expect((await api(idp, method, url, foreign, body)).status, `${method} ${url}`).to.equal(401);
      expect((await api(idp, 'get', '/api/v1/profile/security', await issuedToken(idp, user))).status, 'the portal’s own token').to.equal(200);
    });

    it('removes the authenticator app only within ten minutes of signing in or of confirming the password', async () => {
      const user = await userWithPassword(idp);
      const { access_token: token } = await new PortalBrowser(idp).signIn(user.userName);
      const { secret } = (await api<{ secret: string }>(idp, 'post', '/api/v1/profile/totp', token, {})).body;
      expect((await api(idp, 'post', '/api/v1/profile/totp/confirm', token, { code: totpCode(secret) })).status).to.equal(200);
      await age(token);
      const next = totpCode(secret, Date.now() + 30_000);
      const stale = await api<{ code?: string }>(idp, 'post', '/api/v1/profile/totp/disable', token, { code: next });
      expect(stale.status).to.equal(403);
      expect(stale.body).to.include({ code: 'account.reauthentication_required' });
      expect((await overview(token)).totp.enrolled, 'the app stays').to.equal(true);
      expect((await api(idp, 'post', '/api/v1/profile/reauthenticate', token, { password: PASSWORD })).status).to.equal(200);
      expect((await api(idp, 'post', '/api/v1/profile/totp/disable', token, { code: next })).status).to.equal(200);
      expect((await overview(token)).totp.enrolled).to.equal(false);
    });

    it('needs a recent sign-in, is refused where a tenant accepts only phishing-resistant factors and to an account without a password', async () => {
      const user = await userWithPassword(idp);
      const { access_token: token } = await new PortalBrowser(idp).signIn(user.userName);
      await age(token);
      const stale = await generate(token);
      expect(stale.status).to.equal(403);
      expect(stale.body).to.include({ code: 'account.reauthentication_required' });

      const strictUser = await userWithPassword(idp);
      const strictToken = (await new PortalBrowser(idp).signIn(strictUser.userName)).access_token;
      const strict = await buildTenant(idp.context.dataSource);
      await db('UPDATE tenants SET required_two_mode_authentification = true, phishing_resistant_only = true WHERE id = $1', [strict.id]);
      await grant(idp.context.dataSource, { tenant: strict, user: strictUser, roles: [] });
      expect((await generate(strictToken)).body).to.include({ code: 'account.recovery_code_not_allowed' });

      const noPassword = await userWithPassword(idp);
      const noPasswordToken = (await new PortalBrowser(idp).signIn(noPassword.userName)).access_token;
      await db('UPDATE users SET password_hash = NULL WHERE id = $1', [noPassword.id]);
      expect((await generate(noPasswordToken)).body).to.include({ code: 'account.recovery_codes_need_password' });
      expect(await db('SELECT 1 FROM user_recovery_codes WHERE user_id = ANY($1)', [[user.id, strictUser.id, noPassword.id]])).to.have.length(0);
    });
  });

  describe('a recovery code at the second-factor step', () => {
    it('finishes the sign-in once, logged as such, and is spent', async () => {
      const { user, codes } = await userWithCodes();
      const step = await atSecondFactor(user);
      const used = await useCode(step, ` ${codes[0]!.toUpperCase().replace('-', ' ')} `);
      expect(used.body, JSON.stringify(used.body)).to.include({ success: true });
      const tokens = await step.browser.finish(used.body.redirectTo as string);
      expect((await overview(tokens.access_token)).recoveryCodes.remaining).to.equal(9);
      const [log] = await db(`SELECT result, reason FROM authentication_logs WHERE user_id = $1 AND result = 'Success' ORDER BY id DESC LIMIT 1`, [user.id]);
      expect(log).to.deep.equal({ result: 'Success', reason: 'Recovery code used' });
      const [session] = await api<{ sessions: UserSessionInfo[] }>(idp, 'get', '/api/v1/profile/sessions', tokens.access_token).then((a) => a.body.sessions);
      expect(session!.amr).to.deep.equal(['pwd', 'otp']);

      const again = await useCode(await atSecondFactor(user), codes[0]!);
      expect(again.status, 'a spent code is a wrong code').to.equal(401);
      expect(again.body).to.include({ code: 'account.invalid_code', attemptsLeft: 4 });
      expect(await failedAttempts(user)).to.equal(1);
    });

    it('works exactly once when the same code is sent in parallel, from one sign-in or from several', async () => {
      const { user, codes } = await userWithCodes();
      const one = await atSecondFactor(user);
      const sameStep = await Promise.all(Array.from({ length: 6 }, () => useCode(one, codes[1]!)));
      expect(sameStep.filter((a) => a.body.success === true), JSON.stringify(sameStep.map((a) => a.body.code))).to.have.length(1);

      // Another user: a request that checks the code after the winner used it counts as a wrong
      // code, and the burst above may have brought the first one near the lockout.
      const other = await userWithCodes();
      const steps: Array<Awaited<ReturnType<typeof atSecondFactor>>> = [];
      for (let i = 0; i < 4; i++) steps.push(await atSecondFactor(other.user));
      const several = await Promise.all(steps.map((step) => useCode(step, other.codes[2]!)));
      expect(several.filter((a) => a.body.success === true), JSON.stringify(several.map((a) => a.body.code))).to.have.length(1);
      for (const holder of [user, other.user]) {
        const [used] = await db('SELECT count(*)::int AS n FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NOT NULL', [holder.id]);
        expect(used.n).to.equal(1);
      }
    });

    it('counts a wrong code toward the lockout, then refuses even a right one', async () => {
      const { user, codes } = await userWithCodes();
      const step = await atSecondFactor(user);
      const lefts: unknown[] = [];
      for (let i = 0; i < 4; i++) lefts.push((await useCode(step, 'zzzzz-zzzzz')).body.attemptsLeft);
      expect(lefts).to.deep.equal([4, 3, 2, 1]);
      const locked = await useCode(step, 'zzzzz-zzzzz');
      expect(locked.status).to.equal(423);
      expect(locked.body).to.include({ code: 'account.locked_out' });
      expect((await useCode(step, codes[3]!)).status, 'the right code while locked').to.equal(423);
      expect(await db('SELECT 1 FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NOT NULL', [user.id])).to.have.length(0);
      const [log] = await db(`SELECT reason FROM authentication_logs WHERE user_id = $1 AND result = 'Failure' ORDER BY id DESC LIMIT 1`, [user.id]);
      expect(log.reason).to.equal('Invalid recovery code');
    });

    it('refuses a code that cannot be one without counting it', async () => {
      const { user } = await userWithCodes();
      const answer = await useCode(await atSecondFactor(user), 'not-a-code');
      expect(answer.status).to.equal(400);
      expect(answer.body).to.include({ code: 'account.recovery_code_format' });
      expect(await failedAttempts(user)).to.equal(0);
    });

    it('is refused to a user of a tenant that accepts only phishing-resistant factors, and the code stays unused', async () => {
      const { user, codes } = await userWithCodes();
      const strict = await buildTenant(idp.context.dataSource);
      await db('UPDATE tenants SET required_two_mode_authentification = true, phishing_resistant_only = true WHERE id = $1', [strict.id]);
      await grant(idp.context.dataSource, { tenant: strict, user, roles: [] });
      const answer = await useCode(await atSecondFactor(user), codes[0]!);
      expect(answer.status).to.equal(403);
      expect(answer.body).to.include({ code: 'account.recovery_code_not_allowed' });
      expect(await db('SELECT 1 FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NULL', [user.id])).to.have.length(10);
    });

    it('stops taking the old codes once new ones are made', async () => {
      const { user, codes: old } = await userWithCodes();
      const { access_token: token } = await (async () => {
        const step = await atSecondFactor(user);
        const used = await useCode(step, old[0]!);
        return step.browser.finish(used.body.redirectTo as string);
      })();
      const fresh = (await generate(token)).body.codes;
      expect((await useCode(await atSecondFactor(user), old[1]!)).body).to.include({ code: 'account.invalid_code' });
      expect((await useCode(await atSecondFactor(user), fresh[0]!)).body).to.include({ success: true });
    });
  });
});
