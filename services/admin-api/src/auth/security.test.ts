import { randomBytes } from 'node:crypto';
import { Broadcast, GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, createContext, isPasswordExpired, loadPasswordPolicy, randomToken, sha256, type AppContext, type Group, type Tenant, type User } from '@gatehouse/core';
import { Mailer } from '@gatehouse/core/mail';
import { buildArea, buildGroup, buildTenant, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../app.js';
import { buildUsersWorld, userIn, type UsersWorld } from '../features/users/testing.js';
import { xlsx } from '../testing/admin-world.js';
import { mintAccessToken } from '../testing/tokens.js';
import { PAT_PREFIX } from './personal-access-token.js';

type Server = ReturnType<ReturnType<typeof createApp>['callback']>;
type Method = 'get' | 'post' | 'put' | 'delete';

const STRONG = 'Correct-Horse-9-Battery';
const tag = () => `t${randomBytes(4).toString('hex')}`;

describe('admin API security properties', function () {
  this.timeout(120_000);
  let w: UsersWorld;

  before(async () => {
    w = await buildUsersWorld();
  });

  const db = () => w.context.dataSource;
  const identityRole = (name: string) => w.identity.roleByName[name]!;
  const userRow = async (id: string) => (await db().query(`SELECT * FROM users WHERE id = $1`, [id]))[0];

  /** A JWT of the admin console (unless another client is named) for `user`, carrying `roles`. */
  const jwt = (user: User, roles: string[], clientId?: string) => mintAccessToken(w.context, w.key, { sub: user.id, roles, clientId });

  /** A call to the admin API (`path` under /api/v1/admin unless it starts with /api/) with a bearer token. */
  const send = (method: Method, path: string, token: string, body?: unknown, server: Server = w.server) => {
    const url = path.startsWith('/api/') ? path : `/api/v1/admin${path}`;
    const req = request(server)[method](url).set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en');
    return body === undefined ? req : req.send(body as object);
  };

  /** A call as `user` holding `roles` (in the token; an AreaAdministrator's areas come from the database). */
  const as = async (user: User, roles: string[], method: Method, path: string, body?: unknown) => send(method, path, await jwt(user, roles), body);

  /** A user of area A holding these Identity roles in a tenant (the Global tenant when told). */
  const holder = async (grants: Array<{ role: string; tenant: Tenant | string }>, area = w.areaA, overrides: Partial<User> = {}) => {
    const user = await userIn(w, area, overrides);
    for (const { role, tenant } of grants) await grant(db(), { tenant, user, roles: [identityRole(role)] });
    return user;
  };

  const editBody = (user: { email: string }, overrides: Record<string, unknown> = {}) => ({
    email: user.email,
    firstName: 'Grace',
    lastName: 'Hopper',
    language: 'en',
    areaId: w.areaA.id,
    ...overrides,
  });

  describe('security: only the admin console’s tokens are admin-API tokens', () => {
    it('refuses (401) a JWT with the admin audience and scope, even carrying God, when it was issued to another client', async () => {
      const victim = await holder([{ role: 'God', tenant: GLOBAL_TENANT_ID }], w.areaA);
      const target = await userIn(w, w.areaA);
      const stolen = await jwt(victim, ['God'], 'crm-client');
      for (const [method, path, body] of [
        ['get', '/users', undefined],
        ['put', `/users/${target.id}/roles/${IDENTITY_APPLICATION_ID}`, { roleIds: [identityRole('God').id] }],
        ['get', '/me', undefined],
      ] as const) {
        const res = await send(method, path, stolen, body);
        expect(res.status, `${method} ${path}`).to.equal(401);
        expect(res.headers['www-authenticate']).to.equal('Bearer error="invalid_token"');
        expect(res.body).to.include({ code: 'errors.unauthorized', message: 'Access is denied' });
      }
      expect(await db().query(`SELECT 1 FROM tenant_members WHERE user_id = $1`, [target.id])).to.deep.equal([]);
      // The same user and roles through the admin console's token.
      expect((await send('get', '/users', await jwt(victim, ['God']))).status).to.equal(200);
    });

    it('reads the client from azp when the token has no client_id, and refuses a token naming no client', async () => {
      const admin = w.callers.admin;
      const mint = (claims: Record<string, unknown>) => mintAccessToken(w.context, w.key, { sub: admin.id, roles: ['Administrator'], claims });
      const adminClientId = w.context.config.oidc.adminClientId;
      expect((await send('get', '/users', await mint({ client_id: undefined, azp: adminClientId }))).status).to.equal(200);
      expect((await send('get', '/users', await mint({ client_id: undefined, azp: 'crm-client' }))).status).to.equal(401);
      expect((await send('get', '/users', await mint({ client_id: undefined }))).status).to.equal(401);
      // client_id decides when both are there.
      expect((await send('get', '/users', await mint({ client_id: 'crm-client', azp: adminClientId }))).status).to.equal(401);
    });
  });

  describe('security: another application’s token is not a key to the account', () => {
    /** An opaque access token stored as the provider stores it, issued to `clientId` for `user`. */
    const providerToken = async (user: User, clientId: string) => {
      const id = randomBytes(32).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      await db().query(
        `INSERT INTO oidc_model_instances (model, id, payload, grant_id, expires_at) VALUES ('AccessToken', $1, $2, $3, now() + interval '1 hour')`,
        [id, { kind: 'AccessToken', jti: id, accountId: user.id, clientId, grantId: `grant-${id}`, scope: 'openid profile', iat: now, exp: now + 3600, gty: 'authorization_code' }, `grant-${id}`],
      );
      return id;
    };

    it('answers 401 on every signed-in endpoint to a token issued to another application', async () => {
      const user = await holder([{ role: 'Administrator', tenant: GLOBAL_TENANT_ID }]);
      const crm = await providerToken(user, w.crm.id);
      for (const path of ['/me', '/applications/homeInfo', `/applications/icon/${w.crm.id}`]) {
        const res = await send('get', path, crm);
        expect(res.status, path).to.equal(401);
        expect(res.headers['www-authenticate'], path).to.equal('Bearer error="invalid_token"');
        expect(res.body.message, path).to.equal('Access is denied');
      }
    });

    it('accepts the portal’s and the admin console’s tokens there, and still keeps administration to the console', async () => {
      const user = await holder([{ role: 'Administrator', tenant: GLOBAL_TENANT_ID }]);
      const portal = await providerToken(user, w.context.config.oidc.portalClientId);
      const console = await providerToken(user, w.context.config.oidc.adminClientId);
      for (const token of [portal, console]) {
        const me = await send('get', '/me', token);
        expect(me.status).to.equal(200);
        expect(me.body).to.include({ id: user.id, userName: user.userName });
        expect((await send('get', '/applications/homeInfo', token)).status).to.equal(200);
      }
      expect((await send('get', '/users', portal)).status).to.equal(403);
    });
  });

  describe('security: roles scope each action separately', () => {
    /** Callers holding AreaAdministrator in tenant A (area A) plus a read-only or every-area role. */
    const mixed = [
      { name: 'AreaAdministrator + TenantAdministrator', roles: ['AreaAdministrator', 'TenantAdministrator'] },
      { name: 'AreaAdministrator + Manager', roles: ['AreaAdministrator', 'Manager'] },
    ];

    for (const { name, roles } of mixed) {
      it(`keeps a caller holding ${name} from changing users of another area (404)`, async () => {
        const caller = await holder([{ role: 'AreaAdministrator', tenant: w.tenantA }]);
        const other = await userIn(w, w.areaB, { emailVerified: true });
        const before = await userRow(other.id);
        const calls: Array<[Method, string, unknown?]> = [
          ['post', `/users/change-password/${other.id}`, { password: STRONG, confirmPassword: STRONG }],
          ['put', `/users/${other.id}`, editBody({ email: `${tag()}@evil.example` }, { areaId: w.areaB.id })],
          ['post', `/users/inviteUser/${other.id}`],
          ['get', `/api/v1/account/lock/${other.id}`],
          ['delete', `/users/${other.id}`],
        ];
        for (const [method, path, body] of calls) {
          const res = await as(caller, roles, method, path, body);
          expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.equal(404);
          expect(res.body.code).to.equal('errors.not_found');
        }
        expect(await userRow(other.id)).to.deep.equal(before);
        expect(await db().query(`SELECT 1 FROM user_tokens WHERE user_id = $1`, [other.id])).to.deep.equal([]);
        // Their own area stays theirs to manage.
        const own = await userIn(w, w.areaA);
        expect((await as(caller, roles, 'put', `/users/${own.id}`, editBody(own))).status).to.equal(200);
      });

      it(`keeps a caller holding ${name} from changing groups of another area, or giving roles in its tenants (404)`, async () => {
        const caller = await holder([{ role: 'AreaAdministrator', tenant: w.tenantA }]);
        const otherGroup = await buildGroup(db(), { areaId: w.areaB.id });
        const someone = await userIn(w, w.areaB);
        const calls: Array<[Method, string, unknown?]> = [
          ['put', `/groups/${otherGroup.id}`, { name: tag(), description: 'taken', areaId: w.areaB.id }],
          ['post', `/groups/${otherGroup.id}/roles`, { tenantId: w.tenantB.id, roleIds: [w.crm.roleByName.Writer!.id] }],
          ['post', `/groups/${otherGroup.id}/users`, { userId: someone.id, permission: 'Owner' }],
          ['delete', `/groups/${otherGroup.id}`],
        ];
        for (const [method, path, body] of calls) {
          const res = await as(caller, roles, method, path, body);
          expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.equal(404);
        }
        expect(await db().query(`SELECT name FROM groups WHERE id = $1`, [otherGroup.id])).to.deep.equal([{ name: otherGroup.name }]);
        expect(await db().query(`SELECT 1 FROM group_members WHERE group_id = $1`, [otherGroup.id])).to.deep.equal([]);

        // A group of their own area (not one they belong to: nobody gives their own group roles)
        // does not carry roles into another area's tenant either.
        const ownGroup = await buildGroup(db(), { areaId: w.areaA.id });
        const into = await as(caller, roles, 'post', `/groups/${ownGroup.id}/roles`, { tenantId: w.tenantB.id, roleIds: [w.crm.roleByName.Writer!.id] });
        expect(into.status).to.equal(400);
        expect(into.body.errors).to.deep.equal([{ field: 'tenantId', code: 'groups.tenant_not_found', message: 'This tenant does not exist' }]);
        expect(await db().query(`SELECT 1 FROM tenant_members WHERE group_id = ANY($1::uuid[])`, [[otherGroup.id, ownGroup.id]])).to.deep.equal([]);
        expect((await as(caller, roles, 'post', `/groups/${ownGroup.id}/roles`, { tenantId: w.tenantA.id, roleIds: [w.crm.roleByName.Writer!.id] })).status).to.equal(201);
      });
    }

    it('still lets each caller read what their read roles open: every area with TenantAdministrator, Manager’s pages with Manager', async () => {
      const caller = await holder([{ role: 'AreaAdministrator', tenant: w.tenantA }]);
      const other = await userIn(w, w.areaB);
      const otherGroup = await buildGroup(db(), { areaId: w.areaB.id });
      const readOnly = ['AreaAdministrator', 'TenantAdministrator'];
      expect((await as(caller, readOnly, 'get', `/users/${other.id}`)).status).to.equal(200);
      expect((await as(caller, readOnly, 'get', `/groups/${otherGroup.id}`)).status).to.equal(200);
      const list = await as(caller, readOnly, 'get', `/users?$search=${encodeURIComponent(other.userName)}`);
      expect(list.body.items.map((u: { id: string }) => u.id)).to.deep.equal([other.id]);

      const manager = ['AreaAdministrator', 'Manager'];
      expect((await as(caller, manager, 'get', `/users/check/permissions/${other.id}`)).status).to.equal(200);
      const tenants = await as(caller, manager, 'get', `/tenants?$search=${encodeURIComponent(w.tenantB.title)}`);
      expect(tenants.body.items.map((t: { id: string }) => t.id)).to.include(w.tenantB.id);
      // Manager does not open the users pages: there the AreaAdministrator's areas apply.
      expect((await as(caller, manager, 'get', `/users/${other.id}`)).status).to.equal(404);
    });
  });

  describe('security: nobody manages someone who outranks them', () => {
    /** Every way an area administrator could take an account over, and what must stay as it was. */
    const takeovers = (target: User): Array<[Method, string, unknown?]> => [
      ['put', `/users/${target.id}`, editBody({ email: `${tag()}@evil.example` })],
      ['post', `/users/change-password/${target.id}`, { password: STRONG, confirmPassword: STRONG }],
      ['post', `/users/inviteUser/${target.id}`],
      ['get', `/api/v1/account/lock/${target.id}`],
      ['delete', `/users/${target.id}`],
    ];
    const unchanged = async (target: User, before: Record<string, unknown>) => {
      expect(await userRow(target.id), 'the account is as it was').to.deep.equal(before);
      expect(await db().query(`SELECT 1 FROM user_tokens WHERE user_id = $1`, [target.id])).to.deep.equal([]);
    };

    let tenantC: Tenant;
    before(async () => {
      tenantC = await buildTenant(db(), { areaId: (await buildArea(db())).id });
    });

    const privileged: Array<{ name: string; grants: () => Array<{ role: string; tenant: Tenant | string }> }> = [
      { name: 'Manager', grants: () => [{ role: 'Manager', tenant: w.tenantA }] },
      { name: 'IdentityConsultant', grants: () => [{ role: 'IdentityConsultant', tenant: w.tenantA }] },
      { name: 'TenantAdministrator', grants: () => [{ role: 'TenantAdministrator', tenant: w.tenantA }] },
      { name: 'ServiceManager', grants: () => [{ role: 'ServiceManager', tenant: w.tenantA }] },
      { name: 'AreaAdministrator in another area', grants: () => [{ role: 'AreaAdministrator', tenant: tenantC }] },
      { name: 'AreaAdministrator in the caller’s area and another', grants: () => [{ role: 'AreaAdministrator', tenant: w.tenantA }, { role: 'AreaAdministrator', tenant: tenantC }] },
      { name: 'AreaAdministrator in every area (Global)', grants: () => [{ role: 'AreaAdministrator', tenant: GLOBAL_TENANT_ID }] },
      { name: 'Administrator in one tenant', grants: () => [{ role: 'Administrator', tenant: w.tenantA }] },
      { name: 'Administrator (Global)', grants: () => [{ role: 'Administrator', tenant: GLOBAL_TENANT_ID }] },
    ];

    for (const { name, grants } of privileged) {
      it(`refuses an AreaAdministrator every change to an account of their area holding ${name} (403, clear message)`, async () => {
        const target = await holder(grants(), w.areaA, { emailVerified: true });
        const before = await userRow(target.id);
        for (const [method, path, body] of takeovers(target)) {
          const res = await as(w.callers.areaAdmin, ['AreaAdministrator'], method, path, body);
          expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.equal(403);
          expect(res.body).to.include({
            code: 'users.manage_admin_only',
            message: 'Only an administrator can manage the account of a user who holds administration roles',
          });
        }
        await unchanged(target, before);
      });
    }

    it('refuses an AreaAdministrator a user who holds an administration role through a group', async () => {
      const target = await userIn(w, w.areaA);
      const group = await buildGroup(db(), { areaId: w.areaB.id, members: [target] });
      await grant(db(), { tenant: tenantC, group, roles: [identityRole('AreaAdministrator')] });
      const before = await userRow(target.id);
      for (const [method, path, body] of takeovers(target)) {
        expect((await as(w.callers.areaAdmin, ['AreaAdministrator'], method, path, body)).status, `${method} ${path}`).to.equal(403);
      }
      await unchanged(target, before);
    });

    it('refuses everyone but God a God user, in the caller’s language', async () => {
      const target = await holder([{ role: 'God', tenant: GLOBAL_TENANT_ID }]);
      const before = await userRow(target.id);
      for (const [method, path, body] of takeovers(target)) {
        const res = await as(w.callers.admin, ['Administrator'], method, path, body);
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(res.body).to.include({ code: 'users.manage_god_only', message: 'Only God can manage the account of a God user' });
      }
      const areaAdmin = await as(w.callers.areaAdmin, ['AreaAdministrator'], 'post', `/users/inviteUser/${target.id}`);
      expect([areaAdmin.status, areaAdmin.body.code]).to.deep.equal([403, 'users.manage_god_only']);
      const fr = await request(w.server)
        .put(`/api/v1/admin/users/${target.id}`)
        .set('Authorization', `Bearer ${await jwt(w.callers.admin, ['Administrator'])}`)
        .set('Accept-Language', 'fr')
        .send(editBody({ email: `${tag()}@evil.example` }));
      expect(fr.body.message).to.equal('Seul un utilisateur God peut gérer le compte d’un utilisateur God');
      await unchanged(target, before);
      expect((await as(w.callers.god, ['God'], 'put', `/users/${target.id}`, editBody(target))).status).to.equal(200);
    });

    it('still lets an AreaAdministrator manage plain users and AreaAdministrators of their own areas, and an Administrator a Manager', async () => {
      const plain = await holder([{ role: 'User', tenant: w.tenantA }]);
      const peer = await holder([{ role: 'AreaAdministrator', tenant: w.tenantA }]);
      for (const target of [plain, peer]) {
        const res = await as(w.callers.areaAdmin, ['AreaAdministrator'], 'put', `/users/${target.id}`, editBody(target));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
      const manager = await holder([{ role: 'Manager', tenant: w.tenantA }]);
      expect((await as(w.callers.admin, ['Administrator'], 'post', `/users/change-password/${manager.id}`, { password: STRONG, confirmPassword: STRONG })).status).to.equal(200);
    });

    it('tells nothing about an outranking account’s password: a guess of the current one is the same 403 as any other', async () => {
      const target = await holder([{ role: 'Administrator', tenant: GLOBAL_TENANT_ID }]);
      const current = 'Current-Admin-Passw0rd!';
      await db().query(`UPDATE users SET password_hash = $2 WHERE id = $1`, [target.id, await w.context.passwords.hash(current)]);
      const right = await as(w.callers.areaAdmin, ['AreaAdministrator'], 'post', `/users/change-password/${target.id}`, { password: current, confirmPassword: current });
      const wrong = await as(w.callers.areaAdmin, ['AreaAdministrator'], 'post', `/users/change-password/${target.id}`, { password: STRONG, confirmPassword: STRONG });
      expect([right.status, right.body.code]).to.deep.equal([403, 'users.manage_admin_only']);
      expect([wrong.status, wrong.body.code]).to.deep.equal([403, 'users.manage_admin_only']);
    });

    it('makes a password set by an administrator temporary: the user must change it at the next sign-in', async () => {
      const user = await userIn(w, w.areaA);
      await db().query(`UPDATE users SET password_changed_at = now() WHERE id = $1`, [user.id]);
      const policy = await loadPasswordPolicy(db());
      expect(isPasswordExpired((await userRow(user.id)).password_changed_at, policy), 'a password the user chose').to.equal(false);
      const res = await as(w.callers.areaAdmin, ['AreaAdministrator'], 'post', `/users/change-password/${user.id}`, { password: STRONG, confirmPassword: STRONG });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const row = await userRow(user.id);
      expect(await w.context.passwords.verify(row.password_hash, STRONG)).to.equal(true);
      expect(row.password_changed_at).to.equal(null);
      // What the provider's sign-in asks after a right password: a new one.
      expect(isPasswordExpired(row.password_changed_at, policy)).to.equal(true);
    });

    it('tells the previous address when an account’s e-mail address is changed, in the user’s language', async () => {
      const user = await userIn(w, w.areaA, { language: 'de', firstName: 'Jo' });
      const newEmail = `${tag()}@elsewhere.example`;
      const res = await as(w.callers.areaAdmin, ['AreaAdministrator'], 'put', `/users/${user.id}`, editBody({ email: newEmail }, { language: 'de' }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const mails = await db().query(`SELECT id, template, language FROM mail_outbox WHERE to_address = $1`, [user.email]);
      expect(mails.map((m: { template: string; language: string }) => [m.template, m.language])).to.deep.equal([['email-changed', 'de']]);
      const mail = await new Mailer(w.context).readKept(mails[0].id);
      expect(mail!.subject).to.equal('Die E-Mail-Adresse Ihres Kontos wurde geändert');
      expect(mail!.text).to.include('Hallo Jo,');
      expect(await db().query(`SELECT 1 FROM mail_outbox WHERE to_address = $1`, [newEmail])).to.deep.equal([]);
      // Other changes send nothing.
      await as(w.callers.areaAdmin, ['AreaAdministrator'], 'put', `/users/${user.id}`, editBody({ email: newEmail }, { firstName: 'Joanna', language: 'de' }));
      expect(await db().query(`SELECT 1 FROM mail_outbox WHERE to_address = ANY($1::text[])`, [[newEmail]])).to.deep.equal([]);
      expect(await db().query(`SELECT 1 FROM mail_outbox WHERE to_address = $1`, [user.email])).to.have.length(1);
    });
  });

  describe('security: group membership cannot hand out roles the actor may not grant', () => {
    /** A group of area A holding `role` of the Identity application in `tenant`. */
    const groupHolding = async (role: string, tenant: Tenant | string): Promise<Group> => {
      const group = await buildGroup(db(), { areaId: w.areaA.id });
      await grant(db(), { tenant, group, roles: [identityRole(role)] });
      return group;
    };
    const members = async (groupId: string) =>
      Object.fromEntries(
        (await db().query(`SELECT user_id, permission FROM group_members WHERE group_id = $1`, [groupId])).map((r: { user_id: string; permission: string }) => [r.user_id, r.permission]),
      );
    const importMembers = async (caller: User, roles: string[], groupId: string, rows: unknown[][]) =>
      request(w.server)
        .post(`/api/v1/admin/groups/bulk_insert/${groupId}`)
        .set('Authorization', `Bearer ${await jwt(caller, roles)}`)
        .set('Accept-Language', 'en')
        .attach('file', await xlsx([['UserName', 'Permission'], ...rows]), 'members.xlsx');

    it('keeps an Administrator out of a group holding God, through every way in, even all at once', async () => {
      const group = await groupHolding('God', GLOBAL_TENANT_ID);
      const admin = await holder([{ role: 'Administrator', tenant: GLOBAL_TENANT_ID }]);
      const attempts = await Promise.all([
        as(admin, ['Administrator'], 'post', `/groups/${group.id}/users`, { userId: admin.id, permission: 'Reader' }),
        as(admin, ['Administrator'], 'post', `/users/${admin.id}/groups`, { groupId: group.id, permission: 'Owner' }),
        importMembers(admin, ['Administrator'], group.id, [[admin.userName, 'Reader']]),
      ]);
      for (const res of attempts) {
        expect(res.status, JSON.stringify(res.body)).to.equal(403);
        expect(res.body).to.include({ code: 'groups.god_role_forbidden', message: 'Only God can give or take away the God role' });
      }
      expect(await members(group.id)).to.deep.equal({});
      expect((await as(w.callers.god, ['God'], 'post', `/groups/${group.id}/users`, { userId: admin.id })).status).to.equal(201);
    });

    it('keeps an AreaAdministrator who owns a group holding Administrator from filling it, or making an Owner', async () => {
      const group = await groupHolding('Administrator', w.tenantA);
      const owner = await holder([{ role: 'AreaAdministrator', tenant: w.tenantA }]);
      const member = await userIn(w, w.areaA);
      const recruit = await userIn(w, w.areaA);
      await db().query(`INSERT INTO group_members (group_id, user_id, permission) VALUES ($1, $2, 'Owner'), ($1, $3, 'Reader')`, [group.id, owner.id, member.id]);
      const roles = ['AreaAdministrator'];
      const attempts = [
        await as(owner, roles, 'post', `/groups/${group.id}/users`, { userId: recruit.id, permission: 'Reader' }),
        await as(owner, roles, 'post', `/users/${recruit.id}/groups`, { groupId: group.id, permission: 'Reader' }),
        await importMembers(owner, roles, group.id, [[recruit.userName, 'Reader']]),
        await as(owner, roles, 'put', `/groups/${group.id}/users/${member.id}`, { permission: 'Owner' }),
      ];
      for (const res of attempts) {
        expect(res.status, JSON.stringify(res.body)).to.equal(403);
        expect(res.body).to.include({ code: 'groups.identity_roles_forbidden', message: 'Only administrators can give or take away the roles of the Identity application' });
      }
      expect(await members(group.id)).to.deep.equal({ [owner.id]: 'Owner', [member.id]: 'Reader' });
      // Nor may the owner give a group with members such roles.
      const plain = await buildGroup(db(), { areaId: w.areaA.id });
      await db().query(`INSERT INTO group_members (group_id, user_id, permission) VALUES ($1, $2, 'Owner'), ($1, $3, 'Reader')`, [plain.id, owner.id, member.id]);
      const giving = await as(owner, roles, 'post', `/groups/${plain.id}/roles`, { tenantId: w.tenantA.id, roleIds: [identityRole('AreaAdministrator').id] });
      expect(giving.status).to.equal(403);
      expect(await db().query(`SELECT 1 FROM tenant_members WHERE group_id = $1`, [plain.id])).to.deep.equal([]);
      // An administrator may fill it.
      expect((await as(w.callers.admin, ['Administrator'], 'post', `/groups/${group.id}/users`, { userId: recruit.id })).status).to.equal(201);
    });

    it('still lets an owner fill a group holding only other applications’ roles, and demote an Owner', async () => {
      const group = await buildGroup(db(), { areaId: w.areaA.id });
      await grant(db(), { tenant: w.tenantA, group, roles: [w.crm.roleByName.Writer!] });
      const owner = await holder([{ role: 'AreaAdministrator', tenant: w.tenantA }]);
      const recruit = await userIn(w, w.areaA);
      await db().query(`INSERT INTO group_members (group_id, user_id, permission) VALUES ($1, $2, 'Owner')`, [group.id, owner.id]);
      expect((await as(owner, ['AreaAdministrator'], 'post', `/groups/${group.id}/users`, { userId: recruit.id, permission: 'Owner' })).status).to.equal(201);
      const admins = await groupHolding('Administrator', w.tenantA);
      await db().query(`INSERT INTO group_members (group_id, user_id, permission) VALUES ($1, $2, 'Owner'), ($1, $3, 'Owner')`, [admins.id, owner.id, recruit.id]);
      expect((await as(owner, ['AreaAdministrator'], 'put', `/groups/${admins.id}/users/${recruit.id}`, { permission: 'Reader' })).status).to.equal(200);
    });
  });

  describe('security: a lock takes effect at once', () => {
    /** A personal access token of `user` for the Identity application. */
    const pat = async (user: User) => {
      const token = `${PAT_PREFIX}${randomToken(32)}`;
      await db().query(
        `INSERT INTO personal_access_tokens (name, user_id, application_id, token_hash, token_prefix) VALUES ('ci', $1, $2, $3, $4)`,
        [user.id, IDENTITY_APPLICATION_ID, sha256(token), token.slice(0, 12)],
      );
      return token;
    };

    it('stops a locked administrator’s live JWT and PAT on the next call; the JWT cannot unlock its own account', async () => {
      const admin = await holder([{ role: 'Administrator', tenant: GLOBAL_TENANT_ID }]);
      const token = await jwt(admin, ['Administrator']);
      const personal = await pat(admin);
      // Both work, and the account's state is now cached.
      expect((await send('get', '/users', token)).status).to.equal(200);
      expect((await send('get', '/users', personal)).status).to.equal(200);

      expect((await as(w.callers.god, ['God'], 'get', `/api/v1/account/lock/${admin.id}`)).status).to.equal(200);

      const unlock = await send('get', `/api/v1/account/unlock/${admin.id}`, token);
      expect(unlock.status).to.equal(401);
      expect(unlock.headers['www-authenticate']).to.equal('Bearer error="invalid_token"');
      expect((await userRow(admin.id)).locked).to.equal(true);
      const backdoor = await send('post', '/users', token, { userName: `${tag()}@example.com`, email: `${tag()}@example.com`, firstName: 'B', lastName: 'D', areaId: w.areaA.id, language: 'en' });
      expect(backdoor.status).to.equal(401);
      for (const path of ['/users', '/me', '/applications/homeInfo']) {
        expect((await send('get', path, token)).status, path).to.equal(401);
        expect((await send('get', path, personal)).status, path).to.equal(401);
      }
      // Unlocked by someone else, the same token works again.
      expect((await as(w.callers.god, ['God'], 'get', `/api/v1/account/unlock/${admin.id}`)).status).to.equal(200);
      expect((await send('get', '/users', token)).status).to.equal(200);
    });

    it('refuses a deleted user’s JWT on the next call', async () => {
      const admin = await holder([{ role: 'Administrator', tenant: GLOBAL_TENANT_ID }]);
      const token = await jwt(admin, ['Administrator']);
      expect((await send('get', '/users', token)).status).to.equal(200);
      expect((await as(w.callers.god, ['God'], 'delete', `/users/${admin.id}`)).status).to.equal(204);
      expect((await send('get', '/users', token)).status).to.equal(401);
    });

    it('leaves no stale "active" behind when the account’s calls race its lock', async () => {
      const admin = await holder([{ role: 'Administrator', tenant: GLOBAL_TENANT_ID }]);
      const token = await jwt(admin, ['Administrator']);
      const burst = Array.from({ length: 12 }, () => send('get', '/me', token).then((res) => res.status));
      const lock = await as(w.callers.god, ['God'], 'get', `/api/v1/account/lock/${admin.id}`);
      expect(lock.status).to.equal(200);
      for (const status of await Promise.all(burst)) expect([200, 401]).to.include(status);
      const after = await Promise.all(Array.from({ length: 6 }, () => send('get', '/me', token).then((res) => res.status)));
      expect(after).to.deep.equal([401, 401, 401, 401, 401, 401]);
    });

    it('refuses to unlock the caller’s own account (400), in the caller’s language', async () => {
      const en = await as(w.callers.admin, ['Administrator'], 'get', `/api/v1/account/unlock/${w.callers.admin.id}`);
      expect(en.status).to.equal(400);
      expect(en.body).to.include({ code: 'users.cannot_unlock_self', message: 'You cannot unlock your own account' });
      const fr = await request(w.server)
        .get(`/api/v1/account/unlock/${w.callers.admin.id}`)
        .set('Authorization', `Bearer ${await jwt(w.callers.admin, ['Administrator'])}`)
        .set('Accept-Language', 'fr');
      expect(fr.body.message).to.equal('Vous ne pouvez pas débloquer votre propre compte');
      expect(await db().query(`SELECT 1 FROM authentication_logs WHERE user_id = $1`, [w.callers.admin.id])).to.deep.equal([]);
    });

    it('applies the rank rules to unlocking: an AreaAdministrator cannot unlock an Administrator or God of their area', async () => {
      for (const role of ['Administrator', 'God']) {
        const target = await holder([{ role, tenant: GLOBAL_TENANT_ID }], w.areaA, { locked: true });
        const res = await as(w.callers.areaAdmin, ['AreaAdministrator'], 'get', `/api/v1/account/unlock/${target.id}`);
        expect(res.status, role).to.equal(403);
        expect((await userRow(target.id)).locked, role).to.equal(true);
        expect((await as(w.callers.god, ['God'], 'get', `/api/v1/account/unlock/${target.id}`)).status, role).to.equal(200);
      }
    });

    it('stops the locked account’s JWT on another node too, as soon as the lock is announced', async () => {
      const nodes = await twoNodes(w.context);
      try {
        const admin = await holder([{ role: 'Administrator', tenant: GLOBAL_TENANT_ID }]);
        const token = await jwt(admin, ['Administrator']);
        // Node B has seen the account active and cached it.
        expect((await send('get', '/users', token, undefined, nodes.b)).status).to.equal(200);
        const lock = await send('get', `/api/v1/account/lock/${admin.id}`, await jwt(w.callers.god, ['God']), undefined, nodes.a);
        expect(lock.status).to.equal(200);
        expect(await eventually(async () => (await send('get', '/users', token, undefined, nodes.b)).status, 401)).to.equal(401);
        expect((await send('get', '/users', token, undefined, nodes.a)).status).to.equal(401);
      } finally {
        await nodes.close();
      }
    });
  });
});

/**
 * Two admin API nodes on one database. With Redis in the run, node B is a context of its own
 * (its own pool and Redis subscriber), as in a deployment; without it, the two contexts' broadcasts
 * are wired to each other, as Redis would carry them.
 */
async function twoNodes(context: AppContext): Promise<{ a: Server; b: Server; close(): Promise<void> }> {
  if (context.redis) {
    const second = await createContext(context.config);
    return { a: createApp(context).callback(), b: createApp(second).callback(), close: () => second.close() };
  }
  const [broadcastA, broadcastB] = [new Broadcast(), new Broadcast()];
  const wire = (from: Broadcast, to: Broadcast) => {
    from.publish = ((name, payload) => {
      from['local'].emit(name, payload);
      to['local'].emit(name, payload);
    }) as Broadcast['publish'];
  };
  wire(broadcastA, broadcastB);
  wire(broadcastB, broadcastA);
  const nodeA = { ...context, broadcast: broadcastA };
  const nodeB = { ...context, broadcast: broadcastB };
  return {
    a: createApp(nodeA).callback(),
    b: createApp(nodeB).callback(),
    close: async () => {
      broadcastA.stop();
      broadcastB.stop();
    },
  };
}

/** Polls `probe` until it answers `expected` or two seconds pass (Redis delivers after the answer); the last answer. */
async function eventually<T>(probe: () => Promise<T>, expected: T): Promise<T> {
  const deadline = Date.now() + 2_000;
  let last = await probe();
  while (last !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await probe();
  }
  return last;
}
