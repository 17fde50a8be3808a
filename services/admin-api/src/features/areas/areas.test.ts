import { randomBytes } from 'node:crypto';
import type { AppContext, User } from '@gatehouse/core';
import { IDENTITY_APPLICATION_ID } from '@gatehouse/core';
import { buildApplication, buildArea, buildTenant, buildUser, createTestContext, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../app.js';
import { insertSigningKey, mintAccessToken, type TestSigningKey } from '../../testing/tokens.js';

describe('GET /api/v1/admin/areas', () => {
  let context: AppContext;
  let server: ReturnType<ReturnType<typeof createApp>['callback']>;
  let key: TestSigningKey;
  let caller: User;
  // A database of its own: the test counts every area.
  const names = ['Alpha', 'bravo', 'Charlie', 'Delta 50%', 'echo'].map((n) => `${n} ${randomBytes(2).toString('hex')}`);

  before(async () => {
    context = await createTestContext();
    server = createApp(context).callback();
    key = await insertSigningKey(context);
    for (const name of names) await buildArea(context.dataSource, { name });
    caller = await buildUser(context.dataSource);
  });

  const list = async (query: string, roles = ['Administrator']) =>
    request(server)
      .get(`/api/v1/admin/areas${query}`)
      .set('Authorization', `Bearer ${await mintAccessToken(context, key, { sub: caller.id, roles })}`)
      .set('Accept-Language', 'en');

  it('answers { items, count } sorted by name ascending by default, 10 to a page', async () => {
    const res = await list('');
    expect(res.status).to.equal(200);
    // The database's own collation decides the order of names.
    const all = (await context.dataSource.query('SELECT name FROM areas ORDER BY name, id')).map((r: { name: string }) => r.name);
    expect(res.body.count).to.equal(all.length);
    expect(res.body.items.map((a: { name: string }) => a.name)).to.deep.equal(all.slice(0, 10));
    expect(res.body.items[0]).to.have.keys(['id', 'name', 'default', 'system']);
  });

  it('pages with skip and top, sorts descending, and searches in SQL (pattern characters taken literally)', async () => {
    const page = await list('?orderBy=name%20desc&skip=1&top=2');
    const all = (await list('?orderBy=name%20desc&top=100')).body.items.map((a: { name: string }) => a.name);
    expect(page.body.items.map((a: { name: string }) => a.name)).to.deep.equal(all.slice(1, 3));
    expect(page.body.count).to.equal(all.length);

    const found = await list(`?$search=${encodeURIComponent('50%')}`);
    expect(found.body.items.map((a: { name: string }) => a.name)).to.deep.equal([names[3]]);
    expect(found.body.count).to.equal(1);
    const past = await list('?$search=alpha&skip=5');
    expect(past.body).to.deep.equal({ items: [], count: 1 });
  });

  it('refuses an unknown sort field or a bad page with a 400 naming it', async () => {
    const badSort = await list('?orderBy=password_hash%20asc');
    expect(badSort.status).to.equal(400);
    expect(badSort.body.errors[0]).to.include({ field: 'orderBy' });
    const badTop = await list('?top=0');
    expect(badTop.status).to.equal(400);
    expect(badTop.body.errors[0]).to.include({ field: 'top' });
  });

  it('is refused to callers without an administration role', async () => {
    expect((await list('', ['God'])).status).to.equal(200);
    expect((await list('', ['User', 'ServiceManager'])).status).to.equal(403);
    expect((await request(server).get('/api/v1/admin/areas')).status).to.equal(401);
  });

  it('shows an area administrator only the areas of the tenants where they hold the role', async () => {
    const identity = await buildApplication(context.dataSource, { id: IDENTITY_APPLICATION_ID, name: 'identity', roles: ['AreaAdministrator'] });
    const [mine] = await context.dataSource.query('SELECT id, name FROM areas WHERE name = $1', [names[2]]);
    const tenant = await buildTenant(context.dataSource, { areaId: mine.id });
    const areaAdmin = await buildUser(context.dataSource);
    await grant(context.dataSource, { tenant, user: areaAdmin, roles: [identity.roleByName.AreaAdministrator!] });
    const res = await request(server)
      .get('/api/v1/admin/areas?top=100')
      .set('Authorization', `Bearer ${await mintAccessToken(context, key, { sub: areaAdmin.id, roles: ['AreaAdministrator'] })}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ items: [{ id: mine.id, name: names[2], default: false, system: false }], count: 1 });
  });
});
