import { SYSTEM_LOG_OPERATIONS } from '@gatehouse/contracts';
import { expect } from 'chai';
import type { AppContext } from '../context.js';
import { withActor } from '../logging/audit.js';
import { buildUser, sharedTestContext } from '../testing/index.js';
import { FACTOR_CHANGE_OPERATIONS, announceFactorChange, recordFactorChange } from './factor-changes.js';
import { Mailer } from './mailer.js';

describe('announceFactorChange', () => {
  let context: AppContext;
  let mailer: Mailer;

  before(async () => {
    context = await sharedTestContext();
    // No SMTP server: mails are kept in the outbox, where the test reads them.
    mailer = new Mailer({ ...context, config: { ...context.config, mail: { ...context.config.mail, smtpUrl: undefined } } });
  });

  const logsAbout = (userId: string) =>
    context.dataSource.query(`SELECT user_id, user_name, operation, metadata, actor_id FROM system_logs WHERE metadata->>'targetUserId' = $1 ORDER BY id`, [userId]);

  async function mailsTo(address: string) {
    const rows: Array<{ id: string }> = await context.dataSource.query(`SELECT id FROM mail_outbox WHERE to_address = $1 ORDER BY created_at`, [address]);
    return Promise.all(rows.map(async ({ id }) => (await mailer.readKept(id))!));
  }

  it('mails the user in their language and writes one log row by the user, naming the passkey', async () => {
    const user = await buildUser(context.dataSource, { language: 'de', firstName: 'Jonas' });

    await announceFactorChange(context, mailer, user.id, 'passkey_added', { passkeyName: 'YubiKey 5', ip: '203.0.113.9', userAgent: 'Firefox' });

    const [mail, ...others] = await mailsTo(user.email);
    expect(others).to.have.length(0);
    expect(mail).to.include({ template: 'factor-changed', language: 'de', subject: 'Ihrem Konto wurde ein Passkey hinzugefügt' });
    expect(mail!.text).to.include('Hallo Jonas').and.include('„YubiKey 5“').and.include('Meine Sicherheit');
    expect(await logsAbout(user.id)).to.deep.equal([
      {
        user_id: user.id,
        user_name: user.userName,
        operation: 'AddPasskey',
        actor_id: null,
        metadata: { targetUserId: user.id, targetUserName: user.userName, change: 'passkey_added', passkeyName: 'YubiKey 5', ip: '203.0.113.9', userAgent: 'Firefox' },
      },
    ]);
  });

  it('records an administrator’s reset as theirs, the user as its target, and tells the user what was removed', async () => {
    const admin = await buildUser(context.dataSource);
    const user = await buildUser(context.dataSource, { language: 'en' });

    await announceFactorChange(context, mailer, user.id, 'factors_reset', { actorId: admin.id, kinds: ['passkeys', 'totp'] });

    const [log, ...more] = await logsAbout(user.id);
    expect(more).to.have.length(0);
    expect(log).to.deep.include({ user_id: admin.id, user_name: admin.userName, operation: 'ResetFactors' });
    expect(log.metadata).to.deep.equal({ targetUserId: user.id, targetUserName: user.userName, change: 'factors_reset', kinds: ['passkeys', 'totp'] });
    const [mail] = await mailsTo(user.email);
    expect(mail!.subject).to.equal('The sign-in factors of your account were reset');
    expect(mail!.text).to.include('your passkeys, the authenticator app').and.include('contact your administrator');
  });

  it('writes no second row for a change logged in its own transaction, and still mails', async () => {
    const user = await buildUser(context.dataSource, { language: 'fr' });
    await context.dataSource.transaction((em) => recordFactorChange(em, user.id, 'totp_removed'));

    await announceFactorChange(context, mailer, user.id, 'totp_removed', { logged: true });

    expect((await logsAbout(user.id)).map((row: { operation: string }) => row.operation)).to.deep.equal(['RemoveAuthenticatorApp']);
    expect((await mailsTo(user.email)).map((mail) => mail.subject)).to.deep.equal(['L’application d’authentification a été retirée de votre compte']);
  });

  it('names the God user acting as the user, as every log row written meanwhile does', async () => {
    const god = await buildUser(context.dataSource);
    const user = await buildUser(context.dataSource);

    await withActor(god.id, () => announceFactorChange(context, mailer, user.id, 'recovery_codes_generated'));

    const [log] = await logsAbout(user.id);
    expect(log).to.deep.include({ user_id: user.id, operation: 'GenerateRecoveryCodes', actor_id: god.id });
  });

  it('does not throw when the mail cannot be stored: the change has happened and is logged', async () => {
    const user = await buildUser(context.dataSource);
    const broken = { send: () => Promise.reject(new Error('outbox unavailable')) } as unknown as Mailer;

    await announceFactorChange(context, broken, user.id, 'recovery_code_used');

    expect((await logsAbout(user.id)).map((row: { operation: string }) => row.operation)).to.deep.equal(['UseRecoveryCode']);
  });

  it('writes operations the Logs page offers in its filter', () => {
    expect(SYSTEM_LOG_OPERATIONS).to.include.members(Object.values(FACTOR_CHANGE_OPERATIONS));
  });
});
