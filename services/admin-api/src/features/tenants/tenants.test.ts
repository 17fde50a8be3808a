import { randomUUID } from 'node:crypto';
import type { AppContext, Tenant, User } from '@gatehouse/core';
import { buildTenant, buildUser, sharedTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../app.js';
import type { SystemLogRow } from '../../testing/admin-world.js';
import { insertSigningKey, mintAccessToken, type TestSigningKey } from '../../testing/tokens.js';

describe('POST /api/v1/admin/tenants/twoModeAuth/{id}', () => {
  let context: AppContext;
  let server: ReturnType<ReturnType<typeof createApp>['callback']>;
  let key: TestSigningKey;
  let caller: User;
  let tenant: Tenant;

  before(async () => {
    context = await sharedTestContext();
    server = createApp(context).callback();
    key = await insertSigningKey(context);
  });

  beforeEach(async () => {
    caller = await buildUser(context.dataSource);
    tenant = await buildTenant(context.dataSource);
  });

  const tokenFor = (roles: string[], user: User = caller) => mintAccessToken(context, key, { sub: user.id, roles });
  const post = async (id: string, body: unknown, roles: string[] = ['Administrator']) =>
    request(server)
      .post(`/api/v1/admin/tenants/twoModeAuth/${id}`)
      .set('Authorization', `Bearer ${await tokenFor(roles)}`)
      .set('Accept-Language', 'en')
      .send(body as object);

  const flagOf = async (id: string): Promise<boolean> =>
    (await context.dataSource.query(`SELECT required_two_mode_authentification AS flag FROM tenants WHERE id = $1`, [id]))[0].flag;
  const logsOf = (id: string): Promise<SystemLogRow[]> =>
    context.dataSource.query(
      `SELECT user_id, user_name, tenant_id, tenant_name, operation, metadata FROM system_logs WHERE tenant_id = $1 ORDER BY id`,
      [id],
    );

  it('lets an Administrator require MFA, then lift it, answering the tenant each time', async () => {
    const on = await post(tenant.id, { enable: true });
    expect(on.status, JSON.stringify(on.body)).to.equal(200);
    expect(on.body).to.deep.equal({ id: tenant.id, title: tenant.title, requiredTwoModeAuthentification: true, phishingResistantOnly: false });
    expect(await flagOf(tenant.id)).to.equal(true);

    const off = await post(tenant.id, { enable: false });
    expect(off.status).to.equal(200);
    expect(off.body).to.deep.equal({ id: tenant.id, title: tenant.title, requiredTwoModeAuthentification: false, phishingResistantOnly: false });
    expect(await flagOf(tenant.id)).to.equal(false);
  });

  it('writes a TwoModeAuth system log row per change, with the caller, the tenant and the previous value', async () => {
    await post(tenant.id, { enable: true });
    await post(tenant.id, { enable: false });
    const expected = (enable: boolean, previous: boolean): SystemLogRow => ({
      user_id: caller.id,
      user_name: caller.userName,
      tenant_id: tenant.id,
      tenant_name: tenant.title,
      operation: 'TwoModeAuth',
      metadata: { enable, previous, phishingResistantOnly: false, previousPhishingResistantOnly: false },
    });
    expect(await logsOf(tenant.id)).to.deep.equal([expected(true, false), expected(false, true)]);
  });

  describe('phishing-resistant only', () => {
    const flagsOf = async (id: string) =>
      (await context.dataSource.query(`SELECT required_two_mode_authentification AS mfa, phishing_resistant_only AS pro FROM tenants WHERE id = $1`, [id]))[0];

    it('turns it on with the second factor, keeps it while only the second factor is sent, and loses it with the second factor', async () => {
      const on = await post(tenant.id, { enable: true, phishingResistantOnly: true });
      expect(on.status, JSON.stringify(on.body)).to.equal(200);
      expect(on.body).to.deep.equal({ id: tenant.id, title: tenant.title, requiredTwoModeAuthentification: true, phishingResistantOnly: true });

      const again = await post(tenant.id, { enable: true });
      expect(again.body.phishingResistantOnly, 'left out: unchanged').to.equal(true);

      const off = await post(tenant.id, { enable: false });
      expect(off.body).to.include({ requiredTwoModeAuthentification: false, phishingResistantOnly: false });
      expect(await flagsOf(tenant.id)).to.deep.equal({ mfa: false, pro: false });

      const back = await post(tenant.id, { enable: true });
      expect(back.body, 'turning the second factor on again does not bring it back').to.include({ requiredTwoModeAuthentification: true, phishingResistantOnly: false });
    });

    it('turns it off while the second factor stays required', async () => {
      await post(tenant.id, { enable: true, phishingResistantOnly: true });
      const res = await post(tenant.id, { enable: true, phishingResistantOnly: false });
      expect(res.body).to.include({ requiredTwoModeAuthentification: true, phishingResistantOnly: false });
      expect(await flagsOf(tenant.id)).to.deep.equal({ mfa: true, pro: false });
    });

    it('requires the second factor with it in one change, and logs both with their previous values', async () => {
      const res = await post(tenant.id, { enable: true, phishingResistantOnly: true });
      expect(res.status).to.equal(200);
      const [log] = await logsOf(tenant.id);
      expect(log!.metadata).to.deep.equal({ enable: true, previous: false, phishingResistantOnly: true, previousPhishingResistantOnly: false });
    });

    it('refuses it without the second factor (400 naming the field), changing nothing', async () => {
      await post(tenant.id, { enable: true });
      const res = await post(tenant.id, { enable: false, phishingResistantOnly: true });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('tenants.phishing_resistant_needs_mfa');
      expect(res.body.errors).to.deep.equal([
        { field: 'phishingResistantOnly', code: 'tenants.phishing_resistant_needs_mfa', message: 'Phishing-resistant only needs the second factor: it cannot be on while the second factor is not required' },
      ]);
      expect(await flagsOf(tenant.id)).to.deep.equal({ mfa: true, pro: false });
      expect(await logsOf(tenant.id)).to.have.length(1);
    });

    it('answers 400 naming the field when it is not a boolean', async () => {
      const res = await post(tenant.id, { enable: true, phishingResistantOnly: 'yes' });
      expect(res.status).to.equal(400);
      expect(res.body.errors[0].field).to.equal('phishingResistantOnly');
      expect(await flagsOf(tenant.id)).to.deep.equal({ mfa: false, pro: false });
    });

    it('is refused, like the second factor itself, to a caller who is not an administrator', async () => {
      const res = await post(tenant.id, { enable: true, phishingResistantOnly: true }, ['AreaAdministrator', 'TenantAdministrator']);
      expect(res.status).to.equal(403);
      expect(await flagsOf(tenant.id)).to.deep.equal({ mfa: false, pro: false });
    });

    it('shows it in the tenants list and on the tenant', async () => {
      await post(tenant.id, { enable: true, phishingResistantOnly: true });
      const token = `Bearer ${await tokenFor(['Administrator'])}`;
      const listed = await request(server).get(`/api/v1/admin/tenants?$search=${encodeURIComponent(tenant.title)}`).set('Authorization', token);
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
      expect(listed.body.items.find((item: { id: string }) => item.id === tenant.id)).to.include({ requiredTwoModeAuthentification: true, phishingResistantOnly: true });
      const one = await request(server).get(`/api/v1/admin/tenants/${tenant.id}`).set('Authorization', token);
      expect(one.body).to.include({ phishingResistantOnly: true });
    });
  });

  it('records who changed the tenant', async () => {
    await post(tenant.id, { enable: true });
    const [row] = await context.dataSource.query(`SELECT modified_by_id FROM tenants WHERE id = $1`, [tenant.id]);
    expect(row.modified_by_id).to.equal(caller.id);
  });

  it('lets God switch it too', async () => {
    const res = await post(tenant.id, { enable: true }, ['God']);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(await flagOf(tenant.id)).to.equal(true);
  });

  for (const roles of [['Manager'], ['User'], ['AreaAdministrator', 'TenantAdministrator'], []]) {
    it(`refuses a caller with ${roles.length ? roles.join(' and ') : 'no roles'} (403), changing nothing`, async () => {
      const res = await post(tenant.id, { enable: true }, roles);
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ code: 'errors.forbidden', message: 'You do not have permission to perform this action' });
      expect(await flagOf(tenant.id)).to.equal(false);
      expect(await logsOf(tenant.id)).to.deep.equal([]);
    });
  }

  it('answers 400 naming the field when enable is missing', async () => {
    const res = await post(tenant.id, {});
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('errors.validation');
    expect(res.body.errors).to.deep.equal([{ field: 'enable', code: 'validation.required', message: 'enable is required' }]);
  });

  it('answers 400 naming the field when enable is not a boolean', async () => {
    const res = await post(tenant.id, { enable: 'yes' });
    expect(res.status).to.equal(400);
    expect(res.body.errors).to.have.length(1);
    expect(res.body.errors[0].field).to.equal('enable');
    expect(await flagOf(tenant.id)).to.equal(false);
  });

  it('answers 400 naming an unknown field', async () => {
    const res = await post(tenant.id, { enable: true, tenantId: tenant.id });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.include({ field: 'tenantId', code: 'validation.unknown_field' });
  });

  it('answers 404 for a tenant that does not exist', async () => {
    const res = await post(randomUUID(), { enable: true });
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('errors.not_found');
  });

  for (const id of ['not-a-uuid', '123', `${randomUUID()}x`, "'; DROP TABLE tenants; --"]) {
    it(`answers 404, never 500, for the malformed id ${JSON.stringify(id)}`, async () => {
      const res = await post(encodeURIComponent(id), { enable: true });
      expect(res.status, JSON.stringify(res.body)).to.equal(404);
      expect(res.body.code).to.equal('errors.not_found');
    });
  }

  it('answers 405 to another method on the route', async () => {
    const res = await request(server)
      .get(`/api/v1/admin/tenants/twoModeAuth/${tenant.id}`)
      .set('Authorization', `Bearer ${await tokenFor(['Administrator'])}`);
    expect(res.status).to.equal(405);
  });
});
