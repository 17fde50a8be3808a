import { PasswordHasher, SignInThrottle, User, hashPassword, unlockUser, type AppContext } from '@gatehouse/core';
import { buildUser, createTestContext, sharedTestContext } from '@gatehouse/core/testing';
import argon2 from 'argon2';
import { expect } from 'chai';
import { PasswordSignIn, type SignInRefusal, type SignInResult } from './sign-in.js';

const PASSWORD = 'Correct-Horse-42!';

async function userWithPassword(context: AppContext, overrides: Partial<User> = {}) {
  return buildUser(context.dataSource, { passwordHash: await hashPassword(PASSWORD), ...overrides });
}

const refusal = (result: SignInResult) => {
  expect(result.ok, 'the sign-in was refused').to.equal(false);
  return result as SignInRefusal;
};

async function reload(context: AppContext, id: string) {
  return context.dataSource.getRepository(User).findOneByOrFail({ id });
}

describe('password sign-in and lockout', () => {
  let context: AppContext;
  let signIn: PasswordSignIn;

  before(async () => {
    // The lockout on its own: the per-address limits over it are tested end to end (test/).
    const shared = await sharedTestContext();
    const unlimited = { ...shared.config.security, failuresPerAddressPerHour: 1e6, failuresPerAccountAndAddressPerDay: 1e6 };
    context = { ...shared, throttle: new SignInThrottle(unlimited) };
    signIn = new PasswordSignIn(context);
  });

  it('counts down the attempts left, then locks the account for 5 minutes after the fifth wrong password', async () => {
    const user = await userWithPassword(context);
    const left: number[] = [];
    for (let i = 0; i < 4; i++) left.push(refusal(await signIn.signIn({ userName: user.userName, password: 'wrong' })).attemptsLeft!);
    expect(left).to.deep.equal([4, 3, 2, 1]);

    const locked = refusal(await signIn.signIn({ userName: user.userName, password: 'wrong' }));
    expect(locked).to.include({ status: 423, code: 'account.locked' });
    const minutes = (locked.lockedUntil!.getTime() - Date.now()) / 60_000;
    expect(minutes).to.be.within(4.9, 5.01);

    const rightButLocked = refusal(await signIn.signIn({ userName: user.userName, password: PASSWORD }));
    expect(rightButLocked.code, 'even the right password waits for the lock to end').to.equal('account.locked');
    expect(await reload(context, user.id)).to.include({ lockoutCount: 1, failedAttempts: 0, locked: false });

    await context.dataSource.query(`UPDATE users SET lockout_end = now() - interval '1 second' WHERE id = $1`, [user.id]);
    expect((await signIn.signIn({ userName: user.userName, password: PASSWORD })).ok, 'the lock ends by itself').to.equal(true);
  });

  it('is case-insensitive on the user name and resets the count after a success', async () => {
    const user = await userWithPassword(context);
    for (let i = 0; i < 3; i++) await signIn.signIn({ userName: user.userName, password: 'wrong' });
    expect((await signIn.signIn({ userName: `  ${user.userName.toUpperCase()} `, password: PASSWORD })).ok).to.equal(true);
    expect(refusal(await signIn.signIn({ userName: user.userName, password: 'wrong' })).attemptsLeft).to.equal(4);
    expect((await reload(context, user.id)).lastLoginAt).to.be.instanceOf(Date);
  });

  it('records a sign-in with the right password in one statement that also clears the failures counted so far', async () => {
    const user = await userWithPassword(context);
    for (let i = 0; i < 2; i++) await signIn.signIn({ userName: user.userName, password: 'wrong' });
    expect((await reload(context, user.id)).failedAttempts).to.equal(2);
    const statements: string[] = [];
    const counted = { ...context, dataSource: new Proxy(context.dataSource, {
      get: (target, key) => (key === 'query' ? (sql: string, params?: unknown[]) => (statements.push(sql), target.query(sql, params)) : Reflect.get(target, key)),
    }) };
    expect((await new PasswordSignIn(counted).signIn({ userName: user.userName, password: PASSWORD })).ok).to.equal(true);
    expect(await reload(context, user.id)).to.include({ failedAttempts: 0 });
    expect(statements.filter((sql) => /failed_attempts - 1/.test(sql)), 'no separate refund of the reservation').to.deep.equal([]);
  });

  it('gives the right password’s reservation back when a second factor is asked: only the wrong ones count', async () => {
    const user = await userWithPassword(context, { twoFactorEnabled: true, passwordChangedAt: new Date() });
    for (let i = 0; i < 2; i++) await signIn.signIn({ userName: user.userName, password: 'wrong' });
    const interaction = { uid: 'interaction-1', remember: false, resume: () => Promise.resolve('/resumed') };
    const outcome = await signIn.login({ userName: user.userName, password: PASSWORD, returnUrl: null, applicationName: undefined, ip: '127.0.0.1', userAgent: 'test' }, interaction);
    expect(outcome).to.include({ ok: true, kind: 'second-factor' });
    expect((await reload(context, user.id)).failedAttempts, 'the two wrong passwords, not the right one').to.equal(2);
  });

  it('counts 50 parallel wrong passwords exactly 50 times', async () => {
    const user = await userWithPassword(context);
    const generous = new PasswordSignIn(context, { maxFailedAttempts: 100, lockoutMinutes: 5, permanentAfterLockouts: 3 });
    const results = await Promise.all(Array.from({ length: 50 }, () => generous.signIn({ userName: user.userName, password: 'wrong' })));
    expect((await reload(context, user.id)).failedAttempts).to.equal(50);
    // Attempts still being checked count too, so each saw at most 100 - 50 left.
    for (const left of results.map((r) => refusal(r).attemptsLeft!)) expect(left).to.be.within(50, 99);
  });

  it('locks once, not ten times, and checks at most five of 50 wrong passwords that arrive together', async () => {
    const user = await userWithPassword(context);
    const results = (await Promise.all(Array.from({ length: 50 }, () => signIn.signIn({ userName: user.userName, password: 'wrong' })))).map(refusal);
    const codes = results.map((r) => r.code);
    const checked = codes.filter((c) => c === 'account.invalid_credentials').length + results.filter((r) => r.code === 'account.locked' && r.status === 423).length;
    expect(codes.every((c) => ['account.invalid_credentials', 'account.locked', 'account.too_many_attempts'].includes(c)), codes.join()).to.equal(true);
    expect(codes.filter((c) => c === 'account.invalid_credentials').length, 'at most four counted down').to.be.at.most(4);
    expect(checked, 'refusals other than "too many attempts"').to.be.at.least(1);
    expect(await reload(context, user.id)).to.include({ lockoutCount: 1, locked: false });
    const logs: Array<{ result: string; count: string }> = await context.dataSource.query(
      'SELECT result, count(*) FROM authentication_logs WHERE user_id = $1 GROUP BY result ORDER BY result',
      [user.id],
    );
    expect(logs.reduce((sum, l) => sum + Number(l.count), 0), 'one log row per attempt').to.equal(50);
  });

  it('makes the third temporary lock permanent (FullUserLocked), lifted only by an administrator', async () => {
    const user = await userWithPassword(context);
    const lockOnce = async () => {
      let last: SignInRefusal | undefined;
      for (let i = 0; i < 5; i++) last = refusal(await signIn.signIn({ userName: user.userName, password: 'wrong' }));
      return last!;
    };
    expect((await lockOnce()).code).to.equal('account.locked');
    await context.dataSource.query(`UPDATE users SET lockout_end = now() - interval '1 second' WHERE id = $1`, [user.id]);
    expect((await lockOnce()).code).to.equal('account.locked');
    await context.dataSource.query(`UPDATE users SET lockout_end = now() - interval '1 second' WHERE id = $1`, [user.id]);
    const third = await lockOnce();
    expect(third).to.include({ status: 423, code: 'account.locked_permanently' });
    expect((await reload(context, user.id)).locked).to.equal(true);

    expect(refusal(await signIn.signIn({ userName: user.userName, password: PASSWORD })).code).to.equal('account.locked_permanently');
    const [log] = await context.dataSource.query(
      `SELECT result FROM authentication_logs WHERE user_id = $1 ORDER BY id DESC LIMIT 1`,
      [user.id],
    );
    expect(log.result).to.equal('FullUserLocked');

    await unlockUser(context.dataSource, user.id);
    expect((await signIn.signIn({ userName: user.userName, password: PASSWORD })).ok).to.equal(true);
  });

  it('answers an unknown user name exactly as a wrong password, attempt after attempt, lock included', async () => {
    const user = await userWithPassword(context);
    const unknown = `nobody-${Date.now()}@example.com`;
    for (let i = 0; i < 7; i++) {
      const real = refusal(await signIn.signIn({ userName: user.userName, password: 'wrong' }));
      const ghost = refusal(await signIn.signIn({ userName: unknown, password: 'wrong' }));
      const shape = (r: SignInRefusal) => ({ ...r, lockedUntil: r.lockedUntil ? 'set' : undefined, params: r.params?.until ? { until: 'set' } : r.params });
      expect(shape(ghost), `attempt ${i + 1}`).to.deep.equal(shape(real));
    }
  });

  it('answers wrong passwords on an account someone locked exactly as an unknown name’s, through the temporary locks to the permanent one, and tells the lock to the right password only', async () => {
    const user = await userWithPassword(context);
    await context.dataSource.query('UPDATE users SET locked = true WHERE id = $1', [user.id]);
    const unknown = `nobody-locked-${Date.now()}@example.com`;
    const shape = (r: SignInRefusal) => ({ ...r, lockedUntil: r.lockedUntil ? 'set' : undefined, params: r.params?.until ? { ...r.params, until: 'set' } : r.params });
    const names = [user.userName.toLowerCase(), unknown];
    const codes: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 6; i++) {
        const locked = refusal(await signIn.signIn({ userName: user.userName, password: 'wrong' }));
        const ghost = refusal(await signIn.signIn({ userName: unknown, password: 'wrong' }));
        expect(shape(locked), `round ${round + 1}, attempt ${i + 1}`).to.deep.equal(shape(ghost));
        codes.push(locked.code);
      }
      // The right password is told of the lock at every moment, whatever the name's counter says.
      expect(refusal(await signIn.signIn({ userName: user.userName, password: PASSWORD }))).to.include({ status: 423, code: 'account.locked_permanently' });
      await context.dataSource.query(`UPDATE sign_in_attempts SET lockout_end = now() - interval '1 second' WHERE normalized_user_name = ANY($1) AND NOT locked`, [names]);
    }
    expect(codes.slice(0, 6), 'counted down, then locked, as for any name').to.deep.equal([...Array(4).fill('account.invalid_credentials'), 'account.locked', 'account.locked']);
    expect(codes.at(-1), 'the third lock is permanent, as for any name').to.equal('account.locked_permanently');
    // The account's own counters never moved: only an administrator's unlock opens it.
    expect(await reload(context, user.id)).to.include({ locked: true, failedAttempts: 0, lockoutCount: 0 });
    const logs: Array<{ result: string }> = await context.dataSource.query('SELECT DISTINCT result FROM authentication_logs WHERE user_id = $1', [user.id]);
    expect(logs.map((l) => l.result), 'each attempt logged on the account, as a locked one').to.deep.equal(['FullUserLocked']);
    await unlockUser(context.dataSource, user.id);
    expect((await signIn.signIn({ userName: user.userName, password: PASSWORD })).ok).to.equal(true);
  });

  it('refuses the right password sent amid a burst of wrong ones on an account someone locked, and leaves the account as it was', async () => {
    const user = await userWithPassword(context);
    await context.dataSource.query('UPDATE users SET locked = true WHERE id = $1', [user.id]);
    const wrong = Array.from({ length: 20 }, (_, i) => signIn.signIn({ userName: user.userName, password: `Wrong-guess-${i}!` }));
    const right = signIn.signIn({ userName: user.userName, password: PASSWORD });
    const answers = (await Promise.all(wrong)).map(refusal);
    // Refused: told of the lock, or (every remaining guess held by the burst) asked to try later.
    expect(['account.locked_permanently', 'account.too_many_attempts']).to.include(refusal(await right).code);
    expect(refusal(await signIn.signIn({ userName: user.userName, password: PASSWORD }))).to.include({ status: 423, code: 'account.locked_permanently' });
    const codes = answers.map((a) => a.code);
    expect(codes.every((c) => ['account.invalid_credentials', 'account.locked', 'account.too_many_attempts'].includes(c)), codes.join()).to.equal(true);
    expect(codes.filter((c) => c === 'account.invalid_credentials').length, 'at most four counted down, as for any name').to.be.at.most(4);
    expect(await reload(context, user.id)).to.include({ locked: true, failedAttempts: 0, lockoutCount: 0 });
  });

  it('spends exactly one password verification per attempt, whether or not the account exists', async () => {
    class CountingHasher extends PasswordHasher {
      calls = 0;
      override verify(hash: string | null | undefined, password: string) {
        this.calls++;
        return super.verify(hash, password);
      }
      override verifyNothing(password: string) {
        this.calls++;
        return super.verifyNothing(password);
      }
    }
    const hasher = new CountingHasher(2);
    const counting = new PasswordSignIn({ ...context, passwords: hasher });
    const user = await userWithPassword(context);
    const federated = await buildUser(context.dataSource, { passwordHash: null });
    for (const userName of [user.userName, `ghost-${Date.now()}@example.com`, federated.userName]) {
      const before = hasher.calls;
      await counting.signIn({ userName, password: 'wrong' });
      expect(hasher.calls - before, userName).to.equal(1);
    }
  });

  it('refuses a draft user with "User pending approval." only once the password is right', async () => {
    const user = await userWithPassword(context, { draft: true });
    expect(refusal(await signIn.signIn({ userName: user.userName, password: 'wrong' })).code).to.equal('account.invalid_credentials');
    const pending = refusal(await signIn.signIn({ userName: user.userName, password: PASSWORD }));
    expect(pending).to.include({ status: 403, code: 'account.pending_approval' });
    expect(context.i18n.t(pending.code, { lng: 'en' })).to.equal('User pending approval.');
  });

  it('sends group users (group domains, or the Spanish fragment) to the professional account, without counting', async () => {
    const groupContext = await createTestContext({
      overrides: { 'signIn.groupDomains': 'group.example,corp.example', 'signIn.groupDomainFragment': 'grupo-es' },
    });
    const group = new PasswordSignIn(groupContext);
    const staff = await buildUser(groupContext.dataSource, { userName: `ana-${Date.now()}@group.example`, passwordHash: await hashPassword(PASSWORD) });
    for (const userName of [staff.userName, 'someone@SUB.corp.example', 'juan@grupo-es.example']) {
      const refused = refusal(await group.signIn({ userName, password: PASSWORD }));
      expect(refused, userName).to.include({ status: 403, code: 'account.use_professional_account', externalLoginRequired: true });
    }
    expect((await reload(groupContext, staff.id)).failedAttempts).to.equal(0);
    expect((await group.signIn({ userName: 'outsider@partner.example', password: 'x' })).ok).to.equal(false);
  });

  it('rehashes, at sign-in, a password hashed with other parameters', async () => {
    const weak = await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 8192, timeCost: 1, parallelism: 1 });
    const user = await buildUser(context.dataSource, { passwordHash: weak });
    expect((await signIn.signIn({ userName: user.userName, password: PASSWORD })).ok).to.equal(true);
    const { passwordHash } = await reload(context, user.id);
    expect(passwordHash).to.match(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await argon2.verify(passwordHash!, PASSWORD)).to.equal(true);
  });

  it('writes an authentication log row for each attempt, with result, provider and return URL', async () => {
    const user = await userWithPassword(context);
    await signIn.signIn({ userName: user.userName, password: 'wrong', returnUrl: '/app', ip: '127.0.0.1' });
    await signIn.signIn({ userName: user.userName, password: PASSWORD, returnUrl: '/app', applicationName: 'crm' });
    const rows = await context.dataSource.query(
      `SELECT user_name, result, authentication_provider, return_url, application_name, reason FROM authentication_logs
        WHERE user_id = $1 ORDER BY id`,
      [user.id],
    );
    expect(rows).to.deep.equal([
      { user_name: user.userName, result: 'Failure', authentication_provider: 'Local', return_url: '/app', application_name: null, reason: 'Invalid password' },
      { user_name: user.userName, result: 'Success', authentication_provider: 'Local', return_url: '/app', application_name: 'crm', reason: 'Password verified' },
    ]);
  });
});

describe('password hasher', () => {
  it('computes at most its concurrency of hashes at once and queues the rest', async () => {
    const hasher = new PasswordHasher(2);
    const work = Array.from({ length: 6 }, (_, i) => hasher.hash(`password-${i}`));
    expect(hasher.pending).to.equal(6);
    expect((hasher as unknown as { limit: { activeCount: number } }).limit.activeCount).to.be.at.most(2);
    const hashes = await Promise.all(work);
    expect(new Set(hashes).size).to.equal(6);
    expect(hasher.pending).to.equal(0);
  });
});
