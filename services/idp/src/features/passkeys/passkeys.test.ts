import FakeTimers from '@sinonjs/fake-timers';
import { DEFAULT_LOCKOUT_POLICY, DEFAULT_PASSWORD_POLICY, generateTotpSecret, hashPassword, purgeExpiredWebAuthnChallenges, sha256, totpCode, type User } from '@gatehouse/core';
import { buildGroup, buildTenant, buildUser, grant } from '@gatehouse/core/testing';
import type { Mailer } from '@gatehouse/core/mail';
import { MAX_PASSKEYS } from '@gatehouse/contracts';
import { expect } from 'chai';
import { loadAccount } from '../account/password-steps.js';
import { newSignInState, type SignInDeps } from '../account/sign-in-state.js';
import { afterSecondFactor } from './enrolment-step.js';
import { SoftwareAuthenticator, startPasskeyWorld, type CeremonyOverrides, type PasskeyWorld, type TestBrowser } from './testing.js';

const PASSWORD = 'Correct-Horse-42!';

type Answer = { status: number; body: Record<string, unknown> };
type Options = { challenge: string; allowCredentials?: Array<{ id: string }>; userVerification?: string };
type CreationOptions = {
  challenge: string;
  rp: unknown;
  user: { id: string };
  attestation: string;
  authenticatorSelection: Record<string, unknown>;
  excludeCredentials: Array<{ id: string }>;
};

describe('passkeys', function () {
  this.timeout(120_000);
  let world: PasskeyWorld;

  before(async () => {
    world = await startPasskeyWorld({
      'signIn.groupDomains': 'group.example',
      'security.signInRequestsPerMinute': 1_000_000,
      'security.failuresPerAddressPerHour': 1_000_000,
      'security.failuresPerAccountAndAddressPerDay': 1_000_000,
    });
  });

  after(async () => {
    await world?.close();
  });

  const db = () => world.context.dataSource;

  async function newUser(overrides: Partial<User> = {}): Promise<User> {
    return buildUser(db(), { passwordHash: await hashPassword(PASSWORD), passwordChangedAt: new Date(), ...overrides });
  }

  /** A passkey the user holds, as a registration stores it. */
  async function seedPasskey(user: User, options: { counting?: boolean } = {}): Promise<SoftwareAuthenticator> {
    const authenticator = new SoftwareAuthenticator(world.rp, options);
    await db().query(
      `INSERT INTO user_passkeys (user_id, credential_id, public_key, sign_count, transports, device_type, backed_up, name)
       VALUES ($1, $2, $3, 0, '{internal}', 'singleDevice', false, 'Test key')`,
      [user.id, authenticator.id, authenticator.cosePublicKey()],
    );
    return authenticator;
  }

  /** A tenant of `user` (through a group) that accepts only phishing-resistant factors. */
  async function phishingResistantTenantOf(user: User): Promise<void> {
    const tenant = await buildTenant(db(), { requiredTwoModeAuthentification: true, phishingResistantOnly: true });
    await grant(db(), { tenant, group: await buildGroup(db(), { members: [user] }), roles: [] });
  }

  async function passwordStep(user: User): Promise<Answer & { browser: TestBrowser; interaction: string }> {
    const { browser, interaction } = await world.atLoginPage();
    return { browser, interaction, ...(await browser.post('/api/v1/account/login', { userName: user.userName, password: PASSWORD })) };
  }

  /** Signed in with the password in a new browser: the browser and the portal's bearer header. */
  async function signedIn(user: User): Promise<{ browser: TestBrowser; bearer: Record<string, string> }> {
    const step = await passwordStep(user);
    expect(step.body.success, JSON.stringify(step.body)).to.equal(true);
    const tokens = await world.tokensAfter(step.browser, String(step.body.redirectTo));
    return { browser: step.browser, bearer: { authorization: `Bearer ${tokens.access_token}` } };
  }

  const optionsOf = (answer: Answer) => answer.body.options as Options;

  /** How the session an access token was issued in was signed in (its `amr`). */
  async function amrOf(accessToken: string): Promise<string[]> {
    const provider = world.app.host.current;
    const token = await provider.AccessToken.find(accessToken);
    const session = await provider.Session.findByUid(String(token!.sessionUid));
    return session!.amr ?? [];
  }

  /** Options and an assertion for a passkey alone, then its verification, in `browser` (a new one by default). */
  async function passkeySignIn(authenticator: SoftwareAuthenticator, overrides: CeremonyOverrides = {}, browser?: TestBrowser): Promise<Answer & { browser: TestBrowser }> {
    const at = browser ?? (await world.atLoginPage()).browser;
    const options = optionsOf(await at.post('/api/v1/account/passkey/options', {}));
    return { browser: at, ...(await at.post('/api/v1/account/passkey/verify', { response: authenticator.assert(options, overrides) })) };
  }

  const userRow = async (user: User) =>
    (await db().query('SELECT failed_attempts, lockout_count, lockout_end, locked FROM users WHERE id = $1', [user.id]))[0] as {
      failed_attempts: number;
      lockout_count: number;
      lockout_end: Date | null;
      locked: boolean;
    };

  const logReasons = async (user: User) =>
    ((await db().query('SELECT result, reason FROM authentication_logs WHERE user_id = $1 ORDER BY id', [user.id])) as Array<{ result: string; reason: string }>).map(
      (row) => `${row.result}: ${row.reason}`,
    );

  describe('"My security": POST /api/v1/profile/passkeys/options, POST /api/v1/profile/passkeys', () => {
    it('adds a discoverable, user-verified passkey after a recent sign-in, named after the browser, its user handle the user id', async () => {
      const user = await newUser();
      const { browser, bearer } = await signedIn(user);
      const optionsAnswer = await browser.post('/api/v1/profile/passkeys/options', {}, bearer);
      expect(optionsAnswer.status, JSON.stringify(optionsAnswer.body)).to.equal(200);
      const options = optionsAnswer.body.options as CreationOptions;
      expect(options.rp).to.deep.equal({ name: 'Gatehouse', id: 'localhost' });
      expect(options.attestation).to.equal('none');
      expect(options.authenticatorSelection).to.include({ residentKey: 'required', userVerification: 'required' });
      expect(Buffer.from(options.user.id, 'base64url').toString('hex')).to.equal(user.id.replaceAll('-', ''));
      expect(options.user.id).to.not.contain(Buffer.from(user.email).toString('base64url'));
      expect(options.excludeCredentials).to.deep.equal([]);

      const authenticator = new SoftwareAuthenticator(world.rp, { backedUp: true });
      const added = await browser.post('/api/v1/profile/passkeys', { response: authenticator.register(options) }, bearer);
      expect(added.status, JSON.stringify(added.body)).to.equal(201);
      expect(added.body).to.include({ name: 'Chrome on Linux', deviceHint: 'Chrome on Linux', backedUp: true, deviceType: 'multiDevice', lastUsedAt: null });
      const [stored] = await db().query('SELECT credential_id, sign_count, transports, aaguid FROM user_passkeys WHERE user_id = $1', [user.id]);
      expect(stored).to.deep.include({ credential_id: authenticator.id, sign_count: '0', transports: ['internal', 'hybrid'], aaguid: null });

      const again = (await browser.post('/api/v1/profile/passkeys/options', {}, bearer)).body.options as CreationOptions;
      expect(again.excludeCredentials.map((c) => c.id), 'the passkey held is excluded').to.deep.equal([authenticator.id]);
      const twice = await browser.post('/api/v1/profile/passkeys', { response: authenticator.register(again) }, bearer);
      expect(twice.status, 'the same credential twice').to.equal(409);
      expect(twice.body.code).to.equal('account.passkey_already_registered');
    });

    it('refuses options and the registration once the sign-in is older than ten minutes', async () => {
      const user = await newUser();
      const { browser, bearer } = await signedIn(user);
      const options = optionsOf(await browser.post('/api/v1/profile/passkeys/options', {}, bearer));
      const clock = FakeTimers.install({ now: Date.now() + 11 * 60_000, toFake: ['Date'] });
      try {
        const stale = await browser.post('/api/v1/profile/passkeys/options', {}, bearer);
        expect(stale.status).to.equal(403);
        expect(stale.body.code).to.equal('account.reauthentication_required');
        const late = await browser.post('/api/v1/profile/passkeys', { response: new SoftwareAuthenticator(world.rp).register(options) }, bearer);
        expect(late.status).to.equal(403);
        expect(late.body.code).to.equal('account.reauthentication_required');
      } finally {
        clock.uninstall();
      }
      expect(await db().query('SELECT id FROM user_passkeys WHERE user_id = $1', [user.id])).to.deep.equal([]);
    });

    it('refuses a registration made for another site, without user verification, or answering a spent challenge', async () => {
      const user = await newUser();
      const { browser, bearer } = await signedIn(user);
      const add = async (overrides: CeremonyOverrides, options?: Options) => {
        const current = options ?? optionsOf(await browser.post('/api/v1/profile/passkeys/options', {}, bearer));
        return browser.post('/api/v1/profile/passkeys', { response: new SoftwareAuthenticator(world.rp).register(current, overrides) }, bearer);
      };
      for (const overrides of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { uv: false }]) {
        const refused = await add(overrides);
        expect(refused.status, JSON.stringify(overrides)).to.equal(400);
        expect(refused.body.code).to.equal('account.passkey_not_added');
      }
      const options = optionsOf(await browser.post('/api/v1/profile/passkeys/options', {}, bearer));
      expect((await add({}, options)).status).to.equal(201);
      const replayed = await add({}, options);
      expect(replayed.status, 'a challenge is used once').to.equal(400);
      const other = await signedIn(await newUser());
      const foreign = await other.browser.post('/api/v1/profile/passkeys', { response: new SoftwareAuthenticator(world.rp).register(optionsOf(await browser.post('/api/v1/profile/passkeys/options', {}, bearer))) }, other.bearer);
      expect(foreign.status, "another user's challenge").to.equal(400);
      expect(await db().query('SELECT count(*)::int AS n FROM user_passkeys WHERE user_id = $1', [user.id])).to.deep.equal([{ n: 1 }]);
    });

    it('adds no passkey past the most an account holds', async () => {
      const user = await newUser();
      for (let i = 0; i < MAX_PASSKEYS; i++) await seedPasskey(user);
      const { browser, bearer } = await signedIn(user);
      const refused = await browser.post('/api/v1/profile/passkeys/options', {}, bearer);
      expect(refused.status).to.equal(409);
      expect(refused.body.code).to.equal('account.too_many_passkeys');
      expect(refused.body.message).to.contain(String(MAX_PASSKEYS));
    });

    it('offers no passkey to a group-domain user (Microsoft sign-in only)', async () => {
      const user = await newUser({ userName: `ana-${Date.now()}@group.example` });
      const provider = world.app.host.current;
      const client = await provider.Client.find('portal');
      const grantId = await new provider.Grant({ accountId: user.id, clientId: 'portal' }).save();
      const token = await new provider.AccessToken({ accountId: user.id, client: client!, grantId, scope: 'openid', gty: 'authorization_code' }).save();
      const { browser } = await world.atLoginPage();
      const refused = await browser.post('/api/v1/profile/passkeys/options', {}, { authorization: `Bearer ${token}` });
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('account.passkeys_not_offered');
    });
  });

  describe('PATCH and DELETE /api/v1/profile/passkeys/:id', () => {
    it("renames and removes the user's own passkeys only: another user's passkey is not found, and stays", async () => {
      const [ana, bob] = [await newUser(), await newUser()];
      await seedPasskey(ana);
      await seedPasskey(bob);
      const [anaKey] = await db().query('SELECT id FROM user_passkeys WHERE user_id = $1', [ana.id]);
      const [bobKey] = await db().query('SELECT id FROM user_passkeys WHERE user_id = $1', [bob.id]);
      const { browser, bearer } = await signedIn(ana);
      const patch = (id: string, name: string) => browser.request('PATCH', `/api/v1/profile/passkeys/${id}`, { json: { name }, headers: bearer });
      const remove = (id: string) => browser.request('DELETE', `/api/v1/profile/passkeys/${id}`, { headers: bearer });

      expect((await patch(bobKey.id, 'Mine now')).status).to.equal(404);
      expect((await patch('not-a-uuid', 'Mine now')).status).to.equal(404);
      const renamed = await patch(anaKey.id, '  Work laptop ');
      expect(renamed.status).to.equal(200);
      expect(await renamed.json()).to.include({ id: anaKey.id, name: 'Work laptop' });

      expect((await remove(bobKey.id)).status).to.equal(404);
      expect(await db().query('SELECT name FROM user_passkeys WHERE id = $1', [bobKey.id])).to.deep.equal([{ name: 'Test key' }]);
      expect((await remove(anaKey.id)).status).to.equal(200);
      expect(await db().query('SELECT id FROM user_passkeys WHERE user_id = $1', [ana.id])).to.deep.equal([]);
    });

    it('keeps the last passkey of a user whose company accepts only phishing-resistant factors, even against parallel removals', async () => {
      const user = await newUser();
      const keys = [await seedPasskey(user), await seedPasskey(user)];
      const { browser, bearer } = await signedIn(user);
      await phishingResistantTenantOf(user);
      const ids = (await db().query('SELECT id FROM user_passkeys WHERE user_id = $1', [user.id])) as Array<{ id: string }>;
      const answers = await Promise.all(ids.map(({ id }) => browser.request('DELETE', `/api/v1/profile/passkeys/${id}`, { headers: bearer })));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 409]);
      const refused = (await answers.find((a) => a.status === 409)!.json()) as Record<string, unknown>;
      expect(refused.code).to.equal('account.last_phishing_resistant_factor');
      expect(await db().query('SELECT count(*)::int AS n FROM user_passkeys WHERE user_id = $1', [user.id])).to.deep.equal([{ n: 1 }]);
      expect(keys).to.have.length(2);
    });
  });

  describe('POST /api/v1/account/passkey/verify: a passkey alone', () => {
    it('asks any passkey of the browser with user verification, then completes the interaction with amr pop, user, mfa', async () => {
      const user = await newUser();
      const authenticator = await seedPasskey(user);
      const { browser } = await world.atLoginPage();
      const options = optionsOf(await browser.post('/api/v1/account/passkey/options', {}));
      expect(options).to.include({ userVerification: 'required', rpId: 'localhost' });
      expect(options.allowCredentials).to.deep.equal([]);
      const verified = await browser.post('/api/v1/account/passkey/verify', { response: authenticator.assert(options), rememberLogin: true });
      expect(verified.status, JSON.stringify(verified.body)).to.equal(200);
      expect(verified.body).to.include({ success: true });
      const { access_token } = await world.tokensAfter(browser, String(verified.body.redirectTo));
      expect((await world.app.host.current.AccessToken.find(access_token))!.accountId).to.equal(user.id);
      expect(await amrOf(access_token)).to.deep.equal(['pop', 'user', 'mfa']);

      const [stored] = await db().query('SELECT sign_count, last_used_at, last_used_device FROM user_passkeys WHERE user_id = $1', [user.id]);
      expect(stored).to.include({ sign_count: '1', last_used_device: 'Chrome 131 on Linux' });
      expect(stored.last_used_at).to.be.instanceOf(Date);
      expect(await logReasons(user)).to.deep.equal(['Success: Passkey verified']);
    });

    it('refuses a replayed assertion: the second use of a challenge', async () => {
      const user = await newUser();
      const authenticator = await seedPasskey(user, { counting: false });
      const { browser } = await world.atLoginPage();
      const options = optionsOf(await browser.post('/api/v1/account/passkey/options', {}));
      const response = authenticator.assert(options);
      const [first, second] = await Promise.all([
        browser.post('/api/v1/account/passkey/verify', { response }),
        browser.post('/api/v1/account/passkey/verify', { response }),
      ]);
      expect([first.status, second.status].sort(), 'of two requests with one challenge, one signs in').to.deep.equal([200, 401]);
      const replay = await browser.post('/api/v1/account/passkey/verify', { response });
      expect(replay.body.success).to.equal(false);
      const { browser: later } = await world.atLoginPage();
      expect((await later.post('/api/v1/account/passkey/verify', { response })).body.code, 'nor in another sign-in').to.equal('account.passkey_refused');
    });

    it('refuses an assertion made for another origin or another relying party, counting it as a failure', async () => {
      const user = await newUser();
      const authenticator = await seedPasskey(user);
      for (const overrides of [{ origin: 'https://login.evil.example' }, { rpId: 'evil.example' }, { forge: true }]) {
        const refused = await passkeySignIn(authenticator, overrides);
        expect(refused.status, JSON.stringify(overrides)).to.equal(401);
        expect(refused.body).to.include({ success: false, code: 'account.passkey_refused' });
        expect(refused.body.attemptsLeft, 'nothing tells a known passkey from an unknown one').to.equal(undefined);
      }
      expect((await userRow(user)).failed_attempts).to.equal(3);
      const stranger = await passkeySignIn(new SoftwareAuthenticator(world.rp));
      expect(stranger.status).to.equal(401);
      expect(stranger.body).to.include({ code: 'account.passkey_refused' });
      expect((await passkeySignIn(authenticator)).body.success, 'the right passkey still signs in').to.equal(true);
    });

    it('refuses a challenge issued to another interaction, and leaves it to its own', async () => {
      const user = await newUser();
      const authenticator = await seedPasskey(user);
      const own = await world.atLoginPage();
      const options = optionsOf(await own.browser.post('/api/v1/account/passkey/options', {}));
      const response = authenticator.assert(options);
      const { browser: other } = await world.atLoginPage();
      const foreign = await other.post('/api/v1/account/passkey/verify', { response });
      expect(foreign.status).to.equal(401);
      expect(foreign.body.code).to.equal('account.passkey_refused');
      const mine = await own.browser.post('/api/v1/account/passkey/verify', { response });
      expect(mine.body.success, JSON.stringify(mine.body)).to.equal(true);
    });

    it('refuses a cloned authenticator whose counter went back, counts it and logs it', async () => {
      const user = await newUser();
      const authenticator = await seedPasskey(user);
      for (let i = 0; i < 3; i++) expect((await passkeySignIn(authenticator)).body.success).to.equal(true);
      const clone = await passkeySignIn(authenticator, { counter: 2 });
      expect(clone.status).to.equal(401);
      expect(clone.body.code).to.equal('account.passkey_refused');
      expect((await userRow(user)).failed_attempts).to.equal(1);
      expect((await logReasons(user)).at(-1)).to.equal('Failure: Passkey sign counter went back');
      expect((await db().query('SELECT sign_count FROM user_passkeys WHERE user_id = $1', [user.id]))[0].sign_count).to.equal('3');
    });

    it('refuses a passkey alone without user verification', async () => {
      const user = await newUser();
      const refused = await passkeySignIn(await seedPasskey(user), { uv: false });
      expect(refused.status).to.equal(401);
      expect(refused.body.code).to.equal('account.passkey_refused');
    });

    it('sends a group-domain user to Microsoft, and refuses a draft user', async () => {
      const group = await newUser({ userName: `ana-${Date.now()}@group.example` });
      const refused = await passkeySignIn(await seedPasskey(group));
      expect(refused.status).to.equal(403);
      expect(refused.body).to.include({ code: 'account.use_professional_account', externalLoginRequired: true });
      const draft = await newUser({ draft: true });
      const pending = await passkeySignIn(await seedPasskey(draft));
      expect(pending.status).to.equal(403);
      expect(pending.body.code).to.equal('account.pending_approval');
    });

    it('skips the second factor but still has a temporary password replaced', async () => {
      const user = await newUser({ twoFactorEnabled: true, passwordChangedAt: null });
      const answer = await passkeySignIn(await seedPasskey(user));
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.body).to.include({ success: false, twoAuthentificationRequired: false, changePassword: true, code: 'account.temporary_password' });
      const withSecondFactor = await passkeySignIn(await seedPasskey(await newUser({ twoFactorEnabled: true })));
      expect(withSecondFactor.body, 'no second factor after a passkey alone').to.include({ success: true, twoAuthentificationRequired: false });
    });

    it('locks the account after a burst of wrong signatures, and the right passkey does not get in once locked', async () => {
      const user = await newUser();
      const authenticator = await seedPasskey(user);
      const { browser } = await world.atLoginPage();
      const burst: Array<Record<string, unknown>> = [];
      for (let i = 0; i < 12; i++) burst.push(authenticator.assert(optionsOf(await browser.post('/api/v1/account/passkey/options', {})), { forge: true }));
      const answers = await Promise.all(burst.map((response) => browser.post('/api/v1/account/passkey/verify', { response })));
      for (const answer of answers) {
        expect(answer.body.success).to.equal(false);
        expect(answer.body.code).to.be.oneOf(['account.passkey_refused', 'account.too_many_attempts']);
      }
      const row = await userRow(user);
      expect(row.lockout_count, 'locked once').to.equal(1);
      expect(row.lockout_end!.getTime()).to.be.greaterThan(Date.now());
      const right = await passkeySignIn(authenticator);
      expect(right.status).to.equal(423);
      expect(right.body).to.include({ code: 'account.locked_out' });
      expect((await logReasons(user)).filter((reason) => reason.startsWith('Success'))).to.deep.equal([]);
    });

    it('lets the right passkey in a burst of wrong ones through only before the lock', async () => {
      const user = await newUser();
      const authenticator = await seedPasskey(user);
      const { browser } = await world.atLoginPage();
      const responses: Array<Record<string, unknown>> = [];
      for (let i = 0; i < 12; i++) responses.push(authenticator.assert(optionsOf(await browser.post('/api/v1/account/passkey/options', {})), { forge: true, counter: 0 }));
      responses.splice(6, 0, authenticator.assert(optionsOf(await browser.post('/api/v1/account/passkey/options', {}))));
      const answers = await Promise.all(responses.map((response) => browser.post('/api/v1/account/passkey/verify', { response })));
      const right = answers[6]!;
      const wrong = answers.filter((_, i) => i !== 6);
      expect(wrong.every((answer) => answer.body.success === false)).to.equal(true);
      const log = await logReasons(user);
      const success = log.indexOf('Success: Passkey verified');
      const firstLock = log.findIndex((reason) => reason.startsWith('UserLocked'));
      if (right.body.success) expect(firstLock === -1 || success < firstLock, log.join('\n')).to.equal(true);
      else expect(right.status, JSON.stringify(right.body)).to.be.oneOf([423, 429]);
    });
  });

  describe('a passkey as the second factor after the password', () => {
    it('asks for the passkey first, lists the other ways, and finishes with pwd, pop, mfa; the step is used once', async () => {
      const user = await newUser({ twoFactorEnabled: true, totpEnabledAt: new Date() });
      const authenticator = await seedPasskey(user);
      await db().query(`INSERT INTO user_recovery_codes (user_id, code_hash) VALUES ($1, 'x')`, [user.id]);
      const step = await passwordStep(user);
      expect(step.body).to.include({ twoAuthentificationRequired: true, twoFactorMethod: 'passkey' });
      expect(step.body.twoFactorMethods).to.deep.equal(['passkey', 'totp', 'recovery']);
      const options = optionsOf(await step.browser.post('/api/v1/account/passkey/options', { token: step.body.token }));
      expect(options.allowCredentials!.map((c) => c.id)).to.deep.equal([authenticator.id]);
      expect(options.userVerification).to.equal('preferred');
      const response = authenticator.assert(options, { uv: false });
      const verified = await step.browser.post('/api/v1/account/passkey/verify', { token: step.body.token, response });
      expect(verified.body.success, JSON.stringify(verified.body)).to.equal(true);
      const again = await step.browser.post('/api/v1/account/passkey/options', { token: step.body.token });
      expect(again.body.code, 'the step is used once').to.equal('account.interaction_expired');
      expect(await amrOf((await world.tokensAfter(step.browser, String(verified.body.redirectTo))).access_token)).to.deep.equal(['pwd', 'pop', 'mfa']);
      expect((await logReasons(user)).at(-1)).to.equal('Success: Passkey verified after password');
    });

    it('offers a passkey and the recovery code but no mailed code to a user with a passkey and no authenticator app', async () => {
      const user = await newUser({ twoFactorEnabled: true });
      await seedPasskey(user);
      const step = await passwordStep(user);
      expect(step.body).to.include({ twoFactorMethod: 'passkey', codeExpiresAt: null });
      expect(step.body.twoFactorMethods).to.deep.equal(['passkey']);
      const resend = await step.browser.post('/api/v1/account/resendCode', { token: step.body.token });
      expect(resend.status, 'no code is mailed instead').to.equal(400);
    });

    it("counts a failed assertion like a wrong code, another user's passkey included", async () => {
      const user = await newUser({ twoFactorEnabled: true });
      const authenticator = await seedPasskey(user);
      const stranger = await seedPasskey(await newUser());
      const step = await passwordStep(user);
      const attempt = async (key: SoftwareAuthenticator, overrides: CeremonyOverrides = {}) => {
        const options = optionsOf(await step.browser.post('/api/v1/account/passkey/options', { token: step.body.token }));
        return step.browser.post('/api/v1/account/passkey/verify', { token: step.body.token, response: key.assert(options, overrides) });
      };
      const forged = await attempt(authenticator, { forge: true });
      expect(forged.status).to.equal(401);
      expect(forged.body).to.include({ code: 'account.passkey_refused', attemptsLeft: 4 });
      expect((await attempt(stranger)).body).to.include({ code: 'account.passkey_refused', attemptsLeft: 3 });
      expect((await attempt(authenticator, { origin: 'https://evil.example' })).body.attemptsLeft).to.equal(2);
      expect((await attempt(authenticator)).body.success).to.equal(true);
    });

    it("refuses a step token in another browser's interaction, and the discoverable challenge at a step", async () => {
      const user = await newUser({ twoFactorEnabled: true });
      const authenticator = await seedPasskey(user);
      const step = await passwordStep(user);
      const { browser: other } = await world.atLoginPage();
      const crossed = await other.post('/api/v1/account/passkey/options', { token: step.body.token });
      expect(crossed.status).to.equal(400);
      expect(crossed.body.code).to.equal('account.interaction_expired');
      const discoverable = optionsOf(await step.browser.post('/api/v1/account/passkey/options', {}));
      const mixed = await step.browser.post('/api/v1/account/passkey/verify', { token: step.body.token, response: authenticator.assert(discoverable) });
      expect(mixed.status).to.equal(401);
    });
  });

  describe('challenges', () => {
    it('are kept as hashes only, and deleted once past their five minutes', async () => {
      const { browser, interaction } = await world.atLoginPage();
      const { challenge } = optionsOf(await browser.post('/api/v1/account/passkey/options', {}));
      const [kept] = await db().query(
        'SELECT challenge_hash, purpose, round(extract(epoch FROM expires_at - created_at))::int AS lifetime FROM webauthn_challenges WHERE interaction_uid = $1',
        [interaction],
      );
      expect(kept).to.deep.equal({ challenge_hash: sha256(challenge), purpose: 'SignIn', lifetime: 300 });
      await db().query(`UPDATE webauthn_challenges SET expires_at = now() - interval '1 second' WHERE interaction_uid = $1`, [interaction]);
      const live = optionsOf(await browser.post('/api/v1/account/passkey/options', {}));
      expect(await purgeExpiredWebAuthnChallenges(db())).to.be.at.least(1);
      const left = (await db().query('SELECT challenge_hash FROM webauthn_challenges WHERE interaction_uid = $1', [interaction])) as Array<{ challenge_hash: string }>;
      expect(left.map((row) => row.challenge_hash)).to.deep.equal([sha256(live.challenge)]);
    });
  });

  describe('tenants that accept only phishing-resistant factors', () => {
    it('asks only for a passkey of a user who holds one, even with an authenticator app and recovery codes', async () => {
      const user = await newUser({ totpEnabledAt: new Date() });
      await seedPasskey(user);
      await db().query(`INSERT INTO user_recovery_codes (user_id, code_hash) VALUES ($1, 'y')`, [user.id]);
      await phishingResistantTenantOf(user);
      const step = await passwordStep(user);
      expect(step.body).to.include({ twoAuthentificationRequired: true, twoFactorMethod: 'passkey' });
      expect(step.body.twoFactorMethods).to.deep.equal(['passkey']);
      const code = await step.browser.post('/api/v1/account/verifyCode', { token: step.body.token, code: '123456' });
      expect(code.status, 'no code is accepted at this step').to.equal(401);
    });

    it('has a user without a passkey pass the code, then add one before the sign-in ends', async () => {
      const user = await newUser({ totpEnabledAt: new Date() });
      const secret = generateTotpSecret();
      await db().query('UPDATE users SET totp_secret_encrypted = $2 WHERE id = $1', [user.id, world.context.secrets.encrypt(secret)]);
      await phishingResistantTenantOf(user);
      const step = await passwordStep(user);
      expect(step.body).to.include({ twoFactorMethod: 'totp' });
      expect(step.body.twoFactorMethods).to.deep.equal(['totp']);

      // The right code does not finish the sign-in: it asks for a passkey, with a step of its own.
      const enrolment = await step.browser.post('/api/v1/account/verifyCode', { token: step.body.token, code: totpCode(secret) });
      expect(enrolment.body, JSON.stringify(enrolment.body)).to.include({ success: false, passkeyEnrolmentRequired: true, redirectTo: null });
      const token = String(enrolment.body.token);
      expect(token).to.not.equal(String(step.body.token));
      const deps = { context: world.context, lockout: DEFAULT_LOCKOUT_POLICY, mailer: world.app.mailer as Mailer, passwordPolicy: async () => DEFAULT_PASSWORD_POLICY } satisfies SignInDeps;

      const code = await step.browser.post('/api/v1/account/verifyCode', { token, code: '123456' });
      expect(code.body.success, 'the enrolment step takes no code').to.equal(false);
      const asSecondFactor = await step.browser.post('/api/v1/account/passkey/options', { token });
      expect(asSecondFactor.body.code, 'nor stands for a second factor').to.equal('account.interaction_expired');
      const options = optionsOf(await step.browser.post('/api/v1/account/passkey/register/options', { token }));
      expect((await step.browser.post('/api/v1/account/passkey/register/options', { token: String(step.body.token) })).body.code, 'the code step is no enrolment').to.equal(
        'account.interaction_expired',
      );
      const authenticator = new SoftwareAuthenticator(world.rp);
      const registered = await step.browser.post('/api/v1/account/passkey/register', { token, response: authenticator.register(options), name: 'Phone' });
      expect(registered.body.success, JSON.stringify(registered.body)).to.equal(true);
      expect(await amrOf((await world.tokensAfter(step.browser, String(registered.body.redirectTo))).access_token)).to.deep.equal(['pwd', 'otp', 'mfa']);
      expect(await db().query('SELECT name FROM user_passkeys WHERE user_id = $1', [user.id])).to.deep.equal([{ name: 'Phone' }]);
      const replay = await step.browser.post('/api/v1/account/passkey/register', { token, response: authenticator.register(options) });
      expect(replay.status, 'the step is used once').to.equal(400);

      const next = await passwordStep(user);
      expect(next.body.twoFactorMethods, 'from then on, the passkey').to.deep.equal(['passkey']);
      const loaded = newSignInState({ userName: user.userName, password: PASSWORD, source: {}, proof: { reason: '', amr: [] } });
      await loadAccount(loaded, deps);
      expect(await afterSecondFactor(loaded, deps)).to.equal(undefined);
    });
  });
});
