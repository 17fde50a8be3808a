import { randomBytes } from 'node:crypto';
import { GLOBAL_TENANT_ID, sha256, type User } from '@gatehouse/core';
import { buildApplication, buildGroup, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { buildAdminWorld, call, logsWhere, userIn, type AdminWorld, type Application, type Persona } from '../../testing/admin-world.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

describe('/api/v1/keys: personal access tokens', () => {
  let w: AdminWorld;
  let crm: Application;

  before(async () => {
    w = await buildAdminWorld();
    crm = await buildApplication(w.context.dataSource, { name: `crm-${randomBytes(3).toString('hex')}`, displayName: 'CRM', roles: ['Reader'] });
  });

  /** A new user holding Administrator in the Global tenant (and the CRM's Reader when asked). */
  async function administrator(options: { crm?: boolean } = {}): Promise<User> {
    const user = await userIn(w, w.areaA);
    await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, user, roles: [w.identity.roleByName.Administrator!] });
    if (options.crm) await grant(w.context.dataSource, { tenant: w.tenantA, user, roles: [crm.roleByName.Reader!] });
    return user;
  }

  const create = (user: User, body: object, as: Persona = 'admin') => call(w, 'post', '/api/v1/keys', { as, user, body });
  const withToken = (path: string, token: string) => request(w.server).get(path).set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en');

  /** A token of `user` for the Identity application, created through the API; answers the created body. */
  async function identityToken(user: User, name = `ci-${randomBytes(3).toString('hex')}`) {
    const res = await create(user, { name, applicationName: w.identity.name });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { id: string; token: string; hint: string; name: string };
  }

  describe('POST /api/v1/keys', () => {
    it('answers the token once, whose value opens the admin API with the owner’s roles', async () => {
      const user = await administrator();
      const res = await create(user, { name: 'Deploy', applicationName: w.identity.name, expiresAt: inDays(30) });

      expect(res.status).to.equal(201);
      expect(res.body.token).to.match(/^gpat_[A-Za-z0-9_-]{43}$/);
      expect(res.body).to.include({ name: 'Deploy', applicationId: w.identity.id, applicationName: w.identity.name, createdById: user.id, createByName: user.userName });
      expect(res.body.hint).to.equal(`gpat_…${res.body.token.slice(-4)}`);
      expect(res.body.lastDateOfUse).to.equal(null);

      const me = await withToken('/api/v1/admin/me', res.body.token);
      expect(me.status).to.equal(200);
      expect(me.body).to.include({ id: user.id });
      expect(me.body.roles).to.deep.equal(['Administrator']);
      expect((await withToken('/api/v1/admin/dashboard/base', res.body.token)).status).to.equal(200);
    });

    it('stores only the SHA-256 of the value and its last four characters', async () => {
      const { id, token } = await identityToken(await administrator());
      const [row] = await w.context.dataSource.query('SELECT * FROM personal_access_tokens WHERE id = $1', [id]);
      expect(row.token_hash).to.equal(sha256(token));
      expect(row.token_last_chars).to.equal(token.slice(-4));
      expect(JSON.stringify(row)).to.not.include(token.slice(5, 20));
    });

    it('makes the token expire five years ahead when no expiry is given', async () => {
      const { id } = await identityToken(await administrator());
      const [row] = await w.context.dataSource.query('SELECT expires_at FROM personal_access_tokens WHERE id = $1', [id]);
      const fiveYears = new Date();
      fiveYears.setUTCFullYear(fiveYears.getUTCFullYear() + 5);
      expect(Math.abs(new Date(row.expires_at).getTime() - fiveYears.getTime())).to.be.below(60_000);
    });

    it('refuses an expiry in the past or more than five years ahead, and stores nothing', async () => {
      const user = await administrator();
      const past = await create(user, { name: 'Old', applicationName: w.identity.name, expiresAt: inDays(-1) });
      expect(past.status).to.equal(400);
      expect(past.body.errors).to.deep.equal([
        { field: 'expiresAt', code: 'pats.expiry_in_past', message: "The expiration date must be greater than today's date" },
      ]);
      const far = await create(user, { name: 'Far', applicationName: w.identity.name, expiresAt: inDays(6 * 365) });
      expect(far.status).to.equal(400);
      expect(far.body.errors[0]).to.include({ field: 'expiresAt', message: 'The expiration date must be at most 5 years from today' });
      const [{ count }] = await w.context.dataSource.query('SELECT count(*)::int AS count FROM personal_access_tokens WHERE user_id = $1', [user.id]);
      expect(count).to.equal(0);
    });

    it("answers the spec's messages for a missing name or application", async () => {
      const res = await create(await administrator(), { name: ' ' });
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { field: string; message: string }) => [e.field, e.message])).to.deep.equal([
        ['name', "Please input your PAT's name!"],
        ['applicationName', "Please select your PAT's Application!"],
      ]);
    });

    it('refuses an application in which the caller holds no role, or that does not exist', async () => {
      const user = await administrator();
      for (const applicationName of [crm.name, 'no-such-application']) {
        const res = await create(user, { name: 'CRM', applicationName });
        expect(res.status).to.equal(403);
        expect(res.body.message).to.equal('You do not have permission to get a personal access token for this application');
        expect(res.body.errors[0]).to.include({ field: 'applicationName' });
      }
    });

    it('refuses a personal access token as the credential to create another one', async () => {
      const { token } = await identityToken(await administrator());
      const res = await request(w.server)
        .post('/api/v1/keys')
        .set('Authorization', `Bearer ${token}`)
        .set('Accept-Language', 'en')
        .send({ name: 'Second', applicationName: w.identity.name });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('pats.token_cannot_create');
    });

    it('writes the creation to the system log, without the value', async () => {
      const user = await administrator();
      const { id, token } = await identityToken(user, 'Logged');
      const [log] = await logsWhere(w, 'tokenId', id);
      expect(log).to.deep.include({ operation: 'CreatePersonalAccessToken', user_id: user.id, user_name: user.userName });
      expect(log!.metadata).to.include({ name: 'Logged', applicationId: w.identity.id });
      expect(JSON.stringify(log)).to.not.include(token);
    });
  });

  describe('using a token', () => {
    it("refuses another application's token on the admin API with 403 insufficient_scope", async () => {
      const user = await administrator({ crm: true });
      const res = await create(user, { name: 'CRM export', applicationName: crm.name });
      expect(res.status).to.equal(201);
      const me = await withToken('/api/v1/admin/me', res.body.token);
      expect(me.status).to.equal(403);
      expect(me.headers['www-authenticate']).to.equal('Bearer error="insufficient_scope"');
    });

    it('refuses an expired token with 401', async () => {
      const { id, token } = await identityToken(await administrator());
      await w.context.dataSource.query(`UPDATE personal_access_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
      const res = await withToken('/api/v1/admin/me', token);
      expect(res.status).to.equal(401);
      expect(res.headers['www-authenticate']).to.equal('Bearer error="invalid_token"');
    });

    it('stops at once when its owner is locked', async () => {
      const user = await administrator();
      const { token } = await identityToken(user);
      expect((await withToken('/api/v1/admin/me', token)).status).to.equal(200);
      await w.context.dataSource.query('UPDATE users SET locked = true WHERE id = $1', [user.id]);
      expect((await withToken('/api/v1/admin/me', token)).status).to.equal(401);
    });

    it('loses an administration call at once when its owner loses the role', async () => {
      const user = await administrator();
      const { token } = await identityToken(user);
      expect((await withToken('/api/v1/admin/dashboard/base', token)).status).to.equal(200);
      await w.context.dataSource.query('DELETE FROM tenant_members WHERE user_id = $1', [user.id]);
      const res = await withToken('/api/v1/admin/dashboard/base', token);
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('You do not have permission to perform this action');
    });

    it('records the last use, writing it at most once a minute', async () => {
      const { id, token } = await identityToken(await administrator());
      await withToken('/api/v1/admin/me', token);
      const [first] = await w.context.dataSource.query('SELECT last_used_at FROM personal_access_tokens WHERE id = $1', [id]);
      expect(first.last_used_at).to.be.an.instanceOf(Date);
      await withToken('/api/v1/admin/me', token);
      const [second] = await w.context.dataSource.query('SELECT last_used_at FROM personal_access_tokens WHERE id = $1', [id]);
      expect(second.last_used_at.getTime()).to.equal(first.last_used_at.getTime());
    });

    it('authenticates /api/v1/keys itself: no token, no answer', async () => {
      const res = await request(w.server).get('/api/v1/keys');
      expect(res.status).to.equal(401);
      expect(res.headers['www-authenticate']).to.equal('Bearer');
    });
  });

  describe('GET /api/v1/keys', () => {
    it("lists the caller's own tokens by name, with their last use, never their values", async () => {
      const user = await administrator();
      const beta = await identityToken(user, 'beta');
      const alpha = await identityToken(user, 'Alpha');
      await identityToken(await administrator(), 'Alpha of someone else');
      await withToken('/api/v1/admin/me', beta.token);

      const res = await call(w, 'get', '/api/v1/keys', { user });
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(2);
      expect(res.body.items.map((item: { name: string }) => item.name)).to.deep.equal(['Alpha', 'beta']);
      expect(res.body.items[0]).to.not.have.property('token');
      expect(res.body.items[0].hint).to.equal(alpha.hint);
      expect(res.body.items[1].lastDateOfUse).to.be.a('string');
      expect(JSON.stringify(res.body)).to.not.include(alpha.token).and.to.not.include(beta.token);
    });

    it('searches the name and the application', async () => {
      const user = await administrator({ crm: true });
      await identityToken(user, 'Nightly build');
      const res = await create(user, { name: 'Export', applicationName: crm.name });
      expect(res.status).to.equal(201);
      const found = await call(w, 'get', '/api/v1/keys?$search=crm', { user });
      expect(found.body.items.map((item: { name: string }) => item.name)).to.deep.equal(['Export']);
    });
  });

  describe('GET /api/v1/keys/applications', () => {
    it('offers the applications in which the caller holds a role, directly or through a group', async () => {
      const user = await administrator();
      const viaGroup = await buildApplication(w.context.dataSource, { displayName: 'Billing', roles: ['Viewer'] });
      const group = await buildGroup(w.context.dataSource, { areaId: w.areaA.id, members: [user] });
      await grant(w.context.dataSource, { tenant: w.tenantA, group, roles: [viaGroup.roleByName.Viewer!] });

      const res = await call(w, 'get', '/api/v1/keys/applications', { user });
      expect(res.status).to.equal(200);
      expect(res.body.items.map((app: { id: string }) => app.id).sort()).to.deep.equal([w.identity.id, viaGroup.id].sort());
      expect(res.body.items.find((app: { id: string }) => app.id === viaGroup.id)).to.deep.equal({ id: viaGroup.id, name: viaGroup.name, displayName: 'Billing' });
    });
  });

  describe('DELETE /api/v1/keys/:id', () => {
    it('deletes one of the caller’s tokens, which stops working at once, and logs it', async () => {
      const user = await administrator();
      const { id, token } = await identityToken(user);
      const res = await call(w, 'delete', `/api/v1/keys/${id}`, { user });
      expect(res.status).to.equal(204);
      expect((await withToken('/api/v1/admin/me', token)).status).to.equal(401);
      const logs = await logsWhere(w, 'tokenId', id);
      expect(logs.map((log) => log.operation)).to.deep.equal(['CreatePersonalAccessToken', 'DeletePersonalAccessToken']);
      expect(logs[1]!.metadata).to.include({ targetUserId: user.id });
    });

    it("answers 404 for another administrator's token and leaves it working", async () => {
      const owner = await administrator();
      const { id, token } = await identityToken(owner);
      const res = await call(w, 'delete', `/api/v1/keys/${id}`, { user: await administrator() });
      expect(res.status).to.equal(404);
      expect((await withToken('/api/v1/admin/me', token)).status).to.equal(200);
    });

    it("lets God delete anyone's token", async () => {
      const { id } = await identityToken(await administrator());
      expect((await call(w, 'delete', `/api/v1/keys/${id}`, { as: 'god' })).status).to.equal(204);
      expect(await w.context.dataSource.query('SELECT id FROM personal_access_tokens WHERE id = $1', [id])).to.deep.equal([]);
    });
  });

  describe('GET /api/v1/keys/allpats', () => {
    it("gives God every user's tokens, filtered by owner or searched by owner name", async () => {
      const ann = await administrator();
      const bob = await administrator();
      await identityToken(ann, 'ann-1');
      await identityToken(ann, 'ann-2');
      await identityToken(bob, 'bob-1');

      const byOwner = await call(w, 'get', `/api/v1/keys/allpats?owner=${ann.id}`, { as: 'god' });
      expect(byOwner.status).to.equal(200);
      expect(byOwner.body.count).to.equal(2);
      expect(byOwner.body.items.map((item: { name: string; createByName: string }) => [item.name, item.createByName])).to.deep.equal([
        ['ann-1', ann.userName],
        ['ann-2', ann.userName],
      ]);
      const searched = await call(w, 'get', `/api/v1/keys/allpats?$search=${encodeURIComponent(bob.userName)}`, { as: 'god' });
      expect(searched.body.items.map((item: { name: string }) => item.name)).to.deep.equal(['bob-1']);
      const all = await call(w, 'get', '/api/v1/keys/allpats?top=1000', { as: 'god' });
      expect(all.body.items.map((item: { name: string }) => item.name)).to.include.members(['ann-1', 'ann-2', 'bob-1']);
    });

    it('is refused to an Administrator', async () => {
      const res = await call(w, 'get', '/api/v1/keys/allpats', { as: 'admin' });
      expect(res.status).to.equal(403);
    });
  });
});
