import type { AppContext, User } from '@gatehouse/core';
import { GLOBAL_TENANT_ID } from '@gatehouse/core';
import { buildApplication, buildArea, buildGroup, buildTenant, buildUser, createTestContext, ensureGlobalTenant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../app.js';
import { insertSigningKey, mintAccessToken, type TestSigningKey } from '../../testing/tokens.js';

describe('GET /api/v1/admin/dashboard/base and GET /api/v1/admin/me', () => {
  let context: AppContext;
  let server: ReturnType<ReturnType<typeof createApp>['callback']>;
  let key: TestSigningKey;
  let caller: User;

  before(async () => {
    // A database of its own: the tiles count everything in it.
    context = await createTestContext();
    server = createApp(context).callback();
    key = await insertSigningKey(context);
    await ensureGlobalTenant(context.dataSource);
    const area = await buildArea(context.dataSource);
    caller = await buildUser(context.dataSource, { areaId: area.id, firstName: 'Ada', lastName: 'Lovelace' });
    await buildUser(context.dataSource, { areaId: area.id });
    await buildGroup(context.dataSource, { areaId: area.id });
    await buildApplication(context.dataSource);
    await buildTenant(context.dataSource, { areaId: area.id });
    await buildTenant(context.dataSource, { areaId: area.id });
  });

  const get = async (path: string, roles: string[]) =>
    request(server)
      .get(path)
      .set('Authorization', `Bearer ${await mintAccessToken(context, key, { sub: caller.id, roles })}`)
      .set('Accept-Language', 'en');

  it('counts users, groups, applications, areas and tenants (the Global tenant is not one)', async () => {
    const expected = await context.dataSource.query(
      `SELECT (SELECT count(*)::int FROM users) AS u, (SELECT count(*)::int FROM groups) AS g, (SELECT count(*)::int FROM applications) AS a,
              (SELECT count(*)::int FROM areas) AS ar, (SELECT count(*)::int FROM tenants WHERE id <> $1) AS t`,
      [GLOBAL_TENANT_ID],
    );
    const res = await get('/api/v1/admin/dashboard/base', ['Administrator']);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ usersCount: 2, groupsCount: 1, appsCount: 1, areasCount: expected[0].ar, tenantsCount: 2 });
    expect(expected[0]).to.deep.include({ u: 2, g: 1, a: 1, t: 2 });
  });

  it('is refused to callers who may not enter the console', async () => {
    const res = await get('/api/v1/admin/dashboard/base', ['User', 'AreaAdministrator']);
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal('You do not have permission to perform this action');
  });

  it('tells the console who is calling and with which roles, whatever they are', async () => {
    const res = await get('/api/v1/admin/me', ['User', 'Administrator', 'User']);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      id: caller.id,
      userName: caller.userName,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: caller.email,
      language: caller.language,
      roles: ['Administrator', 'User'],
    });
    expect((await get('/api/v1/admin/me', [])).body.roles).to.deep.equal([]);
  });
});
