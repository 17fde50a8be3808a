import { randomBytes, randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, type User } from '@gatehouse/core';
import { grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { mintAccessToken } from '../../testing/tokens.js';
import { buildUsersWorld, call, insertProviderSessions, listen, logsAbout, providerSessionCount, userIn, type Persona, type UsersWorld } from './testing.js';

describe('GET /api/v1/admin/users/{id}/factors and POST …/factors/reset', function () {
  this.timeout(60_000);
  let w: UsersWorld;

  before(async () => {
    w = await buildUsersWorld();
  });

  const db = () => w.context.dataSource;
  const factors = (id: string, as?: Persona) => call(w, 'get', `/users/${id}/factors`, { as });
  const reset = (id: string, kinds: unknown, as?: Persona) => call(w, 'post', `/users/${id}/factors/reset`, { as, body: { kinds } });

  /** Two passkeys (one synced), an enrolled authenticator app and ten recovery codes, two of them used. */
  async function giveFactors(user: User): Promise<void> {
    for (const [name, synced] of [['YubiKey 5', false], ['iPhone', true]] as const) {
      await db().query(
        `INSERT INTO user_passkeys (user_id, credential_id, public_key, device_type, backed_up, name, device_hint, last_used_at, last_used_device)
         VALUES ($1, $2, $3, $4, $5, $6, 'Chrome on Windows', now(), 'Firefox on Linux')`,
        [user.id, randomBytes(16).toString('base64url'), randomBytes(65), synced ? 'multiDevice' : 'singleDevice', synced, name],
      );
    }
    await db().query(`UPDATE users SET totp_secret_encrypted = 'sealed-secret', totp_enabled_at = now(), recovery_codes_generated_at = now() WHERE id = $1`, [user.id]);
    for (let i = 0; i < 10; i++) {
      await db().query(`INSERT INTO user_recovery_codes (user_id, code_hash, used_at) VALUES ($1, $2, $3)`, [user.id, randomBytes(32).toString('hex'), i < 2 ? new Date() : null]);
    }
  }

  /** What the user holds now, straight from the tables. */
  async function held(userId: string) {
    const [row] = await db().query(
      `SELECT (SELECT count(*)::int FROM user_passkeys WHERE user_id = u.id) AS passkeys,
              u.totp_secret_encrypted IS NOT NULL AS totp,
              (SELECT count(*)::int FROM user_recovery_codes WHERE user_id = u.id) AS "recoveryCodes"
         FROM users u WHERE u.id = $1`,
      [userId],
    );
    return row as { passkeys: number; totp: boolean; recoveryCodes: number };
  }

  const mailsTo = (address: string): Promise<Array<{ template: string; language: string }>> =>
    db().query(`SELECT template, language FROM mail_outbox WHERE to_address = $1 ORDER BY created_at`, [address]);

  /** A user of area A holding an Identity role in the Global tenant. */
  async function holding(role: string): Promise<User> {
    const user = await userIn(w, w.areaA);
    await grant(db(), { tenant: GLOBAL_TENANT_ID, user, roles: [w.identity.roleByName[role]!] });
    return user;
  }

  describe('GET', () => {
    it('shows an administrator the user’s factors by name and date, never a key, a secret or a code', async () => {
      const user = await userIn(w, w.areaA);
      await giveFactors(user);

      const res = await factors(user.id);

      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.passkeys.map((p: { name: string; backedUp: boolean; deviceType: string; deviceHint: string; lastUsedDevice: string }) => [p.name, p.backedUp, p.deviceType, p.deviceHint, p.lastUsedDevice])).to.deep.equal([
        ['YubiKey 5', false, 'singleDevice', 'Chrome on Windows', 'Firefox on Linux'],
        ['iPhone', true, 'multiDevice', 'Chrome on Windows', 'Firefox on Linux'],
      ]);
      for (const passkey of res.body.passkeys) {
        expect(Object.keys(passkey).sort()).to.deep.equal(['backedUp', 'createdAt', 'deviceHint', 'deviceType', 'id', 'lastUsedAt', 'lastUsedDevice', 'name']);
        expect(new Date(passkey.createdAt).toISOString()).to.equal(passkey.createdAt);
      }
      expect(res.body.totp.enrolled).to.equal(true);
      expect(res.body.totp.enrolledAt).to.be.a('string');
      expect(res.body.recoveryCodes.remaining).to.equal(8);
      expect(res.body.recoveryCodes.generatedAt).to.be.a('string');
      expect(res.body).to.include({ emailCode: false, mayReset: true });
      const text = JSON.stringify(res.body);
      expect(text).not.to.include('sealed-secret').and.not.to.include('publicKey').and.not.to.include('credential');
      const hashes: Array<{ code_hash: string }> = await db().query(`SELECT code_hash FROM user_recovery_codes WHERE user_id = $1`, [user.id]);
      for (const { code_hash } of hashes) expect(text).not.to.include(code_hash);
    });

    it('says the caller may not reset their own factors, nor an administrator those of a God user', async () => {
      expect((await factors(w.callers.admin.id)).body.mayReset).to.equal(false);
      const god = await holding('God');
      const seen = await factors(god.id);
      expect(seen.status).to.equal(200);
      expect(seen.body.mayReset).to.equal(false);
      expect((await factors(god.id, 'god')).body.mayReset).to.equal(true);
    });

    it('keeps an AreaAdministrator to the users of their areas (404), and is refused to a TenantAdministrator (403)', async () => {
      const other = await userIn(w, w.areaB);
      const res = await factors(other.id, 'areaAdmin');
      expect(res.status).to.equal(404);
      expect(res.body.code).to.equal('errors.not_found');
      expect((await factors(other.id, 'tenantAdmin')).status).to.equal(403);
      const own = await userIn(w, w.areaA);
      expect((await factors(own.id, 'areaAdmin')).body).to.include({ mayReset: true });
    });

    it('answers 404 for an unknown or malformed id', async () => {
      expect((await factors(randomUUID())).status).to.equal(404);
      expect((await factors('not-a-uuid')).status).to.equal(404);
    });
  });

  describe('POST …/reset', () => {
    it('lets an Administrator remove a user’s passkeys alone: logged as theirs, the user mailed, their sessions left alone', async () => {
      const user = await userIn(w, w.areaA, { language: 'es' });
      await giveFactors(user);
      await insertProviderSessions(w, user.id);
      const changed = listen(w, 'user.changed');

      const res = await reset(user.id, ['passkeys']);
      changed.stop();

      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ removed: ['passkeys'] });
      expect(await held(user.id)).to.deep.equal({ passkeys: 0, totp: true, recoveryCodes: 10 });
      expect(await providerSessionCount(w, user.id), 'a reset does not sign the user out').to.equal(2);
      expect(changed.events).to.deep.include({ userId: user.id });
      expect(await logsAbout(w, user.id)).to.deep.equal([
        {
          user_id: w.callers.admin.id,
          user_name: w.callers.admin.userName,
          tenant_id: null,
          tenant_name: null,
          operation: 'ResetFactors',
          metadata: { targetUserId: user.id, targetUserName: user.userName, change: 'factors_reset', kinds: ['passkeys'] },
        },
      ]);
      expect(await mailsTo(user.email)).to.deep.equal([{ template: 'factor-changed', language: 'es' }]);
      expect((await factors(user.id)).body.passkeys).to.deep.equal([]);
    });

    it('removes every kind asked for, and answers only what the user still held', async () => {
      const user = await userIn(w, w.areaA);
      await giveFactors(user);
      await db().query(`DELETE FROM user_recovery_codes WHERE user_id = $1`, [user.id]);

      const res = await reset(user.id, ['recoveryCodes', 'totp', 'passkeys'], 'areaAdmin');

      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.removed).to.have.members(['passkeys', 'totp']).and.have.length(2);
      expect(await held(user.id)).to.deep.equal({ passkeys: 0, totp: false, recoveryCodes: 0 });
      const [row] = await db().query(`SELECT totp_enabled_at, totp_last_step, recovery_codes_generated_at FROM users WHERE id = $1`, [user.id]);
      expect(row).to.deep.equal({ totp_enabled_at: null, totp_last_step: null, recovery_codes_generated_at: null });
    });

    it('changes, logs and mails nothing when the user holds none of the kinds asked for', async () => {
      const user = await userIn(w, w.areaA);
      const res = await reset(user.id, ['totp']);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ removed: [] });
      expect(await logsAbout(w, user.id)).to.deep.equal([]);
      expect(await mailsTo(user.email)).to.deep.equal([]);
    });

    it('keeps an AreaAdministrator away from another area’s users (404) and from administrators of their own (403)', async () => {
      const other = await userIn(w, w.areaB);
      await giveFactors(other);
      const res = await reset(other.id, ['passkeys', 'totp', 'recoveryCodes'], 'areaAdmin');
      expect(res.status).to.equal(404);
      expect(res.body.code).to.equal('errors.not_found');

      const admin = await holding('Administrator');
      await giveFactors(admin);
      const outranked = await reset(admin.id, ['passkeys'], 'areaAdmin');
      expect(outranked.status).to.equal(403);
      expect(outranked.body.code).to.equal('users.manage_admin_only');

      for (const user of [other, admin]) {
        expect(await held(user.id)).to.deep.equal({ passkeys: 2, totp: true, recoveryCodes: 10 });
        expect(await logsAbout(w, user.id)).to.deep.equal([]);
        expect(await mailsTo(user.email)).to.deep.equal([]);
      }
    });

    it('refuses an Administrator a God user’s factors (403); God may', async () => {
      const god = await holding('God');
      await giveFactors(god);

      const res = await reset(god.id, ['passkeys', 'totp']);
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ code: 'users.manage_god_only', message: 'Only God can manage the account of a God user' });
      expect(await held(god.id)).to.deep.equal({ passkeys: 2, totp: true, recoveryCodes: 10 });

      expect((await reset(god.id, ['passkeys', 'totp'], 'god')).body).to.deep.equal({ removed: ['passkeys', 'totp'] });
    });

    it('refuses the caller their own factors (400), pointing to My security, God included', async () => {
      for (const as of ['admin', 'god'] as const) {
        const caller = w.callers[as];
        await giveFactors(caller);
        const res = await reset(caller.id, ['passkeys', 'totp', 'recoveryCodes'], as);
        expect(res.status, as).to.equal(400);
        expect(res.body).to.include({ code: 'users.cannot_reset_own_factors', message: 'Change your own sign-in factors in My security, on your profile' });
        expect(await held(caller.id), as).to.deep.equal({ passkeys: 2, totp: true, recoveryCodes: 10 });
      }
      const fr = await call(w, 'post', `/users/${w.callers.admin.id}/factors/reset`, { body: { kinds: ['totp'] }, lang: 'fr' });
      expect(fr.body.message).to.equal('Modifiez vos propres facteurs de connexion dans Ma sécurité, sur votre profil');
    });

    it('is refused to a TenantAdministrator and a Manager (403), and to a token issued to another client (401)', async () => {
      const user = await userIn(w, w.areaA);
      await giveFactors(user);
      for (const as of ['tenantAdmin', 'manager'] as const) {
        const res = await reset(user.id, ['passkeys'], as);
        expect(res.status, as).to.equal(403);
        expect(res.body.code).to.equal('errors.forbidden');
      }
      const stolen = await mintAccessToken(w.context, w.key, { sub: w.callers.god.id, roles: ['God'], clientId: 'crm-client' });
      for (const [method, path, body] of [
        ['post', `/api/v1/admin/users/${user.id}/factors/reset`, { kinds: ['passkeys'] }],
        ['get', `/api/v1/admin/users/${user.id}/factors`, undefined],
      ] as const) {
        const req = request(w.server)[method](path).set('Authorization', `Bearer ${stolen}`);
        const res = body ? await req.send(body) : await req;
        expect(res.status, `${method} ${path}`).to.equal(401);
        expect(res.headers['www-authenticate']).to.equal('Bearer error="invalid_token"');
      }
      const anonymous = await request(w.server).post(`/api/v1/admin/users/${user.id}/factors/reset`).set('Cookie', 'session=whatever').send({ kinds: ['passkeys'] });
      expect(anonymous.status).to.equal(401);
      expect(await held(user.id)).to.deep.equal({ passkeys: 2, totp: true, recoveryCodes: 10 });
    });

    for (const [what, body, code] of [
      ['no kinds', {}, 'users.factor_kinds_required'],
      ['an empty list', { kinds: [] }, 'users.factor_kinds_required'],
      ['a kind named twice', { kinds: ['totp', 'passkeys', 'totp'] }, 'users.factor_kinds_duplicate'],
      ['an unknown kind', { kinds: ['password'] }, 'validation.invalid_value'],
      ['a field of its own', { kinds: ['totp'], userId: 'x' }, 'validation.unknown_field'],
    ] as const) {
      it(`answers 400 (${code}) to ${what}, removing nothing`, async () => {
        const user = await userIn(w, w.areaA);
        await giveFactors(user);
        const res = await call(w, 'post', `/users/${user.id}/factors/reset`, { body });
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.errors.map((e: { code: string }) => e.code)).to.include(code);
        expect(await held(user.id)).to.deep.equal({ passkeys: 2, totp: true, recoveryCodes: 10 });
      });
    }

    it('answers 404 for an unknown user and a malformed id', async () => {
      expect((await reset(randomUUID(), ['totp'])).status).to.equal(404);
      expect((await reset("1' OR '1'='1", ['totp'])).status).to.equal(404);
    });

    it('applies two resets made at once one after the other: both succeed, each factor is removed, logged and mailed once', async () => {
      const user = await userIn(w, w.areaA);
      await giveFactors(user);

      const [first, second] = await Promise.all([reset(user.id, ['passkeys', 'totp', 'recoveryCodes']), reset(user.id, ['passkeys', 'totp', 'recoveryCodes'], 'god')]);

      expect([first.status, second.status]).to.deep.equal([200, 200]);
      const removed = [...first.body.removed, ...second.body.removed];
      expect(removed).to.have.members(['passkeys', 'totp', 'recoveryCodes']).and.have.length(3);
      expect([first.body.removed.length, second.body.removed.length]).to.include(0);
      expect(await held(user.id)).to.deep.equal({ passkeys: 0, totp: false, recoveryCodes: 0 });
      const logs = await logsAbout(w, user.id);
      expect(logs).to.have.length(1);
      expect(logs[0]!.metadata.kinds).to.have.members(['passkeys', 'totp', 'recoveryCodes']);
      expect(await mailsTo(user.email)).to.have.length(1);
    });

    it('removes nothing when its log row cannot be written: the removal and its row go together', async () => {
      const user = await userIn(w, w.areaA);
      await giveFactors(user);
      await db().query(`ALTER TABLE system_logs ADD CONSTRAINT no_reset_rows CHECK (operation <> 'ResetFactors') NOT VALID`);
      try {
        const res = await reset(user.id, ['passkeys', 'totp', 'recoveryCodes']);
        expect(res.status, 'the failed row fails the reset').to.be.at.least(400);
        expect(res.body).not.to.have.property('removed');
      } finally {
        await db().query(`ALTER TABLE system_logs DROP CONSTRAINT no_reset_rows`);
      }
      expect(await held(user.id)).to.deep.equal({ passkeys: 2, totp: true, recoveryCodes: 10 });
      expect(await mailsTo(user.email)).to.deep.equal([]);
    });
  });
});
