import { randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, type Group, type User } from '@gatehouse/core';
import { buildApplication, buildGroup, buildTenant, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { buildAdminWorld, call, userIn, type AdminWorld, type Application } from '../../testing/admin-world.js';

interface Row {
  id: string;
  userName: string;
  roles: Array<{ id: string; name: string; description: string | null; isGlobal: boolean; origins: unknown[] }>;
}

describe('an application’s users and permissions admin API', () => {
  let w: AdminWorld;
  let app: Application;
  /** Holds Reader globally and Writer in tenant A (area A). */
  let globalUser: User;
  /** Holds Writer through a group in tenant A (area A). */
  let groupUser: User;
  /** Holds Reader in tenant B (area B). */
  let tenantUser: User;
  /** Gives Writer in tenant A to its member Bob. */
  let group: Group;

  const OWN = { via: 'own', groupName: null, tenantName: null };
  const ids = (res: { body: { items: Row[] } }) => res.body.items.map((row) => row.id).sort();
  const users = (query = '', appId = app.id) => call(w, 'get', `/applications/${encodeURIComponent(appId)}/users${query}`);

  before(async () => {
    w = await buildAdminWorld();
    const db = w.context.dataSource;
    app = await buildApplication(db, { roles: ['Reader', 'Writer', 'Unused'] });
    const otherApp = await buildApplication(db, { roles: ['Reader'] });
    const Reader = app.roleByName.Reader!;
    const Writer = app.roleByName.Writer!;
    await db.query(`UPDATE roles SET description = 'Reads everything' WHERE id = $1`, [Reader.id]);
    globalUser = await userIn(w, w.areaA, { userName: `ann-${randomUUID().slice(0, 6)}@example.com`, firstName: 'Ann', lastName: 'Example' });
    groupUser = await userIn(w, w.areaA, { userName: `bob-${randomUUID().slice(0, 6)}@example.com`, firstName: 'Bob', lastName: 'Example' });
    tenantUser = await userIn(w, w.areaB, { userName: `cid-${randomUUID().slice(0, 6)}@example.com`, firstName: 'Cid', lastName: 'Example' });
    await grant(db, { tenant: GLOBAL_TENANT_ID, user: globalUser, roles: [Reader] });
    await grant(db, { tenant: w.tenantA, user: globalUser, roles: [Writer] });
    group = await buildGroup(db, { areaId: w.areaA.id });
    await db.query(`INSERT INTO group_members (group_id, user_id) VALUES ($1, $2)`, [group.id, groupUser.id]);
    await grant(db, { tenant: w.tenantA, group, roles: [Writer] });
    await grant(db, { tenant: w.tenantB, user: tenantUser, roles: [Reader] });
    // Holders of another application's roles, and a user without roles, are not this application's users.
    await grant(db, { tenant: await buildTenant(db, { areaId: w.areaA.id }), user: await userIn(w, w.areaA), roles: [otherApp.roleByName.Reader!] });
    await userIn(w, w.areaA);
  });

  describe('GET applications/{id}/users', () => {
    it('lists the users holding roles of the application, own or through a group, by e-mail, each with their roles flagged global or not', async () => {
      const res = await users('?top=50');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.count).to.equal(3);
      const emails = (await w.context.dataSource.query(`SELECT email FROM users WHERE id = ANY($1) ORDER BY email, id`, [[globalUser.id, groupUser.id, tenantUser.id]])).map(
        (r: { email: string }) => r.email,
      );
      expect(res.body.items.map((row: { email: string }) => row.email)).to.deep.equal(emails);
      const ann = res.body.items.find((row: Row) => row.id === globalUser.id);
      expect(ann).to.deep.equal({
        id: globalUser.id,
        userName: globalUser.userName,
        email: globalUser.email,
        firstName: 'Ann',
        lastName: 'Example',
        areaName: w.areaA.name,
        roles: [
          { id: app.roleByName.Reader!.id, name: 'Reader', description: 'Reads everything', isGlobal: true, origins: [OWN] },
          { id: app.roleByName.Writer!.id, name: 'Writer', description: null, isGlobal: false, origins: [OWN] },
        ],
      });
      const bob = res.body.items.find((row: Row) => row.id === groupUser.id);
      expect(bob.roles).to.deep.equal([{ id: app.roleByName.Writer!.id, name: 'Writer', description: null, isGlobal: false, origins: [{ via: 'group', groupName: group.name, tenantName: null }] }]);
    });

    it('says of each role held both in the user’s own name and through groups every way it is held', async () => {
      // An application of its own: the other tests count this file's holders of `app`.
      const db = w.context.dataSource;
      const billing = await buildApplication(db, { roles: ['Clerk'] });
      const both = await userIn(w, w.areaA, { userName: `dee-${randomUUID().slice(0, 6)}@example.com` });
      const [first, second] = [await buildGroup(db, { areaId: w.areaA.id, members: [both] }), await buildGroup(db, { areaId: w.areaA.id, members: [both] })];
      await grant(db, { tenant: w.tenantA, user: both, roles: [billing.roleByName.Clerk!] });
      await grant(db, { tenant: w.tenantA, group: first, roles: [billing.roleByName.Clerk!] });
      await grant(db, { tenant: w.tenantB, group: second, roles: [billing.roleByName.Clerk!] });
      const res = await users('?top=50', billing.id);
      expect(res.body.items.map((row: Row) => row.roles)).to.deep.equal([
        [
          {
            id: billing.roleByName.Clerk!.id,
            name: 'Clerk',
            description: null,
            isGlobal: false,
            origins: [OWN, ...[first.name, second.name].sort().map((groupName) => ({ via: 'group', groupName, tenantName: null }))],
          },
        ],
      ]);
    });

    it('filters on global roles: true keeps the users holding one in the Global tenant, false those holding none there', async () => {
      expect(ids(await users('?globalRoles=true'))).to.deep.equal([globalUser.id]);
      expect(ids(await users('?globalRoles=false'))).to.deep.equal([groupUser.id, tenantUser.id].sort());
      const bad = await users('?globalRoles=yes');
      expect(bad.status).to.equal(400);
      expect(bad.body.errors[0]).to.include({ field: 'globalRoles' });
    });

    it('filters on the users’ area, searches their names, sorts and pages', async () => {
      expect(ids(await users(`?areaId=${w.areaB.id}`))).to.deep.equal([tenantUser.id]);
      expect(ids(await users(`?areaId=${w.areaA.id}&globalRoles=false`))).to.deep.equal([groupUser.id]);
      expect(ids(await users('?$search=bob'))).to.deep.equal([groupUser.id]);
      const byName = await users('?orderBy=firstName%20desc&top=2');
      expect(byName.body.items.map((row: { firstName: string }) => row.firstName)).to.deep.equal(['Cid', 'Bob']);
      expect(byName.body.count).to.equal(3);
      const past = await users('?$search=bob&skip=5');
      expect(past.body).to.deep.equal({ items: [], count: 1 });
      expect((await users('?areaId=nope')).status).to.equal(400);
      expect((await users('?orderBy=password_hash')).status).to.equal(400);
    });

    it('answers 404 "Application not found" for an unknown application, and an empty list for one nobody holds', async () => {
      const res = await users('', 'no-such-app');
      expect(res.status).to.equal(404);
      expect(res.body.message).to.equal('Application not found');
      const empty = await buildApplication(w.context.dataSource, { roles: ['Lonely'] });
      expect((await users('', empty.id)).body).to.deep.equal({ items: [], count: 0 });
    });

    it('is read by administrators, God and a TenantAdministrator, refused to a Manager and an AreaAdministrator', async () => {
      for (const as of ['admin', 'god', 'tenantAdmin'] as const) expect((await call(w, 'get', `/applications/${app.id}/users`, { as })).status, as).to.equal(200);
      for (const as of ['manager', 'areaAdmin'] as const) expect((await call(w, 'get', `/applications/${app.id}/users`, { as })).status, as).to.equal(403);
    });
  });

  describe('GET applications/{id}/usersWithRoles', () => {
    it('lists the holders of any of the given roles, with every role of the application they hold', async () => {
      const reader = app.roleByName.Reader!.id;
      const writer = app.roleByName.Writer!.id;
      const readers = await call(w, 'get', `/applications/${app.id}/usersWithRoles?roleIds=${reader}`);
      expect(readers.status, JSON.stringify(readers.body)).to.equal(200);
      expect(ids(readers)).to.deep.equal([globalUser.id, tenantUser.id].sort());
      expect(readers.body.items.find((row: Row) => row.id === globalUser.id).roles.map((r: Row['roles'][number]) => r.name)).to.deep.equal(['Reader', 'Writer']);
      const both = await call(w, 'get', `/applications/${app.id}/usersWithRoles?roleIds=${reader}&roleIds=${writer}&globalRoles=false`);
      expect(ids(both)).to.deep.equal([groupUser.id, tenantUser.id].sort());
      const listed = await call(w, 'get', `/applications/${app.id}/usersWithRoles?roleIds=${writer},${app.roleByName.Unused!.id}`);
      expect(ids(listed)).to.deep.equal([globalUser.id, groupUser.id].sort());
    });

    it('wants at least one well-formed role id', async () => {
      expect((await call(w, 'get', `/applications/${app.id}/usersWithRoles`)).status).to.equal(400);
      expect((await call(w, 'get', `/applications/${app.id}/usersWithRoles?roleIds=nope`)).status).to.equal(400);
    });
  });

  describe('GET applications/{id}/permissions', () => {
    it('lists every role of the application by name with the scopes it grants', async () => {
      await w.context.dataSource.query(`INSERT INTO role_scopes (role_id, scope) VALUES ($1, 'orders.write'), ($1, 'orders.read')`, [app.roleByName.Writer!.id]);
      const res = await call(w, 'get', `/applications/${app.id}/permissions`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({
        items: [
          { roleId: app.roleByName.Reader!.id, roleName: 'Reader', scopes: [] },
          { roleId: app.roleByName.Unused!.id, roleName: 'Unused', scopes: [] },
          { roleId: app.roleByName.Writer!.id, roleName: 'Writer', scopes: ['orders.read', 'orders.write'] },
        ],
        count: 3,
      });
      expect((await call(w, 'get', '/applications/no-such-app/permissions')).status).to.equal(404);
      expect((await call(w, 'get', `/applications/${app.id}/permissions`, { as: 'manager' })).status).to.equal(403);
    });
  });
});
