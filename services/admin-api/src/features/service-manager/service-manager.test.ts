import { randomBytes, randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, type Role, type Tenant, type User } from '@gatehouse/core';
import { buildApplication, buildGroup, buildTenant, buildUser, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { buildAdminWorld, logsWhere, type AdminWorld, type Application } from '../../testing/admin-world.js';
import { mintAccessToken } from '../../testing/tokens.js';

const tag = () => randomBytes(4).toString('hex');

describe('service manager: tenants, their users and their roles of service-manager visibility', function () {
  this.timeout(120_000);
  let w: AdminWorld;
  /** parent → managed → child → grandchild, and parent → sibling: ServiceManager is granted in `managed`. */
  let parent: Tenant;
  let managed: Tenant;
  let child: Tenant;
  let grandchild: Tenant;
  let sibling: Tenant;
  /** ServiceManager in `managed`, inheritable. */
  let manager: User;
  /** An application with roles of service-manager visibility (Editor, Viewer), one without (Auditor). */
  let app: Application;

  const db = () => w.context.dataSource;
  const person = (overrides: Partial<User> = {}) => buildUser(db(), { areaId: w.areaA.id, ...overrides });
  const tenant = (overrides: Partial<Tenant> = {}) => buildTenant(db(), { areaId: w.areaA.id, ...overrides });
  const identityRole = (name: string) => w.identity.roleByName[name]!;
  const role = (name: string) => app.roleByName[name]!;

  /** A request as `user` with `roles` in an admin console token. */
  async function as(user: User, roles: string[], method: 'get' | 'put', path: string, body?: object) {
    const token = await mintAccessToken(w.context, w.key, { sub: user.id, roles });
    const req = request(w.server)[method](`/api/v1/admin/serviceManager${path}`).set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en');
    return body === undefined ? req : req.send(body);
  }
  const sm = (user: User, method: 'get' | 'put', path: string, body?: object) => as(user, ['ServiceManager'], method, path, body);
  const admin = (method: 'get' | 'put', path: string, body?: object) => as(w.callers.admin, ['Administrator'], method, path, body);
  const god = (method: 'get' | 'put', path: string, body?: object) => as(w.callers.god, ['God'], method, path, body);

  /** A service manager holding ServiceManager in these tenants. */
  async function serviceManagerOf(tenants: Array<Tenant | string>, inheritable = true): Promise<User> {
    const user = await person();
    for (const t of tenants) await grant(db(), { tenant: t, user, roles: [identityRole('ServiceManager')], inheritable });
    return user;
  }

  /** The names of the user's roles in their own membership of the tenant. */
  async function ownRoles(tenantId: string, userId: string): Promise<string[]> {
    const rows: Array<{ name: string }> = await db().query(
      `SELECT r.name FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id JOIN roles r ON r.id = tmr.role_id
        WHERE tm.tenant_id = $1 AND tm.user_id = $2 ORDER BY r.name`,
      [tenantId, userId],
    );
    return rows.map((row) => row.name);
  }

  async function visibleRole(application: Application, name: string): Promise<Role> {
    const r = application.roleByName[name]!;
    await db().query(`UPDATE roles SET service_manager_visibility = true WHERE id = $1`, [r.id]);
    return r;
  }

  before(async () => {
    w = await buildAdminWorld();
    parent = await tenant({ title: `P-${tag()}` });
    const title = `M-${tag()}`;
    managed = await tenant({ title, parentId: parent.id });
    child = await tenant({ title: `${title}-child`, parentId: managed.id });
    grandchild = await tenant({ title: `${title}-grandchild`, parentId: child.id });
    sibling = await tenant({ title: `S-${tag()}`, parentId: parent.id });
    manager = await serviceManagerOf([managed]);
    app = await buildApplication(db(), { displayName: `CRM ${tag()}`, roles: ['Auditor', 'Editor', 'Viewer'] });
    await visibleRole(app, 'Editor');
    await visibleRole(app, 'Viewer');
  });

  describe('which tenants a service manager reaches', () => {
    it('lists the tenant where ServiceManager is held and those inheriting it, never its parent nor its siblings', async () => {
      const res = await sm(manager, 'get', '/tenants?take=100');
      expect(res.status).to.equal(200);
      expect(res.body.items.map((t: Tenant) => t.id)).to.deep.equal([managed.id, child.id, grandchild.id]);
      expect(res.body.count).to.equal(3);
      for (const outside of [parent, sibling, w.tenantA, w.tenantB]) {
        expect((await sm(manager, 'get', `/${outside.id}/users`)).status, outside.title).to.equal(404);
      }
      expect((await sm(manager, 'get', `/${grandchild.id}/users`)).status).to.equal(200);
    });

    it('keeps a non-inheritable ServiceManager grant to its own tenant', async () => {
      const own = await serviceManagerOf([managed], false);
      const res = await sm(own, 'get', '/tenants');
      expect(res.body.items.map((t: Tenant) => t.id)).to.deep.equal([managed.id]);
      expect((await sm(own, 'get', `/${child.id}/users`)).status).to.equal(404);
    });

    it('reaches the tenants of a group holding ServiceManager', async () => {
      const member = await person();
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [member] });
      await grant(db(), { tenant: sibling, group, roles: [identityRole('ServiceManager')] });
      expect((await sm(member, 'get', '/tenants')).body.items.map((t: Tenant) => t.id)).to.deep.equal([sibling.id]);
    });

    it('gives nothing for IdentityConsultant alone, and keeps the two roles apart when held in different tenants', async () => {
      const consultant = await person();
      await grant(db(), { tenant: managed, user: consultant, roles: [identityRole('IdentityConsultant')] });
      // The role check opens no endpoint to IdentityConsultant.
      expect((await as(consultant, ['IdentityConsultant'], 'get', '/tenants')).status).to.equal(403);
      // Even with ServiceManager in the token, the tenants come from the database: none.
      const res = await as(consultant, ['IdentityConsultant', 'ServiceManager'], 'get', '/tenants');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ items: [], count: 0 });
      expect((await as(consultant, ['ServiceManager'], 'get', `/${managed.id}/users`)).status).to.equal(404);

      const both = await person();
      await grant(db(), { tenant: sibling, user: both, roles: [identityRole('ServiceManager')] });
      await grant(db(), { tenant: managed, user: both, roles: [identityRole('IdentityConsultant')] });
      const roles = ['IdentityConsultant', 'ServiceManager'];
      expect((await as(both, roles, 'get', '/tenants')).body.items.map((t: Tenant) => t.id)).to.deep.equal([sibling.id]);
      expect((await as(both, roles, 'get', `/${managed.id}/users`)).status).to.equal(404);
    });

    it('reaches every tenant but the Global one with ServiceManager in the Global tenant, and so do administrators', async () => {
      const everywhere = await serviceManagerOf([GLOBAL_TENANT_ID]);
      const count = Number((await db().query(`SELECT count(*) FROM tenants WHERE id <> $1`, [GLOBAL_TENANT_ID]))[0].count);
      for (const res of [await sm(everywhere, 'get', '/tenants?take=1000'), await admin('get', '/tenants?take=1000'), await god('get', '/tenants?take=1000')]) {
        expect(res.status).to.equal(200);
        expect(res.body.count).to.equal(count);
        expect(res.body.items.map((t: Tenant) => t.id)).to.include.members([parent.id, sibling.id, w.tenantB.id]).and.not.include(GLOBAL_TENANT_ID);
      }
      expect((await admin('get', `/${GLOBAL_TENANT_ID}/users`)).status).to.equal(404);
    });

    it('orders by title, searches and pages in SQL (searchQuery/take and $search/top)', async () => {
      const prefix = `Paged-${tag()}`;
      const titles = ['C', 'A', 'B'].map((letter) => `${prefix}-${letter}`);
      for (const title of titles) await tenant({ title });
      const page = await admin('get', `/tenants?searchQuery=${prefix}&skip=1&take=1`);
      expect(page.body).to.deep.equal({ items: [{ id: page.body.items[0].id, title: `${prefix}-B` }], count: 3 });
      const odata = await admin('get', `/tenants?$search=${prefix}&top=2&orderBy=title desc`);
      expect(odata.body.items.map((t: Tenant) => t.title)).to.deep.equal([`${prefix}-C`, `${prefix}-B`]);
      expect(odata.body.count).to.equal(3);
      expect((await admin('get', `/tenants?searchQuery=${prefix}&skip=5`)).body).to.deep.equal({ items: [], count: 3 });
    });
  });

  describe("a tenant's users", () => {
    it('lists own and inherited members with their roles there, never drafts nor other tenants’ users', async () => {
      // A tree of its own, so that nobody else's grants flow into it.
      const top = await tenant({ title: `Top-${tag()}` });
      const t = await tenant({ title: `Users-${tag()}`, parentId: top.id });
      const own = await person({ firstName: 'Ann', lastName: `Own ${tag()}` });
      const inherited = await person({ firstName: 'Bob', lastName: `Inherited ${tag()}` });
      const draft = await person({ firstName: 'Cid', lastName: 'Draft', draft: true });
      const elsewhere = await person();
      const viaGroupOnly = await person();
      await grant(db(), { tenant: t, user: own, roles: [role('Editor'), role('Auditor')] });
      await grant(db(), { tenant: top, user: own, roles: [role('Editor')] });
      await grant(db(), { tenant: top, user: inherited, roles: [role('Viewer')] });
      await grant(db(), { tenant: t, user: draft, roles: [role('Editor')] });
      await grant(db(), { tenant: sibling, user: elsewhere, roles: [role('Editor')] });
      await grant(db(), { tenant: t, group: await buildGroup(db(), { areaId: w.areaA.id, members: [viaGroupOnly] }), roles: [role('Viewer')] });

      const res = await admin('get', `/${t.id}/users?take=50`);
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(2);
      const OWN = { via: 'own', groupName: null, tenantName: null };
      const FROM_TOP = { via: 'hierarchy', groupName: null, tenantName: top.title };
      const roleOf = (r: Role, hierarchyType: string, origins: object[]) => ({
        roleId: r.id,
        roleName: r.name,
        applicationId: app.id,
        applicationName: app.displayName,
        applicationDisplayName: app.displayName,
        hierarchyType,
        origins,
      });
      expect(res.body.items).to.deep.equal([
        {
          id: own.id,
          fullName: `Ann ${own.lastName}`,
          userName: own.userName,
          email: own.email,
          roles: [roleOf(role('Auditor'), 'Own', [OWN]), roleOf(role('Editor'), 'Both', [OWN, FROM_TOP])],
        },
        {
          id: inherited.id,
          fullName: `Bob ${inherited.lastName}`,
          userName: inherited.userName,
          email: inherited.email,
          roles: [roleOf(role('Viewer'), 'ByHierarchy', [FROM_TOP])],
        },
      ]);
      expect(res.body.items[0]).to.not.have.property('hasPendingOperationRequest');
    });

    it('searches, sorts and pages', async () => {
      const t = await tenant({ title: `Paging-${tag()}`, parentId: managed.id });
      const marker = tag();
      const users: User[] = [];
      for (const letter of ['a', 'b', 'c']) {
        const u = await person({ userName: `${letter}-${marker}@example.com`, email: `${letter}-${marker}@example.com`, firstName: null, lastName: null });
        await grant(db(), { tenant: t, user: u, roles: [role('Viewer')] });
        users.push(u);
      }
      const page = await sm(manager, 'get', `/${t.id}/users?searchQuery=${marker}&orderBy=email desc&skip=1&take=1`);
      expect(page.body.count).to.equal(3);
      expect(page.body.items.map((u: { id: string }) => u.id)).to.deep.equal([users[1]!.id]);
      expect(page.body.items[0].fullName).to.equal(users[1]!.userName);
      expect((await sm(manager, 'get', `/${t.id}/users?searchQuery=b-${marker}`)).body.count).to.equal(1);
      expect((await sm(manager, 'get', `/${t.id}/users?orderBy=password asc`)).status).to.equal(400);
    });
  });

  describe("a user's roles of service-manager visibility", () => {
    let t: Tenant;
    let other: Application;
    beforeEach(async () => {
      t = await tenant({ title: `Perm-${tag()}`, parentId: managed.id });
      other = await buildApplication(db(), { displayName: `ERP ${tag()}`, roles: ['Clerk'] });
      await visibleRole(other, 'Clerk');
    });
    const permissionsOf = async (userId: string, caller: User = manager) => {
      const res = await sm(caller, 'get', `/${t.id}/users/${userId}/permissions`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body;
    };
    const appView = (body: { applications: Array<{ applicationId: string; roles: unknown[] }> }, application: Application) =>
      body.applications.find((a) => a.applicationId === application.id);

    it('shows every visible role and every other role the user holds, with how they hold it and why it cannot be changed here', async () => {
      const target = await person();
      await grant(db(), { tenant: t, user: target, roles: [role('Editor'), role('Auditor')], inheritable: false });
      await grant(db(), { tenant: managed, user: target, roles: [role('Viewer')] });
      const body = await permissionsOf(target.id);
      expect(body).to.include({ userId: target.id, tenantId: t.id, isInheritable: false });
      const OWN = { via: 'own', groupName: null, tenantName: null };
      expect(appView(body, app)).to.deep.equal({
        applicationId: app.id,
        applicationName: app.displayName,
        roles: [
          // Held in their own name but outside the service manager's roles: shown, kept whatever is sent.
          { roleId: role('Auditor').id, roleName: 'Auditor', held: 'Own', editable: false, reason: 'notManaged', origins: [OWN] },
          { roleId: role('Editor').id, roleName: 'Editor', held: 'Own', editable: true, reason: null, origins: [OWN] },
          {
            roleId: role('Viewer').id,
            roleName: 'Viewer',
            held: 'ByHierarchy',
            editable: false,
            reason: 'hierarchy',
            origins: [{ via: 'hierarchy', groupName: null, tenantName: managed.title }],
          },
        ],
      });
      expect(appView(body, other)!.roles).to.deep.equal([{ roleId: other.roleByName.Clerk!.id, roleName: 'Clerk', held: null, editable: true, reason: null, origins: [] }]);
      // Identity roles appear only when flagged; God never.
      expect(appView(body, w.identity)).to.equal(undefined);
    });

    it('sets exactly the roles given, leaves the others, logs it and tells the user', async () => {
      const target = await person({ language: 'fr' });
      await grant(db(), { tenant: t, user: target, roles: [role('Editor'), role('Auditor')] });
      const heard: Array<{ userId?: string }> = [];
      const off = w.context.broadcast.on('roles.changed', (payload) => heard.push(payload));
      const res = await sm(manager, 'put', `/${t.id}/users/${target.id}/permissions`, {
        isInheritable: false,
        roles: [role('Viewer').id, other.roleByName.Clerk!.id],
      });
      off();
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(await ownRoles(t.id, target.id)).to.deep.equal(['Auditor', 'Clerk', 'Viewer']);
      expect(appView(res.body, app)!.roles).to.deep.include({
        roleId: role('Viewer').id,
        roleName: 'Viewer',
        held: 'Own',
        editable: true,
        reason: null,
        origins: [{ via: 'own', groupName: null, tenantName: null }],
      });
      expect(res.body.isInheritable).to.equal(false);
      expect(heard).to.deep.include({ userId: target.id });

      const [log, ...more] = await logsWhere(w, 'targetUserId', target.id);
      expect(more).to.have.length(0);
      expect(log).to.include({ operation: 'Permission', user_id: manager.id, tenant_id: t.id, tenant_name: t.title });
      expect(log!.metadata).to.deep.include({ action: 'set', via: 'serviceManager', identityType: 'User', targetUserId: target.id, isInheritable: false });
      expect((log!.metadata.added as Array<{ roleName: string }>).map((r) => r.roleName).sort()).to.deep.equal(['Clerk', 'Viewer']);
      expect((log!.metadata.removed as Array<{ roleName: string }>).map((r) => r.roleName)).to.deep.equal(['Editor']);

      const notes: Array<{ type: string; description: string }> = await db().query(`SELECT type, description FROM notifications WHERE user_id = $1`, [target.id]);
      expect(notes).to.have.length(1);
      expect(notes[0]!.type).to.equal('PermissionAssigned');
      expect(notes[0]!.description).to.include('Viewer').and.include('Clerk').and.include(t.title);

      // The same set again changes nothing, logs and tells nothing.
      await sm(manager, 'put', `/${t.id}/users/${target.id}/permissions`, { isInheritable: false, roles: [role('Viewer').id, other.roleByName.Clerk!.id] });
      expect(await logsWhere(w, 'targetUserId', target.id)).to.have.length(1);
      expect(await db().query(`SELECT 1 FROM notifications WHERE user_id = $1`, [target.id])).to.have.length(1);
    });

    it('removes the membership left without roles, and gives a user of an ancestor a membership of their own', async () => {
      const own = await person();
      await grant(db(), { tenant: t, user: own, roles: [role('Editor')] });
      expect((await sm(manager, 'put', `/${t.id}/users/${own.id}/permissions`, { isInheritable: true, roles: [] })).status).to.equal(200);
      expect(await db().query(`SELECT 1 FROM tenant_members WHERE tenant_id = $1 AND user_id = $2`, [t.id, own.id])).to.have.length(0);

      const fromAbove = await person();
      await grant(db(), { tenant: managed, user: fromAbove, roles: [role('Viewer')] });
      const res = await sm(manager, 'put', `/${t.id}/users/${fromAbove.id}/permissions`, { isInheritable: true, roles: [role('Editor').id] });
      expect(res.status).to.equal(200);
      expect(await ownRoles(t.id, fromAbove.id)).to.deep.equal(['Editor']);
      expect(await ownRoles(managed.id, fromAbove.id)).to.deep.equal(['Viewer']);
    });

    it('refuses a role without service-manager visibility, an Identity role unless flagged, God always, and one held by hierarchy only', async () => {
      const target = await person();
      await grant(db(), { tenant: t, user: target, roles: [role('Editor')] });
      await grant(db(), { tenant: managed, user: target, roles: [role('Viewer')] });
      const path = `/${t.id}/users/${target.id}/permissions`;
      const cases: Array<[string[], string, string]> = [
        [[role('Auditor').id], 'serviceManager.role_not_visible', 'The role Auditor cannot be changed in service manager mode'],
        [[identityRole('Administrator').id], 'serviceManager.role_not_visible', 'The role Administrator cannot be changed in service manager mode'],
        [[identityRole('God').id], 'serviceManager.role_not_visible', 'The role God cannot be changed in service manager mode'],
        [[role('Viewer').id], 'serviceManager.role_by_hierarchy', 'The role Viewer is given through the tenant hierarchy only: it cannot be changed here'],
        [[randomUUID()], 'serviceManager.role_not_found', 'A role does not exist, or its application was deleted'],
      ];
      for (const [roles, code, message] of cases) {
        const res = await sm(manager, 'put', path, { roles });
        expect(res.status, code).to.equal(400);
        expect(res.body).to.include({ code, message });
      }
      // Administrators are held to the same rules.
      expect((await admin('put', path, { roles: [role('Auditor').id] })).status).to.equal(400);
      // God stays out of reach even when flagged visible.
      await db().query(`UPDATE roles SET service_manager_visibility = true WHERE id = $1`, [identityRole('God').id]);
      try {
        expect((await god('put', path, { roles: [identityRole('God').id] })).status).to.equal(400);
        expect(appView(await permissionsOf(target.id), w.identity)).to.equal(undefined);
      } finally {
        await db().query(`UPDATE roles SET service_manager_visibility = false WHERE id = $1`, [identityRole('God').id]);
      }
      expect(await ownRoles(t.id, target.id)).to.deep.equal(['Editor']);
      // Answered in the caller's language.
      const fr = await request(w.server)
        .put(`/api/v1/admin/serviceManager${path}`)
        .set('Authorization', `Bearer ${await mintAccessToken(w.context, w.key, { sub: manager.id, roles: ['ServiceManager'] })}`)
        .set('Accept-Language', 'fr')
        .send({ roles: [role('Auditor').id] });
      expect(fr.body.message).to.equal('Le rôle Auditor ne peut pas être modifié en mode gestionnaire de service');
    });

    it('gives an Identity role flagged visible', async () => {
      const target = await person();
      await grant(db(), { tenant: t, user: target, roles: [role('Editor')] });
      await db().query(`UPDATE roles SET service_manager_visibility = true WHERE id = $1`, [identityRole('IdentityConsultant').id]);
      try {
        const res = await sm(manager, 'put', `/${t.id}/users/${target.id}/permissions`, { roles: [role('Editor').id, identityRole('IdentityConsultant').id] });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(await ownRoles(t.id, target.id)).to.deep.equal(['Editor', 'IdentityConsultant']);
      } finally {
        await db().query(`UPDATE roles SET service_manager_visibility = false WHERE id = $1`, [identityRole('IdentityConsultant').id]);
      }
    });

    it('refuses a target who outranks the caller: Administrator and God for a service manager, God for an administrator', async () => {
      const administrator = await person();
      await grant(db(), { tenant: t, user: administrator, roles: [role('Editor')] });
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: administrator, roles: [identityRole('Administrator')] });
      const godUser = await person();
      await grant(db(), { tenant: t, user: godUser, roles: [role('Editor')] });
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: godUser, roles: [identityRole('God')] });
      const body = { roles: [] };
      for (const target of [administrator, godUser]) {
        const res = await sm(manager, 'put', `/${t.id}/users/${target.id}/permissions`, body);
        expect(res.status).to.equal(403);
        expect(res.body).to.include({ code: 'serviceManager.target_outranks', message: 'You are not allowed to change the roles of this user' });
        expect(await ownRoles(t.id, target.id)).to.deep.equal(['Editor']);
      }
      expect((await admin('put', `/${t.id}/users/${godUser.id}/permissions`, body)).status).to.equal(403);
      expect((await admin('put', `/${t.id}/users/${administrator.id}/permissions`, { roles: [role('Editor').id, role('Viewer').id] })).status).to.equal(200);
      expect((await god('put', `/${t.id}/users/${godUser.id}/permissions`, { roles: [role('Viewer').id] })).status).to.equal(200);
      expect(await ownRoles(t.id, godUser.id)).to.deep.equal(['Viewer']);
    });

    it('answers 404 for a user who is not a user of the tenant (another tenant’s, a draft, a stranger)', async () => {
      const elsewhere = await person();
      await grant(db(), { tenant: sibling, user: elsewhere, roles: [role('Editor')] });
      const draft = await person({ draft: true });
      await grant(db(), { tenant: t, user: draft, roles: [role('Editor')] });
      const stranger = await person();
      for (const target of [elsewhere, draft, stranger]) {
        const read = await sm(manager, 'get', `/${t.id}/users/${target.id}/permissions`);
        expect(read.status).to.equal(404);
        expect(read.body).to.include({ code: 'serviceManager.user_not_found' });
        expect((await sm(manager, 'put', `/${t.id}/users/${target.id}/permissions`, { roles: [role('Viewer').id] })).status).to.equal(404);
      }
      expect(await ownRoles(t.id, stranger.id)).to.deep.equal([]);
    });

    describe('what the editor says cannot be changed, and the refusals', () => {
      type Shown = { roleId: string; roleName: string; held: string | null; editable: boolean; reason: string | null };
      type Caller = { user: User; roles: string[] };
      let extra: Application;
      beforeEach(async () => {
        extra = await buildApplication(db(), { displayName: `HR ${tag()}`, roles: ['Keeper', 'Spare'] });
        await visibleRole(extra, 'Keeper');
        await visibleRole(extra, 'Spare');
        await db().query(`UPDATE roles SET by_hierarchy = true WHERE id = $1`, [extra.roleByName.Keeper!.id]);
      });

      /** The roles of this test's applications as the editor shows them to `caller`. */
      async function shown(caller: Caller, userId: string): Promise<{ isInheritable: boolean; roles: Shown[] }> {
        const res = await as(caller.user, caller.roles, 'get', `/${t.id}/users/${userId}/permissions`);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const mine = [app.id, other.id, extra.id, w.identity.id];
        const roles = (res.body.applications as Array<{ applicationId: string; roles: Shown[] }>).filter((a) => mine.includes(a.applicationId)).flatMap((a) => a.roles);
        return { isInheritable: res.body.isInheritable, roles };
      }

      /**
       * Changes one role as the editor does (sends the roles held in the user's own name that may
       * change, with the role added, or without it when held so) and says whether it changed.
       */
      async function changeOne(caller: Caller, userId: string, roleId: string): Promise<boolean> {
        const view = await shown(caller, userId);
        const target = view.roles.find((r) => r.roleId === roleId)!;
        const own = (r: Shown) => r.held === 'Own' || r.held === 'Both';
        const kept = view.roles.filter((r) => own(r) && r.editable).map((r) => r.roleId);
        const roles = own(target) ? kept.filter((id) => id !== roleId) : [...kept, roleId];
        const before = await ownRoles(t.id, userId);
        const res = await as(caller.user, caller.roles, 'put', `/${t.id}/users/${userId}/permissions`, { isInheritable: view.isInheritable, roles });
        const after = await ownRoles(t.id, userId);
        expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 400, 403]);
        if (res.status !== 200) expect(after, 'a refusal changes nothing').to.deep.equal(before);
        return res.status === 200 && after.includes(target.roleName) !== before.includes(target.roleName);
      }

      /**
       * Every role the editor shows is said not to be changeable exactly when changing it is
       * refused (or, for one the screen does not manage, has no effect); each tried on a user of its own.
       */
      async function expectHonest(caller: Caller, makeTarget: () => Promise<User>): Promise<Shown[]> {
        const { roles } = await shown(caller, (await makeTarget()).id);
        for (const r of roles) {
          expect(r.editable, r.roleName).to.equal(r.reason === null);
          expect(await changeOne(caller, (await makeTarget()).id, r.roleId), `${r.roleName} (${String(r.reason)})`).to.equal(r.editable);
        }
        return roles;
      }
      const reasons = (roles: Shown[]) => Object.fromEntries(roles.map((r) => [r.roleName, r.reason]));

      it('says why each role of a user cannot be changed, exactly when changing it is refused', async () => {
        const holder = async () => {
          const target = await person();
          const group = await buildGroup(db(), { areaId: w.areaA.id, name: `Sales ${tag()}`, members: [target] });
          await grant(db(), { tenant: t, user: target, roles: [role('Editor'), role('Auditor'), extra.roleByName.Keeper!], inheritable: false });
          await grant(db(), { tenant: managed, user: target, roles: [role('Viewer')] });
          await grant(db(), { tenant: t, group, roles: [other.roleByName.Clerk!] });
          return target;
        };
        const roles = await expectHonest({ user: manager, roles: ['ServiceManager'] }, holder);
        expect(reasons(roles)).to.deep.equal({
          Auditor: 'notManaged',
          Editor: null,
          Viewer: 'hierarchy',
          Clerk: 'group',
          // Only ever given by the hierarchy, but theirs already: kept, or taken away.
          Keeper: null,
          Spare: null,
        });
        const clerk = roles.find((r) => r.roleName === 'Clerk') as Shown & { origins: Array<{ via: string; groupName: string }> };
        expect(clerk.held).to.equal('ByHierarchy');
        expect(clerk.origins.map((o) => o.via)).to.deep.equal(['group']);
        expect(clerk.origins[0]!.groupName).to.match(/^Sales /);

        // A role only ever given by the hierarchy, to someone who does not hold it.
        const newcomer = async () => {
          const target = await person();
          await grant(db(), { tenant: t, user: target, roles: [role('Editor')] });
          return target;
        };
        expect(reasons(await expectHonest({ user: manager, roles: ['ServiceManager'] }, newcomer))).to.include({ Keeper: 'hierarchyOnly', Clerk: null, Editor: null });
      });

      it('says so for every role when the caller may change none: their own, and a user who outranks them', async () => {
        const self = await expectHonest({ user: manager, roles: ['ServiceManager'] }, async () => manager);
        expect(reasons(self)).to.include({ Editor: 'yourOwn', Viewer: 'yourOwn', Clerk: 'yourOwn', Spare: 'yourOwn', Keeper: 'hierarchyOnly' });
        const refused = await sm(manager, 'put', `/${t.id}/users/${manager.id}/permissions`, { roles: [role('Editor').id] });
        expect(refused.status).to.equal(403);
        expect(refused.body.code).to.equal('access.own_roles');

        const administrator = async () => {
          const target = await person();
          await grant(db(), { tenant: t, user: target, roles: [role('Editor')] });
          await grant(db(), { tenant: GLOBAL_TENANT_ID, user: target, roles: [identityRole('Administrator')] });
          return target;
        };
        const outranked = await expectHonest({ user: manager, roles: ['ServiceManager'] }, administrator);
        expect(reasons(outranked)).to.include({ Editor: 'outranks', Viewer: 'outranks', Clerk: 'outranks', Spare: 'outranks', Administrator: 'notManaged' });
        // An administrator may: the same kind of user, the same roles, other answers.
        expect(reasons(await expectHonest({ user: w.callers.admin, roles: ['Administrator'] }, administrator))).to.include({ Editor: null, Viewer: null, Clerk: null });
      });
    });

    it("answers 404 for a tenant outside the caller's, and 403 to a caller who is no service manager", async () => {
      const target = await person();
      await grant(db(), { tenant: sibling, user: target, roles: [role('Editor')] });
      const read = await sm(manager, 'get', `/${sibling.id}/users/${target.id}/permissions`);
      expect(read.status).to.equal(404);
      expect(read.body).to.include({ code: 'serviceManager.tenant_not_found', message: 'Tenant not found' });
      expect((await sm(manager, 'put', `/${sibling.id}/users/${target.id}/permissions`, { roles: [] })).status).to.equal(404);
      expect((await sm(manager, 'get', `/${randomUUID()}/users`)).status).to.equal(404);
      expect(await ownRoles(sibling.id, target.id)).to.deep.equal(['Editor']);

      for (const roles of [['IdentityConsultant'], ['Manager', 'AreaAdministrator', 'TenantAdministrator', 'User'], []]) {
        for (const [method, path] of [
          ['get', '/tenants'],
          ['get', `/${t.id}/users`],
          ['get', `/${t.id}/users/${target.id}/permissions`],
          ['put', `/${t.id}/users/${target.id}/permissions`],
        ] as const) {
          const res = await as(manager, roles, method, path, method === 'put' ? { roles: [] } : undefined);
          expect(res.status, `${roles.join(',')} ${method} ${path}`).to.equal(403);
        }
      }
    });

    it('lets the last of two simultaneous changes stand whole', async () => {
      const target = await person();
      await grant(db(), { tenant: t, user: target, roles: [role('Editor'), role('Auditor')] });
      const second = await serviceManagerOf([managed]);
      const sets = [[role('Viewer').id], [role('Editor').id, other.roleByName.Clerk!.id]];
      for (let round = 0; round < 3; round++) {
        const [a, b] = await Promise.all([
          sm(manager, 'put', `/${t.id}/users/${target.id}/permissions`, { roles: sets[0] }),
          sm(second, 'put', `/${t.id}/users/${target.id}/permissions`, { roles: sets[1] }),
        ]);
        expect([a.status, b.status]).to.deep.equal([200, 200]);
        const held = await ownRoles(t.id, target.id);
        // One set or the other, whole, with the role of another visibility kept: never a mix.
        expect([
          ['Auditor', 'Viewer'],
          ['Auditor', 'Clerk', 'Editor'],
        ]).to.deep.include(held);
        expect(await db().query(`SELECT 1 FROM tenant_members WHERE tenant_id = $1 AND user_id = $2`, [t.id, target.id])).to.have.length(1);
      }
    });

    it("accepts the portal's own session token, with the roles the database gives", async () => {
      const target = await person();
      await grant(db(), { tenant: t, user: target, roles: [role('Editor')] });
      const id = randomBytes(32).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      await db().query(
        `INSERT INTO oidc_model_instances (model, id, payload, grant_id, expires_at) VALUES ('AccessToken', $1, $2, $3, now() + interval '1 hour')`,
        [
          id,
          { kind: 'AccessToken', jti: id, accountId: manager.id, clientId: w.context.config.oidc.portalClientId, grantId: `grant-${id}`, scope: 'openid profile', iat: now, exp: now + 3600 },
          `grant-${id}`,
        ],
      );
      const res = await request(w.server).get(`/api/v1/admin/serviceManager/${t.id}/users`).set('Authorization', `Bearer ${id}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.items.map((u: { id: string }) => u.id)).to.include(target.id);
    });
  });
});
