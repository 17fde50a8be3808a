import { GLOBAL_TENANT_ID, sha256, type User } from '@gatehouse/core';
import { grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { mintPersonalAccessToken } from '../../auth/personal-access-token.js';
import { buildAdminWorld, call, userIn, type AdminWorld } from '../../testing/admin-world.js';
import { mintAccessToken } from '../../testing/tokens.js';

describe('Identify As in the admin API: /dashboard/identyfyasEnabled and /dashboard/identifyAs/:id', () => {
  let w: AdminWorld;

  before(async () => {
    w = await buildAdminWorld();
    w.context.config.identifyAs.enabled = true;
  });

  const start = (target: string, options: Parameters<typeof call>[3] = { as: 'god' }) => call(w, 'post', `/dashboard/identifyAs/${target}`, options);

  /**
   * A bearer of `user`'s console token naming `actor` (as one issued while signed in as the user)
   * and the impersonation `id` (none: as issued before tokens named it), with `roles`.
   */
  const actingToken = async (user: User, actor: User, roles: string[], id?: string) =>
    `Bearer ${await mintAccessToken(w.context, w.key, { sub: user.id, roles, claims: { act: { sub: actor.id, name: 'Actor', ...(id ? { impersonation_id: id } : {}) } } })}`;

  /** Records that `actor` is signed in as `user` in some session, live unless told. */
  const impersonation = async (actor: User, user: User, minutes = 5) => {
    const [row] = await w.context.dataSource.query(
      `INSERT INTO impersonations (actor_id, target_id, session_uid, expires_at) VALUES ($1, $2, md5(random()::text), now() + make_interval(mins => $3)) RETURNING id`,
      [actor.id, user.id, minutes],
    );
    return row.id as string;
  };

  it('is offered to God only, and only where the deployment enables it', async () => {
    expect((await call(w, 'get', '/dashboard/identyfyasEnabled', { as: 'god' })).body).to.deep.equal({ enabled: true, maxMinutes: 30 });
    expect((await call(w, 'get', '/dashboard/identyfyasEnabled', { as: 'admin' })).body).to.deep.equal({ enabled: false, maxMinutes: 30 });
    expect((await call(w, 'get', '/dashboard/identyfyasEnabled', { as: 'tenantAdmin' })).body).to.deep.equal({ enabled: false, maxMinutes: 30 });
    w.context.config.identifyAs.enabled = false;
    try {
      expect((await call(w, 'get', '/dashboard/identyfyasEnabled', { as: 'god' })).body).to.deep.equal({ enabled: false, maxMinutes: 30 });
      const off = await start((await userIn(w, w.areaA)).id);
      expect(off.status).to.equal(404);
      expect(off.body.message).to.equal('Signing in as another user is not enabled');
    } finally {
      w.context.config.identifyAs.enabled = true;
    }
  });

  it('issues a one-time code of a minute for the God user, stored hashed, and logs the request', async () => {
    const target = await userIn(w, w.areaA, { firstName: 'Tess' });
    const res = await start(target.id);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.headers['cache-control']).to.equal('no-store');
    const url = new URL(res.body.redirectUrl);
    expect(`${url.origin}${url.pathname}`).to.equal(`${w.context.config.server.publicUrl}/api/v1/account/identifyAs/start`);
    const code = url.searchParams.get('code')!;
    const [token] = await w.context.dataSource.query(
      `SELECT user_id, context, extract(epoch FROM expires_at - created_at)::int AS ttl FROM user_tokens WHERE token_hash = $1 AND purpose = 'IdentifyAs'`,
      [sha256(code)],
    );
    expect(token).to.deep.equal({ user_id: w.callers.god.id, context: { targetId: target.id }, ttl: 60 });
    const [log] = await w.context.dataSource.query(`SELECT user_id, actor_id, metadata FROM system_logs WHERE operation = 'IdentifyAs' AND metadata->>'targetUserId' = $1`, [target.id]);
    expect(log).to.deep.equal({ user_id: w.callers.god.id, actor_id: null, metadata: { targetUserId: target.id, targetUserName: target.userName, maxMinutes: 30 } });
  });

  it('refuses oneself, a God user, a locked, pending or unknown account, with a message in the caller\'s language', async () => {
    expect((await start(w.callers.god.id)).body).to.include({ code: 'identifyAs.self', message: 'You cannot sign in as yourself' });
    const god = await userIn(w, w.areaA);
    await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, user: god, roles: [w.identity.roleByName.God!] });
    const refusedGod = await start(god.id, { as: 'god', lang: 'fr' });
    expect(refusedGod.status).to.equal(403);
    expect(refusedGod.body.message).to.equal("Vous ne pouvez pas vous connecter en tant qu'un autre utilisateur God");
    const locked = await start((await userIn(w, w.areaA, { locked: true })).id, { as: 'god', lang: 'de' });
    expect(locked.status).to.equal(409);
    expect(locked.body.message).to.equal('Die Anmeldung als dieser Benutzer ist nicht möglich: Das Konto ist gesperrt');
    const draft = await start((await userIn(w, w.areaA, { draft: true })).id);
    expect(draft.body).to.include({ code: 'identifyAs.target_draft' });
    expect((await start('00000000-0000-4000-8000-00000000abcd')).status).to.equal(404);
    expect(Number((await w.context.dataSource.query(`SELECT count(*) FROM user_tokens WHERE purpose = 'IdentifyAs' AND user_id = $1`, [w.callers.god.id]))[0].count)).to.equal(1);
  });

  it('is refused to other roles, to a personal access token and to a token whose God role was revoked since', async () => {
    const target = await userIn(w, w.areaA);
    expect((await start(target.id, { as: 'admin' })).status).to.equal(403);
    const pat = mintPersonalAccessToken();
    await w.context.dataSource.query(
      `INSERT INTO personal_access_tokens (name, user_id, application_id, token_hash, token_prefix) VALUES ('ci', $1, $2, $3, $4)`,
      [w.callers.god.id, w.identity.id, pat.hash, pat.prefix],
    );
    const byPat = await request(w.server).post(`/api/v1/admin/dashboard/identifyAs/${target.id}`).set('Authorization', `Bearer ${pat.token}`).set('Accept-Language', 'en');
    expect(byPat.status).to.equal(403);
    expect(byPat.body.code).to.equal('identifyAs.interactive_only');
    // The token still says God; the directory no longer does.
    const former = await userIn(w, w.areaA);
    const res = await start(target.id, { as: 'god', user: former });
    expect(res.status).to.equal(403);
    expect(res.body.code).to.equal('errors.forbidden');
  });

  it('refuses to start another while the caller is signed in as someone', async () => {
    const god = await userIn(w, w.areaA);
    const id = await impersonation(w.callers.god, god);
    const res = await request(w.server)
      .post(`/api/v1/admin/dashboard/identifyAs/${(await userIn(w, w.areaA)).id}`)
      .set('Authorization', await actingToken(god, w.callers.god, ['God'], id))
      .set('Accept-Language', 'en');
    expect(res.status).to.equal(409);
    expect(res.body.message).to.equal('You are already signed in on behalf of another user: end that first');
  });

  it('names the actor in the rows a request writes while signed in as the user, answers actorName, and stops the token when it ends', async () => {
    const ada = await userIn(w, w.areaA, { firstName: 'Ada' });
    const god = w.callers.god;
    await w.context.dataSource.query(`UPDATE users SET first_name = 'Grace', last_name = 'Odin' WHERE id = $1`, [god.id]);
    const id = await impersonation(god, ada);
    const bearer = await actingToken(ada, god, ['Administrator'], id);
    const created = await request(w.server).post('/api/v1/admin/groups').set('Authorization', bearer).send({ name: 'On behalf', areaId: w.areaA.id });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const [row] = await w.context.dataSource.query(`SELECT user_id, actor_id FROM system_logs WHERE operation = 'CreateGroup' AND metadata::text LIKE '%On behalf%'`);
    expect(row).to.deep.equal({ user_id: ada.id, actor_id: god.id });

    const logs = await call(w, 'get', `/logs/systemlog?operation=CreateGroup&user=${ada.id}`);
    expect(logs.body.items).to.have.length(1);
    expect(logs.body.items[0]).to.include({ actorId: god.id, actorName: 'Grace Odin' });
    // A row written by the user themself names no actor.
    const own = await call(w, 'get', `/logs/systemlog?operation=IdentifyAs`);
    expect(own.body.items.every((item: { actorId: unknown; actorName: unknown }) => item.actorId === null && item.actorName === null)).to.equal(true);

    await w.context.dataSource.query(`UPDATE impersonations SET ended_at = now(), end_reason = 'Ended' WHERE id = $1`, [id]);
    const after = await request(w.server).get('/api/v1/admin/me').set('Authorization', bearer);
    expect(after.status).to.equal(401);
    // Another actor than the one signed in as the user: refused as well.
    const again = await impersonation(god, ada);
    const other = await request(w.server).get('/api/v1/admin/me').set('Authorization', await actingToken(ada, w.callers.admin, ['Administrator'], again));
    expect(other.status).to.equal(401);
  });

  it('refuses the token of an ended impersonation while the same God user is signed in as the same user again, and a token naming no impersonation', async () => {
    const ada = await userIn(w, w.areaA);
    const god = w.callers.god;
    const first = await impersonation(god, ada);
    const old = await actingToken(ada, god, ['Administrator'], first);
    expect((await request(w.server).get('/api/v1/admin/me').set('Authorization', old)).status).to.equal(200);
    await w.context.dataSource.query(`UPDATE impersonations SET ended_at = now(), end_reason = 'Ended' WHERE id = $1`, [first]);

    const second = await impersonation(god, ada);
    expect((await request(w.server).get('/api/v1/admin/me').set('Authorization', await actingToken(ada, god, ['Administrator'], second))).status).to.equal(200);
    expect((await request(w.server).get('/api/v1/admin/me').set('Authorization', old)).status).to.equal(401);
    // Issued before tokens named their impersonation: which one it belongs to is unknown, so it is not current.
    expect((await request(w.server).get('/api/v1/admin/me').set('Authorization', await actingToken(ada, god, ['Administrator']))).status).to.equal(401);
  });
});
