import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, randomToken, sha256, type AppContext } from '@gatehouse/core';
import { buildApplication, buildUser, createTestContext, ensureGlobalTenant, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../app.js';
import { PAT_PREFIX } from './personal-access-token.js';

describe('personal access tokens on the admin API', () => {
  let context: AppContext;
  let server: ReturnType<ReturnType<typeof createApp>['callback']>;
  let identity: Awaited<ReturnType<typeof buildApplication>>;
  let other: Awaited<ReturnType<typeof buildApplication>>;

  before(async () => {
    // Its own database: the Identity application has a fixed id.
    context = await createTestContext();
    server = createApp(context).callback();
    await ensureGlobalTenant(context.dataSource);
    identity = await buildApplication(context.dataSource, { id: IDENTITY_APPLICATION_ID, name: 'identity', roles: ['Administrator', 'User'] });
    other = await buildApplication(context.dataSource, { roles: ['Reader'] });
  });

  async function issuePat(options: { applicationId?: string; expiresAt?: Date | null; roles?: string[]; locked?: boolean } = {}) {
    const user = await buildUser(context.dataSource, { locked: options.locked ?? false });
    const roles = (options.roles ?? ['Administrator']).map((name) => identity.roleByName[name]!);
    if (roles.length) await grant(context.dataSource, { tenant: GLOBAL_TENANT_ID, user, roles });
    const token = `${PAT_PREFIX}${randomToken(32)}`;
    const [row] = await context.dataSource.query(
      `INSERT INTO personal_access_tokens (name, user_id, application_id, token_hash, token_prefix, expires_at)
       VALUES ('ci', $1, $2, $3, $4, $5) RETURNING id`,
      [user.id, options.applicationId ?? IDENTITY_APPLICATION_ID, sha256(token), token.slice(0, 12), options.expiresAt ?? null],
    );
    return { user, token, id: row.id as string };
  }

  const call = (path: string, token: string) => request(server).get(path).set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en');

  it("opens the admin API with the owner's current Identity roles, and records the use", async () => {
    const { user, token, id } = await issuePat();
    const me = await call('/api/v1/admin/me', token);
    expect(me.status).to.equal(200);
    expect(me.body).to.include({ id: user.id, userName: user.userName });
    expect(me.body.roles).to.deep.equal(['Administrator']);
    expect((await call('/api/v1/admin/dashboard/base', token)).status).to.equal(200);
    const [row] = await context.dataSource.query('SELECT last_used_at FROM personal_access_tokens WHERE id = $1', [id]);
    expect(row.last_used_at).to.be.an.instanceOf(Date);
  });

  it('follows role changes at once: a token whose owner lost Administrator is refused administration', async () => {
    const { user, token } = await issuePat();
    await context.dataSource.query('DELETE FROM tenant_members WHERE user_id = $1', [user.id]);
    const res = await call('/api/v1/admin/dashboard/base', token);
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal('You do not have permission to perform this action');
  });

  it('refuses unknown, expired and malformed tokens with 401, and a locked owner', async () => {
    const unknown = await call('/api/v1/admin/me', `${PAT_PREFIX}${randomToken(32)}`);
    expect(unknown.status).to.equal(401);
    expect(unknown.headers['www-authenticate']).to.equal('Bearer error="invalid_token"');
    const expired = await issuePat({ expiresAt: new Date(Date.now() - 1000) });
    expect((await call('/api/v1/admin/me', expired.token)).status).to.equal(401);
    expect((await call('/api/v1/admin/me', `${PAT_PREFIX}short`)).status).to.equal(401);
    const locked = await issuePat({ locked: true });
    expect((await call('/api/v1/admin/me', locked.token)).status).to.equal(401);
  });

  it('answers 403 insufficient_scope for a token issued for another application', async () => {
    const { token } = await issuePat({ applicationId: other.id });
    const res = await call('/api/v1/admin/me', token);
    expect(res.status).to.equal(403);
    expect(res.headers['www-authenticate']).to.equal('Bearer error="insufficient_scope"');
  });

  it('stores only the hash of the token', async () => {
    const { token, id } = await issuePat();
    const [row] = await context.dataSource.query('SELECT * FROM personal_access_tokens WHERE id = $1', [id]);
    expect(JSON.stringify(row)).to.not.include(token);
    expect(row.token_hash).to.equal(sha256(token));
  });
});
