import { randomBytes } from 'node:crypto';
import { AppError, hashPassword, issueUserToken, type AppContext, type User } from '@gatehouse/core';
import { buildUser, sharedTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { createApp, type IdpApp } from '../../app.js';
import { assertAcceptablePassword } from './password-change.js';

const PASSWORD = 'Correct-Horse-42!';
// Meets every character rule of the policy, and is among an attacker's first guesses.
const COMMON = 'Password123!';
const STRONG = 'tuba-Lantern-9-orbit-calm';

describe('a new password too easy to guess', () => {
  let context: AppContext;
  let app: IdpApp;
  let server: ReturnType<IdpApp['callback']>;
  let xsrf: string;

  before(async () => {
    context = await sharedTestContext();
    app = await createApp(context);
    server = app.callback();
    const config = await request(server).get('/api/v1/config');
    xsrf = /XSRF-TOKEN=([^;]+)/.exec(String(config.headers['set-cookie']))![1]!;
  });

  after(() => app.close());

  /** A user with a password, and a reset link's token for them. */
  async function withResetLink(overrides: Partial<User> = {}) {
    const user = await buildUser(context.dataSource, { passwordHash: await hashPassword(PASSWORD), ...overrides });
    const { token } = await issueUserToken(context, { userId: user.id, purpose: 'PasswordReset', ttlSeconds: 3600 });
    return { user, token };
  }

  const resetTo = (user: User, token: string, newPassword: string, language: string) =>
    request(server)
      .post('/api/v1/account/changePassword')
      .set('Accept-Language', language)
      .set('Cookie', `XSRF-TOKEN=${xsrf}`)
      .set('X-XSRF-TOKEN', xsrf)
      .send({ identityName: user.userName, token, newPassword, confirmPassword: newPassword });

  const hashOf = async (user: User) => ((await context.dataSource.query('SELECT password_hash FROM users WHERE id = $1', [user.id])) as Array<{ password_hash: string }>)[0]!.password_hash;

  it('is refused through a reset link with the estimator’s reason in the caller’s language; the link still works', async () => {
    const { user, token } = await withResetLink();
    const refused = await resetTo(user, token, COMMON, 'fr');
    expect(refused.status).to.equal(400);
    expect(refused.body).to.include({ success: false, code: 'password.too_weak' });
    expect(refused.body.fieldErrors).to.deep.equal([
      {
        field: 'newPassword',
        code: 'password.too_weak',
        message:
          'Le mot de passe est trop facile à deviner. Ce mot de passe est similaire à un mot de passe couramment utilisé. Ajoutez des mots moins courants. Utilisez des majuscules mais pas seulement sur la première lettre.',
      },
    ]);
    expect(await hashOf(user), 'nothing stored').to.equal(user.passwordHash);

    const accepted = await resetTo(user, token, STRONG, 'fr');
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
    expect(await hashOf(user)).not.to.equal(user.passwordHash);
  });

  it('counts the account’s own names as guessable, and no other account’s', async () => {
    const domain = `${randomBytes(4).toString('hex')}.example`;
    const jane = await withResetLink({ userName: `jane.doe@${domain}`, email: `jane.doe@${domain}`, firstName: 'Jane', lastName: 'Doe' });
    const other = await withResetLink({ firstName: 'Ann', lastName: 'Other' });

    const refused = await resetTo(jane.user, jane.token, 'Jane.Doe2024!', 'de');
    expect(refused.status).to.equal(400);
    expect(refused.body.fieldErrors[0]).to.include({ field: 'newPassword', code: 'password.too_weak' });
    expect(refused.body.fieldErrors[0].message).to.match(/^Das Passwort ist zu leicht zu erraten\. Es sollten keine persönlichen oder Seiten relevanten Daten vorkommen\./);

    expect((await resetTo(other.user, other.token, 'Jane.Doe2024!', 'de')).status, 'Jane’s name is just a name to Ann').to.equal(200);
  });

  it('is refused in the step of an expired password too, in the language it is given', async () => {
    const { user } = await withResetLink();
    const refusal = await assertAcceptablePassword(context, { userId: user.id, newPassword: COMMON, confirmPassword: COMMON, language: 'it' }).then(
      () => expect.fail('the password was accepted'),
      (error: unknown) => error,
    );
    expect(refusal).to.be.instanceOf(AppError);
    const [weak] = (refusal as AppError).errors;
    expect(weak).to.include({ field: 'newPassword', code: 'password.too_weak' });
    expect(weak!.params!.reason).to.match(/^Questa assomiglia a una password di uso comune\./);
    await assertAcceptablePassword(context, { userId: user.id, newPassword: STRONG, confirmPassword: STRONG, language: 'it' });
  });
});
