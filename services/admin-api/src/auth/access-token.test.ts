import { randomUUID } from 'node:crypto';
import type { AppContext } from '@gatehouse/core';
import { buildTenant, buildUser, sharedTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../app.js';
import { generateSigningKey, insertSigningKey, mintAccessToken, type TestSigningKey } from '../testing/tokens.js';
import {
  ADMIN_API_SCOPE,
  AccessTokenVerifier,
  InvalidTokenError,
  KEYS_MAX_AGE_MS,
  UNKNOWN_KID_REFRESH_INTERVAL_MS,
  VERIFIED_TOKEN_MAX_AGE_MS,
} from './access-token.js';
import { accessTokenBearer } from './koa-admin-auth.js';

type Server = ReturnType<ReturnType<typeof createApp>['callback']>;

/** A clock the test moves by hand. */
function manualClock() {
  let now = Date.now();
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** The context with its key reads counted. */
function countingKeyReads(context: AppContext) {
  const counter = { reads: 0 };
  const dataSource = {
    query: (sql: string, params?: unknown[]) => {
      if (sql.includes('signing_keys')) counter.reads += 1;
      return context.dataSource.query(sql, params);
    },
  } as unknown as AppContext['dataSource'];
  return { context: { ...context, dataSource }, counter };
}

async function refusal(verifier: AccessTokenVerifier, token: string): Promise<InvalidTokenError['reason']> {
  const error = await verifier.verify(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'token accepted').to.be.instanceOf(InvalidTokenError);
  return (error as InvalidTokenError).reason;
}

describe('admin API access tokens', () => {
  let context: AppContext;
  let key: TestSigningKey;

  before(async () => {
    context = await sharedTestContext();
    key = await insertSigningKey(context);
  });

  describe('AccessTokenVerifier', () => {
    const verifiers: AccessTokenVerifier[] = [];
    const newVerifier = (ctx: AppContext = context, now?: () => number) => {
      const verifier = new AccessTokenVerifier(ctx, { requiredScope: ADMIN_API_SCOPE, now });
      verifiers.push(verifier);
      return verifier;
    };
    after(() => verifiers.forEach((v) => v.close()));

    it('answers the user, roles, scopes and token id of a valid token', async () => {
      const sub = randomUUID();
      const token = await mintAccessToken(context, key, { sub, roles: ['Administrator', 'Manager'], scope: 'openid admin', claims: { jti: 'token-1' } });
      expect(await newVerifier().verify(token)).to.deep.equal({
        userId: sub,
        roles: ['Administrator', 'Manager'],
        scopes: ['openid', 'admin'],
        tokenId: 'token-1',
      });
    });

    it('answers the actor of a token issued while a God user is signed in as its user (act.sub) and its impersonation, and refuses a malformed act', async () => {
      const sub = randomUUID();
      const actor = randomUUID();
      const impersonation = randomUUID();
      const acting = await mintAccessToken(context, key, { sub, roles: ['Administrator'], claims: { act: { sub: actor.toUpperCase(), name: 'Grace', impersonation_id: impersonation } } });
      expect(await newVerifier().verify(acting)).to.include({ userId: sub, actorId: actor, impersonationId: impersonation });
      // Issued before tokens named their impersonation: the actor still, with none (the account check refuses it).
      const older = await mintAccessToken(context, key, { sub, claims: { act: { sub: actor, name: 'Grace' } } });
      expect(await newVerifier().verify(older)).to.include({ actorId: actor }).and.not.have.property('impersonationId');
      for (const act of ['grace', { name: 'Grace' }, { sub: 'not-a-user-id' }, null, { sub: actor, impersonation_id: 'not-an-id' }, { sub: actor, impersonation_id: 42 }]) {
        const token = await mintAccessToken(context, key, { sub, claims: { act } });
        expect(await refusal(newVerifier(), token), JSON.stringify(act)).to.equal('claims');
      }
    });

    it('refuses a token without the admin scope as insufficient_scope', async () => {
      const token = await mintAccessToken(context, key, { scope: 'openid profile' });
      expect(await refusal(newVerifier(), token)).to.equal('insufficient_scope');
    });

    it('refuses a token without sub, or whose sub is not a user id', async () => {
      const verifier = newVerifier();
      expect(await refusal(verifier, await mintAccessToken(context, key, { claims: { sub: undefined } }))).to.equal('claims');
      expect(await refusal(verifier, await mintAccessToken(context, key, { sub: 'admin-console' }))).to.equal('claims');
    });

    it('refuses a token without exp: it would never expire', async () => {
      const token = await mintAccessToken(context, key, { claims: { exp: undefined } });
      expect(await refusal(newVerifier(), token)).to.equal('claims');
    });

    it('refuses a JWT that is not an access token (typ other than at+jwt)', async () => {
      const token = await mintAccessToken(context, key, { header: { typ: 'JWT' } });
      expect(await refusal(newVerifier(), token)).to.equal('claims');
    });

    it('ignores roles that are not strings rather than trusting them', async () => {
      const token = await mintAccessToken(context, key, { roles: ['God', 7, { name: 'Administrator' }] });
      expect((await newVerifier().verify(token)).roles).to.deep.equal(['God']);
    });

    it('rereads the keys once for an unknown kid, then at most once per 10 s however many garbage kids come', async () => {
      const clock = manualClock();
      const counted = countingKeyReads(context);
      const verifier = newVerifier(counted.context, clock.now);
      await verifier.verify(await mintAccessToken(context, key));
      expect(counted.counter.reads).to.equal(1);

      for (let i = 0; i < 5; i += 1) {
        const garbage = await mintAccessToken(context, key, { header: { kid: `garbage-${i}` } });
        expect(await refusal(verifier, garbage)).to.equal('unknown_key');
      }
      expect(counted.counter.reads).to.equal(2);

      clock.advance(UNKNOWN_KID_REFRESH_INTERVAL_MS);
      expect(await refusal(verifier, await mintAccessToken(context, key, { header: { kid: 'garbage-late' } }))).to.equal('unknown_key');
      expect(counted.counter.reads).to.equal(3);
    });

    it('shares one reread among concurrent tokens naming a key it has not seen yet', async () => {
      const counted = countingKeyReads(context);
      const verifier = newVerifier(counted.context);
      await verifier.verify(await mintAccessToken(context, key));
      const fresh = await insertSigningKey(context, { announce: false });
      const tokens = await Promise.all([1, 2, 3, 4].map(() => mintAccessToken(context, fresh)));
      const results = await Promise.all(tokens.map((t) => verifier.verify(t)));
      expect(results).to.have.length(4);
      expect(counted.counter.reads).to.equal(2);
    });

    it('sees a new key at once when keys.changed is broadcast, without waiting for the rate limit', async () => {
      const verifier = newVerifier();
      // Spend the unknown-kid reread, so only the broadcast can explain the new key being found.
      expect(await refusal(verifier, await mintAccessToken(context, key, { header: { kid: 'garbage' } }))).to.equal('unknown_key');
      const fresh = await insertSigningKey(context, { announce: true });
      expect((await verifier.verify(await mintAccessToken(context, fresh))).userId).to.be.a('string');
    });

    it('rereads the keys when they are older than a minute', async () => {
      const clock = manualClock();
      const counted = countingKeyReads(context);
      const verifier = newVerifier(counted.context, clock.now);
      const token = await mintAccessToken(context, key);
      await verifier.verify(token);
      await verifier.verify(token);
      expect(counted.counter.reads).to.equal(1);
      clock.advance(KEYS_MAX_AGE_MS);
      await verifier.verify(await mintAccessToken(context, key, { expiresIn: 900 + KEYS_MAX_AGE_MS / 1000 }));
      expect(counted.counter.reads).to.equal(2);
    });

    it('accepts a retiring key until its date, and drops it from the cache when the date passes', async () => {
      // The database's clock decides which keys are published: real time, with room for a loaded machine.
      const retireAt = Date.now() + 5000;
      const retiring = await insertSigningKey(context, { status: 'retiring', retireAt: new Date(retireAt) });
      const verifier = newVerifier();
      const token = await mintAccessToken(context, retiring);
      expect((await verifier.verify(token)).userId).to.be.a('string');
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, retireAt + 100 - Date.now())));
      expect(await refusal(verifier, token)).to.equal('unknown_key');
    });

    describe('verified tokens remembered', () => {
      /** The verifier with its signature checks counted. */
      const counting = (now?: () => number) => {
        const verifier = newVerifier(context, now);
        const checks = { count: 0 };
        const inner = verifier as unknown as { verifyWith: (...args: unknown[]) => Promise<unknown> };
        const verifyWith = inner.verifyWith.bind(verifier);
        inner.verifyWith = (...args) => ((checks.count += 1), verifyWith(...args));
        return { verifier, checks };
      };

      it('checks a token’s signature once, and again after a minute', async () => {
        const clock = manualClock();
        const { verifier, checks } = counting(clock.now);
        const token = await mintAccessToken(context, key, { expiresIn: 3600 });
        for (let i = 0; i < 5; i += 1) expect((await verifier.verify(token)).userId).to.be.a('string');
        expect(checks.count).to.equal(1);
        clock.advance(VERIFIED_TOKEN_MAX_AGE_MS);
        await verifier.verify(token);
        expect(checks.count).to.equal(2);
      });

      it('refuses a remembered token once it expires', async () => {
        const clock = manualClock();
        const { verifier } = counting(clock.now);
        const token = await mintAccessToken(context, key, { expiresIn: 30 });
        await verifier.verify(token);
        clock.advance(36_000);
        expect(await refusal(verifier, token)).to.equal('expired');
      });

      it('forgets every remembered token when the keys change: a withdrawn key’s token is refused at once', async () => {
        const withdrawn = await insertSigningKey(context);
        const { verifier } = counting();
        const token = await mintAccessToken(context, withdrawn, { expiresIn: 3600 });
        await verifier.verify(token);
        await context.dataSource.query('DELETE FROM signing_keys WHERE kid = $1', [withdrawn.kid]);
        context.broadcast.publish('keys.changed', {});
        expect(await refusal(verifier, token)).to.equal('unknown_key');
      });

      it('remembers a token for the audience it was verified for only, never one whose signature failed, and still refuses a remembered token without the scope', async () => {
        const { verifier, checks } = counting();
        const token = await mintAccessToken(context, key, { expiresIn: 3600 });
        await verifier.verify(token);
        const other = await verifier.verifiedPayload(token, 'https://elsewhere.example/api').then(
          () => 'accepted',
          (error: InvalidTokenError) => error.reason,
        );
        expect(other).to.equal('claims');
        const noScope = await mintAccessToken(context, key, { scope: 'openid' });
        for (let i = 0; i < 2; i += 1) expect(await refusal(verifier, noScope)).to.equal('insufficient_scope');
        const garbage = `${token.slice(0, -4)}AAAA`;
        for (let i = 0; i < 2; i += 1) expect(await refusal(verifier, garbage)).to.equal('signature');
        expect(checks.count, 'the first token, the other audience and the token without the scope once each, every garbage attempt').to.equal(5);
      });
    });

    it('refuses a retired key and a retiring key past its date', async () => {
      const retired = await insertSigningKey(context, { status: 'retired', retireAt: new Date(Date.now() - 1000) });
      const overdue = await insertSigningKey(context, { status: 'retiring', retireAt: new Date(Date.now() - 1000) });
      const verifier = newVerifier();
      expect(await refusal(verifier, await mintAccessToken(context, retired))).to.equal('unknown_key');
      expect(await refusal(verifier, await mintAccessToken(context, overdue))).to.equal('unknown_key');
    });
  });

  describe('bearer authentication of /api/v1/admin/*', () => {
    let server: Server;
    let tenantId: string;
    let userId: string;

    before(async () => {
      server = createApp(context).callback();
    });

    beforeEach(async () => {
      const user = await buildUser(context.dataSource);
      userId = user.id;
      tenantId = (await buildTenant(context.dataSource)).id;
    });

    /** The MFA switch, as an Administrator would call it: 200 when the token is accepted. */
    const call = (app: Server, token?: string) => {
      const req = request(app).post(`/api/v1/admin/tenants/twoModeAuth/${tenantId}`).set('Accept-Language', 'en');
      if (token !== undefined) req.set('Authorization', `Bearer ${token}`);
      return req.send({ enable: true });
    };
    const administrator = (k: TestSigningKey, options: Parameters<typeof mintAccessToken>[2] = {}) =>
      mintAccessToken(context, k, { sub: userId, roles: ['Administrator'], ...options });

    const expectInvalidToken = (res: request.Response) => {
      expect(res.status, JSON.stringify(res.body)).to.equal(401);
      expect(res.headers['www-authenticate']).to.equal('Bearer error="invalid_token"');
      expect(res.body).to.include({ code: 'errors.unauthorized', message: 'Access is denied' });
      expect(res.body.requestId).to.be.a('string');
    };

    it('accepts a valid Administrator token', async () => {
      const res = await call(server, await administrator(key));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    });

    it('answers 401 with a bare Bearer challenge when no token is sent', async () => {
      const res = await call(server);
      expect(res.status).to.equal(401);
      expect(res.headers['www-authenticate']).to.equal('Bearer');
      expect(res.body).to.include({ code: 'errors.unauthorized' });
    });

    it('answers 401 to another authorization scheme', async () => {
      const res = await request(server)
        .post(`/api/v1/admin/tenants/twoModeAuth/${tenantId}`)
        .set('Authorization', `Basic ${Buffer.from('admin:secret').toString('base64')}`)
        .send({ enable: true });
      expect(res.status).to.equal(401);
    });

    it('asks an anonymous caller who they are before telling whether an admin path exists', async () => {
      const res = await request(server).get('/api/v1/admin/no-such-route');
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('errors.unauthorized');
    });

    it('answers an authenticated caller on an unknown admin path with the plain 404 of any API path', async () => {
      const res = await request(server).get('/api/v1/admin/no-such-route').set('Authorization', `Bearer ${await administrator(key)}`);
      expect(res.status).to.equal(404);
      expect(res.body.code).to.equal('errors.route_not_found');
    });

    it('answers 401 to a token for another audience', async () => {
      expectInvalidToken(await call(server, await administrator(key, { audience: 'https://elsewhere.example.com/api' })));
    });

    it('answers 401 to a token from another issuer', async () => {
      expectInvalidToken(await call(server, await administrator(key, { issuer: 'https://issuer.example.com/oidc' })));
    });

    it('answers 401 to an expired token', async () => {
      expectInvalidToken(await call(server, await administrator(key, { expiresIn: -60 })));
    });

    it('answers 401 to a token naming an unknown kid', async () => {
      expectInvalidToken(await call(server, await administrator(key, { header: { kid: 'no-such-key' } })));
    });

    it('answers 401 to a token whose signature is not from the key it names', async () => {
      const impostor = await generateSigningKey();
      const forged = await mintAccessToken(context, { ...impostor, kid: key.kid }, { sub: userId, roles: ['Administrator'] });
      expectInvalidToken(await call(server, forged));
    });

    it('answers 401 to a token whose payload was altered after signing', async () => {
      const [header, payload, signature] = (await administrator(key, { roles: ['User'] })).split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const altered = Buffer.from(JSON.stringify({ ...claims, roles: ['God'] })).toString('base64url');
      expectInvalidToken(await call(server, `${header}.${altered}.${signature}`));
    });

    it('answers 401 to an unsigned token (alg none)', async () => {
      const [, payload] = (await administrator(key)).split('.');
      const header = Buffer.from(JSON.stringify({ alg: 'none', kid: key.kid, typ: 'at+jwt' })).toString('base64url');
      expectInvalidToken(await call(server, `${header}.${payload}.`));
    });

    it('answers 401 to something that is not a token', async () => {
      expectInvalidToken(await call(server, 'not-a-token'));
    });

    it('answers 401 to a token signed by a retired key', async () => {
      const retired = await insertSigningKey(context, { status: 'retired', retireAt: new Date(Date.now() - 1000) });
      expectInvalidToken(await call(server, await administrator(retired)));
    });

    it('answers 403 insufficient_scope to a token without the admin scope', async () => {
      const res = await call(server, await administrator(key, { scope: 'openid profile' }));
      expect(res.status).to.equal(403);
      expect(res.headers['www-authenticate']).to.equal('Bearer error="insufficient_scope"');
    });

    it('accepts a token signed with a key added after the key cache was filled (unknown-kid reread)', async () => {
      // An app of its own: a fresh cache and rate limit, whatever ran before.
      const verifier = new AccessTokenVerifier(context, { requiredScope: ADMIN_API_SCOPE });
      try {
        const app = createApp(context, { bearerVerifiers: [accessTokenBearer(verifier)] }).callback();
        expect((await call(app, await administrator(key))).status).to.equal(200);
        // Not announced: as when another node rotated the keys and no Redis carried the news.
        const added = await insertSigningKey(context, { announce: false });
        const res = await call(app, await administrator(added));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      } finally {
        verifier.close();
      }
    });
  });
});
