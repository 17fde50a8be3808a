import { randomBytes } from 'node:crypto';
import { APPROVER_CATEGORIES } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, randomToken, sha256, type Tenant, type User } from '@gatehouse/core';
import { buildApplication, buildGroup, buildTenant, buildUser, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { buildAdminWorld, type AdminWorld, type Application } from '../../testing/admin-world.js';
import { mintAccessToken } from '../../testing/tokens.js';
import { makeRequestable, waitingRequest } from './testing.js';

type Method = 'get' | 'post' | 'put';
const BASE = '/api/v1/admin/operationRequests';

describe('operation requests', function () {
  this.timeout(120_000);
  let w: AdminWorld;
  let app: Application;
  /** Root R with children A and S (siblings); A1 under A. Consultants consult for A (inheritable: A1 too). */
  let root: Tenant;
  let tenantA: Tenant;
  let childA: Tenant;
  let sibling: Tenant;
  /** A consultant of A without an approving category. */
  let consultant: User;
  /** A consultant of A who is a team leader: approves in A. */
  let approver: User;
  /** Another approving consultant of A. */
  let approver2: User;

  const db = () => w.context.dataSource;
  const role = (name: string) => app.roleByName[name]!;

  /** A consultant of the tenant (inheritable), of this internal category. */
  const consultantOf = async (tenant: Tenant, category: string | null, overrides: Partial<User> = {}) => {
    const user = await buildUser(db(), { areaId: w.areaA.id, internalCategory: category, ...overrides });
    await grant(db(), { tenant, user, roles: [w.identity.roleByName.IdentityConsultant!] });
    return user;
  };
  const target = (overrides: Partial<User> = {}) => buildUser(db(), { areaId: w.areaA.id, ...overrides });

  /** A call as `user`, with a console token carrying `roles` (IdentityConsultant unless told). */
  const as = async (user: User, method: Method, path: string, body?: unknown, roles: string[] = ['IdentityConsultant']) => {
    const token = await mintAccessToken(w.context, w.key, { sub: user.id, roles });
    return send(method, path, token, body);
  };
  const send = (method: Method, path: string, token: string, body?: unknown, lang = 'en') => {
    const req = request(w.server)[method](path.startsWith('/api/') ? path : `${BASE}${path}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Accept-Language', lang);
    return body === undefined ? req : req.send(body as object);
  };
  /** An approval of a request as created (version 1, unchanged since). */
  const SEEN = { version: 1 };
  const admin = (method: Method, path: string, body?: unknown) => as(w.callers.admin, method, path, body, ['Administrator']);

  const body = (tenant: Tenant, identityId: string, roleIds: string[], extra: Record<string, unknown> = {}) => ({
    tenantId: tenant.id,
    identityType: 'User',
    identityId,
    roles: roleIds,
    ...extra,
  });

  /** The roles of the user's own membership of the tenant, by name. */
  const ownRoles = async (userId: string, tenantId: string): Promise<string[]> =>
    (
      await db().query(
        `SELECT r.name FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id JOIN roles r ON r.id = tmr.role_id
          WHERE tm.user_id = $1 AND tm.tenant_id = $2 ORDER BY r.name`,
        [userId, tenantId],
      )
    ).map((row: { name: string }) => row.name);
  const status = async (id: string) => (await db().query('SELECT status, reason FROM operation_requests WHERE id = $1', [id]))[0];
  const approveLogs = async (id: string) => db().query(`SELECT metadata FROM system_logs WHERE operation = 'ApproveOperationRequest' AND metadata->>'operationRequestId' = $1`, [id]);
  const notificationsOf = async (userId: string) => db().query('SELECT type, description FROM notifications WHERE user_id = $1 ORDER BY created_at', [userId]);

  before(async () => {
    w = await buildAdminWorld();
    app = await buildApplication(db(), { roles: ['Reader', 'Writer', 'Hidden'] });
    await makeRequestable(w.context, [role('Reader').id, role('Writer').id]);
    root = await buildTenant(db(), { areaId: w.areaA.id });
    tenantA = await buildTenant(db(), { areaId: w.areaA.id, parentId: root.id });
    childA = await buildTenant(db(), { areaId: w.areaA.id, parentId: tenantA.id });
    sibling = await buildTenant(db(), { areaId: w.areaA.id, parentId: root.id });
    consultant = await consultantOf(tenantA, null);
    approver = await consultantOf(tenantA, 'Team Leader');
    approver2 = await consultantOf(tenantA, 'director');
  });

  describe('lifecycle', () => {
    it('creates a waiting request, lists it, and on approval sets exactly the requested operation-request roles', async () => {
      const user = await target({ draft: true });
      // Writer (requestable) goes, Hidden (not requestable) stays untouched.
      await grant(db(), { tenant: tenantA, user, roles: [role('Writer'), role('Hidden')] });
      const created = await as(consultant, 'post', '', body(tenantA, user.id, [role('Reader').id], { isInheritable: false }));
      expect(created.status).to.equal(201);
      expect(created.body).to.include({ status: 'WaitingForApprover', isMine: true, canApprove: false, identityId: user.id, tenantId: tenantA.id, isInheritable: false });
      expect(created.body.roles.map((r: { roleName: string }) => r.roleName)).to.deep.equal(['Reader']);
      expect(await ownRoles(user.id, tenantA.id)).to.deep.equal(['Hidden', 'Writer']);

      const listed = await as(approver, 'get', `?tenantId=${tenantA.id}&status=WaitingForApprover`);
      expect(listed.status).to.equal(200);
      const item = listed.body.items.find((i: { id: string }) => i.id === created.body.id);
      expect(item).to.include({ isMine: false, canApprove: true });
      // Users without a first or last name are shown by their e-mail.
      expect(item.approvers).to.include.members([approver.email, approver2.email]);
      expect(item.approvers).to.not.include(consultant.email);
      const mine = await as(consultant, 'get', `?onlyUser=true&take=100`);
      expect(mine.body.items.map((i: { id: string }) => i.id)).to.include(created.body.id);

      const approved = await as(approver, 'post', `/approve/${created.body.id}`, SEEN);
      expect(approved.status).to.equal(200);
      expect(approved.body.status).to.equal('Applied');
      expect(await ownRoles(user.id, tenantA.id)).to.deep.equal(['Hidden', 'Reader']);
      const [membership] = await db().query('SELECT is_inheritable FROM tenant_members WHERE user_id = $1 AND tenant_id = $2', [user.id, tenantA.id]);
      expect(membership.is_inheritable).to.equal(false);
      // The draft user (created by a consultant) is a user now.
      expect((await db().query('SELECT draft FROM users WHERE id = $1', [user.id]))[0].draft).to.equal(false);

      const history = await as(consultant, 'get', `/history/${created.body.id}`);
      expect(history.body.items.map((h: { status: string; email: string }) => [h.status, h.email])).to.deep.equal([
        ['WaitingForApprover', consultant.email],
        ['Applied', approver.email],
      ]);
      const logs = await approveLogs(created.body.id);
      expect(logs).to.have.length(1);
      expect(logs[0].metadata).to.deep.include({ tenantId: tenantA.id, identityId: user.id });
      expect(logs[0].metadata.rolesAdded.map((r: { roleName: string }) => r.roleName)).to.deep.equal(['Reader']);
      expect(logs[0].metadata.rolesRemoved.map((r: { roleName: string }) => r.roleName)).to.deep.equal(['Writer']);
      expect((await notificationsOf(user.id)).map((n: { type: string }) => n.type)).to.include('PermissionAssigned');
      // The requester is told, in their language (French, the default).
      const told = (await notificationsOf(consultant.id)).filter((n: { type: string }) => n.type === 'OperationRequest');
      expect(told.map((n: { description: string }) => n.description)).to.deep.equal([`Votre demande pour ${user.email} dans ${tenantA.title} a été approuvée`]);
    });

    it('rejects with a reason, and the request can no longer be approved', async () => {
      const user = await target();
      const { body: created } = await as(consultant, 'post', '', body(tenantA, user.id, [role('Reader').id]));
      const rejected = await as(approver, 'post', `/reject/${created.id}`, { reason: 'Not this quarter' });
      expect(rejected.status).to.equal(200);
      expect(rejected.body).to.include({ status: 'Rejected', reason: 'Not this quarter' });
      const again = await as(approver2, 'post', `/approve/${created.id}`, SEEN);
      expect(again.status).to.equal(409);
      expect(again.body.code).to.equal('operationRequests.already_decided');
      expect(await ownRoles(user.id, tenantA.id)).to.deep.equal([]);
      const history = await as(consultant, 'get', `/history/${created.id}`);
      expect(history.body.items.map((h: { status: string }) => h.status)).to.deep.equal(['WaitingForApprover', 'Rejected']);
    });

    it('applies what the approver saw: a request its requester changed since is refused, kept waiting, and shown to the approvers again', async () => {
      const user = await target();
      const { body: created } = await as(consultant, 'post', '', body(tenantA, user.id, [role('Reader').id]));
      expect(created.version).to.equal(1);
      const seen = (await as(approver, 'get', `?tenantId=${tenantA.id}&status=WaitingForApprover`)).body.items.find((i: { id: string }) => i.id === created.id);
      expect(seen.version).to.equal(1);
      const toldBefore = (await notificationsOf(approver.id)).length;
      // The requester swaps the roles after the approver looked.
      const edited = await as(consultant, 'put', `/permissions/${created.id}`, { roles: [role('Writer').id] });
      expect(edited.body.version).to.equal(2);
      expect((await notificationsOf(approver.id)).length).to.be.above(toldBefore);
      const stale = await as(approver, 'post', `/approve/${created.id}`, { version: seen.version });
      expect(stale.status).to.equal(409);
      expect(stale.body).to.include({ code: 'operationRequests.changed_since_seen', message: 'This request was changed after you opened it: look at it again before you decide' });
      expect(await ownRoles(user.id, tenantA.id)).to.deep.equal([]);
      expect((await status(created.id)).status).to.equal('WaitingForApprover');
      // Without a version there is no approval at all.
      expect((await as(approver, 'post', `/approve/${created.id}`, {})).status).to.equal(400);
      const bulk = await as(approver, 'post', '/approveInBulk', { ids: [created.id], versions: {} });
      expect(bulk.body.items[0].error.code).to.equal('operationRequests.changed_since_seen');
      const fresh = await as(approver, 'post', `/approve/${created.id}`, { version: 2 });
      expect(fresh.status, JSON.stringify(fresh.body)).to.equal(200);
      expect(await ownRoles(user.id, tenantA.id)).to.deep.equal(['Writer']);
    });

    it('never applies a version the approver did not see when an edit and an approval race', async () => {
      for (let round = 0; round < 5; round++) {
        const user = await target();
        const { body: created } = await as(consultant, 'post', '', body(tenantA, user.id, [role('Reader').id]));
        const [edited, approved] = await Promise.all([
          as(consultant, 'put', `/permissions/${created.id}`, { roles: [role('Writer').id] }),
          as(approver, 'post', `/approve/${created.id}`, SEEN),
        ]);
        const roles = await ownRoles(user.id, tenantA.id);
        if (approved.status === 200) {
          expect(roles, `round ${round}`).to.deep.equal(['Reader']);
          expect(edited.status, `round ${round}`).to.equal(409);
        } else {
          expect(approved.status, `round ${round}`).to.equal(409);
          expect(roles, `round ${round}`).to.deep.equal([]);
          expect(edited.status, `round ${round}`).to.equal(200);
        }
      }
    });

    it('lets the requester cancel and edit a waiting request, and nobody else', async () => {
      const user = await target();
      const { body: created } = await as(consultant, 'post', '', body(tenantA, user.id, [role('Reader').id]));
      expect((await as(approver, 'put', `/permissions/${created.id}`, { roles: [] })).status).to.equal(403);
      const edited = await as(consultant, 'put', `/permissions/${created.id}`, { roles: [role('Writer').id], isInheritable: false });
      expect(edited.status).to.equal(200);
      expect(edited.body.roles.map((r: { roleName: string }) => r.roleName)).to.deep.equal(['Writer']);
      const refused = await as(approver, 'post', `/cancel/${created.id}`);
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('operationRequests.not_requester');
      const cancelled = await as(consultant, 'post', `/cancel/${created.id}`);
      expect(cancelled.status).to.equal(200);
      expect(cancelled.body.status).to.equal('Cancelled');
      expect((await as(approver, 'post', `/approve/${created.id}`, SEEN)).status).to.equal(409);
      expect((await as(consultant, 'put', `/permissions/${created.id}`, { roles: [] })).status).to.equal(409);
    });

    it('refuses a second waiting request for the same identity and tenant (409: edit the first)', async () => {
      const user = await target();
      expect((await as(consultant, 'post', '', body(tenantA, user.id, [role('Reader').id]))).status).to.equal(201);
      const second = await as(approver, 'post', '', body(tenantA, user.id, [role('Writer').id]));
      expect(second.status).to.equal(409);
      expect(second.body.code).to.equal('operationRequests.already_waiting');
      // Another tenant is another request.
      expect((await as(consultant, 'post', '', body(childA, user.id, [role('Reader').id]))).status).to.equal(201);
    });

    it('shows the wizard the identity’s roles: own, by hierarchy (not editable), and the waiting request', async () => {
      const user = await target();
      await grant(db(), { tenant: root, user, roles: [role('Writer')], inheritable: true });
      await grant(db(), { tenant: tenantA, user, roles: [role('Reader'), role('Hidden')] });
      const { body: created } = await as(consultant, 'post', '', body(tenantA, user.id, [role('Reader').id]));
      const res = await as(consultant, 'get', `/permissions?identityId=${user.id}&tenantId=${tenantA.id}`);
      expect(res.status).to.equal(200);
      const roles = res.body.applications.find((a: { applicationId: string }) => a.applicationId === app.id).roles;
      expect(roles.map((r: { roleName: string; held: string | null; editable: boolean }) => [r.roleName, r.held, r.editable])).to.deep.equal([
        ['Reader', 'Own', true],
        ['Writer', 'ByHierarchy', false],
      ]);
      // How each is held: in the user's own name, inherited from the tenant named.
      expect(roles.map((r: { roleName: string; origins: unknown[] }) => [r.roleName, r.origins])).to.deep.equal([
        ['Reader', [{ via: 'own', groupName: null, tenantName: null }]],
        ['Writer', [{ via: 'hierarchy', groupName: null, tenantName: root.title }]],
      ]);
      expect(res.body.waitingRequest.id).to.equal(created.id);
    });
  });

  describe('races', () => {
    it('two approvers approving at once apply it exactly once: one 200, one 409', async () => {
      const user = await target();
      const id = await waitingRequest(w.context, { tenantId: tenantA.id, userId: user.id, roleIds: [role('Reader').id], createdById: consultant.id });
      const results = await Promise.all([as(approver, 'post', `/approve/${id}`, SEEN), as(approver2, 'post', `/approve/${id}`, SEEN)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      expect(results.find((r) => r.status === 409)!.body.code).to.equal('operationRequests.already_decided');
      expect(await ownRoles(user.id, tenantA.id)).to.deep.equal(['Reader']);
      expect(await approveLogs(id)).to.have.length(1);
      const history = await db().query(`SELECT status FROM operation_request_history WHERE operation_request_id = $1 AND status = 'Applied'`, [id]);
      expect(history).to.have.length(1);
    });

    it('an approval racing a cancellation: exactly one wins, and the roles follow the winner', async () => {
      const user = await target();
      const id = await waitingRequest(w.context, { tenantId: tenantA.id, userId: user.id, roleIds: [role('Reader').id], createdById: consultant.id });
      const [approved, cancelled] = await Promise.all([as(approver, 'post', `/approve/${id}`, SEEN), as(consultant, 'post', `/cancel/${id}`)]);
      expect([approved.status, cancelled.status].sort()).to.deep.equal([200, 409]);
      const final = (await status(id)).status;
      if (approved.status === 200) {
        expect(final).to.equal('Applied');
        expect(await ownRoles(user.id, tenantA.id)).to.deep.equal(['Reader']);
      } else {
        expect(final).to.equal('Cancelled');
        expect(await ownRoles(user.id, tenantA.id)).to.deep.equal([]);
      }
    });
  });

  describe('scope', () => {
    it('keeps a consultant out of a sibling tenant and of the parent of their tenant', async () => {
      const user = await target();
      for (const tenant of [sibling, root]) {
        const list = await as(approver, 'get', `?tenantId=${tenant.id}`);
        expect(list.status, tenant.title).to.equal(403);
        expect((await as(approver, 'post', '', body(tenant, user.id, [role('Reader').id]))).status).to.equal(403);
        expect((await as(approver, 'get', `/permissions?identityId=${user.id}&tenantId=${tenant.id}`)).status).to.equal(403);
        const id = await waitingRequest(w.context, { tenantId: tenant.id, userId: (await target()).id, roleIds: [role('Reader').id], createdById: w.callers.admin.id });
        expect((await as(approver, 'post', `/approve/${id}`, SEEN)).status).to.equal(404);
        expect((await as(approver, 'post', `/reject/${id}`)).status).to.equal(404);
        expect((await as(approver, 'get', `/history/${id}`)).status).to.equal(404);
        const all = await as(approver, 'get', '?take=1000');
        expect(all.body.items.map((i: { id: string }) => i.id)).to.not.include(id);
        expect((await status(id)).status).to.equal('WaitingForApprover');
      }
    });

    it('reaches the child tenants of their tenant (inherited IdentityConsultant)', async () => {
      const user = await target();
      const created = await as(consultant, 'post', '', body(childA, user.id, [role('Writer').id]));
      expect(created.status).to.equal(201);
      const listed = await as(approver, 'get', `?tenantId=${childA.id}`);
      expect(listed.body.items.map((i: { id: string }) => i.id)).to.include(created.body.id);
      expect((await as(approver, 'post', `/approve/${created.body.id}`, SEEN)).status).to.equal(200);
      expect(await ownRoles(user.id, childA.id)).to.deep.equal(['Writer']);
    });

    it('keeps the scopes of a consultant in A who is a service manager in S apart', async () => {
      const both = await consultantOf(tenantA, 'Manager');
      await grant(db(), { tenant: sibling, user: both, roles: [w.identity.roleByName.ServiceManager!] });
      const roles = ['IdentityConsultant', 'ServiceManager'];
      const inSibling = await waitingRequest(w.context, { tenantId: sibling.id, userId: (await target()).id, roleIds: [role('Reader').id], createdById: w.callers.admin.id });
      expect((await as(both, 'get', `?tenantId=${sibling.id}`, undefined, roles)).status).to.equal(403);
      expect((await as(both, 'post', '', body(sibling, (await target()).id, [role('Reader').id]), roles)).status).to.equal(403);
      expect((await as(both, 'post', `/approve/${inSibling}`, SEEN, roles)).status).to.equal(404);
      const all = await as(both, 'get', '?take=1000', undefined, roles);
      expect(all.status).to.equal(200);
      expect(all.body.items.every((i: { tenantId: string }) => [tenantA.id, childA.id].includes(i.tenantId))).to.equal(true);
      // A service manager who consults nowhere gets no request at all.
      const managerOnly = await buildUser(db(), { areaId: w.areaA.id });
      await grant(db(), { tenant: sibling, user: managerOnly, roles: [w.identity.roleByName.ServiceManager!] });
      expect((await as(managerOnly, 'get', '', undefined, ['ServiceManager'])).status).to.equal(403);
    });
  });

  describe('who approves', () => {
    for (const category of APPROVER_CATEGORIES) {
      it(`auto-approves at creation for a consultant of category "${category.toUpperCase()}"`, async () => {
        const requester = await consultantOf(tenantA, category.toUpperCase());
        const user = await target();
        const res = await as(requester, 'post', '', body(tenantA, user.id, [role('Reader').id], { autoApprove: true }));
        expect(res.status).to.equal(201);
        expect(res.body.status).to.equal('Applied');
        expect(await ownRoles(user.id, tenantA.id)).to.deep.equal(['Reader']);
        const history = await as(requester, 'get', `/history/${res.body.id}`);
        expect(history.body.items.map((h: { status: string }) => h.status)).to.deep.equal(['WaitingForApprover', 'Applied']);
      });
    }

    for (const category of ['Consultant', null]) {
      it(`refuses auto-approval (403, nothing created) for a consultant of category ${String(category)}`, async () => {
        const requester = await consultantOf(tenantA, category);
        const user = await target();
        const res = await as(requester, 'post', `/permissions?tenantId=${tenantA.id}&autoApprove=true`, body(tenantA, user.id, [role('Reader').id]));
        expect(res.status).to.equal(403);
        expect(res.body.code).to.equal('operationRequests.auto_approve_forbidden');
        expect(await db().query('SELECT 1 FROM operation_requests WHERE user_id = $1', [user.id])).to.deep.equal([]);
        const id = await waitingRequest(w.context, { tenantId: tenantA.id, userId: (await target()).id, roleIds: [role('Reader').id], createdById: consultant.id });
        expect((await as(requester, 'post', `/approve/${id}`, SEEN)).body.code).to.equal('operationRequests.not_approver');
      });
    }

    it('never lets anyone approve their own request, an approver or an administrator; an administrator auto-approves at creation', async () => {
      const own = await as(approver, 'post', '', body(tenantA, (await target()).id, [role('Reader').id]));
      const refused = await as(approver, 'post', `/approve/${own.body.id}`, SEEN);
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('operationRequests.own_request');
      expect((await as(approver, 'post', `/reject/${own.body.id}`)).status).to.equal(403);
      expect(own.body.canApprove).to.equal(false);

      const adminOwn = await admin('post', '', body(sibling, (await target()).id, [role('Reader').id]));
      expect(adminOwn.status).to.equal(201);
      expect((await admin('post', `/approve/${adminOwn.body.id}`, SEEN)).status).to.equal(403);
      const user = await target();
      const auto = await admin('post', '', body(sibling, user.id, [role('Reader').id], { autoApprove: true }));
      expect(auto.body.status).to.equal('Applied');
      expect(await ownRoles(user.id, sibling.id)).to.deep.equal(['Reader']);
    });

    it('refuses an auto-approved request giving roles to its own requester before storing anything (403, not a rolled-back request)', async () => {
      const self = await admin('post', '', body(sibling, w.callers.admin.id, [role('Reader').id], { autoApprove: true }));
      expect(self.status, JSON.stringify(self.body)).to.equal(403);
      expect(self.body.code).to.equal('access.own_request_target');
      expect(await db().query('SELECT status FROM operation_requests WHERE user_id = $1', [w.callers.admin.id])).to.deep.equal([]);
      expect(await ownRoles(w.callers.admin.id, sibling.id)).to.deep.equal([]);
    });
  });

  describe('what may be requested', () => {
    it('refuses (400) a role without operation-request visibility, God and Administrator (even flagged), a role of a deleted application', async () => {
      const user = await target();
      const godAndAdmin = [w.identity.roleByName.God!.id, w.identity.roleByName.Administrator!.id];
      await makeRequestable(w.context, godAndAdmin);
      const gone = await buildApplication(db(), { roles: ['Gone'] });
      await makeRequestable(w.context, [gone.roleByName.Gone!.id]);
      await db().query('DELETE FROM applications WHERE id = $1', [gone.id]);
      const cases: Array<[string, string]> = [
        [role('Hidden').id, 'operationRequests.role_not_requestable'],
        [godAndAdmin[0]!, 'operationRequests.role_not_requestable'],
        [godAndAdmin[1]!, 'operationRequests.role_not_requestable'],
        [gone.roleByName.Gone!.id, 'operationRequests.role_not_found'],
      ];
      for (const [roleId, code] of cases) {
        const res = await admin('post', '', body(tenantA, user.id, [role('Reader').id, roleId]));
        expect(res.status, code).to.equal(400);
        expect(res.body.code).to.equal(code);
      }
      expect(await db().query('SELECT 1 FROM operation_requests WHERE user_id = $1', [user.id])).to.deep.equal([]);
      await db().query('UPDATE roles SET operation_request_visibility = false WHERE id = ANY($1::uuid[])', [godAndAdmin]);
    });

    it('refuses the Users group, and the Global tenant', async () => {
      const users = await buildGroup(db(), { areaId: w.areaA.id, name: 'Users' });
      await grant(db(), { tenant: GLOBAL_TENANT_ID, group: users, roles: [] });
      const res = await admin('post', '', { tenantId: tenantA.id, identityType: 'Group', identityId: users.id, roles: [role('Reader').id] });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('operationRequests.users_group');
      const global = await admin('post', '', { tenantId: GLOBAL_TENANT_ID, identityType: 'User', identityId: (await target()).id, roles: [role('Reader').id] });
      expect(global.status).to.equal(400);
      // Another group gets its roles like a user.
      const group = await buildGroup(db(), { areaId: w.areaA.id });
      const created = await as(consultant, 'post', '', { tenantId: tenantA.id, identityType: 'Group', identityId: group.id, roles: [role('Reader').id] });
      expect(created.status).to.equal(201);
      expect((await as(approver, 'post', `/approve/${created.body.id}`, SEEN)).status).to.equal(200);
      const held = await db().query('SELECT tmr.role_id FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id WHERE tm.group_id = $1', [group.id]);
      expect(held.map((r: { role_id: string }) => r.role_id)).to.deep.equal([role('Reader').id]);
    });

    it('rolls back (409, nothing half-applied) when a requested role is deleted before the approval', async () => {
      const doomed = await buildApplication(db(), { roles: ['Temp'] });
      await makeRequestable(w.context, [doomed.roleByName.Temp!.id]);
      const user = await target();
      await grant(db(), { tenant: tenantA, user, roles: [role('Writer')] });
      const { body: created } = await as(consultant, 'post', '', body(tenantA, user.id, [role('Reader').id, doomed.roleByName.Temp!.id]));
      await db().query('DELETE FROM roles WHERE id = $1', [doomed.roleByName.Temp!.id]);
      const res = await as(approver, 'post', `/approve/${created.id}`, SEEN);
      expect(res.status).to.equal(409);
      expect(res.body.code).to.equal('operationRequests.rolled_back');
      expect(res.body.message).to.contain('a requested role no longer exists');
      expect(await status(created.id)).to.deep.equal({ status: 'RollBack', reason: 'a requested role no longer exists' });
      expect(await ownRoles(user.id, tenantA.id)).to.deep.equal(['Writer']);
      expect(await approveLogs(created.id)).to.deep.equal([]);
      const history = await as(consultant, 'get', `/history/${created.id}`);
      expect(history.body.items.map((h: { status: string }) => h.status)).to.deep.equal(['WaitingForApprover', 'RollBack']);
      const listed = await as(consultant, 'get', `?tenantId=${tenantA.id}&status=RollBack`);
      expect(listed.body.items.find((i: { id: string }) => i.id === created.id).reason).to.equal('a requested role no longer exists');
    });
  });

  describe('in bulk', () => {
    it('approves each request on its own: one not approvable gets its error, the others are applied', async () => {
      const users = [await target(), await target()];
      const ids: string[] = [];
      for (const user of users) ids.push(await waitingRequest(w.context, { tenantId: tenantA.id, userId: user.id, roleIds: [role('Reader').id], createdById: consultant.id }));
      const own = await waitingRequest(w.context, { tenantId: tenantA.id, userId: (await target()).id, roleIds: [role('Reader').id], createdById: approver.id });
      const outside = await waitingRequest(w.context, { tenantId: sibling.id, userId: (await target()).id, roleIds: [role('Reader').id], createdById: consultant.id });
      const all = [ids[0]!, own, outside, ids[1]!];
      const res = await as(approver, 'post', '/approveInBulk', { ids: all, versions: Object.fromEntries(all.map((id) => [id, 1])) });
      expect(res.status).to.equal(200);
      const byId = new Map(res.body.items.map((i: { id: string }) => [i.id, i]));
      expect(byId.get(ids[0]!)).to.deep.equal({ id: ids[0], status: 'Applied' });
      expect(byId.get(ids[1]!)).to.deep.equal({ id: ids[1], status: 'Applied' });
      expect((byId.get(own) as { error: { code: string; message: string } }).error).to.deep.equal({
        code: 'operationRequests.own_request',
        message: 'You cannot approve or reject a request you created',
      });
      expect((byId.get(outside) as { error: { code: string } }).error.code).to.equal('operationRequests.not_found');
      for (const user of users) expect(await ownRoles(user.id, tenantA.id)).to.deep.equal(['Reader']);
      expect((await status(own)).status).to.equal('WaitingForApprover');

      const rejected = await as(approver2, 'post', '/rejectInBulk', { ids: [own], reason: 'Duplicate' });
      expect(rejected.body.items).to.deep.equal([{ id: own, status: 'Rejected' }]);
      const tooMany = Array.from({ length: 101 }, () => ids[0]);
      expect((await as(approver, 'post', '/approveInBulk', { ids: tooMany, versions: {} })).status).to.equal(400);
    });
  });

  describe('telling the approvers', () => {
    it('sends each approving consultant a notification and a mail in their own language, never the requester', async () => {
      const tenant = await buildTenant(db(), { areaId: w.areaA.id });
      const french = await consultantOf(tenant, 'Country Manager', { language: 'fr' });
      const german = await consultantOf(tenant, 'Director', { language: 'de' });
      const requester = await consultantOf(tenant, 'Manager');
      const notApprover = await consultantOf(tenant, null);
      const user = await target({ firstName: 'Ada', lastName: 'Lovelace' });
      const res = await as(requester, 'post', '', body(tenant, user.id, [role('Reader').id]));
      expect(res.status).to.equal(201);
      const [fr] = await notificationsOf(french.id);
      expect(fr.type).to.equal('OperationRequest');
      expect(fr.description).to.contain('demande des rôles pour Ada Lovelace');
      const [de] = await notificationsOf(german.id);
      expect(de.description).to.contain('fragt Rollen für Ada Lovelace');
      expect(await notificationsOf(requester.id)).to.deep.equal([]);
      expect(await notificationsOf(notApprover.id)).to.deep.equal([]);
      const mails = await db().query(`SELECT to_address, template, language FROM mail_outbox WHERE template = 'operation-request' AND to_address = ANY($1::text[]) ORDER BY language`, [
        [french.email, german.email, requester.email, notApprover.email],
      ]);
      expect(mails).to.deep.equal([
        { to_address: german.email, template: 'operation-request', language: 'de' },
        { to_address: french.email, template: 'operation-request', language: 'fr' },
      ]);
    });
  });

  describe('tokens', () => {
    it('accepts a personal access token of a consultant, with the same tenant checks', async () => {
      const token = `gpat_${randomToken(32)}`;
      await db().query(`INSERT INTO personal_access_tokens (name, user_id, application_id, token_hash, token_prefix) VALUES ('ci', $1, $2, $3, 'gpat_')`, [
        approver.id,
        IDENTITY_APPLICATION_ID,
        sha256(token),
      ]);
      expect((await send('get', `?tenantId=${tenantA.id}`, token)).status).to.equal(200);
      expect((await send('get', `?tenantId=${sibling.id}`, token)).status).to.equal(403);
      const user = await target();
      expect((await send('post', '', token, body(tenantA, user.id, [role('Reader').id]))).status).to.equal(201);
      expect((await send('post', '', token, body(sibling, user.id, [role('Reader').id]))).status).to.equal(403);
    });

    it('accepts the portal’s session token here, and still not on the console’s endpoints', async () => {
      const id = randomBytes(32).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      const clientId = w.context.config.oidc.portalClientId;
      await db().query(
        `INSERT INTO oidc_model_instances (model, id, payload, grant_id, expires_at) VALUES ('AccessToken', $1, $2, $3, now() + interval '1 hour')`,
        [id, { kind: 'AccessToken', jti: id, accountId: consultant.id, clientId, grantId: `grant-${id}`, scope: 'openid profile', iat: now, exp: now + 3600 }, `grant-${id}`],
      );
      expect((await send('get', `?tenantId=${tenantA.id}`, id)).status).to.equal(200);
      expect((await send('get', `?tenantId=${sibling.id}`, id)).status).to.equal(403);
      expect((await send('get', '/api/v1/admin/tenants', id)).status).to.equal(403);
    });
  });
});
