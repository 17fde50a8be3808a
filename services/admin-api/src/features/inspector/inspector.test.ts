import { randomBytes, randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { GLOBAL_TENANT_ID, createLogger, type User } from '@gatehouse/core';
import { buildApplication, buildGroup, buildTenant, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { SignJWT, decodeJwt } from 'jose';
import request from 'supertest';
import { createApp } from '../../app.js';
import { bearer, buildAdminWorld, call, userIn, type AdminWorld, type Application } from '../../testing/admin-world.js';
import { generateSigningKey, mintAccessToken } from '../../testing/tokens.js';
import { mintPersonalAccessToken } from '../../auth/personal-access-token.js';
import { InspectorService } from './service.js';

describe('POST /api/v1/admin/inspector', () => {
  let w: AdminWorld;
  let subject: User;
  let crm: Application;

  before(async () => {
    w = await buildAdminWorld();
    subject = await userIn(w, w.areaA, { firstName: 'Ivy', lastName: 'Example' });
    crm = await buildApplication(w.context.dataSource, { name: 'crm', displayName: 'CRM', roles: ['Reader', 'Writer'] });
    await grant(w.context.dataSource, { tenant: w.tenantA, user: subject, roles: [crm.roleByName.Reader!, crm.roleByName.Writer!] });
    await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, user: subject, roles: [w.identity.roleByName.Administrator!] });
  });

  const inspect = (token: string, as: 'admin' | 'god' | 'areaAdmin' = 'admin') => call(w, 'post', '/inspector', { as, body: { token } });

  /** An ID token as the provider signs it: no `typ`, the client as audience. */
  const idToken = (claims: Record<string, unknown> = {}, key = w.key) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: w.context.config.oidc.issuer, aud: 'portal', sub: subject.id, iat: now, exp: now + 3600, auth_time: now, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .sign(key.privateKey);
  };

  /** An opaque access token stored as the provider stores it. */
  async function storedOpaqueToken(expiresInSeconds: number, accountId: string = subject.id): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await w.context.dataSource.query(
      `INSERT INTO oidc_model_instances (model, id, payload, expires_at) VALUES ('AccessToken', $1, $2, now() + make_interval(secs => $3))`,
      [token, { accountId, clientId: 'billing-client', scope: 'openid billing:read', jti: token, kind: 'AccessToken' }, expiresInSeconds],
    );
    return token;
  }

  it('decodes an access token the provider signed, checks it, and lists its subject’s roles per application and tenant now', async () => {
    const token = await mintAccessToken(w.context, w.key, { sub: subject.id, roles: ['Administrator'] });
    const res = await inspect(token);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.body).to.deep.include({ kind: 'accessToken', signature: 'valid', issuedByThisProvider: true, state: 'active' });
    expect(res.body.header).to.deep.equal({ alg: 'RS256', kid: w.key.kid, typ: 'at+jwt' });
    expect(res.body.claims).to.deep.equal(decodeJwt(token));
    expect(res.body.expiresAt).to.equal(new Date((decodeJwt(token).exp as number) * 1000).toISOString());
    expect(res.body.subject).to.deep.equal({ id: subject.id, found: true, userName: subject.userName, displayName: 'Ivy Example', locked: false, draft: false });
    const own = [{ via: 'own', groupName: null, tenantName: null }];
    const [identity] = await w.context.dataSource.query('SELECT display_name FROM applications WHERE id = $1', [w.identity.id]);
    expect(res.body.effectiveRoles).to.deep.equal([
      {
        applicationId: crm.id,
        applicationName: 'crm',
        applicationDisplayName: 'CRM',
        tenantId: w.tenantA.id,
        tenantName: w.tenantA.title,
        roles: [
          { roleId: crm.roleByName.Reader!.id, roleName: 'Reader', hierarchyType: 'Own', origins: own },
          { roleId: crm.roleByName.Writer!.id, roleName: 'Writer', hierarchyType: 'Own', origins: own },
        ],
      },
      {
        applicationId: w.identity.id,
        applicationName: 'identity',
        applicationDisplayName: identity.display_name,
        tenantId: GLOBAL_TENANT_ID,
        tenantName: 'Global',
        roles: [{ roleId: w.identity.roleByName.Administrator!.id, roleName: 'Administrator', hierarchyType: 'Own', origins: own }],
      },
    ]);
  });

  it('says how the subject holds each role: in their own name, through a group, inherited from a parent tenant', async () => {
    const ivo = await userIn(w, w.areaA, { firstName: 'Ivo' });
    const parent = await buildTenant(w.context.dataSource, { title: `Parent ${randomUUID().slice(0, 8)}`, areaId: w.areaA.id });
    const child = await buildTenant(w.context.dataSource, { title: `Child ${randomUUID().slice(0, 8)}`, areaId: w.areaA.id, parentId: parent.id });
    const team = await buildGroup(w.context.dataSource, { name: `Team ${randomUUID().slice(0, 8)}`, areaId: w.areaA.id, members: [ivo] });
    await grant(w.context.dataSource, { tenant: parent, user: ivo, roles: [crm.roleByName.Reader!], inheritable: true });
    await grant(w.context.dataSource, { tenant: parent, group: team, roles: [crm.roleByName.Reader!, crm.roleByName.Writer!], inheritable: false });
    const res = await inspect(await mintAccessToken(w.context, w.key, { sub: ivo.id, roles: [] }));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const rolesIn = (tenantId: string) =>
      Object.fromEntries(res.body.effectiveRoles.find((g: { tenantId: string }) => g.tenantId === tenantId).roles.map((r: { roleName: string; origins: unknown }) => [r.roleName, r.origins]));
    expect(rolesIn(parent.id)).to.deep.equal({
      Reader: [
        { via: 'own', groupName: null, tenantName: null },
        { via: 'group', groupName: team.name, tenantName: null },
      ],
      Writer: [{ via: 'group', groupName: team.name, tenantName: null }],
    });
    // The group's membership is not inheritable: below, only the user's own Reader, from the parent.
    expect(rolesIn(child.id)).to.deep.equal({ Reader: [{ via: 'hierarchy', groupName: null, tenantName: parent.title }] });
  });

  it('recognises an ID token, and reports an expired one as expired (its subject’s roles still shown)', async () => {
    const valid = await inspect(await idToken());
    expect(valid.body).to.deep.include({ kind: 'idToken', signature: 'valid', state: 'active' });
    const expired = await inspect(await idToken({ iat: 1_700_000_000, exp: 1_700_003_600 }));
    expect(expired.body).to.deep.include({ kind: 'idToken', signature: 'valid', state: 'expired', expiresAt: '2023-11-14T23:13:20.000Z', issuedAt: '2023-11-14T22:13:20.000Z' });
    expect(expired.body.subject.id).to.equal(subject.id);
    expect(expired.body.effectiveRoles).to.have.length(2);
  });

  it('shows a forged token’s claims as claims, but names no subject: a key the provider does not publish, a changed payload, no signature', async () => {
    const stranger = await generateSigningKey();
    const otherKey = await inspect(await idToken({}, stranger));
    expect(otherKey.body).to.deep.include({ kind: 'idToken', signature: 'unknownKey', subject: null, effectiveRoles: [] });
    expect(otherKey.body.claims.sub).to.equal(subject.id);

    const [header, , signature] = (await idToken()).split('.');
    const raised = Buffer.from(JSON.stringify({ ...decodeJwt(await idToken()), sub: w.callers.god.id })).toString('base64url');
    const changed = await inspect(`${header}.${raised}.${signature}`);
    expect(changed.body).to.deep.include({ signature: 'invalid', subject: null, effectiveRoles: [] });

    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${raised}.`;
    expect((await inspect(none)).body).to.deep.include({ kind: 'accessToken', signature: 'invalid', subject: null });
  });

  it('vouches only for tokens of this issuer: another issuer’s validly signed token names no subject', async () => {
    const res = await inspect(await idToken({ iss: 'https://elsewhere.example/oidc' }));
    expect(res.body).to.deep.include({ signature: 'valid', issuedByThisProvider: false, subject: null });
  });

  it('says of an opaque access token only whether it is active or expired, and whose it is', async () => {
    const active = await inspect(await storedOpaqueToken(600));
    expect(active.body).to.deep.include({ kind: 'opaqueAccessToken', state: 'active', signature: 'notApplicable', header: null, claims: null, expiresAt: null, issuedAt: null });
    expect(active.body.subject.userName).to.equal(subject.userName);
    expect(active.body.effectiveRoles).to.have.length(2);
    expect(JSON.stringify(active.body), 'neither its client nor its scopes').not.to.match(/billing/);
    expect((await inspect(await storedOpaqueToken(-60))).body).to.deep.include({ kind: 'opaqueAccessToken', state: 'expired' });
  });

  it('recognises a personal access token by its store: active or expired, and whose', async () => {
    const active = mintPersonalAccessToken();
    const expired = mintPersonalAccessToken();
    for (const [pat, expiresAt] of [[active, new Date(Date.now() + 86_400_000)], [expired, new Date(Date.now() - 60_000)]] as const) {
      await w.context.dataSource.query(
        `INSERT INTO personal_access_tokens (name, user_id, application_id, token_hash, token_prefix, token_last_chars, expires_at, created_by_id)
         VALUES ('inspected', $1, '1', $2, $3, $4, $5, $1)`,
        [subject.id, pat.hash, pat.prefix, pat.lastChars, expiresAt],
      );
    }
    const found = await inspect(active.token);
    expect(found.status).to.equal(200);
    expect(found.body).to.deep.include({ kind: 'personalAccessToken', state: 'active', claims: null });
    expect(found.body.subject.id).to.equal(subject.id);
    expect((await inspect(expired.token)).body).to.deep.include({ kind: 'personalAccessToken', state: 'expired' });
  });

  it('does not recognise an unknown opaque token, an unknown personal access token, or garbage', async () => {
    for (const token of [randomBytes(32).toString('base64url'), `gpat_${randomBytes(32).toString('base64url')}`, 'not a token at all', 'a.b']) {
      const res = await inspect(token);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ kind: 'unknown', state: 'unknown', subject: null, header: null, claims: null });
    }
    const blank = await inspect('  ');
    expect(blank.status).to.equal(400);
    expect(blank.body.errors[0]).to.include({ field: 'token', code: 'inspector.token_required', message: 'Paste a token to inspect' });
  });

  it('uses the personal access tokens’ store when there is one', async () => {
    const token = `gpat_${randomBytes(32).toString('base64url')}`;
    const service = new InspectorService(w.context, async (value) => (value === token ? { userId: subject.id, expiresAt: new Date(Date.now() + 60_000) } : null));
    const found = await service.inspect(token);
    expect(found).to.deep.include({ kind: 'personalAccessToken', state: 'active', signature: 'notApplicable', claims: null });
    expect(found.subject?.id).to.equal(subject.id);
    expect((await service.inspect(`gpat_${randomBytes(32).toString('base64url')}`)).kind).to.equal('unknown');
  });

  it('names an unknown subject of a valid token as not found', async () => {
    const ghost = randomUUID();
    const res = await inspect(await mintAccessToken(w.context, w.key, { sub: ghost }));
    expect(res.body.subject).to.deep.equal({ id: ghost, found: false, userName: null, displayName: null, locked: false, draft: false });
  });

  it('is for Administrators (and God); an AreaAdministrator gets the 403 message', async () => {
    expect((await inspect(await idToken(), 'god')).status).to.equal(200);
    const res = await inspect(await idToken(), 'areaAdmin');
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal('You do not have permission to perform this action');
  });

  it('never writes the token to the logs, valid or not', async () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    const server = createApp({ ...w.context, logger: createLogger('trace', stream) }).callback();
    const tokens = [await idToken(), await storedOpaqueToken(600), `${await idToken()}x`, 'x'.repeat(20_000)];
    for (const token of tokens) {
      await request(server).post('/api/v1/admin/inspector').set('Authorization', await bearer(w)).send({ token });
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.length, 'the requests were logged').to.be.at.least(tokens.length);
    for (const token of tokens) expect(lines.join('\n')).not.to.include(token.slice(0, 40));
  });
});
