import { securitySettings } from '@gatehouse/core';
import { expect } from 'chai';
import { buildAdminWorld, call, userIn, type AdminWorld, type Persona } from '../../testing/admin-world.js';
import { listen } from '../users/testing.js';

const FORBIDDEN = 'You do not have permission to perform this action';

describe('/api/v1/admin/securityConfig', () => {
  let w: AdminWorld;

  before(async () => {
    // A database of its own: the settings are the deployment's, one row each.
    w = await buildAdminWorld();
  });

  const put = (id: string, body: string, as: Persona = 'god') => call(w, 'put', `/securityConfig/${id}`, { as, body: { body } });
  const logsOf = (config: string): Promise<Array<{ user_id: string; user_name: string; operation: string; metadata: { config: string; changes: Record<string, unknown> } }>> =>
    w.context.dataSource.query(`SELECT user_id, user_name, operation, metadata FROM system_logs WHERE operation = 'UpdateSecurityConfig' AND metadata->>'config' = $1 ORDER BY id`, [config]);

  describe('reading', () => {
    it('lists the four settings by title, with the defaults in force while none was ever saved', async () => {
      const res = await call(w, 'get', '/securityConfig', { as: 'god' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.count).to.equal(4);
      expect(res.body.items.map((c: { title: string }) => c.title)).to.deep.equal(['GroupDomains', 'Lockout', 'PasswordPolicy', 'TokenLifetimes']);
      const lockout = res.body.items.find((c: { id: string }) => c.id === 'Lockout');
      expect(JSON.parse(lockout.body)).to.deep.equal({ maxFailedAttempts: 5, lockoutMinutes: 5, permanentAfterLockouts: 3 });
      expect(lockout.yaml).to.equal('maxFailedAttempts: 5\nlockoutMinutes: 5\npermanentAfterLockouts: 3\n');
      expect(lockout).to.include({ modifiedByDisplayName: null, modifiedOn: null });
      expect(lockout.description).to.be.a('string').and.not.equal('');
    });

    it('searches the titles and sorts them descending on request', async () => {
      const found = await call(w, 'get', '/securityConfig?$search=token&orderBy=title%20desc', { as: 'god' });
      expect(found.body.items.map((c: { id: string }) => c.id)).to.deep.equal(['TokenLifetimes']);
      const sorted = await call(w, 'get', '/securityConfig?orderBy=title%20desc&top=2', { as: 'god' });
      expect(sorted.body.items.map((c: { id: string }) => c.id)).to.deep.equal(['TokenLifetimes', 'PasswordPolicy']);
      expect(sorted.body.count).to.equal(4);
    });

    it('answers one setting by its name, and 404 for a name it does not know', async () => {
      const res = await call(w, 'get', '/securityConfig/TokenLifetimes', { as: 'god' });
      expect(res.status).to.equal(200);
      expect(JSON.parse(res.body.body)).to.include({ accessTokenSeconds: 3600, adminApiAccessTokenSeconds: 900 });
      expect((await call(w, 'get', '/securityConfig/Nope', { as: 'god' })).status).to.equal(404);
      expect((await put('Nope', 'a: 1')).status).to.equal(404);
    });

    it('is for God only: an Administrator gets the 403 message, reading or writing', async () => {
      for (const res of [
        await call(w, 'get', '/securityConfig', { as: 'admin' }),
        await call(w, 'get', '/securityConfig/Lockout', { as: 'admin' }),
        await put('Lockout', 'maxFailedAttempts: 1', 'admin'),
      ]) {
        expect(res.status).to.equal(403);
        expect(res.body.message).to.equal(FORBIDDEN);
      }
      const [row] = await w.context.dataSource.query(`SELECT count(*)::int AS n FROM security_configs`);
      expect(row.n, 'nothing saved').to.equal(0);
    });
  });

  describe('PUT /api/v1/admin/securityConfig/{id}', () => {
    it('refuses a document that is not YAML with "Invalid yaml format", and one that is not a mapping', async () => {
      const broken = await put('Lockout', 'maxFailedAttempts: [3\nlockoutMinutes: : 5');
      expect(broken.status).to.equal(400);
      expect(broken.body).to.include({ code: 'securityConfig.invalid_yaml', message: 'Invalid yaml format' });
      expect(broken.body.errors).to.deep.equal([{ field: 'body', code: 'securityConfig.invalid_yaml', message: 'Invalid yaml format' }]);
      expect((await put('Lockout', 'maxFailedAttempts: 1\nmaxFailedAttempts: 2')).body.code, 'a key twice').to.equal('securityConfig.invalid_yaml');
      expect((await put('Lockout', '')).body.errors, 'nothing').to.deep.equal([{ field: 'body', code: 'securityConfig.invalid_yaml', message: 'Invalid yaml format' }]);
      const list = await put('Lockout', '- 3\n- 5');
      expect(list.status).to.equal(400);
      expect(list.body.code).to.equal('securityConfig.not_a_mapping');
      expect((await put('Lockout', 'just a sentence')).body.code).to.equal('securityConfig.not_a_mapping');
    });

    it('names every unknown key in the 400, with the keys the setting accepts, and saves nothing', async () => {
      const res = await put('Lockout', 'maxFailedAttempts: 4\nmaxFailedAttempt: 3\nunlockAfter: 10');
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('errors.validation');
      expect(res.body.errors).to.deep.equal([
        { field: 'maxFailedAttempt', code: 'securityConfig.unknown_key', message: 'Unknown key maxFailedAttempt: this configuration accepts maxFailedAttempts, lockoutMinutes, permanentAfterLockouts' },
        { field: 'unlockAfter', code: 'securityConfig.unknown_key', message: 'Unknown key unlockAfter: this configuration accepts maxFailedAttempts, lockoutMinutes, permanentAfterLockouts' },
      ]);
      const fr = await call(w, 'put', '/securityConfig/Lockout', { as: 'god', lang: 'fr', body: { body: 'x: 1' } });
      expect(fr.body.errors[0].message).to.match(/^Clé inconnue x : cette configuration accepte/);
      expect((await call(w, 'get', '/securityConfig/Lockout', { as: 'god' })).body.modifiedOn).to.equal(null);
    });

    it('refuses a value out of range or of the wrong type, naming the key', async () => {
      const res = await put('PasswordPolicy', 'minLength: 4\nrequireDigit: sometimes');
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).to.deep.equal([
        ['minLength', 'validation.too_small'],
        ['requireDigit', 'validation.invalid_type'],
      ]);
      expect((await put('GroupDomains', 'domains: [not a domain]')).body.errors[0].field).to.equal('domains.0');
      expect((await put('TokenLifetimes', 'idTokenSeconds: 86400')).body.errors[0]).to.include({ field: 'idTokenSeconds', code: 'validation.too_big' });
    });

    it('saves the document (keys left out take their defaults), answers the values in force and who saved them, and logs the keys that changed', async () => {
      const res = await put('PasswordPolicy', 'minLength: 16\nhistorySize: 3\nrequireSymbol: true');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(JSON.parse(res.body.body)).to.deep.equal({
        minLength: 16,
        requireUppercase: true,
        requireLowercase: true,
        requireDigit: true,
        requireSymbol: true,
        historySize: 3,
        maxAgeDays: 90,
        minStrength: 3,
      });
      // The factory's users have no first or last name: the user name stands in.
      expect(res.body.modifiedByDisplayName).to.equal(w.callers.god.userName);
      expect(Date.now() - Date.parse(res.body.modifiedOn)).to.be.within(0, 60_000);

      const logs = await logsOf('PasswordPolicy');
      expect(logs).to.have.length(1);
      expect(logs[0]).to.deep.include({ user_id: w.callers.god.id, user_name: w.callers.god.userName, operation: 'UpdateSecurityConfig' });
      expect(logs[0]!.metadata.changes).to.deep.equal({ minLength: { before: 12, after: 16 }, historySize: { before: 7, after: 3 } });

      const again = await put('PasswordPolicy', JSON.stringify({ minLength: 16, historySize: 3 }));
      expect(again.status, 'JSON is YAML too').to.equal(200);
      expect(await logsOf('PasswordPolicy'), 'nothing changed: nothing logged').to.have.length(1);
    });

    it('applies the new password policy to the next password change, and the SPAs read it', async () => {
      await put('PasswordPolicy', 'minLength: 20');
      const user = await userIn(w, w.areaA);
      const change = (password: string) => call(w, 'post', `/users/change-password/${user.id}`, { body: { password, confirmPassword: password } });

      const short = await change('Correct-Horse-9!');
      expect(short.status).to.equal(400);
      expect(short.body.errors).to.deep.include({ field: 'password', code: 'password.too_short', message: 'The password must have at least 20 characters' });
      expect((await change('Correct-Horse-9-Battery-Staple')).status).to.equal(200);

      const policy = await call(w, 'get', '/policy', { as: 'manager' });
      expect(policy.status).to.equal(200);
      expect(policy.body).to.include({ minLength: 20, historySize: 7 });
    });

    it('tells every node, and this one applies it before answering', async () => {
      const heard = listen(w, 'settings.changed');
      const res = await put('Lockout', 'maxFailedAttempts: 3');
      heard.stop();
      expect(res.status).to.equal(200);
      expect(heard.events).to.deep.equal([{ name: 'Lockout' }]);
      expect(securitySettings(w.context).current().Lockout).to.deep.equal({ maxFailedAttempts: 3, lockoutMinutes: 5, permanentAfterLockouts: 3 });
      const [log] = await logsOf('Lockout');
      expect(log!.metadata.changes).to.deep.equal({ maxFailedAttempts: { before: 5, after: 3 } });
    });

    it('keeps group domains in lower case and a fragment that may be absent', async () => {
      const res = await put('GroupDomains', 'domains:\n  - Group.Example\n  - corp.example\ndomainFragment: null');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(JSON.parse(res.body.body)).to.deep.equal({ domains: ['group.example', 'corp.example'], domainFragment: null });
    });

    it('does not expand a document whose aliases multiply (a "billion laughs")', async () => {
      const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${'bcdefghi'[i]}: &${'bcdefghi'[i]} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n');
      const res = await put('Lockout', bomb);
      expect(res.status).to.equal(400);
      expect(res.body.errors[0]).to.include({ field: 'body', code: 'securityConfig.invalid_yaml' });
    });
  });
});
