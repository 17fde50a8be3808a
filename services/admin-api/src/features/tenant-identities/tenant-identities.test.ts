import { randomUUID } from 'node:crypto';
import type { Area, Group, User } from '@gatehouse/core';
import { grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import {
  GLOBAL_TENANT_ID,
  addMember,
  areaOfItsOwn,
  buildIdentitiesWorld,
  call,
  callWithRoles,
  groupIn,
  holds,
  userIn,
  type IdentitiesWorld,
} from './testing.js';

const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((item) => item.id);

describe('Permissions page API (tenantIdentities)', () => {
  let w: IdentitiesWorld;

  before(async () => {
    w = await buildIdentitiesWorld();
  });

  describe('GET /api/v1/admin/tenantIdentities', () => {
    let area: Area;
    let ann: User;
    let bob: User;
    let cleo: User;

    before(async () => {
      area = await areaOfItsOwn(w);
      ann = await userIn(w, area, { userName: `ann-${randomUUID()}@example.com`, firstName: 'Ann', lastName: 'Zed' });
      bob = await userIn(w, area, { userName: `bob-${randomUUID()}@example.com`, firstName: null, lastName: null });
      cleo = await userIn(w, area, { userName: `cleo-${randomUUID()}@example.com`, firstName: 'Cleo', lastName: 'Able' });
      await holds(w, { user: ann }, w.tenantA, ['Reader']);
      await holds(w, { user: ann }, GLOBAL_TENANT_ID, ['Writer'], false);
      await holds(w, { user: bob }, w.tenantB, ['Reader', 'Writer'], false);
      await holds(w, { user: cleo }, w.childOfA, ['Writer']);
      // Not listed: roles through a group only, and a membership without roles.
      const viaGroup = await userIn(w, area);
      const group = await groupIn(w, area);
      await addMember(w, group, viaGroup);
      await holds(w, { group }, w.tenantA, ['Reader']);
      await grant(w.context.dataSource, { tenant: w.tenantB, user: await userIn(w, area), roles: [] });
    });

    it('lists the users holding roles in their own name, each with its tenants as badges: Global first (id null), with the inheritable flag', async () => {
      const res = await call(w, 'get', `/tenantIdentities?area=${area.id}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.count).to.equal(3);
      const first = res.body.items.find((item: { id: string }) => item.id === ann.id);
      expect(first).to.deep.equal({
        id: ann.id,
        userName: ann.userName,
        email: ann.email,
        displayName: 'Ann Zed',
        areaName: area.name,
        tenants: [
          { id: null, title: 'Global', isInheritable: false },
          { id: w.tenantA.id, title: w.tenantA.title, isInheritable: true },
        ],
      });
      // Without a name, the user name is the display name.
      expect(res.body.items.find((item: { id: string }) => item.id === bob.id)).to.deep.include({
        displayName: bob.userName,
        tenants: [{ id: w.tenantB.id, title: w.tenantB.title, isInheritable: false }],
      });
    });

    it('sorts by user name ascending by default, and by e-mail, display name or area on request', async () => {
      const byUserName = await call(w, 'get', `/tenantIdentities?area=${area.id}`);
      expect(ids(byUserName)).to.deep.equal([ann.id, bob.id, cleo.id]);
      expect(ids(await call(w, 'get', `/tenantIdentities?area=${area.id}&orderBy=email%20desc`))).to.deep.equal([cleo.id, bob.id, ann.id]);
      // Display names "Ann Zed", bob's user name and "Cleo Able", in the order of the database's collation.
      const byDisplayName = await w.context.dataSource.query(`SELECT id FROM (VALUES ($1::uuid, 'Ann Zed'), ($2::uuid, $3), ($4::uuid, 'Cleo Able')) AS v(id, name) ORDER BY name DESC`, [
        ann.id,
        bob.id,
        bob.userName,
        cleo.id,
      ]);
      expect(ids(await call(w, 'get', `/tenantIdentities?area=${area.id}&orderBy=displayName%20desc`))).to.deep.equal(byDisplayName.map((r: { id: string }) => r.id));
      expect((await call(w, 'get', `/tenantIdentities?area=${area.id}&orderBy=areaName`)).body.count).to.equal(3);
    });

    it('pages in SQL, counting the whole selection on every page', async () => {
      const first = await call(w, 'get', `/tenantIdentities?area=${area.id}&top=2`);
      expect(first.body.count).to.equal(3);
      expect(ids(first)).to.deep.equal([ann.id, bob.id]);
      const last = await call(w, 'get', `/tenantIdentities?area=${area.id}&top=2&skip=2`);
      expect(last.body).to.deep.include({ count: 3 });
      expect(ids(last)).to.deep.equal([cleo.id]);
      const past = await call(w, 'get', `/tenantIdentities?area=${area.id}&top=2&skip=10`);
      expect(past.body).to.deep.equal({ items: [], count: 3 });
    });

    it('searches user name, e-mail, first and last name; pattern characters are literal', async () => {
      expect(ids(await call(w, 'get', `/tenantIdentities?area=${area.id}&$search=able`))).to.deep.equal([cleo.id]);
      expect(ids(await call(w, 'get', `/tenantIdentities?area=${area.id}&$search=ZED`))).to.deep.equal([ann.id]);
      expect(ids(await call(w, 'get', `/tenantIdentities?area=${area.id}&$search=${encodeURIComponent(bob.email.slice(0, 8))}`))).to.deep.equal([bob.id]);
      expect((await call(w, 'get', `/tenantIdentities?area=${area.id}&$search=%25`)).body.count).to.equal(0);
    });

    it('filters by tenant: the users holding roles in that tenant (the all-zero id: the Global tenant)', async () => {
      expect(ids(await call(w, 'get', `/tenantIdentities?area=${area.id}&tenant=${w.tenantB.id}`))).to.deep.equal([bob.id]);
      expect(ids(await call(w, 'get', `/tenantIdentities?area=${area.id}&tenant=${GLOBAL_TENANT_ID}`))).to.deep.equal([ann.id]);
      // Roles held in tenant A reach its child only by inheritance: the list is about own grants.
      expect(ids(await call(w, 'get', `/tenantIdentities?area=${area.id}&tenant=${w.childOfA.id}`))).to.deep.equal([cleo.id]);
      expect((await call(w, 'get', `/tenantIdentities?tenant=${randomUUID()}`)).body).to.deep.equal({ items: [], count: 0 });
    });

    it('shows an AreaAdministrator the users of their areas only', async () => {
      const mine = await userIn(w, w.areaA);
      const theirs = await userIn(w, w.areaB);
      await holds(w, { user: mine }, w.tenantA, ['Reader']);
      await holds(w, { user: theirs }, w.tenantA, ['Reader']);
      const all = await call(w, 'get', `/tenantIdentities?tenant=${w.tenantA.id}&top=1000`, { as: 'areaAdmin' });
      expect(all.status).to.equal(200);
      expect(ids(all)).to.include(mine.id).and.not.include(theirs.id);
      const other = await call(w, 'get', `/tenantIdentities?area=${w.areaB.id}`, { as: 'areaAdmin' });
      expect(other.body).to.deep.equal({ items: [], count: 0 });
      expect(ids(await call(w, 'get', `/tenantIdentities?tenant=${w.tenantA.id}&top=1000`, { as: 'manager' }))).to.include(theirs.id);
    });

    it('answers 403 to a signed-in user without an administration role, and to a User', async () => {
      for (const roles of [[], ['User']]) {
        const res = await callWithRoles(w, roles, '/tenantIdentities', ann);
        expect(res.status).to.equal(403);
        expect(res.body.message).to.equal('You do not have permission to perform this action');
      }
    });

    it('refuses an unknown sort field, a malformed filter or a page size over 1000 with a 400 naming it', async () => {
      const sort = await call(w, 'get', '/tenantIdentities?orderBy=password%20asc');
      expect(sort.status).to.equal(400);
      expect(sort.body.errors[0]).to.include({ field: 'orderBy' });
      const filter = await call(w, 'get', '/tenantIdentities?tenant=nope');
      expect(filter.status).to.equal(400);
      expect(filter.body.errors[0]).to.include({ field: 'tenant' });
      expect((await call(w, 'get', '/tenantIdentities?top=1001')).status).to.equal(400);
    });
  });

  describe('GET /api/v1/admin/tenantIdentities/groups', () => {
    let area: Area;
    let alpha: Group;
    let bravo: Group;

    before(async () => {
      area = await areaOfItsOwn(w);
      alpha = await groupIn(w, area, { name: 'Alpha', description: 'Warehouse staff' });
      bravo = await groupIn(w, area, { name: 'Bravo', description: null });
      await addMember(w, alpha, await userIn(w, area));
      await addMember(w, alpha, await userIn(w, area), 'Owner');
      await holds(w, { group: alpha }, w.tenantA, ['Reader']);
      await holds(w, { group: alpha }, GLOBAL_TENANT_ID, ['Writer'], false);
      await holds(w, { group: bravo }, w.tenantB, ['Writer']);
      // Not listed: no roles anywhere.
      await groupIn(w, area, { name: 'Charlie' });
    });

    it('lists the groups holding roles, with description, area, members count and tenant badges (Global first)', async () => {
      const res = await call(w, 'get', `/tenantIdentities/groups?area=${area.id}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({
        count: 2,
        items: [
          {
            id: alpha.id,
            name: 'Alpha',
            description: 'Warehouse staff',
            areaName: area.name,
            membersCount: 2,
            tenants: [
              { id: null, title: 'Global', isInheritable: false },
              { id: w.tenantA.id, title: w.tenantA.title, isInheritable: true },
            ],
          },
          { id: bravo.id, name: 'Bravo', description: null, areaName: area.name, membersCount: 0, tenants: [{ id: w.tenantB.id, title: w.tenantB.title, isInheritable: true }] },
        ],
      });
    });

    it('sorts, pages, searches name and description, and filters by tenant', async () => {
      expect(ids(await call(w, 'get', `/tenantIdentities/groups?area=${area.id}&orderBy=name%20desc`))).to.deep.equal([bravo.id, alpha.id]);
      const page = await call(w, 'get', `/tenantIdentities/groups?area=${area.id}&top=1&skip=1`);
      expect(page.body.count).to.equal(2);
      expect(ids(page)).to.deep.equal([bravo.id]);
      expect(ids(await call(w, 'get', `/tenantIdentities/groups?area=${area.id}&$search=warehouse`))).to.deep.equal([alpha.id]);
      expect(ids(await call(w, 'get', `/tenantIdentities/groups?area=${area.id}&tenant=${w.tenantB.id}`))).to.deep.equal([bravo.id]);
      expect(ids(await call(w, 'get', `/tenantIdentities/groups?area=${area.id}&tenant=${GLOBAL_TENANT_ID}`))).to.deep.equal([alpha.id]);
    });

    it('shows an AreaAdministrator the groups of their areas only', async () => {
      const mine = await groupIn(w, w.areaA);
      const theirs = await groupIn(w, w.areaB);
      await holds(w, { group: mine }, w.tenantA, ['Reader']);
      await holds(w, { group: theirs }, w.tenantA, ['Reader']);
      const res = await call(w, 'get', `/tenantIdentities/groups?tenant=${w.tenantA.id}&top=1000`, { as: 'areaAdmin' });
      expect(ids(res)).to.include(mine.id).and.not.include(theirs.id);
    });
  });

  describe('GET /api/v1/admin/tenantIdentities/groups/{groupId} and /users', () => {
    let group: Group;
    let owner: User;
    let reader: User;

    before(async () => {
      group = await groupIn(w, w.areaA, { name: `Details ${randomUUID().slice(0, 8)}` });
      owner = await userIn(w, w.areaB, { firstName: 'Olga', lastName: 'Owner' });
      reader = await userIn(w, w.areaA, { firstName: null, lastName: null });
      await addMember(w, group, owner, 'Owner');
      await addMember(w, group, reader);
      await holds(w, { group }, w.tenantA, ['Reader']);
    });

    it('answers one group with its tenants', async () => {
      const res = await call(w, 'get', `/tenantIdentities/groups/${group.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        id: group.id,
        name: group.name,
        description: null,
        areaName: w.areaA.name,
        membersCount: 2,
        tenants: [{ id: w.tenantA.id, title: w.tenantA.title, isInheritable: true }],
      });
    });

    it('pages the group’s users with their display name and permission, searchable', async () => {
      const res = await call(w, 'get', `/tenantIdentities/groups/${group.id}/users?orderBy=displayName%20asc`);
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(2);
      const byId = Object.fromEntries(res.body.items.map((u: { userId: string }) => [u.userId, u]));
      expect(byId[owner.id]).to.deep.equal({ userId: owner.id, userName: owner.userName, email: owner.email, displayName: 'Olga Owner', permission: 'Owner' });
      expect(byId[reader.id]).to.deep.include({ displayName: reader.userName, permission: 'Reader' });
      const page = await call(w, 'get', `/tenantIdentities/groups/${group.id}/users?top=1&skip=1&orderBy=userName`);
      expect(page.body.count).to.equal(2);
      expect(page.body.items).to.have.length(1);
      const search = await call(w, 'get', `/tenantIdentities/groups/${group.id}/users?$search=olga`);
      expect(search.body.items.map((u: { userId: string }) => u.userId)).to.deep.equal([owner.id]);
    });

    it('answers 404 for an unknown or malformed group, and for one outside an AreaAdministrator’s areas', async () => {
      for (const path of [`/tenantIdentities/groups/${randomUUID()}`, '/tenantIdentities/groups/not-a-uuid', `/tenantIdentities/groups/${randomUUID()}/users`]) {
        expect((await call(w, 'get', path)).status, path).to.equal(404);
      }
      const theirs = await groupIn(w, w.areaB);
      expect((await call(w, 'get', `/tenantIdentities/groups/${theirs.id}`, { as: 'areaAdmin' })).status).to.equal(404);
      expect((await call(w, 'get', `/tenantIdentities/groups/${theirs.id}/users`, { as: 'areaAdmin' })).status).to.equal(404);
      expect((await call(w, 'get', `/tenantIdentities/groups/${group.id}`, { as: 'areaAdmin' })).status).to.equal(200);
    });

    it('answers 403 to a signed-in user without an administration role', async () => {
      expect((await callWithRoles(w, ['User'], `/tenantIdentities/groups/${group.id}`, reader)).status).to.equal(403);
      expect((await callWithRoles(w, ['User'], `/tenantIdentities/groups`, reader)).status).to.equal(403);
    });
  });
});
