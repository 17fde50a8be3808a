import { randomBytes, randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, type Tenant, type User } from '@gatehouse/core';
import { buildApplication, buildGroup, buildTenant, grant } from '@gatehouse/core/testing';
import { externalRoutes, type RouteContract } from '@gatehouse/contracts';
import { expect } from 'chai';
import { insertProviderSessions, listen, logsAbout, providerSessionCount } from '../users/testing.js';
import { call, userIn, type Application } from '../../testing/admin-world.js';
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

  /** A role of crm as a Permission log row names it. */
  const crmRole = (name: 'Sales' | 'Reader' | 'Partner') => ({ roleId: w.crm.roleByName[name]!.id, roleName: name, applicationId: w.crm.id, applicationName: w.crm.name });

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
      const [log, ...more] = await logsAbout(w, user.id);
      expect(more, 'one row for the one revocation').to.deep.equal([]);
      expect(log).to.deep.include({ operation: 'Permission', user_id: null, user_name: w.crm.name, tenant_id: w.tenantA.id, tenant_name: w.tenantA.title });
      expect(log!.metadata).to.deep.equal({
        action: 'revoke',
        via: 'external',
        identityType: 'User',
        targetUserId: user.id,
        targetUserName: user.userName,
        added: [],
        removed: [crmRole('Reader'), crmRole('Sales')],
        application: w.crm.name,
        applicationId: w.crm.id,
      });
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
      const logs = await logsAbout(w, user.id);
      expect(logs.map((log) => [log.operation, log.metadata.via, log.metadata.removed, log.metadata.membershipRemoved])).to.deep.equal([
        ['Permission', 'external', [crmRole('Reader')], undefined],
        ['Permission', 'external', [crmRole('Sales')], true],
      ]);
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
    /** Provider rows of the user for one application (a grant and a refresh token), as the provider stores them. */
    const insertClientRows = async (userId: string, clientId: string) => {
      for (const model of ['Grant', 'RefreshToken']) {
        await db().query(`INSERT INTO oidc_model_instances (model, id, payload) VALUES ($1, $2, $3)`, [model, randomBytes(16).toString('hex'), { accountId: userId, clientId, kind: model }]);
      }
    };
    const providerRows = async (userId: string) =>
      (
        await db().query(`SELECT model, payload->>'clientId' AS "clientId" FROM oidc_model_instances WHERE payload->>'accountId' = $1`, [userId])
      )
        .map((row: { model: string; clientId: string | null }) => `${row.model}:${row.clientId ?? '-'}`)
        .sort();
    const blocks = (userId: string) => db().query('SELECT application_id FROM application_user_blocks WHERE user_id = $1 ORDER BY application_id', [userId]);
    const accountOf = async (userId: string) => (await db().query('SELECT locked, modified_by_id FROM users WHERE id = $1', [userId]))[0];
    /** The broadcasts about the user a call makes, of the events LockUser publishes (work of earlier tests may still announce others). */
    const broadcastsOf = async <T>(userId: string, work: () => Promise<T>) => {
      const invalidated = listen(w, 'oidc.invalidated');
      const changed = listen(w, 'user.changed');
      const about = (events: Array<{ accountId?: string; userId?: string }>) => events.filter((event) => (event.accountId ?? event.userId) === userId);
      try {
        const result = await work();
        return { result, invalidated: about(invalidated.events), changed: about(changed.events) };
      } finally {
        invalidated.stop();
        changed.stop();
      }
    };
    /** A new address crm invites (an operation request for Partner in tenant A) and an administrator approves: an account crm created. */
    const createdByCrm = async () => {
      const email = `created-${randomBytes(5).toString('hex')}@acme.example`;
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email, firstName: 'C', lastName: 'B' }], roles: ['Partner'] } });
      expect(res.body.items[0], JSON.stringify(res.body)).to.deep.include({ status: 'Requested', userId: null });
      const approved = await call(w, 'post', `/operationRequests/approve/${res.body.items[0].operationRequestId}`, { body: { version: 1 } });
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      const [row] = await db().query('SELECT id, user_name AS "userName", created_by_application_id FROM users WHERE normalized_user_name = $1', [email]);
      expect(row.created_by_application_id).to.equal(w.crm.id);
      return row as { id: string; userName: string };
    };

    /** The lockouts metric's count of accounts an application locked. */
    const applicationLockouts = async () => (await w.context.metrics.lockouts.get()).values.find((v) => v.labels.cause === 'application' && v.labels.kind === 'permanent')?.value ?? 0;

    it('locks an account it created that holds nothing else (scope account): its sessions, grants and tokens end everywhere; logs it as the application', async () => {
      const user = await createdByCrm();
      await insertProviderSessions(w, user.id);
      await insertClientRows(user.id, w.crm.name);
      await insertClientRows(user.id, w.erp.name);
      const lockoutsBefore = await applicationLockouts();
      const { result: res, invalidated, changed } = await broadcastsOf(user.id, () => external(w, w.crm, 'post', `/users/${user.id}/lock`));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ id: user.id, userName: user.userName, locked: true, wasLocked: false, scope: 'account' });
      expect(await accountOf(user.id)).to.deep.equal({ locked: true, modified_by_id: null });
      expect(await providerSessionCount(w, user.id)).to.equal(0);
      expect(await blocks(user.id), 'the account is locked: no block of one application').to.deep.equal([]);
      expect(await ownRoles({ id: user.id } as User, w.tenantA), 'the lock takes no role').to.deep.equal(['Partner']);
      expect(invalidated).to.deep.equal([{ accountId: user.id }]);
      expect(changed).to.deep.equal([{ userId: user.id }]);
      const log = (await logsAbout(w, user.id)).at(-1)!;
      expect(log).to.deep.include({ operation: 'LockUser', user_id: null, user_name: w.crm.name });
      expect(log.metadata).to.deep.equal({
        targetUserId: user.id,
        targetUserName: user.userName,
        wasLocked: false,
        scope: 'account',
        via: 'externalApi',
        application: w.crm.name,
        applicationId: w.crm.id,
      });
      expect(await applicationLockouts(), 'counted among the lockouts, as the application’s').to.equal(lockoutsBefore + 1);
      // Again: the account was locked already (and is not counted twice).
      const again = await external(w, w.crm, 'post', `/users/${user.id}/lock`);
      expect(again.body).to.deep.equal({ id: user.id, userName: user.userName, locked: true, wasLocked: true, scope: 'account' });
      expect(await applicationLockouts()).to.equal(lockoutsBefore + 1);
    });

    it('ends only its own access to an account it did not create (scope application): its roles go, the account stays unlocked, its grants and tokens of the application end', async () => {
      const lockoutsBefore = await applicationLockouts();
      const user = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.childA, user, roles: [w.crm.roleByName.Reader!] });
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Sales!] });
      await insertProviderSessions(w, user.id);
      await insertClientRows(user.id, w.crm.name);
      await insertClientRows(user.id, w.erp.name);
      const { result: res, invalidated, changed } = await broadcastsOf(user.id, () => external(w, w.crm, 'post', `/users/${user.id}/lock`));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ id: user.id, userName: user.userName, locked: false, wasLocked: false, scope: 'application' });
      expect(await accountOf(user.id)).to.deep.equal({ locked: false, modified_by_id: null });
      expect(await ownRoles(user, w.tenantA)).to.deep.equal([]);
      expect(await ownRoles(user, w.childA)).to.deep.equal([]);
      expect(await blocks(user.id)).to.deep.equal([{ application_id: w.crm.id }]);
      // The provider's session and the other application's grant and token stay; the application's go.
      expect(await providerRows(user.id)).to.deep.equal([`Grant:${w.erp.name}`, 'RefreshToken:-', `RefreshToken:${w.erp.name}`, 'Session:-'].sort());
      expect(invalidated).to.deep.equal([{ accountId: user.id }]);
      expect(changed, 'the account itself did not change').to.deep.equal([]);
      expect(await applicationLockouts(), 'no account was locked').to.equal(lockoutsBefore);
      const logs = await logsAbout(w, user.id);
      const permissions = logs.filter((log) => log.operation === 'Permission');
      expect(permissions.map((log) => [log.tenant_id, log.metadata])).to.have.deep.members([
        [
          w.tenantA.id,
          {
            action: 'revoke',
            via: 'external',
            identityType: 'User',
            targetUserId: user.id,
            targetUserName: user.userName,
            added: [],
            removed: [crmRole('Sales')],
            membershipRemoved: true,
            application: w.crm.name,
            applicationId: w.crm.id,
          },
        ],
        [
          w.childA.id,
          {
            action: 'revoke',
            via: 'external',
            identityType: 'User',
            targetUserId: user.id,
            targetUserName: user.userName,
            added: [],
            removed: [crmRole('Reader')],
            membershipRemoved: true,
            application: w.crm.name,
            applicationId: w.crm.id,
          },
        ],
      ]);
      expect(logs.at(-1)!).to.deep.include({ operation: 'LockUser', user_id: null, user_name: w.crm.name });
      expect(logs.at(-1)!.metadata).to.deep.equal({
        targetUserId: user.id,
        targetUserName: user.userName,
        wasLocked: false,
        scope: 'application',
        via: 'externalApi',
        application: w.crm.name,
        applicationId: w.crm.id,
      });
      // It holds none of the application's roles any more: the application no longer finds it.
      expect((await external(w, w.crm, 'get', `/users/${user.id}/roles`)).status).to.equal(404);
    });

    it('ends only its own access to an account it created that holds another application’s role, through a group too', async () => {
      const user = await createdByCrm();
      await grant(db(), { tenant: w.childA, group: await buildGroup(db(), { areaId: w.areaA.id, members: [{ id: user.id } as User] }), roles: [w.erp.roleByName.Clerk!] });
      const res = await external(w, w.crm, 'post', `/users/${user.id}/lock`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ id: user.id, userName: user.userName, locked: false, wasLocked: false, scope: 'application' });
      expect((await accountOf(user.id)).locked).to.equal(false);
      expect(await ownRoles({ id: user.id } as User, w.tenantA)).to.deep.equal([]);
      expect(await blocks(user.id)).to.deep.equal([{ application_id: w.crm.id }]);
      expect((await external(w, w.erp, 'get', `/users/${user.id}/roles?tenantId=${w.childA.id}`)).body.tenants[0].roles.map((r: { roleName: string }) => r.roleName)).to.deep.equal(['Clerk']);
    });

    it('takes its roles away in the Global tenant too, and ends its access there (scope application)', async () => {
      const everywhere = await userIn(w, w.areaA);
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: everywhere, roles: [w.crm.roleByName.Partner!] });
      await grant(db(), { tenant: w.tenantA, user: everywhere, roles: [w.erp.roleByName.Clerk!] });
      const res = await external(w, w.crm, 'post', `/users/${everywhere.id}/lock`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ locked: false, scope: 'application' });
      expect(await ownRoles(everywhere, GLOBAL_TENANT_ID)).to.deep.equal([]);
      expect(await ownRoles(everywhere, w.tenantA)).to.deep.equal(['Clerk']);
      expect(await blocks(everywhere.id)).to.deep.equal([{ application_id: w.crm.id }]);
    });

    it('mails the invitation of an account it created once an approver approves it, and lets an approved request give back the access it ended', async () => {
      const email = `approved-${randomBytes(5).toString('hex')}@acme.example`;
      const invited = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email, firstName: 'A', lastName: 'P', language: 'de' }], roles: ['Partner'] } });
      expect(await db().query(`SELECT template FROM mail_outbox WHERE to_address = $1`, [email]), 'nothing before the approval').to.deep.equal([]);
      const approved = await call(w, 'post', `/operationRequests/approve/${invited.body.items[0].operationRequestId}`, { body: { version: 1 } });
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      expect(await db().query(`SELECT template, language FROM mail_outbox WHERE to_address = $1`, [email])).to.deep.equal([{ template: 'invitation', language: 'de' }]);

      // crm ends the access of an account it did not create; a request crm makes again, once approved, gives it back.
      const other = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: other, roles: [w.crm.roleByName.Partner!, w.erp.roleByName.Clerk!] });
      expect((await external(w, w.crm, 'post', `/users/${other.id}/lock`)).body.scope).to.equal('application');
      expect(await blocks(other.id)).to.deep.equal([{ application_id: w.crm.id }]);
      const again = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email: other.email, firstName: 'O', lastName: 'T' }], roles: ['Partner'] } });
      expect(again.body.items[0]).to.deep.include({ status: 'Requested', userId: null });
      const request = (await db().query('SELECT version FROM operation_requests WHERE id = $1', [again.body.items[0].operationRequestId]))[0];
      expect((await call(w, 'post', `/operationRequests/approve/${again.body.items[0].operationRequestId}`, { body: { version: request.version } })).status).to.equal(200);
      expect(await blocks(other.id)).to.deep.equal([]);
    });

    it("cannot lock another application's user through a role of its own: the account stays unlocked, the other application's roles untouched", async () => {
      // erp's user; crm asks for a role for them (an account it does not serve: a request), which an administrator approves.
      const victim = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: victim, roles: [w.erp.roleByName.Clerk!] });
      await grant(db(), { tenant: w.childA, user: victim, roles: [w.erp.roleByName.Clerk!] });
      await insertClientRows(victim.id, w.erp.name);
      const invited = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email: victim.email, firstName: 'V', lastName: 'I' }], roles: ['Partner'] } });
      expect(invited.body.items[0]).to.deep.include({ status: 'Requested', userId: null });
      const approved = await call(w, 'post', `/operationRequests/approve/${invited.body.items[0].operationRequestId}`, { body: { version: 1 } });
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      expect(await ownRoles(victim, w.tenantA)).to.deep.equal(['Clerk', 'Partner']);
      const res = await external(w, w.crm, 'post', `/users/${victim.id}/lock`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ id: victim.id, userName: victim.userName, locked: false, wasLocked: false, scope: 'application' });
      expect(await accountOf(victim.id)).to.deep.equal({ locked: false, modified_by_id: null });
      expect(await ownRoles(victim, w.tenantA)).to.deep.equal(['Clerk']);
      expect(await ownRoles(victim, w.childA)).to.deep.equal(['Clerk']);
      expect(await blocks(victim.id), 'erp’s access is not ended').to.deep.equal([{ application_id: w.crm.id }]);
      expect(await providerRows(victim.id)).to.deep.equal([`Grant:${w.erp.name}`, `RefreshToken:${w.erp.name}`]);
    });

    it('never locks an account holding an Identity role beyond User (403), one without its roles (404), nor its own owner (400), and changes nothing then', async () => {
      const manager = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: manager, roles: [w.crm.roleByName.Sales!, w.identity.roleByName.Manager!] });
      const refused = await external(w, w.crm, 'post', `/users/${manager.id}/lock`);
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('users.manage_admin_only');
      expect(await ownRoles(manager, w.tenantA), 'a refusal takes no role').to.deep.equal(['Manager', 'Sales']);
      const stranger = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: stranger, roles: [w.erp.roleByName.Clerk!] });
      const unknown = await external(w, w.crm, 'post', `/users/${stranger.id}/lock`);
      expect(unknown.status).to.equal(404);
      expect(unknown.body.code).to.equal('external.user_not_found');
      // An administrator's token for crm, who also holds a crm role: not their own account.
      await grant(db(), { tenant: w.tenantA, user: w.callers.admin, roles: [w.crm.roleByName.Reader!] });
      const { token } = await personalAccessToken(w, w.callers.admin, w.crm);
      const self = await external(w, w.crm, 'post', `/users/${w.callers.admin.id}/lock`, { token });
      expect(self.status).to.equal(400);
      expect(self.body.code).to.equal('external.lock_self');
      expect(await ownRoles(w.callers.admin, w.tenantA)).to.deep.equal(['Reader']);
      const ids = [manager.id, stranger.id, w.callers.admin.id];
      expect(await db().query('SELECT id FROM users WHERE id = ANY($1::uuid[]) AND locked', [ids])).to.deep.equal([]);
      expect(await db().query('SELECT user_id FROM application_user_blocks WHERE user_id = ANY($1::uuid[])', [ids])).to.deep.equal([]);
      expect(await db().query(`SELECT id FROM system_logs WHERE operation = 'LockUser' AND metadata->>'targetUserId' = ANY($1::text[])`, [ids])).to.deep.equal([]);
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
