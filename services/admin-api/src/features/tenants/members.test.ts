import { randomBytes, randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, resolveEffectiveRoles, type Tenant, type User } from '@gatehouse/core';
import { buildApplication, buildGroup, buildTenant, buildUser, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import type request from 'supertest';
import { buildAdminWorld, call, type AdminWorld, type Application, type Persona } from '../../testing/admin-world.js';
import { downloadJobFile, exportFile, firstSheet, jobCount, jobNotification, jobProgress, withBackgroundJobs } from '../../testing/exports.js';
import { queuedJob, whenJobStarts } from '../../testing/jobs.js';

const tag = () => `m${randomBytes(4).toString('hex')}`;

describe('tenant members: who holds roles where, giving and taking them', function () {
  this.timeout(120_000);
  let w: AdminWorld;
  /** An application with two roles, and another one. */
  let app: Application;
  let other: Application;

  before(async () => {
    w = await buildAdminWorld();
    app = await buildApplication(w.context.dataSource, { roles: ['Reader', 'Writer'] });
    other = await buildApplication(w.context.dataSource, { roles: ['Viewer'] });
  });

  const db = () => w.context.dataSource;
  const tenant = (overrides: Partial<Tenant> = {}) => buildTenant(db(), { areaId: w.areaA.id, ...overrides });
  const person = (overrides: Partial<User> = {}) => buildUser(db(), { areaId: w.areaA.id, ...overrides });
  const reader = () => app.roleByName.Reader!;
  const writer = () => app.roleByName.Writer!;
  const viewer = () => other.roleByName.Viewer!;
  const identityRole = (name: string) => w.identity.roleByName[name]!;

  const members = async (tenantId: string, query = '', as: Persona = 'admin') => call(w, 'get', `/tenants/${tenantId}/members?includeRoles=true&${query}`, { as });
  const addMember = (tenantId: string, body: object, as: Persona = 'admin', user?: User) => call(w, 'post', `/tenants/${tenantId}/members`, { as, user, body });
  const revoke = (body: object, as: Persona = 'admin') => call(w, 'post', '/tenants/members/revokeAccess', { as, body });
  /** The role names the identity holds in its own membership of the tenant (none when it has no membership). */
  const ownRoles = async (tenantId: string, column: 'user_id' | 'group_id', id: string): Promise<string[]> =>
    (
      await db().query(
        `SELECT r.name FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id JOIN roles r ON r.id = tmr.role_id
          WHERE tm.tenant_id = $1 AND tm.${column} = $2 ORDER BY r.name`,
        [tenantId, id],
      )
    ).map((row: { name: string }) => row.name);
  const membershipCount = async (tenantId: string, column: 'user_id' | 'group_id', id: string): Promise<number> =>
    (await db().query(`SELECT id FROM tenant_members WHERE tenant_id = $1 AND ${column} = $2`, [tenantId, id])).length;
  const announced = async (action: () => Promise<unknown>) => {
    const heard: Array<{ userId?: string }> = [];
    const off = w.context.broadcast.on('roles.changed', (payload) => heard.push(payload));
    try {
      await action();
    } finally {
      off();
    }
    return heard;
  };
  /** A member's role as the API shows it; `from` names the tenant it is inherited from (ByHierarchy, Both). */
  const roleView = (role: { id: string; name: string }, application: Application, hierarchyType: string, from?: { title: string }) => ({
    roleId: role.id,
    roleName: role.name,
    applicationId: application.id,
    applicationName: application.name,
    applicationDisplayName: application.displayName,
    hierarchyType,
    origins: [
      ...(hierarchyType === 'ByHierarchy' ? [] : [{ via: 'own', groupName: null, tenantName: null }]),
      ...(hierarchyType === 'Own' ? [] : [{ via: 'hierarchy', groupName: null, tenantName: from!.title }]),
    ],
  });

  describe('inheritance follows the tree', () => {
    it('gives an ancestor’s inheritable roles to a tenant moved under it, and takes them back when it moves away', async () => {
      const parent = await tenant();
      const child = await tenant();
      const u = await person({ firstName: 'Ursula', lastName: 'Upton' });
      const v = await person();
      await grant(db(), { tenant: parent, user: u, roles: [reader()], inheritable: true });
      await grant(db(), { tenant: parent, user: v, roles: [writer()], inheritable: false });
      const held = async (user: User) => (await resolveEffectiveRoles(db(), user.id, { tenantId: child.id, applicationId: app.id })).map((r) => [r.roleName, r.hierarchyType]);

      expect(await held(u)).to.deep.equal([]);
      expect((await call(w, 'put', `/tenants/${child.id}/change-parent`, { body: { newParentId: parent.id } })).status).to.equal(200);
      expect(await held(u)).to.deep.equal([['Reader', 'ByHierarchy']]);
      // A membership that is not inheritable stays in its own tenant.
      expect(await held(v)).to.deep.equal([]);

      const listed = await members(child.id);
      expect(listed.status).to.equal(200);
      expect(listed.body.items).to.deep.equal([
        {
          id: null,
          tenantId: child.id,
          tenantName: child.title,
          identityType: 'User',
          identityId: u.id,
          email: u.email,
          displayName: 'Ursula Upton',
          isInheritable: true,
          hierarchyType: 'ByHierarchy',
          roles: [roleView(reader(), app, 'ByHierarchy', parent)],
        },
      ]);

      // Her own Reader in the child too: both ways.
      const added = await addMember(child.id, { identityType: 'User', identityId: u.id, roleIds: [reader().id] });
      expect(added.status).to.equal(201);
      expect(added.body).to.include({ hierarchyType: 'Both' });
      expect(added.body.id).to.be.a('string');
      expect(added.body.roles).to.deep.equal([roleView(reader(), app, 'Both', parent)]);
      expect(await held(u)).to.deep.equal([['Reader', 'Both']]);

      expect((await call(w, 'put', `/tenants/${child.id}/change-parent`, { body: { newParentId: null } })).status).to.equal(200);
      expect(await held(u)).to.deep.equal([['Reader', 'Own']]);
      const after = await members(child.id);
      expect(after.body.items.map((m: { hierarchyType: string; roles: unknown[] }) => [m.hierarchyType, m.roles])).to.deep.equal([
        ['Own', [roleView(reader(), app, 'Own')]],
      ]);
    });

    it('keeps the holders of Global roles out of the list unless asked for them', async () => {
      const t = await tenant();
      const mine = await person();
      const everywhere = await person({ firstName: 'Gil', lastName: 'Global' });
      const globalGroup = await buildGroup(db(), { areaId: w.areaA.id });
      await grant(db(), { tenant: t, user: mine, roles: [reader()] });
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: everywhere, roles: [viewer()], inheritable: false });
      await grant(db(), { tenant: GLOBAL_TENANT_ID, group: globalGroup, roles: [viewer()] });
      const ids = async (query: string) => (await members(t.id, query)).body.items.map((m: { identityId: string }) => m.identityId).sort();
      expect(await ids('')).to.deep.equal([mine.id]);
      expect(await ids('excludeUserGlobal=true')).to.deep.equal([mine.id]);
      const all = await ids('excludeUserGlobal=false');
      expect(all).to.include.members([mine.id, everywhere.id, globalGroup.id]);
      const gil = (await members(t.id, `excludeUserGlobal=false&$search=${encodeURIComponent(everywhere.userName)}`)).body.items[0];
      expect(gil).to.deep.include({ id: null, displayName: 'Gil Global', hierarchyType: 'ByHierarchy', roles: [roleView(viewer(), other, 'ByHierarchy', { title: 'Global' })] });
    });

    it('pages, searches and sorts the members, and leaves the roles out unless asked', async () => {
      const t = await tenant();
      const names = ['Carla', 'Alba', 'Berta'];
      for (const firstName of names) await grant(db(), { tenant: t, user: await person({ firstName, lastName: 'Test' }), roles: [reader()] });
      const group = await buildGroup(db(), { areaId: w.areaA.id, name: `Zeta ${tag()}` });
      await grant(db(), { tenant: t, group, roles: [writer()] });
      const page = await call(w, 'get', `/tenants/${t.id}/members?top=2&skip=1&orderBy=displayName%20asc`);
      expect(page.body.count).to.equal(4);
      expect(page.body.items.map((m: { displayName: string; roles: unknown[] }) => [m.displayName, m.roles])).to.deep.equal([
        ['Berta Test', []],
        ['Carla Test', []],
      ]);
      const groups = await call(w, 'get', `/tenants/${t.id}/members?orderBy=identityType%20asc&top=1`);
      expect(groups.body.items[0]).to.include({ identityType: 'Group', displayName: group.name, email: null, identityId: group.id });
      const found = await call(w, 'get', `/tenants/${t.id}/members?$search=alba`);
      expect(found.body.items.map((m: { displayName: string }) => m.displayName)).to.deep.equal(['Alba Test']);
    });
  });

  describe('POST /tenants/{id}/members', () => {
    it('gives a user roles: 201 for a new membership, 200 for roles added to it; logged and announced', async () => {
      const t = await tenant();
      const u = await person();
      let first!: request.Response;
      const heard = await announced(async () => {
        first = await addMember(t.id, { identityType: 'User', identityId: u.id, displayName: 'ignored', roleIds: [reader().id], isInheritable: false });
      });
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      expect(first.body).to.include({ identityType: 'User', identityId: u.id, isInheritable: false, hierarchyType: 'Own', displayName: u.userName });
      expect(heard).to.deep.equal([{ userId: u.id }]);
      const second = await addMember(t.id, { identityType: 'User', identityId: u.id, roleIds: [writer().id, viewer().id] });
      expect(second.status).to.equal(200);
      // By application name, then role name.
      const expected = app.name < other.name ? ['Reader', 'Writer', 'Viewer'] : ['Viewer', 'Reader', 'Writer'];
      expect(second.body.roles.map((r: { roleName: string }) => r.roleName)).to.deep.equal(expected);
      expect(await ownRoles(t.id, 'user_id', u.id)).to.deep.equal(['Reader', 'Viewer', 'Writer']);
      expect(await membershipCount(t.id, 'user_id', u.id)).to.equal(1);
      const logs = await db().query(`SELECT operation, metadata FROM system_logs WHERE tenant_id = $1 ORDER BY id`, [t.id]);
      const rows = logs.map((l: { operation: string; metadata: { action: string; via: string; targetUserId: string; added: Array<{ roleName: string; applicationId: string }> } }) => [
        l.operation,
        l.metadata.action,
        l.metadata.via,
        l.metadata.targetUserId,
        l.metadata.added.map((r) => `${r.applicationId}:${r.roleName}`).sort(),
      ]);
      // One row per change of the membership, naming every role it added, of every application.
      expect(rows).to.deep.equal([
        ['Permission', 'grant', 'users', u.id, [`${app.id}:Reader`]],
        ['Permission', 'grant', 'users', u.id, [`${app.id}:Writer`, `${other.id}:Viewer`].sort()],
      ]);
    });

    it('sets an existing membership’s Inheritable flag only when told', async () => {
      const t = await tenant();
      const u = await person();
      const flag = async () => (await db().query(`SELECT is_inheritable FROM tenant_members WHERE tenant_id = $1 AND user_id = $2`, [t.id, u.id]))[0].is_inheritable;
      expect((await addMember(t.id, { identityType: 'User', identityId: u.id, roleIds: [reader().id] })).body.isInheritable).to.equal(true);
      expect((await addMember(t.id, { identityType: 'User', identityId: u.id, roleIds: [reader().id], isInheritable: false })).status).to.equal(200);
      expect(await flag()).to.equal(false);
      const kept = await addMember(t.id, { identityType: 'User', identityId: u.id, roleIds: [writer().id] });
      expect(kept.body.isInheritable).to.equal(false);
      expect(await flag()).to.equal(false);
    });

    it('gives a group roles, announcing the change to its members', async () => {
      const t = await tenant();
      const member = await person();
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [member] });
      let res!: request.Response;
      const heard = await announced(async () => {
        res = await addMember(t.id, { identityType: 'Group', identityId: group.id, roleIds: [reader().id] });
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ identityType: 'Group', identityId: group.id, displayName: group.name, email: null, isInheritable: true });
      expect(heard).to.deep.equal([{ userId: member.id }]);
      expect((await addMember(t.id, { identityType: 'Group', identityId: group.id, roleIds: [writer().id] })).status).to.equal(200);
      expect(await ownRoles(t.id, 'group_id', group.id)).to.deep.equal(['Reader', 'Writer']);
    });

    it('gives exactly one membership to two simultaneous additions: one 201, one 200', async () => {
      const t = await tenant();
      const u = await person();
      const results = await Promise.all([
        addMember(t.id, { identityType: 'User', identityId: u.id, roleIds: [reader().id] }),
        addMember(t.id, { identityType: 'User', identityId: u.id, roleIds: [writer().id] }),
      ]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 201]);
      expect(await membershipCount(t.id, 'user_id', u.id)).to.equal(1);
      expect(await ownRoles(t.id, 'user_id', u.id)).to.deep.equal(['Reader', 'Writer']);
    });

    it('grants in the Global tenant for an administrator, and refuses the option (403) to anyone else', async () => {
      const t = await tenant();
      const u = await person();
      const res = await addMember(t.id, { identityType: 'User', identityId: u.id, roleIds: [reader().id], global: true });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ tenantId: t.id, id: null, hierarchyType: 'ByHierarchy' });
      expect(await ownRoles(GLOBAL_TENANT_ID, 'user_id', u.id)).to.deep.equal(['Reader']);
      expect(await membershipCount(t.id, 'user_id', u.id)).to.equal(0);

      const v = await person();
      for (const as of ['manager', 'areaAdmin', 'tenantAdmin'] as Persona[]) {
        const refused = await addMember(t.id, { identityType: 'User', identityId: v.id, roleIds: [reader().id], global: true }, as);
        expect(refused.status, as).to.equal(403);
      }
      expect(await membershipCount(GLOBAL_TENANT_ID, 'user_id', v.id)).to.equal(0);
    });

    it('keeps the God role for God and the Users group for God', async () => {
      const t = await tenant();
      const u = await person();
      const refused = await addMember(t.id, { identityType: 'User', identityId: u.id, roleIds: [identityRole('God').id] });
      expect(refused.status).to.equal(403);
      expect(refused.body).to.include({ code: 'tenants.god_role_forbidden', message: 'Only God can give or take away the God role' });
      expect(await membershipCount(t.id, 'user_id', u.id)).to.equal(0);
      const group = await buildGroup(db(), { areaId: w.areaA.id });
      const toGroup = await addMember(t.id, { identityType: 'Group', identityId: group.id, roleIds: [identityRole('God').id] });
      expect(toGroup.status).to.equal(403);
      expect(toGroup.body.code).to.equal('tenants.god_role_forbidden');
      expect((await addMember(t.id, { identityType: 'User', identityId: u.id, roleIds: [identityRole('God').id] }, 'god')).status).to.equal(201);

      const users = await buildGroup(db(), { areaId: w.areaA.id, name: 'Users' });
      await grant(db(), { tenant: GLOBAL_TENANT_ID, group: users, roles: [identityRole('User')] });
      const locked = await addMember(t.id, { identityType: 'Group', identityId: users.id, roleIds: [reader().id] });
      expect(locked.status).to.equal(403);
      expect(locked.body).to.include({ code: 'tenants.users_group_locked' });
      expect(await membershipCount(t.id, 'group_id', users.id)).to.equal(0);
    });

    it('refuses to change the roles of someone who outranks the caller', async () => {
      const t = await tenant();
      const god = await person();
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: god, roles: [identityRole('God')] });
      const res = await addMember(t.id, { identityType: 'User', identityId: god.id, roleIds: [reader().id] });
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ code: 'tenants.target_outranks', message: 'You cannot change the access of someone who holds a higher role than yours' });
      expect(await membershipCount(t.id, 'user_id', god.id)).to.equal(0);
      expect((await addMember(t.id, { identityType: 'User', identityId: god.id, roleIds: [reader().id] }, 'god')).status).to.equal(201);
    });

    it('answers 400 naming an identity or a role that does not exist, 404 for an unknown tenant', async () => {
      const t = await tenant();
      const u = await person();
      const noIdentity = await addMember(t.id, { identityType: 'User', identityId: randomUUID(), roleIds: [reader().id] });
      expect(noIdentity.status).to.equal(400);
      expect(noIdentity.body).to.include({ code: 'tenants.identity_not_found', message: 'This user or group does not exist' });
      expect(noIdentity.body.errors[0].field).to.equal('identityId');
      // A user's id named as a group is no group.
      expect((await addMember(t.id, { identityType: 'Group', identityId: u.id, roleIds: [reader().id] })).body.code).to.equal('tenants.identity_not_found');
      const noRole = await addMember(t.id, { identityType: 'User', identityId: u.id, roleIds: [reader().id, randomUUID()] });
      expect(noRole.status).to.equal(400);
      expect(noRole.body).to.include({ code: 'tenants.role_not_found', message: 'Role not found or not available' });
      expect(noRole.body.errors[0].field).to.equal('roleIds');
      expect(await membershipCount(t.id, 'user_id', u.id)).to.equal(0);
      expect((await addMember(randomUUID(), { identityType: 'User', identityId: u.id, roleIds: [reader().id] })).status).to.equal(404);
      expect((await addMember('not-an-id', { identityType: 'User', identityId: u.id, roleIds: [reader().id] })).status).to.equal(404);
    });

    it('names what is missing in the dialog’s words', async () => {
      const t = await tenant();
      const res = await addMember(t.id, { roleIds: [] });
      expect(res.status).to.equal(400);
      expect(res.body.errors).to.deep.include.members([
        { field: 'identityType', code: 'tenants.identity_type_required', message: 'Choose the identity type' },
        { field: 'identityId', code: 'tenants.identity_required', message: 'Choose a user or a group' },
        { field: 'roleIds', code: 'tenants.roles_required', message: 'Select at least one role' },
      ]);
      const unknown = await addMember(t.id, { identityType: 'User', identityId: randomUUID(), roleIds: [reader().id], tenantId: t.id });
      expect(unknown.body.errors[0]).to.include({ field: 'tenantId', code: 'validation.unknown_field' });
    });
  });

  describe('GET /tenants/members/identity', () => {
    it('answers one identity’s roles in the tenant, own and inherited; 404 when it holds none', async () => {
      const parent = await tenant();
      const t = await tenant({ parentId: parent.id });
      const u = await person();
      await grant(db(), { tenant: parent, user: u, roles: [writer()] });
      await grant(db(), { tenant: t, user: u, roles: [reader()], inheritable: false });
      const res = await call(w, 'get', `/tenants/members/identity?identityId=${u.id}&tenantId=${t.id}`, { as: 'manager' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ identityId: u.id, tenantId: t.id, hierarchyType: 'Both', isInheritable: false });
      expect(res.body.roles).to.deep.equal([roleView(reader(), app, 'Own'), roleView(writer(), app, 'ByHierarchy', parent)]);

      const stranger = await person();
      const none = await call(w, 'get', `/tenants/members/identity?identityId=${stranger.id}&tenantId=${t.id}`);
      expect(none.status).to.equal(404);
      expect(none.body).to.include({ code: 'tenants.not_member', message: 'This identity holds no roles in this tenant' });
      // Held as a user, not as a group.
      expect((await call(w, 'get', `/tenants/members/identity?identityId=${u.id}&tenantId=${t.id}&isGroup=true`)).status).to.equal(404);
    });

    it('answers 404 to an area administrator for a tenant outside their areas', async () => {
      const t = await tenant({ areaId: w.areaB.id });
      const u = await person();
      await grant(db(), { tenant: t, user: u, roles: [reader()] });
      const res = await call(w, 'get', `/tenants/members/identity?identityId=${u.id}&tenantId=${t.id}`, { as: 'areaAdmin' });
      expect(res.status).to.equal(404);
      expect(res.body.code).to.equal('errors.not_found');
    });
  });

  describe('POST /tenants/members/revokeAccess', () => {
    it('takes away the roles of the applications named, leaving the others, and announces it', async () => {
      const t = await tenant();
      const u = await person();
      await grant(db(), { tenant: t, user: u, roles: [reader(), writer(), viewer()] });
      let res!: request.Response;
      const heard = await announced(async () => {
        res = await revoke({ tenantId: t.id, userId: u.id, applicationIds: [app.id] }, 'manager');
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.roles).to.deep.equal([roleView(viewer(), other, 'Own')]);
      expect(heard).to.deep.equal([{ userId: u.id }]);
      expect(await ownRoles(t.id, 'user_id', u.id)).to.deep.equal(['Viewer']);
      const [log] = await db().query(`SELECT operation, user_id, metadata FROM system_logs WHERE tenant_id = $1 AND metadata->>'action' = 'revoke'`, [t.id]);
      expect(log.user_id).to.equal(w.callers.manager.id);
      expect(log.metadata).to.deep.include({ via: 'users', targetUserId: u.id, fromTenantId: t.id });
      expect(log.metadata.removed.map((r: { roleName: string }) => r.roleName).sort()).to.deep.equal(['Reader', 'Writer']);
    });

    it('deletes a membership left without roles and answers the member with none', async () => {
      const t = await tenant();
      const u = await person();
      await grant(db(), { tenant: t, user: u, roles: [reader()] });
      const res = await revoke({ tenantId: t.id, userId: u.id, applicationIds: [app.id, other.id] });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ identityId: u.id, id: null });
      expect(res.body.roles).to.deep.equal([]);
      expect(await membershipCount(t.id, 'user_id', u.id)).to.equal(0);
      const again = await revoke({ tenantId: t.id, userId: u.id, applicationIds: [app.id] });
      expect(again.status).to.equal(404);
      expect(again.body.code).to.equal('tenants.not_member');
    });

    it('leaves what comes from the ancestors, unless an administrator includes the parents', async () => {
      const parent = await tenant();
      const t = await tenant({ parentId: parent.id });
      const sibling = await tenant({ parentId: parent.id });
      const u = await person();
      await grant(db(), { tenant: parent, user: u, roles: [reader(), viewer()], inheritable: true });
      await grant(db(), { tenant: t, user: u, roles: [writer()] });

      const own = await revoke({ tenantId: t.id, userId: u.id, applicationIds: [app.id] }, 'manager');
      expect(own.status).to.equal(200);
      expect(own.body.roles).to.have.deep.members([roleView(reader(), app, 'ByHierarchy', parent), roleView(viewer(), other, 'ByHierarchy', parent)]);

      const refused = await revoke({ tenantId: t.id, userId: u.id, applicationIds: [app.id], includeParent: true }, 'manager');
      expect(refused.status).to.equal(403);
      expect(refused.body).to.include({ code: 'tenants.hierarchy_admin_only', message: 'Only Admin can revoke this access' });
      expect(await ownRoles(parent.id, 'user_id', u.id)).to.deep.equal(['Reader', 'Viewer']);

      const all = await revoke({ tenantId: t.id, userId: u.id, applicationIds: [app.id], includeParent: true });
      expect(all.status).to.equal(200);
      expect(all.body.roles).to.deep.equal([roleView(viewer(), other, 'ByHierarchy', parent)]);
      expect(await ownRoles(parent.id, 'user_id', u.id)).to.deep.equal(['Viewer']);
      // Gone from the parent, so from every tenant below it.
      const inSibling = await resolveEffectiveRoles(db(), u.id, { tenantId: sibling.id });
      expect(inSibling.map((r) => r.roleName)).to.deep.equal(['Viewer']);
    });

    it('leaves a non-inheritable grant of an ancestor alone (it never reached the tenant)', async () => {
      const parent = await tenant();
      const t = await tenant({ parentId: parent.id });
      const u = await person();
      await grant(db(), { tenant: parent, user: u, roles: [writer()], inheritable: false });
      await grant(db(), { tenant: t, user: u, roles: [reader()] });
      expect((await revoke({ tenantId: t.id, userId: u.id, applicationIds: [app.id], includeParent: true })).status).to.equal(200);
      expect(await ownRoles(parent.id, 'user_id', u.id)).to.deep.equal(['Writer']);
    });

    it('takes a group’s roles away, telling its members', async () => {
      const t = await tenant();
      const member = await person();
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [member] });
      await grant(db(), { tenant: t, group, roles: [reader(), viewer()] });
      let res!: request.Response;
      const heard = await announced(async () => {
        res = await revoke({ tenantId: t.id, userId: group.id, isGroup: true, applicationIds: [other.id] });
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.roles).to.deep.equal([roleView(reader(), app, 'Own')]);
      expect(heard).to.deep.equal([{ userId: member.id }]);
      expect(await ownRoles(t.id, 'group_id', group.id)).to.deep.equal(['Reader']);
    });

    it('refuses to a Manager the Identity application’s roles and users who outrank them', async () => {
      const t = await tenant();
      const u = await person();
      await grant(db(), { tenant: t, user: u, roles: [identityRole('User')] });
      const identityRoles = await revoke({ tenantId: t.id, userId: u.id, applicationIds: [w.identity.id] }, 'manager');
      expect(identityRoles.status).to.equal(403);
      expect(identityRoles.body.code).to.equal('tenants.identity_roles_forbidden');
      expect(await ownRoles(t.id, 'user_id', u.id)).to.deep.equal(['User']);

      const boss = await person();
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: boss, roles: [identityRole('Administrator')] });
      await grant(db(), { tenant: t, user: boss, roles: [reader()] });
      const outranked = await revoke({ tenantId: t.id, userId: boss.id, applicationIds: [app.id] }, 'manager');
      expect(outranked.status).to.equal(403);
      expect(outranked.body.code).to.equal('tenants.target_outranks');
      expect(await ownRoles(t.id, 'user_id', boss.id)).to.deep.equal(['Reader']);
      expect((await revoke({ tenantId: t.id, userId: boss.id, applicationIds: [app.id] })).status).to.equal(200);
    });

    it('answers 400 naming what is missing or unknown, and 404 for an unknown tenant or identity', async () => {
      const t = await tenant();
      const missing = await revoke({ applicationIds: [] });
      expect(missing.status).to.equal(400);
      expect(missing.body.errors).to.deep.include.members([
        { field: 'tenantId', code: 'tenants.tenant_required', message: 'Tenant required' },
        { field: 'userId', code: 'tenants.identity_required', message: 'Choose a user or a group' },
        { field: 'applicationIds', code: 'tenants.applications_required', message: 'Select at least one application' },
      ]);
      const extra = await revoke({ tenantId: t.id, userId: randomUUID(), applicationIds: [app.id], roleIds: [] });
      expect(extra.body.errors[0]).to.include({ field: 'roleIds', code: 'validation.unknown_field' });
      expect((await revoke({ tenantId: randomUUID(), userId: randomUUID(), applicationIds: [app.id] })).status).to.equal(404);
      expect((await revoke({ tenantId: t.id, userId: randomUUID(), applicationIds: [app.id] })).body.code).to.equal('tenants.not_member');
      expect((await revoke({ tenantId: 'nope', userId: randomUUID(), applicationIds: [app.id] })).status).to.equal(400);
    });
  });

  describe('GET /tenants/{id}/members/export', () => {
    withBackgroundJobs(() => w);


    it('exports the members in a background job, one line per role, headers in the caller’s language', async () => {
      const parent = await tenant();
      const t = await tenant({ parentId: parent.id });
      const u = await person({ firstName: 'Ana', lastName: 'Export' });
      const group = await buildGroup(db(), { areaId: w.areaA.id, name: `Export group ${tag()}` });
      await grant(db(), { tenant: t, user: u, roles: [reader(), viewer()], inheritable: false });
      await grant(db(), { tenant: parent, group, roles: [writer()] });
      const { job, file } = await exportFile(w, `/tenants/${t.id}/members/export`);
      expect(job).to.include({ type: 'ExportMembers', userId: w.callers.admin.id });
      // Two members, written as three lines.
      expect(job.result).to.deep.include({ rows: 3 });
      expect(await jobProgress(w, job.id)).to.deep.equal({ progress: 2, total: 2 });
      expect(file.headers['content-disposition']).to.contain('Members.xlsx');
      const { name, rows } = await firstSheet(file.body as Buffer);
      expect(name).to.equal('Members');
      expect(rows[0]).to.deep.equal(['Type', 'Name', 'E-mail', 'Inheritable', 'Membership', 'Application', 'Role', 'Role held']);
      // By name: Ana's lines, then the group's.
      expect(rows.map((row) => row[0])).to.deep.equal(['Type', 'User', 'User', 'Group']);
      expect(rows.slice(1)).to.have.deep.members([
        ['User', 'Ana Export', u.email, 'No', 'Directly', app.name, 'Reader', 'Directly'],
        ['User', 'Ana Export', u.email, 'No', 'Directly', other.name, 'Viewer', 'Directly'],
        ['Group', group.name, undefined, 'Yes', 'Inherited', app.name, 'Writer', 'Inherited'],
      ]);

      const fr = await firstSheet((await exportFile(w, `/tenants/${t.id}/members/export`, { lang: 'fr' })).file.body as Buffer);
      expect(fr.name).to.equal('Membres');
      expect(fr.rows[0]!.slice(0, 2)).to.deep.equal(['Type', 'Nom']);
      // The values too: types, yes/no and the way roles are held, in the requester's language.
      const de = await firstSheet((await exportFile(w, `/tenants/${t.id}/members/export`, { lang: 'de' })).file.body as Buffer);
      expect(de.rows.slice(1)).to.deep.include(['Gruppe', group.name, undefined, 'Ja', 'Geerbt', app.name, 'Writer', 'Geerbt']);
      expect(de.rows.slice(1)).to.deep.include(['Benutzer', 'Ana Export', u.email, 'Nein', 'Direkt', app.name, 'Reader', 'Direkt']);
    });

    it('leaves out users whose roles here come from the Global tenant only, unless asked', async () => {
      const t = await tenant();
      const global = await person({ firstName: 'Gil', lastName: 'Global' });
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: global, roles: [reader()] });
      const names = async (query: string) => (await firstSheet((await exportFile(w, `/tenants/${t.id}/members/export${query}`)).file.body as Buffer)).rows.slice(1).map((row) => row[1]);
      expect(await names('')).to.not.include('Gil Global');
      expect(await names('?excludeUserGlobal=false')).to.include('Gil Global');
    });

    it('notifies the requester with the file, which nobody else may download (404)', async () => {
      const t = await tenant();
      const job = await queuedJob(w.context, await call(w, 'get', `/tenants/${t.id}/members/export`, { lang: 'es' }));
      const fileUrl = job.result!.fileUrl as string;
      const notification = await jobNotification(w, w.callers.admin.id, 'ExportMembers', (n) => n.data.fileUrl === fileUrl);
      expect(notification.data).to.deep.equal({ success: true, fileUrl });
      // In the language of the console that asked, not the profile's (French by default).
      expect(notification.description).to.equal('Su exportación de los miembros de la entidad está lista');
      expect((await downloadJobFile(w, fileUrl, 'god')).status).to.equal(404);
    });

    it('is for administrators only, refuses an unknown tenant (404) and a bad flag (400) at once, queuing nothing', async () => {
      const t = await tenant();
      const before = await jobCount(w);
      expect((await call(w, 'get', `/tenants/${t.id}/members/export`, { as: 'manager' })).status).to.equal(403);
      expect((await call(w, 'get', `/tenants/${randomUUID()}/members/export`)).status).to.equal(404);
      const flag = await call(w, 'get', `/tenants/${t.id}/members/export?excludeUserGlobal=maybe`);
      expect(flag.status).to.equal(400);
      expect(flag.body.errors[0].field).to.equal('excludeUserGlobal');
      expect(await jobCount(w)).to.equal(before);
    });

    it('fails the job when the tenant is gone by the time it runs, leaving no file', async () => {
      const t = await tenant();
      const requester = await person();
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: requester, roles: [identityRole('Administrator')] });
      const undo = await whenJobStarts(w.context, requester.id, { statement: `DELETE FROM tenants WHERE id = '${t.id}';` });
      try {
        const job = await queuedJob(w.context, await call(w, 'get', `/tenants/${t.id}/members/export`, { user: requester }));
        expect(job.status).to.equal('Failed');
        expect(job.error).to.equal('Not found');
      } finally {
        await undo();
      }
      expect(await db().query(`SELECT id FROM stored_files WHERE owner_id = $1`, [requester.id])).to.deep.equal([]);
    });
  });
});
