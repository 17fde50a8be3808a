import { randomBytes, randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, type User } from '@gatehouse/core';
import { buildGroup, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { call, userIn } from '../../testing/admin-world.js';
import { logsAbout } from '../users/testing.js';
import { accessLogsOf, buildExternalWorld, external, personalAccessToken, type ExternalWorld } from './testing.js';

describe('External API: invitations', () => {
  let w: ExternalWorld;

  before(async () => {
    w = await buildExternalWorld();
  });

  const db = () => w.context.dataSource;
  const address = (prefix = 'invitee') => `${prefix}-${randomBytes(5).toString('hex')}@acme.example`;
  const userByName = async (userName: string) =>
    (
      await db().query(
        'SELECT id, area_id, language, draft, password_hash, created_for_tenant_id, created_by_application_id, first_name FROM users WHERE normalized_user_name = $1',
        [userName.toLowerCase()],
      )
    )[0];
  const ownRoles = async (userId: string, tenantId: string) =>
    (
      await db().query(
        `SELECT r.name FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id JOIN roles r ON r.id = tmr.role_id
          WHERE tm.user_id = $1 AND tm.tenant_id = $2 ORDER BY r.name`,
        [userId, tenantId],
      )
    ).map((row: { name: string }) => row.name);
  const mailsTo = (email: string) => db().query(`SELECT template, language FROM mail_outbox WHERE to_address = $1`, [email]);
  const usersNamed = async (email: string) => Number((await db().query('SELECT count(*) AS n FROM users WHERE normalized_user_name = $1', [email.toLowerCase()]))[0].n);
  const requestById = async (id: string) =>
    (await db().query('SELECT status, user_id, tenant_id, payload, created_by_id FROM operation_requests WHERE id = $1', [id]))[0];
  const requestsFor = async (userId: string) =>
    (await db().query('SELECT id, status FROM operation_requests WHERE user_id = $1 ORDER BY created_at', [userId])) as Array<{ id: string; status: string }>;
  /** A result as the application sees it, without what differs from invitee to invitee (the address, the request's id). */
  const shape = ({ email: _email, operationRequestId, ...rest }: Record<string, unknown>) => ({ ...rest, operationRequestId: typeof operationRequestId });
  /** A user the application serves: holding one of its roles (Reader in tenant A's child, so no membership of tenant A yet). */
  const servedUser = async () => {
    const user = await userIn(w, w.areaA);
    await grant(db(), { tenant: w.childA, user, roles: [w.crm.roleByName.Reader!] });
    return user;
  };

  describe('POST /api/v1/external/tenants/{tenantId}/invitations (InviteUsers)', () => {
    it('gives an account it serves the roles at once; any other address, known or not, becomes an operation request answered alike (Requested, no user id)', async () => {
      const fresh = address('ana');
      const stranger = await userIn(w, w.areaB, { language: 'fr' });
      const served = await servedUser();
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, {
        body: {
          users: [
            { email: fresh, firstName: 'Ana', lastName: 'García', language: 'es' },
            { email: stranger.email.toUpperCase(), firstName: 'Sam', lastName: 'Stranger' },
            { email: served.email },
          ],
          roles: [w.crm.roleByName.Partner!.id],
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const created = await userByName(fresh);
      const [freshItem, strangerItem, servedItem] = res.body.items;
      const requested = { status: 'Requested', userId: null, created: false, invitationSent: false, rolesAdded: [], error: null };
      expect(res.body).to.deep.equal({
        tenantId: w.tenantA.id,
        tenantName: w.tenantA.title,
        items: [
          { email: fresh, ...requested, operationRequestId: freshItem.operationRequestId },
          { email: stranger.email.toUpperCase(), ...requested, operationRequestId: strangerItem.operationRequestId },
          { email: served.email, status: 'Granted', userId: served.id, created: false, invitationSent: false, rolesAdded: ['Partner'], operationRequestId: null, error: null },
        ],
      });
      // Nothing in the answer tells a new address from an existing account the application does not serve.
      expect(shape(freshItem)).to.deep.equal(shape(strangerItem));
      expect(freshItem.operationRequestId).to.be.a('string').and.not.equal(strangerItem.operationRequestId);

      // A new address: a draft of the tenant's area, created for the tenant by the application, with no password and no mail yet.
      expect(created).to.deep.include({
        area_id: w.areaA.id,
        language: 'es',
        draft: true,
        password_hash: null,
        created_for_tenant_id: w.tenantA.id,
        created_by_application_id: w.crm.id,
        first_name: 'Ana',
      });
      // An existing account stays as it was: not a draft, not the application's creation.
      expect(await userByName(stranger.userName)).to.deep.include({ area_id: w.areaB.id, draft: false, created_for_tenant_id: null, created_by_application_id: null });
      const request = (userId: string) => ({ status: 'WaitingForApprover', user_id: userId, tenant_id: w.tenantA.id, payload: { roles: [w.crm.roleByName.Partner!.id], isInheritable: true }, created_by_id: null });
      expect(await requestById(freshItem.operationRequestId)).to.deep.equal(request(created.id));
      expect(await requestById(strangerItem.operationRequestId)).to.deep.equal(request(stranger.id));

      // Only the account it serves holds the role now.
      expect(await ownRoles(created.id, w.tenantA.id)).to.deep.equal([]);
      expect(await ownRoles(stranger.id, w.tenantA.id)).to.deep.equal([]);
      expect(await ownRoles(served.id, w.tenantA.id)).to.deep.equal(['Partner']);
      for (const email of [fresh, stranger.email, served.email]) expect(await mailsTo(email), email).to.deep.equal([]);
      expect(await db().query(`SELECT type FROM notifications WHERE user_id = $1`, [served.id])).to.deep.equal([{ type: 'PermissionAssigned' }]);
      expect(await db().query(`SELECT type FROM notifications WHERE user_id = $1`, [stranger.id])).to.deep.equal([]);

      // The new user's only row is its creation (no grant, no invitation); the grant is one Permission row by the external path.
      const createdLogs = await db().query(`SELECT operation, user_id, user_name, metadata->>'via' AS via FROM system_logs WHERE metadata->>'targetUserId' = $1 ORDER BY id`, [created.id]);
      expect(createdLogs).to.deep.equal([{ operation: 'CreateUser', user_id: null, user_name: w.crm.name, via: null }]);
      const [grantLog, ...more] = await logsAbout(w, served.id);
      expect(more).to.deep.equal([]);
      expect(grantLog).to.deep.include({ operation: 'Permission', user_id: null, user_name: w.crm.name, tenant_id: w.tenantA.id, tenant_name: w.tenantA.title });
      expect(grantLog!.metadata).to.deep.equal({
        action: 'grant',
        via: 'external',
        identityType: 'User',
        targetUserId: served.id,
        targetUserName: served.userName,
        added: [{ roleId: w.crm.roleByName.Partner!.id, roleName: 'Partner', applicationId: w.crm.id, applicationName: w.crm.name }],
        removed: [],
        membershipCreated: true,
        isInheritable: true,
        application: w.crm.name,
        applicationId: w.crm.id,
      });
    });

    it('asks the names of every address it does not serve, known or not, alike; an account it serves needs none, and held roles are not added twice', async () => {
      const nameless = address('nameless');
      const known = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: known, roles: [w.erp.roleByName.Clerk!] });
      const holder = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: holder, roles: [w.crm.roleByName.Partner!] });
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, {
        body: { users: [{ email: nameless, firstName: 'Only' }, { email: known.email, lastName: 'Known' }, { email: holder.email }], roles: ['Partner'] },
        lang: 'fr',
      });
      expect(res.status).to.equal(200);
      const failed = {
        status: 'Failed',
        userId: null,
        created: false,
        invitationSent: false,
        rolesAdded: [],
        operationRequestId: null,
        error: { code: 'external.names_required', message: 'Un nouvel utilisateur doit avoir un prénom et un nom' },
      };
      expect(res.body.items).to.deep.equal([
        { email: nameless, ...failed },
        { email: known.email, ...failed },
        { email: holder.email, status: 'Granted', userId: holder.id, created: false, invitationSent: false, rolesAdded: [], operationRequestId: null, error: null },
      ]);
      expect(await usersNamed(nameless)).to.equal(0);
      expect(await requestsFor(known.id)).to.deep.equal([]);
      expect(await ownRoles(known.id, w.tenantA.id)).to.deep.equal(['Clerk']);
      expect(await ownRoles(holder.id, w.tenantA.id)).to.deep.equal(['Partner']);
      expect(await logsAbout(w, holder.id), 'nothing changed, nothing logged').to.deep.equal([]);
    });

    it('gives a role operation requests cannot give only to accounts it serves: any other address fails alike, and nobody is created', async () => {
      const fresh = address('unrequestable');
      const known = await userIn(w, w.areaA);
      const served = await servedUser();
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, {
        body: { users: [{ email: fresh, firstName: 'U', lastName: 'R' }, { email: known.email, firstName: 'K', lastName: 'N' }, { email: served.email }], roles: ['Sales'] },
      });
      expect(res.status).to.equal(200);
      const failed = {
        status: 'Failed',
        userId: null,
        created: false,
        invitationSent: false,
        rolesAdded: [],
        operationRequestId: null,
        error: { code: 'operationRequests.role_not_requestable', message: 'The role Sales cannot be requested through an operation request' },
      };
      expect(res.body.items).to.deep.equal([
        { email: fresh, ...failed },
        { email: known.email, ...failed },
        { email: served.email, status: 'Granted', userId: served.id, created: false, invitationSent: false, rolesAdded: ['Sales'], operationRequestId: null, error: null },
      ]);
      expect(await usersNamed(fresh)).to.equal(0);
      expect(await requestsFor(known.id)).to.deep.equal([]);
      expect(await ownRoles(served.id, w.tenantA.id)).to.deep.equal(['Sales']);
    });

    it('keeps an existing membership’s inheritance: the roles of other applications depend on it', async () => {
      const member = await servedUser();
      await grant(db(), { tenant: w.tenantA, user: member, roles: [w.erp.roleByName.Clerk!], inheritable: true });
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email: member.email }], roles: ['Reader'], isInheritable: false } });
      expect(res.body.items[0]).to.deep.include({ status: 'Granted', userId: member.id, rolesAdded: ['Reader'] });
      const [membership] = await db().query('SELECT is_inheritable FROM tenant_members WHERE user_id = $1 AND tenant_id = $2', [member.id, w.tenantA.id]);
      expect(membership.is_inheritable).to.equal(true);
      expect(await ownRoles(member.id, w.tenantA.id)).to.deep.equal(['Clerk', 'Reader']);
      const [log] = await logsAbout(w, member.id);
      expect(log!.metadata, 'no membership created, its inheritance unchanged').not.to.have.any.keys('membershipCreated', 'isInheritable');
    });

    it('no longer serves an account whose access it ended (LockUser), though a group still gives it one of its roles: a request, not a grant', async () => {
      const user = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Sales!] });
      await grant(db(), { tenant: w.childA, group: await buildGroup(db(), { areaId: w.areaA.id, members: [user] }), roles: [w.crm.roleByName.Reader!] });
      const locked = await external(w, w.crm, 'post', `/users/${user.id}/lock`);
      expect(locked.body).to.deep.include({ locked: false, scope: 'application' });
      const without = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email: user.email }], roles: ['Partner'] } });
      expect(without.body.items[0]).to.deep.include({ status: 'Failed', userId: null, error: { code: 'external.names_required', message: 'A new user needs a first name and a last name' } });
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email: user.email, firstName: 'B', lastName: 'L' }], roles: ['Partner'] } });
      expect(res.body.items[0]).to.deep.include({ status: 'Requested', userId: null, created: false, rolesAdded: [] });
      expect((await requestById(res.body.items[0].operationRequestId)).user_id).to.equal(user.id);
      expect(await ownRoles(user.id, w.tenantA.id)).to.deep.equal([]);
    });

    it("refuses the whole call, creating nobody: another application's role, the Global tenant, a tenant it does not see, a repeated address", async () => {
      const email = address('refused');
      const cases: Array<[string, string, unknown, number, string]> = [
        ['another application’s role', w.tenantA.id, { users: [{ email, firstName: 'R', lastName: 'F' }], roles: ['Clerk'] }, 400, 'external.role_not_found'],
        ['another application’s role id', w.tenantA.id, { users: [{ email, firstName: 'R', lastName: 'F' }], roles: [w.erp.roleByName.Clerk!.id] }, 400, 'external.role_not_found'],
        ['the Global tenant', GLOBAL_TENANT_ID, { users: [{ email, firstName: 'R', lastName: 'F' }], roles: ['Sales'] }, 400, 'external.global_tenant'],
        ['a tenant it does not see', w.tenantB.id, { users: [{ email, firstName: 'R', lastName: 'F' }], roles: ['Sales'] }, 404, 'external.tenant_not_found'],
        ['an unknown tenant', randomUUID(), { users: [{ email, firstName: 'R', lastName: 'F' }], roles: ['Sales'] }, 404, 'external.tenant_not_found'],
        ['a repeated address', w.tenantA.id, { users: [{ email, firstName: 'R', lastName: 'F' }, { email: email.toUpperCase() }], roles: ['Sales'] }, 400, 'errors.validation'],
        ['no role', w.tenantA.id, { users: [{ email }], roles: [] }, 400, 'errors.validation'],
        ['a malformed address', w.tenantA.id, { users: [{ email: 'not an address' }], roles: ['Sales'] }, 400, 'errors.validation'],
      ];
      for (const [name, tenantId, body, status, code] of cases) {
        const res = await external(w, w.crm, 'post', `/tenants/${tenantId}/invitations`, { body });
        expect(res.status, name).to.equal(status);
        expect(res.body.code, name).to.equal(code);
      }
      const repeated = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: cases[5]![2] });
      expect(repeated.body.errors).to.deep.equal([{ field: 'users.1.email', code: 'external.duplicate_invitee', message: 'This e-mail address appears more than once in the call' }]);
      const tooMany = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, {
        body: { users: Array.from({ length: 101 }, (_, i) => ({ email: `many-${i}@acme.example` })), roles: ['Sales'] },
      });
      expect(tooMany.status).to.equal(400);
      expect(await usersNamed(email)).to.equal(0);
    });
  });

  describe('POST /api/v1/external/tenants/{tenantId}/invitationRequests (InviteUsersWithOperationRequest)', () => {
    it('asks the approvers: a new address becomes a draft the application created, answered without a user id; nothing is granted until approved', async () => {
      const fresh = address('requested');
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { body: { users: [{ email: fresh, firstName: 'Rui', lastName: 'Costa' }], roles: ['Partner'] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const created = await userByName(fresh);
      const [item] = res.body.items;
      expect(item).to.deep.equal({
        email: fresh,
        status: 'Requested',
        userId: null,
        created: false,
        invitationSent: false,
        rolesAdded: [],
        operationRequestId: item.operationRequestId,
        error: null,
      });
      expect(item.operationRequestId).to.be.a('string');
      expect(created).to.deep.include({ draft: true, created_for_tenant_id: w.tenantA.id, created_by_application_id: w.crm.id, area_id: w.areaA.id, password_hash: null });
      expect(await requestById(item.operationRequestId)).to.deep.equal({
        status: 'WaitingForApprover',
        user_id: created.id,
        created_by_id: null,
        payload: { roles: [w.crm.roleByName.Partner!.id], isInheritable: true },
        tenant_id: w.tenantA.id,
      });
      expect(await ownRoles(created.id, w.tenantA.id)).to.deep.equal([]);
      expect(await mailsTo(fresh)).to.deep.equal([]);
      // Without a consultant in the tenant, the administrators are asked.
      const asked = await db().query(`SELECT description FROM notifications WHERE user_id = $1 AND type = 'OperationRequest' ORDER BY created_at DESC LIMIT 1`, [w.callers.admin.id]);
      expect(asked[0].description).to.contain('CRM');
      const approved = await call(w, 'post', `/operationRequests/approve/${item.operationRequestId}`, { body: { version: 1 } });
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      expect(await ownRoles(created.id, w.tenantA.id)).to.deep.equal(['Partner']);
      expect((await userByName(fresh)).draft).to.equal(false);
      // Approved, the account is one the application serves: its roles are given at once, and it is named.
      const served = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email: fresh }], roles: ['Sales'] } });
      expect(served.body.items[0]).to.deep.include({ status: 'Granted', userId: created.id, created: false, rolesAdded: ['Sales'], operationRequestId: null });
    });

    it('names the user only for an account it serves; an existing account it does not serve is answered as a new address would be', async () => {
      const served = await servedUser();
      const stranger = await userIn(w, w.areaA);
      const holder = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: holder, roles: [w.crm.roleByName.Partner!] });
      const fresh = address('fresh');
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, {
        body: {
          users: [{ email: served.email }, { email: stranger.email, firstName: 'S', lastName: 'T' }, { email: fresh, firstName: 'F', lastName: 'R' }, { email: holder.email }],
          roles: ['Partner'],
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [servedItem, strangerItem, freshItem, holderItem] = res.body.items;
      expect(servedItem).to.deep.include({ status: 'Requested', userId: served.id, created: false, invitationSent: false, rolesAdded: [], error: null });
      expect(strangerItem).to.deep.include({ status: 'Requested', userId: null, created: false, invitationSent: false, rolesAdded: [], error: null });
      expect(shape(strangerItem)).to.deep.equal(shape(freshItem));
      // Nothing is asked for an account that already holds every role.
      expect(holderItem).to.deep.equal({ email: holder.email, status: 'Granted', userId: holder.id, created: false, invitationSent: false, rolesAdded: [], operationRequestId: null, error: null });
      expect((await requestById(servedItem.operationRequestId)).user_id).to.equal(served.id);
      expect((await requestById(strangerItem.operationRequestId)).user_id).to.equal(stranger.id);
      expect(await requestsFor(holder.id)).to.deep.equal([]);
      expect(await ownRoles(served.id, w.tenantA.id), 'a request, even for an account it serves').to.deep.equal([]);
      expect(await ownRoles(stranger.id, w.tenantA.id)).to.deep.equal([]);
      const nameless = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { body: { users: [{ email: address('nameless') }, { email: (await userIn(w, w.areaA)).email }], roles: ['Partner'] } });
      expect(nameless.body.items.map((i: { status: string; userId: null; error: { code: string } }) => [i.status, i.userId, i.error.code])).to.deep.equal([
        ['Failed', null, 'external.names_required'],
        ['Failed', null, 'external.names_required'],
      ]);
    });

    it("keeps in the request the roles the user already holds there, of every application: it never takes another's away", async () => {
      const user = await userIn(w, w.areaA);
      await db().query('UPDATE roles SET operation_request_visibility = true WHERE id = $1', [w.erp.roleByName.Clerk!.id]);
      try {
        await grant(db(), { tenant: w.tenantA, user, roles: [w.erp.roleByName.Clerk!] });
        const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { body: { users: [{ email: user.email, firstName: 'K', lastName: 'C' }], roles: ['Partner'] } });
        const [item] = res.body.items;
        expect(item).to.deep.include({ status: 'Requested', userId: null, created: false });
        const request = await requestById(item.operationRequestId);
        expect(request.user_id).to.equal(user.id);
        expect(request.payload.roles).to.have.members([w.erp.roleByName.Clerk!.id, w.crm.roleByName.Partner!.id]);
        expect((await call(w, 'post', `/operationRequests/approve/${item.operationRequestId}`, { body: { version: 1 } })).status).to.equal(200);
        expect(await ownRoles(user.id, w.tenantA.id)).to.deep.equal(['Clerk', 'Partner']);
      } finally {
        await db().query('UPDATE roles SET operation_request_visibility = false WHERE id = $1', [w.erp.roleByName.Clerk!.id]);
      }
    });

    it('fails each invitee on a role that operation requests cannot give, creating nobody; an invitee with a request already waiting fails on its own (409)', async () => {
      const email = address('refused');
      const refused = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { body: { users: [{ email, firstName: 'A', lastName: 'B' }], roles: ['Partner', 'Sales'] } });
      expect(refused.status).to.equal(200);
      expect(refused.body.items).to.deep.equal([
        {
          email,
          status: 'Failed',
          userId: null,
          created: false,
          invitationSent: false,
          rolesAdded: [],
          operationRequestId: null,
          error: { code: 'operationRequests.role_not_requestable', message: 'The role Sales cannot be requested through an operation request' },
        },
      ]);
      expect(await usersNamed(email)).to.equal(0);
      const user = await userIn(w, w.areaA);
      const body = { users: [{ email: user.email, firstName: 'W', lastName: 'A' }], roles: ['Partner'] };
      const first = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { body });
      expect(first.body.items[0]).to.deep.include({ status: 'Requested', userId: null });
      const again = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { body });
      expect(again.status).to.equal(200);
      expect(again.body.items[0]).to.deep.include({ status: 'Failed', userId: null, created: false, operationRequestId: null });
      expect(again.body.items[0].error).to.deep.equal({
        code: 'operationRequests.already_waiting',
        message: 'A request for this identity in this tenant is already waiting for approval: edit it instead',
      });
      expect(await requestsFor(user.id)).to.deep.equal([{ id: first.body.items[0].operationRequestId, status: 'WaitingForApprover' }]);
    });

    it("makes the token's owner the requester of a request made with their personal access token", async () => {
      const { token } = await personalAccessToken(w, w.callers.admin, w.crm);
      const user = await userIn(w, w.areaA);
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { token, body: { users: [{ email: user.email, firstName: 'P', lastName: 'A' }], roles: ['Partner'] } });
      expect(res.body.items[0]).to.deep.include({ status: 'Requested', userId: null });
      const request = await requestById(res.body.items[0].operationRequestId);
      expect(request).to.deep.include({ user_id: user.id, created_by_id: w.callers.admin.id });
      // Four eyes: the owner cannot approve the request they made through the application.
      const own = await call(w, 'post', `/operationRequests/approve/${res.body.items[0].operationRequestId}`, { body: { version: 1 } });
      expect(own.status).to.equal(403);
    });
  });

  describe('Idempotency-Key', () => {
    // The same body on both routes: a new address becomes an operation request for Partner either way.
    const invite = (email: string, key: string, app = w.crm, path = 'invitations') =>
      external(w, app, 'post', `/tenants/${w.tenantA.id}/${path}`, { body: { users: [{ email, firstName: 'Ida', lastName: 'Empotent' }], roles: ['Partner'] }, headers: { 'Idempotency-Key': key } });
    /** The operation requests for the user of this address. */
    const requestsOf = async (email: string) => requestsFor((await userByName(email)).id);

    it('answers a retry with the first answer, creating nobody and asking nothing twice', async () => {
      const email = address('retry');
      const key = randomUUID();
      const first = await invite(email, key);
      expect(first.status).to.equal(200);
      expect(first.headers['idempotent-replayed']).to.equal(undefined);
      const second = await invite(email, key);
      expect(second.status).to.equal(200);
      expect(second.headers['idempotent-replayed']).to.equal('true');
      expect(second.body).to.deep.equal(first.body);
      expect(first.body.items[0]).to.deep.include({ status: 'Requested', userId: null, created: false });
      expect(await usersNamed(email)).to.equal(1);
      expect(await requestsOf(email)).to.deep.equal([{ id: first.body.items[0].operationRequestId, status: 'WaitingForApprover' }]);
      expect(await mailsTo(email)).to.deep.equal([]);
      const logs = (await accessLogsOf(w, w.crm)).filter((row) => row.metadata.idempotencyKey === key);
      expect(logs.map((row) => row.metadata.replayed)).to.deep.equal([false, true]);
    });

    it('refuses the key for another call (422): another body, another route; another caller’s key is its own', async () => {
      const key = randomUUID();
      const email = address('first');
      expect((await invite(email, key)).status).to.equal(200);
      const otherBody = await invite(address('second'), key);
      expect(otherBody.status).to.equal(422);
      expect(otherBody.body).to.include({ code: 'external.idempotency_key_reused', message: 'This idempotency key was already used for another call' });
      expect((await invite(email, key, w.crm, 'invitationRequests')).status).to.equal(422);
      // erp serves Ann (she holds Clerk): its call under the same key runs, and gives at once.
      const erp = await external(w, w.erp, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email: w.ann.email }], roles: ['Clerk'] }, headers: { 'Idempotency-Key': key } });
      expect(erp.status).to.equal(200);
      expect(erp.headers['idempotent-replayed']).to.equal(undefined);
      expect(erp.body.items[0]).to.deep.include({ status: 'Granted', userId: w.ann.id, rolesAdded: [] });
    });

    it('asks once when two calls with the same key race; the loser is told to retry (409) or gets the same answer', async () => {
      const email = address('race');
      const key = randomUUID();
      const answers = await Promise.all([invite(email, key), invite(email, key)]);
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses[0]).to.equal(200);
      expect([200, 409]).to.include(statuses[1]);
      const winners = answers.filter((res) => res.status === 200);
      for (const res of winners) expect(res.body).to.deep.equal(winners[0]!.body);
      const loser = answers.find((res) => res.status === 409);
      if (loser) expect(loser.body.code).to.equal('external.idempotency_in_progress');
      expect(winners[0]!.body.items[0]).to.deep.include({ status: 'Requested', userId: null });
      expect(await usersNamed(email)).to.equal(1);
      expect(await requestsOf(email)).to.deep.equal([{ id: winners[0]!.body.items[0].operationRequestId, status: 'WaitingForApprover' }]);
      expect(await mailsTo(email)).to.deep.equal([]);
      const retry = await invite(email, key);
      expect(retry.body).to.deep.equal(winners[0]!.body);
    });

    it('keeps no answer for a call refused as a whole: its retry runs again', async () => {
      const key = randomUUID();
      const hidden = await external(w, w.crm, 'post', `/tenants/${w.tenantB.id}/invitations`, { body: { users: [{ email: address() }], roles: ['Sales'] }, headers: { 'Idempotency-Key': key } });
      expect(hidden.status).to.equal(404);
      const again = await external(w, w.crm, 'post', `/tenants/${w.tenantB.id}/invitations`, { body: { users: [{ email: address() }], roles: ['Sales'] }, headers: { 'Idempotency-Key': key } });
      expect(again.status, 'a new body under the freed key is no reuse').to.equal(404);
      expect(await db().query('SELECT 1 FROM external_api_idempotency_keys WHERE idempotency_key = $1', [key])).to.deep.equal([]);
    });

    it('refuses a malformed key (400)', async () => {
      const res = await invite(address(), 'x'.repeat(201));
      expect(res.status).to.equal(400);
      expect(res.body.errors[0].field).to.equal('idempotency-key');
    });
  });

  it('logs who was invited and what became of them, naming only the accounts it serves', async () => {
    const email = address('logged');
    const stranger: User = await userIn(w, w.areaA);
    const served = await servedUser();
    await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, {
      body: { users: [{ email, firstName: 'L', lastName: 'G' }, { email: stranger.email, firstName: 'S', lastName: 'T' }, { email: served.email }], roles: ['Partner'] },
    });
    const row = (await accessLogsOf(w, w.crm)).at(-1)!;
    expect(row).to.deep.include({ api_entry: 'InviteUsers', user_id: null, user_name: w.crm.name });
    expect(row.metadata).to.deep.include({ tenantId: w.tenantA.id, invitees: [email, stranger.email, served.email], roles: ['Partner'], status: 200, replayed: false, via: 'client_credentials' });
    const [forNew] = await requestsFor((await userByName(email)).id);
    const [forStranger] = await requestsFor(stranger.id);
    expect(row.metadata.results).to.deep.equal([
      { email, status: 'Requested', userId: null, operationRequestId: forNew!.id, error: null },
      { email: stranger.email, status: 'Requested', userId: null, operationRequestId: forStranger!.id, error: null },
      { email: served.email, status: 'Granted', userId: served.id, operationRequestId: null, error: null },
    ]);
  });
});
