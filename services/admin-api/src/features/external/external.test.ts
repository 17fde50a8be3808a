import { randomBytes, randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, type Tenant, type User } from '@gatehouse/core';
import { buildApplication, buildGroup, buildTenant, grant } from '@gatehouse/core/testing';
import { externalRoutes, type RouteContract } from '@gatehouse/contracts';
import { expect } from 'chai';
import { insertProviderSessions, logsAbout, providerSessionCount } from '../users/testing.js';
import { userIn, type Application } from '../../testing/admin-world.js';
import { buildExternalWorld, external, personalAccessToken, type ExternalWorld } from './testing.js';

describe('External API: the API document', () => {
  for (const [entry, route] of Object.entries(externalRoutes) as Array<[string, RouteContract]>) {
    it(`gives ${entry} examples its own schemas accept`, () => {
      const examples = route.examples!;
      expect(examples.response, 'a response example').to.not.equal(undefined);
      expect(() => route.response!.parse(examples.response), 'response').not.to.throw();
      if (route.params) expect(() => route.params!.parse(examples.params), 'params').not.to.throw();
      if (examples.query) expect(() => route.query!.parse(examples.query), 'query').not.to.throw();
      if (route.body) expect(() => route.body!.parse(examples.body), 'body').not.to.throw();
      if (examples.headers) expect(() => route.headers!.parse(examples.headers), 'headers').not.to.throw();
    });
  }
});

describe('External API: the operations', () => {
  let w: ExternalWorld;

  before(async () => {
    w = await buildExternalWorld();
  });

  const db = () => w.context.dataSource;
  const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
  /** A business application of its own, with the given roles. */
  const application = (roles: string[]) => buildApplication(db(), { id: unique('app'), name: unique('app'), displayName: 'App', roles });
  /** The names of the roles a user holds in their own name in a tenant. */
  const ownRoles = async (user: User, tenant: Tenant | string) =>
    (
      await db().query(
        `SELECT r.name FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id JOIN roles r ON r.id = tmr.role_id
          WHERE tm.user_id = $1 AND tm.tenant_id = $2 ORDER BY r.name`,
        [user.id, typeof tenant === 'string' ? tenant : tenant.id],
      )
    ).map((row: { name: string }) => row.name);

  describe('GET /api/v1/external/users/{userId}/roles (GetRoles)', () => {
    it("answers the user's roles of the calling application per tenant: own, through a group, inherited; never another application's", async () => {
      const user = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Sales!, w.erp.roleByName.Clerk!] });
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [user] });
      await grant(db(), { tenant: w.childA, group, roles: [w.crm.roleByName.Reader!] });
      const res = await external(w, w.crm, 'get', `/users/${user.id}/roles`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({
        userId: user.id,
        userName: user.userName,
        email: user.email,
        tenants: [
          {
            tenantId: w.childA.id,
            tenantName: w.childA.title,
            roles: [
              { roleId: w.crm.roleByName.Reader!.id, roleName: 'Reader', hierarchyType: 'ByHierarchy' },
              { roleId: w.crm.roleByName.Sales!.id, roleName: 'Sales', hierarchyType: 'ByHierarchy' },
            ],
          },
          { tenantId: w.tenantA.id, tenantName: w.tenantA.title, roles: [{ roleId: w.crm.roleByName.Sales!.id, roleName: 'Sales', hierarchyType: 'Own' }] },
        ].sort((a, b) => a.tenantName.localeCompare(b.tenantName)),
      });
      // erp sees its own role only, where the user is a member: granted in tenant A, inherited in its child.
      const erp = await external(w, w.erp, 'get', `/users/${user.id}/roles`);
      const clerk = (hierarchyType: string) => [{ roleId: w.erp.roleByName.Clerk!.id, roleName: 'Clerk', hierarchyType }];
      expect(erp.body.tenants).to.have.deep.members([
        { tenantId: w.tenantA.id, tenantName: w.tenantA.title, roles: clerk('Own') },
        { tenantId: w.childA.id, tenantName: w.childA.title, roles: clerk('ByHierarchy') },
      ]);
    });

    it('with tenantId, answers the roles that apply in that tenant, inherited ones included', async () => {
      const user = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Sales!] });
      const res = await external(w, w.crm, 'get', `/users/${user.id}/roles?tenantId=${w.childA.id}`);
      expect(res.status).to.equal(200);
      expect(res.body.tenants).to.deep.equal([
        { tenantId: w.childA.id, tenantName: w.childA.title, roles: [{ roleId: w.crm.roleByName.Sales!.id, roleName: 'Sales', hierarchyType: 'ByHierarchy' }] },
      ]);
    });

    it('does not find a user holding none of its roles (404), nor an unknown or malformed id, nor a tenant it does not see', async () => {
      const erpOnly = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: erpOnly, roles: [w.erp.roleByName.Clerk!] });
      for (const id of [erpOnly.id, randomUUID(), 'not-a-uuid']) {
        const res = await external(w, w.crm, 'get', `/users/${id}/roles`);
        expect(res.status, id).to.equal(404);
      }
      expect((await external(w, w.crm, 'get', `/users/${erpOnly.id}/roles`)).body).to.include({ code: 'external.user_not_found', message: 'This user holds no role of the application' });
      const hidden = await external(w, w.crm, 'get', `/users/${w.ann.id}/roles?tenantId=${w.tenantB.id}`);
      expect(hidden.status).to.equal(404);
      expect(hidden.body.code).to.equal('external.tenant_not_found');
    });
  });

  describe('DELETE /api/v1/external/users/{userId}/tenants/{tenantId}/roles (RemoveRolesInTenant)', () => {
    it("removes the application's own roles of the user in the tenant, keeps another application's, logs the change", async () => {
      const user = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Sales!, w.crm.roleByName.Reader!, w.erp.roleByName.Clerk!] });
      const res = await external(w, w.crm, 'delete', `/users/${user.id}/tenants/${w.tenantA.id}/roles`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({
        userId: user.id,
        tenantId: w.tenantA.id,
        removed: [
          { roleId: w.crm.roleByName.Reader!.id, roleName: 'Reader' },
          { roleId: w.crm.roleByName.Sales!.id, roleName: 'Sales' },
        ],
        remaining: [],
      });
      expect(await ownRoles(user, w.tenantA)).to.deep.equal(['Clerk']);
      const [log] = await logsAbout(w, user.id);
      expect(log).to.deep.include({ operation: 'Permission', user_id: null, user_name: w.crm.name, tenant_id: w.tenantA.id });
      expect(log!.metadata).to.deep.include({ action: 'revoke', via: 'externalApi', application: w.crm.name, applicationId: w.crm.id, applicationName: w.crm.name });
    });

    it('removes only the roles named (ids or names), answers what stays through a group, and drops an emptied membership', async () => {
      const user = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.childA, user, roles: [w.crm.roleByName.Sales!, w.crm.roleByName.Reader!] });
      const group = await buildGroup(db(), { areaId: w.areaA.id, members: [user] });
      await grant(db(), { tenant: w.childA, group, roles: [w.crm.roleByName.Reader!] });
      const first = await external(w, w.crm, 'delete', `/users/${user.id}/tenants/${w.childA.id}/roles?roles=${w.crm.roleByName.Reader!.id}`);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body.removed).to.deep.equal([{ roleId: w.crm.roleByName.Reader!.id, roleName: 'Reader' }]);
      expect(first.body.remaining.map((r: { roleName: string }) => r.roleName)).to.deep.equal(['Reader', 'Sales']);
      expect(await ownRoles(user, w.childA)).to.deep.equal(['Sales']);
      const second = await external(w, w.crm, 'delete', `/users/${user.id}/tenants/${w.childA.id}/roles?roles=Sales`);
      expect(second.body.removed.map((r: { roleName: string }) => r.roleName)).to.deep.equal(['Sales']);
      expect(await db().query('SELECT 1 FROM tenant_members WHERE user_id = $1', [user.id])).to.deep.equal([]);
    });

    it("refuses another application's roles, by name or by id (400), and changes nothing", async () => {
      const user = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Sales!, w.erp.roleByName.Clerk!] });
      for (const role of ['Sales', w.crm.roleByName.Sales!.id]) {
        const res = await external(w, w.erp, 'delete', `/users/${user.id}/tenants/${w.tenantA.id}/roles?roles=${encodeURIComponent(role)}`);
        expect(res.status, role).to.equal(400);
        expect(res.body).to.include({ code: 'external.role_not_found', message: `The role ${role} is not one of the application` });
        expect(res.body.errors).to.deep.equal([{ field: 'roles', code: 'external.role_not_found', message: `The role ${role} is not one of the application` }]);
      }
      const fr = await external(w, w.erp, 'delete', `/users/${user.id}/tenants/${w.tenantA.id}/roles?roles=Sales`, { lang: 'fr' });
      expect(fr.body.message).to.equal('Le rôle Sales n’est pas un rôle de l’application');
      expect(await ownRoles(user, w.tenantA)).to.deep.equal(['Clerk', 'Sales']);
      // Without a list, erp removes its own roles only.
      await external(w, w.erp, 'delete', `/users/${user.id}/tenants/${w.tenantA.id}/roles`);
      expect(await ownRoles(user, w.tenantA)).to.deep.equal(['Sales']);
    });

    it('does not reach a user holding none of its roles, nor a tenant it does not see (404)', async () => {
      const erpOnly = await userIn(w, w.areaB);
      await grant(db(), { tenant: w.tenantB, user: erpOnly, roles: [w.erp.roleByName.Clerk!] });
      const res = await external(w, w.crm, 'delete', `/users/${erpOnly.id}/tenants/${w.tenantB.id}/roles`);
      expect(res.status).to.equal(404);
      const hidden = await external(w, w.crm, 'delete', `/users/${w.ann.id}/tenants/${w.tenantB.id}/roles`);
      expect(hidden.body.code).to.equal('external.tenant_not_found');
      expect(await ownRoles(erpOnly, w.tenantB)).to.deep.equal(['Clerk']);
    });
  });

  describe('GET /api/v1/external/roles/{role}/users (GetUserWithRole)', () => {
    it('pages the holders of a role (own or through a group), by id or name, with the tenants where they hold it', async () => {
      const app = await application(['Auditor']);
      const tenant = await buildTenant(db(), { areaId: w.areaA.id });
      const child = await buildTenant(db(), { areaId: w.areaA.id, parentId: tenant.id });
      const zed = await userIn(w, w.areaA, { userName: `zed-${unique('u')}@example.com` });
      const amy = await userIn(w, w.areaA, { userName: `amy-${unique('u')}@example.com`, firstName: 'Amy' });
      await grant(db(), { tenant, user: amy, roles: [app.roleByName.Auditor!] });
      await grant(db(), { tenant: child, group: await buildGroup(db(), { areaId: w.areaA.id, members: [zed] }), roles: [app.roleByName.Auditor!] });
      const res = await external(w, app, 'get', '/roles/Auditor/users');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.count).to.equal(2);
      expect(res.body.items).to.deep.equal([
        { id: amy.id, userName: amy.userName, email: amy.email, firstName: 'Amy', lastName: null, locked: false, draft: false, tenants: [{ tenantId: tenant.id, tenantName: tenant.title }] },
        { id: zed.id, userName: zed.userName, email: zed.email, firstName: null, lastName: null, locked: false, draft: false, tenants: [{ tenantId: child.id, tenantName: child.title }] },
      ]);
      const page = await external(w, app, 'get', `/roles/${app.roleByName.Auditor!.id}/users?top=1&skip=1&orderBy=userName desc`);
      expect(page.body).to.deep.include({ count: 2 });
      expect(page.body.items.map((u: { id: string }) => u.id)).to.deep.equal([amy.id]);
      const past = await external(w, app, 'get', '/roles/Auditor/users?skip=10');
      expect(past.body).to.deep.equal({ items: [], count: 2 });
      const search = await external(w, app, 'get', '/roles/Auditor/users?$search=amy');
      expect(search.body.items.map((u: { id: string }) => u.id)).to.deep.equal([amy.id]);
    });

    it('with tenantId, answers those who hold it there: granted there, above through an inheritable membership, or in the Global tenant', async () => {
      const app = await application(['Auditor']);
      const tenant = await buildTenant(db(), { areaId: w.areaA.id });
      const child = await buildTenant(db(), { areaId: w.areaA.id, parentId: tenant.id });
      const [above, notInherited, there, everywhere] = await Promise.all([1, 2, 3, 4].map(() => userIn(w, w.areaA)));
      await grant(db(), { tenant, user: above!, roles: [app.roleByName.Auditor!] });
      await grant(db(), { tenant, user: notInherited!, roles: [app.roleByName.Auditor!], inheritable: false });
      await grant(db(), { tenant: child, user: there!, roles: [app.roleByName.Auditor!] });
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: everywhere!, roles: [app.roleByName.Auditor!] });
      const res = await external(w, app, 'get', `/roles/Auditor/users?tenantId=${child.id}&top=50`);
      expect(res.status).to.equal(200);
      expect(res.body.items.map((u: { id: string }) => u.id).sort()).to.deep.equal([above!.id, there!.id, everywhere!.id].sort());
    });

    it("refuses another application's role (404): it learns nothing of who holds it", async () => {
      for (const role of [w.erp.roleByName.Clerk!.id, 'Clerk', 'NoSuchRole']) {
        const res = await external(w, w.crm, 'get', `/roles/${role}/users`);
        expect(res.status, role).to.equal(404);
        expect(res.body.code).to.equal('external.role_not_found');
      }
    });
  });

  describe('POST /api/v1/external/users/{userId}/lock (LockUser)', () => {
    it('locks a user holding one of its roles, ends their sessions and logs it as the application', async () => {
      const user = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.childA, user, roles: [w.crm.roleByName.Reader!] });
      await insertProviderSessions(w, user.id);
      const res = await external(w, w.crm, 'post', `/users/${user.id}/lock`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ id: user.id, userName: user.userName, locked: true, wasLocked: false });
      expect((await db().query('SELECT locked, modified_by_id FROM users WHERE id = $1', [user.id]))[0]).to.deep.equal({ locked: true, modified_by_id: null });
      expect(await providerSessionCount(w, user.id)).to.equal(0);
      const [log] = await logsAbout(w, user.id);
      expect(log).to.deep.include({ operation: 'LockUser', user_id: null, user_name: w.crm.name });
      expect(log!.metadata).to.deep.include({ targetUserId: user.id, wasLocked: false, sessionsEnded: 2, via: 'externalApi', applicationId: w.crm.id });
    });

    it('never locks an account holding an Identity role beyond User (403), one without its roles (404), nor its own owner (400)', async () => {
      const manager = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: manager, roles: [w.crm.roleByName.Sales!, w.identity.roleByName.Manager!] });
      const refused = await external(w, w.crm, 'post', `/users/${manager.id}/lock`);
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('users.manage_admin_only');
      const stranger = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: stranger, roles: [w.erp.roleByName.Clerk!] });
      expect((await external(w, w.crm, 'post', `/users/${stranger.id}/lock`)).status).to.equal(404);
      // An administrator's token for crm, who also holds a crm role: not their own account.
      await grant(db(), { tenant: w.tenantA, user: w.callers.admin, roles: [w.crm.roleByName.Reader!] });
      const { token } = await personalAccessToken(w, w.callers.admin, w.crm);
      const self = await external(w, w.crm, 'post', `/users/${w.callers.admin.id}/lock`, { token });
      expect(self.status).to.equal(400);
      expect(self.body.code).to.equal('external.lock_self');
      const locked = await db().query('SELECT id FROM users WHERE id = ANY($1::uuid[]) AND locked', [[manager.id, stranger.id, w.callers.admin.id]]);
      expect(locked).to.deep.equal([]);
    });
  });

  describe('GET /api/v1/external/tenants (GetEntities)', () => {
    /** An application whose only role is held in `tenant` (by a new user). */
    async function appIn(tenant: Tenant | string): Promise<Application> {
      const app = await application(['Member']);
      await grant(db(), { tenant, user: await userIn(w, w.areaA), roles: [app.roleByName.Member!] });
      return app;
    }

    it('lists flat, by title, the tenants where its roles are held and those below them; never the others, nor the Global tenant', async () => {
      const root = await buildTenant(db(), { areaId: w.areaA.id, title: unique('B root') });
      const child = await buildTenant(db(), { areaId: w.areaA.id, parentId: root.id, title: unique('A child') });
      const grandchild = await buildTenant(db(), { areaId: w.areaA.id, parentId: child.id, title: unique('C grandchild') });
      await buildTenant(db(), { areaId: w.areaA.id, title: unique('unseen') });
      const app = await appIn(root);
      const res = await external(w, app, 'get', '/tenants');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.count).to.equal(3);
      expect(res.body.items).to.deep.equal([
        { id: child.id, title: child.title, parentId: root.id, areaId: w.areaA.id, areaName: w.areaA.name, children: [] },
        { id: root.id, title: root.title, parentId: null, areaId: w.areaA.id, areaName: w.areaA.name, children: [] },
        { id: grandchild.id, title: grandchild.title, parentId: child.id, areaId: w.areaA.id, areaName: w.areaA.name, children: [] },
      ]);
      const searched = await external(w, app, 'get', `/tenants?$search=${encodeURIComponent('grandchild')}`);
      expect(searched.body.items.map((t: { id: string }) => t.id)).to.deep.equal([grandchild.id]);
      const paged = await external(w, app, 'get', '/tenants?top=1&skip=1&orderBy=title desc');
      expect(paged.body).to.deep.include({ count: 3 });
      expect(paged.body.items.map((t: { id: string }) => t.id)).to.deep.equal([root.id]);
      expect((await external(w, app, 'get', '/tenants?skip=5')).body).to.deep.equal({ items: [], count: 3 });
    });

    it('answers trees under the topmost tenants it sees, paged by those', async () => {
      const hidden = await buildTenant(db(), { areaId: w.areaA.id, title: unique('hidden') });
      const seen = await buildTenant(db(), { areaId: w.areaA.id, parentId: hidden.id, title: unique('A seen') });
      const below = await buildTenant(db(), { areaId: w.areaA.id, parentId: seen.id, title: unique('below') });
      const other = await buildTenant(db(), { areaId: w.areaA.id, title: unique('B other') });
      const app = await appIn(seen);
      await grant(db(), { tenant: other, user: await userIn(w, w.areaA), roles: [app.roleByName.Member!] });
      const res = await external(w, app, 'get', '/tenants?view=tree');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.count).to.equal(2);
      const node = (t: Tenant, parentId: string | null, children: unknown[] = []) => ({ id: t.id, title: t.title, parentId, areaId: w.areaA.id, areaName: w.areaA.name, children });
      expect(res.body.items).to.deep.equal([node(seen, hidden.id, [node(below, seen.id)]), node(other, null)]);
      const second = await external(w, app, 'get', '/tenants?view=tree&top=1&skip=1');
      expect(second.body).to.deep.equal({ items: [node(other, null)], count: 2 });
      const search = await external(w, app, 'get', '/tenants?view=tree&$search=x');
      expect(search.status).to.equal(400);
      expect(search.body.code).to.equal('external.search_flat_only');
    });

    it('sees every tenant but the Global one when a role is held in the Global tenant, and none without any grant', async () => {
      const everywhere = await appIn(GLOBAL_TENANT_ID);
      const all = (await db().query(`SELECT count(*)::int AS count FROM tenants WHERE id <> $1`, [GLOBAL_TENANT_ID]))[0].count;
      const res = await external(w, everywhere, 'get', '/tenants?top=1000');
      expect(res.body.count).to.equal(all);
      expect(res.body.items.map((t: { id: string }) => t.id)).not.to.include(GLOBAL_TENANT_ID);
      const nowhere = await application(['Member']);
      expect((await external(w, nowhere, 'get', '/tenants')).body).to.deep.equal({ items: [], count: 0 });
    });
  });
});
