import { randomBytes, randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, type User } from '@gatehouse/core';
import { grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { call, userIn } from '../../testing/admin-world.js';
import { accessLogsOf, buildExternalWorld, external, personalAccessToken, type ExternalWorld } from './testing.js';

describe('External API: invitations', () => {
  let w: ExternalWorld;

  before(async () => {
    w = await buildExternalWorld();
  });

  const db = () => w.context.dataSource;
  const address = (prefix = 'invitee') => `${prefix}-${randomBytes(5).toString('hex')}@acme.example`;
  const userByName = async (userName: string) =>
    (await db().query('SELECT id, area_id, language, draft, password_hash, created_for_tenant_id, first_name FROM users WHERE normalized_user_name = $1', [userName.toLowerCase()]))[0];
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

  describe('POST /api/v1/external/tenants/{tenantId}/invitations (InviteUsers)', () => {
    it('creates a new user of the tenant’s area with the roles and mails the invitation; gives an existing user the roles', async () => {
      const fresh = address('ana');
      const colleague = await userIn(w, w.areaB, { language: 'fr' });
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, {
        body: { users: [{ email: fresh, firstName: 'Ana', lastName: 'García', language: 'es' }, { email: colleague.email.toUpperCase() }], roles: ['Sales', w.crm.roleByName.Reader!.id] },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const created = await userByName(fresh);
      expect(res.body).to.deep.equal({
        tenantId: w.tenantA.id,
        tenantName: w.tenantA.title,
        items: [
          { email: fresh, status: 'Created', userId: created.id, created: true, invitationSent: true, rolesAdded: ['Sales', 'Reader'], operationRequestId: null, error: null },
          { email: colleague.email.toUpperCase(), status: 'Granted', userId: colleague.id, created: false, invitationSent: false, rolesAdded: ['Sales', 'Reader'], operationRequestId: null, error: null },
        ],
      });
      expect(created).to.deep.include({ area_id: w.areaA.id, language: 'es', draft: false, password_hash: null, created_for_tenant_id: null, first_name: 'Ana' });
      expect(await ownRoles(created.id, w.tenantA.id)).to.deep.equal(['Reader', 'Sales']);
      expect(await ownRoles(colleague.id, w.tenantA.id)).to.deep.equal(['Reader', 'Sales']);
      expect(await mailsTo(fresh)).to.deep.equal([{ template: 'invitation', language: 'es' }]);
      expect(await mailsTo(colleague.email), 'an existing user gets no password link').to.deep.equal([]);
      const told = await db().query(`SELECT type FROM notifications WHERE user_id = $1`, [colleague.id]);
      expect(told).to.deep.equal([{ type: 'PermissionAssigned' }]);
      const logs = await db().query(`SELECT operation, user_id, user_name, metadata->>'via' AS via FROM system_logs WHERE metadata->>'targetUserId' = $1 ORDER BY id`, [created.id]);
      expect(logs).to.deep.equal([
        { operation: 'CreateUser', user_id: null, user_name: w.crm.name, via: null },
        { operation: 'Permission', user_id: null, user_name: w.crm.name, via: 'externalApi' },
        { operation: 'InviteUser', user_id: null, user_name: w.crm.name, via: 'externalApi' },
      ]);
    });

    it('answers each invitee on its own: a new address without names fails, the others go on; held roles are not added twice', async () => {
      const nameless = address('nameless');
      const holder = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: holder, roles: [w.crm.roleByName.Sales!] });
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email: nameless }, { email: holder.email }], roles: ['Sales'] }, lang: 'fr' });
      expect(res.status).to.equal(200);
      expect(res.body.items[0]).to.deep.include({ status: 'Failed', userId: null, created: false, error: { code: 'external.names_required', message: 'Un nouvel utilisateur doit avoir un prénom et un nom' } });
      expect(res.body.items[1]).to.deep.include({ status: 'Granted', userId: holder.id, rolesAdded: [] });
      expect(await usersNamed(nameless)).to.equal(0);
    });

    it('keeps an existing membership’s inheritance: the roles of other applications depend on it', async () => {
      const member = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: member, roles: [w.erp.roleByName.Clerk!], inheritable: true });
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email: member.email }], roles: ['Reader'], isInheritable: false } });
      expect(res.body.items[0].status).to.equal('Granted');
      const [membership] = await db().query('SELECT is_inheritable FROM tenant_members WHERE user_id = $1 AND tenant_id = $2', [member.id, w.tenantA.id]);
      expect(membership.is_inheritable).to.equal(true);
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
    it('asks the approvers: a new user is a draft for the tenant, the request waits, nothing is granted until approved', async () => {
      const fresh = address('requested');
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { body: { users: [{ email: fresh, firstName: 'Rui', lastName: 'Costa' }], roles: ['Partner'] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const created = await userByName(fresh);
      const [item] = res.body.items;
      expect(item).to.deep.include({ status: 'Requested', userId: created.id, created: true, invitationSent: false, error: null });
      expect(created).to.deep.include({ draft: true, created_for_tenant_id: w.tenantA.id, area_id: w.areaA.id });
      const [request] = await db().query('SELECT status, created_by_id, payload, tenant_id FROM operation_requests WHERE id = $1', [item.operationRequestId]);
      expect(request).to.deep.equal({ status: 'WaitingForApprover', created_by_id: null, payload: { roles: [w.crm.roleByName.Partner!.id], isInheritable: true }, tenant_id: w.tenantA.id });
      expect(await ownRoles(created.id, w.tenantA.id)).to.deep.equal([]);
      expect(await mailsTo(fresh)).to.deep.equal([]);
      // Without a consultant in the tenant, the administrators are asked.
      const asked = await db().query(`SELECT description FROM notifications WHERE user_id = $1 AND type = 'OperationRequest' ORDER BY created_at DESC LIMIT 1`, [w.callers.admin.id]);
      expect(asked[0].description).to.contain('CRM');
      const approved = await call(w, 'post', `/operationRequests/approve/${item.operationRequestId}`);
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      expect(await ownRoles(created.id, w.tenantA.id)).to.deep.equal(['Partner']);
      expect((await userByName(fresh)).draft).to.equal(false);
    });

    it("keeps in the request the roles the user already holds there, of every application: it never takes another's away", async () => {
      const user = await userIn(w, w.areaA);
      await db().query('UPDATE roles SET operation_request_visibility = true WHERE id = $1', [w.erp.roleByName.Clerk!.id]);
      try {
        await grant(db(), { tenant: w.tenantA, user, roles: [w.erp.roleByName.Clerk!] });
        const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { body: { users: [{ email: user.email }], roles: ['Partner'] } });
        const [item] = res.body.items;
        expect(item).to.deep.include({ status: 'Requested', userId: user.id, created: false });
        expect((await call(w, 'post', `/operationRequests/approve/${item.operationRequestId}`)).status).to.equal(200);
        expect(await ownRoles(user.id, w.tenantA.id)).to.deep.equal(['Clerk', 'Partner']);
      } finally {
        await db().query('UPDATE roles SET operation_request_visibility = false WHERE id = $1', [w.erp.roleByName.Clerk!.id]);
      }
    });

    it('refuses a role that operation requests cannot give (400); an invitee with a request already waiting fails on its own (409)', async () => {
      const refused = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { body: { users: [{ email: address(), firstName: 'A', lastName: 'B' }], roles: ['Sales'] } });
      expect(refused.status).to.equal(400);
      expect(refused.body).to.include({ code: 'operationRequests.role_not_requestable', message: 'The role Sales cannot be requested through an operation request' });
      const user = await userIn(w, w.areaA);
      const body = { users: [{ email: user.email }], roles: ['Partner'] };
      expect((await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { body })).body.items[0].status).to.equal('Requested');
      const again = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { body });
      expect(again.status).to.equal(200);
      expect(again.body.items[0]).to.deep.include({ status: 'Failed', userId: user.id, created: false });
      expect(again.body.items[0].error.code).to.equal('operationRequests.already_waiting');
    });

    it("makes the token's owner the requester of a request made with their personal access token", async () => {
      const { token } = await personalAccessToken(w, w.callers.admin, w.crm);
      const user = await userIn(w, w.areaA);
      const res = await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitationRequests`, { token, body: { users: [{ email: user.email }], roles: ['Partner'] } });
      const [request] = await db().query('SELECT created_by_id FROM operation_requests WHERE id = $1', [res.body.items[0].operationRequestId]);
      expect(request.created_by_id).to.equal(w.callers.admin.id);
      // Four eyes: the owner cannot approve the request they made through the application.
      const own = await call(w, 'post', `/operationRequests/approve/${res.body.items[0].operationRequestId}`);
      expect(own.status).to.equal(403);
    });
  });

  describe('Idempotency-Key', () => {
    const invite = (email: string, key: string, app = w.crm, path = 'invitations') =>
      external(w, app, 'post', `/tenants/${w.tenantA.id}/${path}`, { body: { users: [{ email, firstName: 'Ida', lastName: 'Empotent' }], roles: [path === 'invitations' ? 'Sales' : 'Partner'] }, headers: { 'Idempotency-Key': key } });

    it('answers a retry with the first answer, inviting nobody twice', async () => {
      const email = address('retry');
      const key = randomUUID();
      const first = await invite(email, key);
      expect(first.status).to.equal(200);
      expect(first.headers['idempotent-replayed']).to.equal(undefined);
      const second = await invite(email, key);
      expect(second.status).to.equal(200);
      expect(second.headers['idempotent-replayed']).to.equal('true');
      expect(second.body).to.deep.equal(first.body);
      expect(first.body.items[0].status).to.equal('Created');
      expect(await usersNamed(email)).to.equal(1);
      expect(await mailsTo(email)).to.have.length(1);
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
      const erpEmail = address('erp');
      const erp = await external(w, w.erp, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email: erpEmail, firstName: 'E', lastName: 'R' }], roles: ['Clerk'] }, headers: { 'Idempotency-Key': key } });
      expect(erp.status).to.equal(200);
      expect(erp.body.items[0].status).to.equal('Created');
    });

    it('invites once when two calls with the same key race; the loser is told to retry (409) or gets the same answer', async () => {
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
      expect(await usersNamed(email)).to.equal(1);
      expect(await mailsTo(email)).to.have.length(1);
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

  it('logs who was invited and what became of them', async () => {
    const email = address('logged');
    const user: User = await userIn(w, w.areaA);
    await external(w, w.crm, 'post', `/tenants/${w.tenantA.id}/invitations`, { body: { users: [{ email, firstName: 'L', lastName: 'G' }, { email: user.email }], roles: ['Reader'] } });
    const row = (await accessLogsOf(w, w.crm)).at(-1)!;
    expect(row).to.deep.include({ api_entry: 'InviteUsers', user_id: null, user_name: w.crm.name });
    expect(row.metadata).to.deep.include({ tenantId: w.tenantA.id, invitees: [email, user.email], roles: ['Reader'], status: 200, replayed: false, via: 'client_credentials' });
    const created = await userByName(email);
    expect(row.metadata.results).to.deep.equal([
      { email, status: 'Created', userId: created.id, operationRequestId: null, error: null },
      { email: user.email, status: 'Granted', userId: user.id, operationRequestId: null, error: null },
    ]);
  });
});
