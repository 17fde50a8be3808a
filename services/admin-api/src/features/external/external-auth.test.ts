import { randomBytes, randomUUID } from 'node:crypto';
import { grant, buildApplication } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { bearer, call, userIn } from '../../testing/admin-world.js';
import { mintAccessToken } from '../../testing/tokens.js';
import { accessLogsOf, buildExternalWorld, clientToken, external, personalAccessToken, type ExternalWorld } from './testing.js';

describe('External API: who may call, how often, and the access log', () => {
  let w: ExternalWorld;

  before(async () => {
    w = await buildExternalWorld();
  });

  const db = () => w.context.dataSource;
  const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
  const rolesOfAnn = (token?: string, app = w.crm) => external(w, app, 'get', `/users/${w.ann.id}/roles`, token ? { token } : {});
  const logCount = async () => Number((await db().query('SELECT count(*) AS n FROM external_api_access_logs'))[0].n);

  describe('client credentials', () => {
    it("accepts the application's own client-credentials token for the external API audience", async () => {
      const res = await rolesOfAnn();
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.tenants[0].roles.map((r: { roleName: string }) => r.roleName)).to.deep.equal(['Sales']);
    });

    it('refuses (401, with a challenge, no log row) a missing, malformed, expired or foreign token, one of another audience, or a user’s token', async () => {
      const before = await logCount();
      const anonymous = await request(w.server).get(`/api/v1/external/users/${w.ann.id}/roles`);
      expect(anonymous.status).to.equal(401);
      expect(anonymous.headers['www-authenticate']).to.equal('Bearer');
      const cases: Record<string, string> = {
        garbage: 'not-a-token',
        expired: await clientToken(w, w.crm, { expiresIn: -60 }),
        'another issuer': await clientToken(w, w.crm, { issuer: 'https://evil.example/oidc' }),
        'the admin API audience': await clientToken(w, w.crm, { audience: w.context.config.oidc.adminApiAudience }),
        'another audience': await clientToken(w, w.crm, { audience: 'https://erp.example/api' }),
        "the admin console's user token": (await bearer(w)).slice('Bearer '.length),
        "a user's token for the external audience": await clientToken(w, w.crm, { sub: w.ann.id }),
        'an ID token': await clientToken(w, w.crm, { header: { typ: 'JWT' } }),
        'an unknown client': await clientToken(w, w.crm, { sub: 'ghost', clientId: 'ghost' }),
        'an unknown PAT': `gpat_${randomBytes(32).toString('base64url')}`,
      };
      for (const [name, token] of Object.entries(cases)) {
        const res = await rolesOfAnn(token);
        expect(res.status, name).to.equal(401);
        expect(res.headers['www-authenticate'], name).to.equal('Bearer error="invalid_token"');
        expect(res.body.code, name).to.equal('errors.unauthorized');
      }
      expect(await logCount(), 'nobody to name: no row').to.equal(before);
    });

    it("refuses (403, logged) the product's own applications and a stopped application", async () => {
      const console = await buildApplication(db(), { id: unique('console'), name: w.context.config.oidc.adminClientId, displayName: 'Console' });
      const own = await rolesOfAnn(await clientToken(w, console));
      expect(own.status).to.equal(403);
      expect(own.body).to.include({ code: 'external.application_not_allowed', message: 'This application cannot use the external API' });
      const identity = await rolesOfAnn(await clientToken(w, w.identity));
      expect(identity.status).to.equal(403);
      await db().query(`UPDATE applications SET status = 'Stopped' WHERE id = $1`, [w.erp.id]);
      try {
        const stopped = await rolesOfAnn(undefined, w.erp);
        expect(stopped.status).to.equal(403);
        expect(stopped.body.code).to.equal('external.application_stopped');
      } finally {
        await db().query(`UPDATE applications SET status = 'Running' WHERE id = $1`, [w.erp.id]);
      }
      const [logged] = (await accessLogsOf(w, w.erp)).slice(-1);
      expect(logged).to.deep.include({ api_entry: 'GetRoles', user_name: w.erp.name });
      expect(logged!.metadata).to.deep.include({ status: 403, error: 'external.application_stopped' });
    });

    it("is no key to the admin API, and the console's token none to the external API", async () => {
      const asAdmin = await request(w.server).get('/api/v1/admin/users').set('Authorization', `Bearer ${await clientToken(w, w.crm)}`);
      expect(asAdmin.status).to.equal(401);
      const consoleToken = await mintAccessToken(w.context, w.key, { sub: w.callers.admin.id, roles: ['Administrator'], audience: w.context.config.oidc.externalApiAudience });
      expect((await rolesOfAnn(consoleToken)).status, 'a user token of the console, even for this audience').to.equal(401);
    });
  });

  describe('personal access tokens', () => {
    it('opens the API for its application while its owner administers it, acting as the application, logged with the owner', async () => {
      const { token, id } = await personalAccessToken(w, w.callers.admin, w.crm);
      const res = await rolesOfAnn(token);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [row] = (await accessLogsOf(w, w.crm)).slice(-1);
      expect(row).to.deep.include({ api_entry: 'GetRoles', user_id: w.callers.admin.id, user_name: w.callers.admin.userName });
      expect(row!.metadata).to.deep.include({ via: 'personal_access_token', personalAccessTokenId: id, applicationId: w.crm.id });
      expect(JSON.stringify(row), 'never the token itself').not.to.contain(token.slice(5));
      const [used] = await db().query('SELECT last_used_at FROM personal_access_tokens WHERE id = $1', [id]);
      expect(used.last_used_at).to.be.instanceOf(Date);
      // Its application's roles only: erp's role of Ann is not answered.
      expect(res.body.tenants.flatMap((t: { roles: Array<{ roleName: string }> }) => t.roles.map((r) => r.roleName))).to.deep.equal(['Sales']);
    });

    it('refuses an expired token and a revoked one (401)', async () => {
      const expired = await personalAccessToken(w, w.callers.admin, w.crm, new Date(Date.now() - 1000));
      expect((await rolesOfAnn(expired.token)).status).to.equal(401);
      const revoked = await personalAccessToken(w, w.callers.admin, w.crm);
      expect((await rolesOfAnn(revoked.token)).status).to.equal(200);
      const deleted = await call(w, 'delete', `/api/v1/keys/${revoked.id}`);
      expect(deleted.status, JSON.stringify(deleted.body)).to.be.oneOf([200, 204]);
      const after = await rolesOfAnn(revoked.token);
      expect(after.status).to.equal(401);
      expect(after.headers['www-authenticate']).to.equal('Bearer error="invalid_token"');
    });

    it("refuses a locked owner's token (401), and one whose owner no longer administers the application (403) until made its owner", async () => {
      const owner = await userIn(w, w.areaA);
      const { token } = await personalAccessToken(w, owner, w.crm);
      const refused = await rolesOfAnn(token);
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('external.owner_not_administrator');
      await db().query('INSERT INTO application_owners (application_id, user_id) VALUES ($1, $2)', [w.crm.id, owner.id]);
      expect((await rolesOfAnn(token)).status).to.equal(200);
      await db().query('UPDATE users SET locked = true WHERE id = $1', [owner.id]);
      expect((await rolesOfAnn(token)).status).to.equal(401);
    });

    it("scopes a token to its own application: an Identity token is refused here (403), a crm token cannot touch erp's roles", async () => {
      const identity = await personalAccessToken(w, w.callers.admin, w.identity);
      const refused = await rolesOfAnn(identity.token);
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('external.application_not_allowed');
      const { token } = await personalAccessToken(w, w.callers.admin, w.crm);
      const user = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user, roles: [w.crm.roleByName.Sales!, w.erp.roleByName.Clerk!] });
      const res = await external(w, w.crm, 'delete', `/users/${user.id}/tenants/${w.tenantA.id}/roles?roles=Clerk`, { token });
      expect(res.status).to.equal(400);
      const held = await db().query(
        `SELECT r.name FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id JOIN roles r ON r.id = tmr.role_id WHERE tm.user_id = $1 ORDER BY r.name`,
        [user.id],
      );
      expect(held.map((r: { name: string }) => r.name)).to.deep.equal(['Clerk', 'Sales']);
      // And a crm token is no key to the admin API.
      const admin = await request(w.server).get('/api/v1/admin/users').set('Authorization', `Bearer ${token}`);
      expect(admin.status).to.equal(403);
    });
  });

  describe('the access log', () => {
    it('writes a row for every call after authentication: successes and refusals alike, with the parameters and the outcome', async () => {
      const app = await buildApplication(db(), { id: unique('app'), name: unique('app'), displayName: 'Logged', roles: ['Member'] });
      const holder = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: holder, roles: [app.roleByName.Member!] });
      await external(w, app, 'get', `/users/${holder.id}/roles?tenantId=${w.tenantA.id}&access_token=leaked-secret`);
      await external(w, app, 'get', `/users/${randomUUID()}/roles`);
      await external(w, app, 'get', '/roles/Member/users?orderBy=password');
      await external(w, app, 'post', `/users/${holder.id}/lock`);
      const rows = await accessLogsOf(w, app);
      expect(rows.map((r) => [r.api_entry, r.metadata.status])).to.deep.equal([
        ['GetRoles', 200],
        ['GetRoles', 404],
        ['GetUserWithRole', 400],
        ['LockUser', 200],
      ]);
      expect(rows[0]).to.deep.include({ user_id: null, user_name: app.name });
      expect(rows[0]!.ip).to.match(/127\.0\.0\.1/);
      expect(rows[0]!.metadata).to.deep.include({
        application: app.name,
        applicationId: app.id,
        via: 'client_credentials',
        params: { userId: holder.id },
        query: { tenantId: w.tenantA.id, access_token: '[hidden]' },
        userId: holder.id,
        tenantId: w.tenantA.id,
      });
      expect(JSON.stringify(rows[0])).not.to.contain('leaked-secret');
      expect(rows[1]!.metadata).to.deep.include({ error: 'external.user_not_found' });
      expect(rows[2]!.metadata).to.deep.include({ error: 'errors.validation', fields: [{ field: 'orderBy', code: 'validation.invalid_value' }] });
    });

    it('shows the rows in the External Api Access Log tab, with its filters', async () => {
      const app = await buildApplication(db(), { id: unique('app'), name: unique('tab'), displayName: 'Tab', roles: ['Member'] });
      const holder = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: holder, roles: [app.roleByName.Member!] });
      await external(w, app, 'get', `/users/${holder.id}/roles`);
      await external(w, app, 'get', '/tenants');
      const { token } = await personalAccessToken(w, w.callers.god, app);
      await external(w, app, 'get', '/tenants', { token });
      const list = async (query: string, as: 'admin' | 'areaAdmin' = 'admin') => {
        const res = await call(w, 'get', `/logs/externalApiAccessLog?top=50&${query}`, { as });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.items as Array<{ apiEntry: string; userName: string; userId: string | null; ip: string; metadata: Record<string, unknown> }>;
      };
      const byApp = await list(`user=${app.name}`);
      expect(byApp.map((row) => row.apiEntry)).to.deep.equal(['GetEntities', 'GetRoles']);
      expect(byApp[0]!.metadata).to.deep.include({ application: app.name, status: 200 });
      expect((await list(`user=${app.name}&apiEntry=GetRoles`)).map((row) => row.apiEntry)).to.deep.equal(['GetRoles']);
      const byOwner = await list(`user=${w.callers.god.id}&apiEntry=GetEntities`);
      expect(byOwner.filter((row) => row.metadata.applicationId === app.id).map((row) => row.userName)).to.deep.equal([w.callers.god.userName]);
      const ip = byApp[0]!.ip;
      expect((await list(`user=${app.name}&ip=${encodeURIComponent(ip)}`)).length).to.equal(2);
      expect(await list(`user=${app.name}&ip=10.9.9.9`)).to.deep.equal([]);
      const today = new Date().toISOString().slice(0, 10);
      expect((await list(`user=${app.name}&startDate=${today}&endDate=${today}`)).length).to.equal(2);
      expect(await list(`user=${app.name}&endDate=2000-01-01`)).to.deep.equal([]);
      // An area administrator sees the calls of their areas' users only: the owner's (area A), never an application's own.
      const scoped = await list(`apiEntry=GetEntities`, 'areaAdmin');
      expect(scoped.some((row) => row.userId === w.callers.god.id)).to.equal(true);
      expect(scoped.some((row) => row.userId === null)).to.equal(false);
    });
  });
});

describe('External API: the rate limit per caller', () => {
  let w: ExternalWorld;

  before(async () => {
    w = await buildExternalWorld({ overrides: { 'security.externalApiRequestsPerMinute': 3 } });
  });

  it('answers 429 with Retry-After past the limit, counting each caller apart, without a log row for the refused calls', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await external(w, w.crm, 'get', '/tenants'));
    expect(answers.map((res) => res.status)).to.deep.equal([200, 200, 200, 429]);
    const refused = answers[3]!;
    expect(refused.body.code).to.equal('errors.too_many_requests');
    expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
    expect((await external(w, w.erp, 'get', '/tenants')).status, 'another application has its own count').to.equal(200);
    const { token } = await personalAccessToken(w, w.callers.admin, w.crm);
    expect((await external(w, w.crm, 'get', '/tenants', { token })).status, "a user's tokens count apart from the application's").to.equal(200);
    expect(await accessLogsOf(w, w.crm)).to.have.length(4);
  });
});
