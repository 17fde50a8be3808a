import { DEFAULT_LOCKOUT_POLICY, DEFAULT_PASSWORD_POLICY, SignInThrottle, hashPassword, type AppContext } from '@gatehouse/core';
import { requiresGroupSignIn } from '@gatehouse/contracts';
import { type Mailer } from '@gatehouse/core/mail';
import { buildUser, sharedTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { checkPasswordExpiry, finish, requireSecondFactor } from './after-password-steps.js';
import { checkGroupDomain, countFailure, loadAccount, refuseDraft, refuseLocked, reserveAttempt, verifyPassword } from './password-steps.js';
import { findSignInAccount } from './repository.js';
import { newSignInState, runSteps, type SignInDeps, type SignInState } from './sign-in-state.js';

const PASSWORD = 'Correct-Horse-42!';

describe('sign-in steps', () => {
  let context: AppContext;
  let deps: SignInDeps;
  let mails: Array<{ to: string; template: string }>;

  before(async () => {
    const shared = await sharedTestContext();
    const unlimited = { ...shared.config.security, failuresPerAddressPerHour: 1e6, failuresPerAccountAndAddressPerDay: 1e6 };
    context = { ...shared, throttle: new SignInThrottle(unlimited) };
    mails = [];
    const mailer = { send: async (mail: { to: string; template: string }) => void mails.push(mail) } as unknown as Mailer;
    deps = { context, lockout: DEFAULT_LOCKOUT_POLICY, mailer, passwordPolicy: async () => ({ ...DEFAULT_PASSWORD_POLICY, maxAgeDays: 90 }) };
  });

  const attempt = (userName: string, password = PASSWORD, extra: Partial<SignInState> = {}): SignInState =>
    newSignInState({ userName, password, source: { ip: '10.0.0.1' }, proof: { reason: 'Password verified', amr: ['pwd'] }, ...extra });

  async function signedUpUser(overrides: Parameters<typeof buildUser>[1] = {}) {
    return buildUser(context.dataSource, { passwordHash: await hashPassword(PASSWORD), passwordChangedAt: new Date(), ...overrides });
  }

  async function loaded(overrides: Parameters<typeof buildUser>[1] = {}): Promise<SignInState> {
    const user = await signedUpUser(overrides);
    const state = attempt(`  ${user.userName.toUpperCase()} `);
    await loadAccount(state, deps);
    return state;
  }

  describe('checkGroupDomain', () => {
    it('sends a group user to Microsoft and lets anyone else go on', async () => {
      const group = { ...deps, context: { ...context, config: { ...context.config, signIn: { ...context.config.signIn, groupDomains: ['group.example'] } } } };
      expect(await checkGroupDomain(attempt('ana@group.example'), group)).to.include({ status: 403, code: 'account.use_professional_account', externalLoginRequired: true });
      expect(await checkGroupDomain(attempt('ana@partner.example'), group)).to.equal(undefined);
    });
  });

  describe('requiresGroupSignIn (the rule the login page applies as the name is typed)', () => {
    const rule = { groupDomains: ['group.example', 'corp.example'], groupDomainFragment: 'Grupo-ES' };

    it('matches a group domain or a subdomain of one, and the fragment anywhere, whatever the case', () => {
      for (const userName of ['ana@group.example', '  Ana@GROUP.example ', 'someone@sub.corp.example', 'juan@grupo-es.example', 'GRUPO-ES.juan@partner.example']) {
        expect(requiresGroupSignIn(userName, rule), userName).to.equal(true);
      }
    });

    it('leaves look-alike domains, partial names and an empty rule alone', () => {
      for (const userName of ['ana@evilgroup.example', 'ana@group.example.net', 'ana@group', 'group.example', 'ana@partner.example', '']) {
        expect(requiresGroupSignIn(userName, rule), userName).to.equal(false);
      }
      expect(requiresGroupSignIn('ana@group.example', { groupDomains: [] })).to.equal(false);
      expect(requiresGroupSignIn('ana', { groupDomains: [''], groupDomainFragment: '' })).to.equal(false);
    });
  });

  describe('loadAccount', () => {
    it('reads the account once by its trimmed, case-insensitive name, with whether a second factor is required', async () => {
      const state = await loaded({ twoFactorEnabled: true });
      expect(state.account).to.include({ draft: false, secondFactorRequired: true });
      expect((await loaded()).account!.secondFactorRequired).to.equal(false);
      expect(await findSignInAccount(context, 'nobody@example.com')).to.equal(undefined);
    });
  });

  describe('reserveAttempt, verifyPassword, refuseLocked, countFailure', () => {
    it('counts a wrong password after reserving it, and answers the attempts left', async () => {
      const state = await loaded();
      const wrong = { ...state, password: 'wrong' };
      expect(await reserveAttempt(wrong, deps)).to.equal(undefined);
      await verifyPassword(wrong, deps);
      expect(wrong.passwordValid).to.equal(false);
      expect(await refuseLocked(wrong, deps)).to.equal(undefined);
      expect(await countFailure(wrong, deps)).to.include({ status: 401, code: 'account.invalid_credentials', attemptsLeft: 4 });
    });

    it('refuses, after one verification, an account whose lock has not ended, with the date it ends', async () => {
      const until = new Date(Date.now() + 4 * 60_000);
      const state = await loaded({ lockoutEnd: until });
      await reserveAttempt(state, deps);
      expect(state.reservation!.kind).to.equal('locked');
      await verifyPassword(state, deps);
      const refused = await refuseLocked(state, deps);
      expect(refused).to.include({ status: 423, code: 'account.locked' });
      expect(refused && 'params' in refused && refused.params?.until).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    });

    it('lets a right password through countFailure', async () => {
      const state = await loaded();
      await reserveAttempt(state, deps);
      await verifyPassword(state, deps);
      expect(await countFailure(state, deps)).to.equal(undefined);
    });
  });

  describe('refuseDraft', () => {
    it('refuses a draft user with "User pending approval."', async () => {
      expect(await refuseDraft(await loaded({ draft: true }), deps)).to.include({ status: 403, code: 'account.pending_approval' });
      expect(await refuseDraft(await loaded(), deps)).to.equal(undefined);
    });
  });

  describe('checkPasswordExpiry', () => {
    it('asks for a new password, with a step token, when the password is older than the policy allows', async () => {
      const old = await loaded({ passwordChangedAt: new Date(Date.now() - 91 * 86_400_000) });
      const outcome = await checkPasswordExpiry(old, deps);
      expect(outcome).to.include({ ok: true, kind: 'expired-password' });
      expect(await checkPasswordExpiry(await loaded(), deps)).to.equal(undefined);
    });
  });

  describe('requireSecondFactor', () => {
    it('mails a code when the user asks for a second factor, and goes on otherwise', async () => {
      const state = await loaded({ twoFactorEnabled: true });
      const outcome = await requireSecondFactor(state, deps);
      expect(outcome).to.include({ ok: true, kind: 'second-factor', method: 'email' });
      expect(mails.at(-1)).to.include({ to: state.account!.email, template: 'sign-in-code' });
      expect(await requireSecondFactor(await loaded(), deps)).to.equal(undefined);
    });

    it('asks for the authenticator app code, and mails nothing, once an app is enrolled', async () => {
      const before = mails.length;
      expect(await requireSecondFactor(await loaded({ totpEnabledAt: new Date() }), deps)).to.include({ kind: 'second-factor', method: 'totp' });
      expect(mails.length).to.equal(before);
    });
  });

  describe('finish', () => {
    it('records the sign-in and resumes the interaction with the proof', async () => {
      const logins: unknown[] = [];
      const state = await loaded();
      const resumed = { ...state, interaction: { uid: 'i-1', remember: true, resume: async (login: unknown) => (logins.push(login), '/oidc/auth/i-1') } };
      expect(await finish(resumed, deps)).to.deep.equal({ ok: true, kind: 'signed-in', userId: state.account!.id, redirectTo: '/oidc/auth/i-1' });
      expect(logins).to.deep.equal([{ accountId: state.account!.id, remember: true, amr: ['pwd'] }]);
      const [row] = await context.dataSource.query('SELECT last_login_at FROM users WHERE id = $1', [state.account!.id]);
      expect(row.last_login_at).to.be.instanceOf(Date);
    });

    it('refuses an account locked meanwhile as "User Is Locked Out" (its password was right), and resumes nothing', async () => {
      const state = await loaded();
      await context.dataSource.query('UPDATE users SET locked = true WHERE id = $1', [state.account!.id]);
      const resume = async () => expect.fail('resumed a locked account');
      expect(await finish({ ...state, interaction: { uid: 'i-2', remember: false, resume } }, deps)).to.include({
        status: 423,
        code: 'account.locked_out',
        detail: 'account.locked_permanently',
      });
    });
  });

  describe('runSteps', () => {
    it('stops at the first step that answers', async () => {
      const ran: string[] = [];
      const first = async () => void ran.push('first');
      const answers = async () => (ran.push('answers'), { ok: false as const, status: 400, code: 'errors.validation' as const });
      const never = async () => void ran.push('never');
      expect(await runSteps([first, answers, never], attempt('a@example.com'), deps)).to.include({ code: 'errors.validation' });
      expect(ran).to.deep.equal(['first', 'answers']);
    });
  });
});
