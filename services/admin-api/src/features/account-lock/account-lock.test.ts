import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { buildUsersWorld, call, insertProviderSessions, listen, logsAbout, providerSessionCount, userIn, type UsersWorld } from '../users/testing.js';

describe('GET /api/v1/account/lock/{id} and /unlock/{id}', () => {
  let w: UsersWorld;

  before(async () => {
    w = await buildUsersWorld();
  });

  const db = () => w.context.dataSource;
  const state = async (id: string) =>
    (await db().query(`SELECT locked, lockout_end, failed_attempts, lockout_count, modified_by_id FROM users WHERE id = $1`, [id]))[0];

  it('locks the account for good, ends its sessions, logs it and answers the user', async () => {
    const user = await userIn(w, w.areaA, { firstName: 'Ada', lastName: 'Lovelace' });
    const bystander = await userIn(w, w.areaA);
    await insertProviderSessions(w, user.id);
    await insertProviderSessions(w, bystander.id);
    const invalidated = listen(w, 'oidc.invalidated');
    const changed = listen(w, 'user.changed');
    const res = await call(w, 'get', `/api/v1/account/lock/${user.id}`);
    invalidated.stop();
    changed.stop();
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, user: { id: user.id, userName: user.userName, firstName: 'Ada', lastName: 'Lovelace', locked: true } });
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(await state(user.id)).to.include({ locked: true, modified_by_id: w.callers.admin.id });
    expect(await providerSessionCount(w, user.id)).to.equal(0);
    expect(await providerSessionCount(w, bystander.id)).to.equal(2);
    expect(invalidated.events).to.deep.include({ accountId: user.id });
    expect(changed.events).to.deep.include({ userId: user.id });
    expect(await logsAbout(w, user.id)).to.deep.equal([
      {
        user_id: w.callers.admin.id,
        user_name: w.callers.admin.userName,
        tenant_id: null,
        tenant_name: null,
        operation: 'LockUser',
        metadata: { targetUserId: user.id, targetUserName: user.userName, wasLocked: false, sessionsEnded: 2 },
      },
    ]);
  });

  it('unlocks: lifts the permanent lock and a running lockout, clears the counters, writes an Unlocked authentication log row', async () => {
    const user = await userIn(w, w.areaA, { locked: true, failedAttempts: 3, lockoutCount: 2, lockoutEnd: new Date(Date.now() + 300_000) });
    const res = await call(w, 'get', `/api/v1/account/unlock/${user.id}`, { as: 'areaAdmin' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, user: { id: user.id, userName: user.userName, firstName: null, lastName: null, locked: false } });
    expect(await state(user.id)).to.deep.equal({ locked: false, lockout_end: null, failed_attempts: 0, lockout_count: 0, modified_by_id: w.callers.areaAdmin.id });
    const auth = await db().query(`SELECT user_name, result, reason, authentication_provider FROM authentication_logs WHERE user_id = $1`, [user.id]);
    expect(auth).to.deep.equal([
      { user_name: user.userName, result: 'Unlocked', reason: `Unlocked by ${w.callers.areaAdmin.userName}`, authentication_provider: 'Local' },
    ]);
    const [log] = await logsAbout(w, user.id);
    expect(log).to.deep.include({ operation: 'UnlockUser', user_id: w.callers.areaAdmin.id });
    expect(log!.metadata).to.deep.equal({ targetUserId: user.id, targetUserName: user.userName, wasLocked: true });
  });

  it('shows the lock in the users list', async () => {
    const user = await userIn(w, w.areaA);
    await call(w, 'get', `/api/v1/account/lock/${user.id}`);
    const locked = await call(w, 'get', `/users?$search=${encodeURIComponent(user.userName)}&locked=true`);
    expect(locked.body.items.map((u: { id: string }) => u.id)).to.deep.equal([user.id]);
    await call(w, 'get', `/api/v1/account/unlock/${user.id}`);
    const open = await call(w, 'get', `/users?$search=${encodeURIComponent(user.userName)}&locked=false`);
    expect(open.body.items.map((u: { id: string }) => u.id)).to.deep.equal([user.id]);
  });

  it('refuses to lock the caller’s own account (400), in the caller’s language', async () => {
    const en = await call(w, 'get', `/api/v1/account/lock/${w.callers.admin.id}`);
    expect(en.status).to.equal(400);
    expect(en.body).to.include({ code: 'users.cannot_lock_self', message: 'You cannot lock your own account' });
    const fr = await call(w, 'get', `/api/v1/account/lock/${w.callers.admin.id}`, { lang: 'fr' });
    expect(fr.body.message).to.equal('Vous ne pouvez pas bloquer votre propre compte');
    expect((await state(w.callers.admin.id)).locked).to.equal(false);
  });

  it('keeps an AreaAdministrator to their areas (404) and away from administrators (403)', async () => {
    const other = await userIn(w, w.areaB);
    for (const action of ['lock', 'unlock']) {
      const res = await call(w, 'get', `/api/v1/account/${action}/${other.id}`, { as: 'areaAdmin' });
      expect(res.status, action).to.equal(404);
      expect(res.body.code).to.equal('errors.not_found');
    }
    const admin = await call(w, 'get', `/api/v1/account/lock/${w.callers.admin.id}`, { as: 'areaAdmin' });
    expect(admin.status).to.equal(403);
    expect((await state(w.callers.admin.id)).locked).to.equal(false);
    expect(await logsAbout(w, other.id)).to.deep.equal([]);
  });

  it('is refused to a TenantAdministrator and a Manager (403), and to a caller without a bearer token (401)', async () => {
    const user = await userIn(w, w.areaA);
    for (const as of ['tenantAdmin', 'manager'] as const) {
      const res = await call(w, 'get', `/api/v1/account/lock/${user.id}`, { as });
      expect(res.status, as).to.equal(403);
      expect(res.body.message).to.equal('You do not have permission to perform this action');
    }
    // A cookie is no credential here: a link on another site cannot lock anybody.
    const anonymous = await request(w.server).get(`/api/v1/account/lock/${user.id}`).set('Cookie', 'session=whatever');
    expect(anonymous.status).to.equal(401);
    expect((await state(user.id)).locked).to.equal(false);
  });

  it('answers 404 for an unknown or malformed id, and 405 to another method', async () => {
    expect((await call(w, 'get', `/api/v1/account/lock/${randomUUID()}`)).status).to.equal(404);
    for (const id of ['not-a-uuid', "1' OR '1'='1"]) {
      const res = await call(w, 'get', `/api/v1/account/unlock/${encodeURIComponent(id)}`);
      expect(res.status, id).to.equal(404);
    }
    const user = await userIn(w, w.areaA);
    expect((await call(w, 'post', `/api/v1/account/lock/${user.id}`)).status).to.equal(405);
  });
});
