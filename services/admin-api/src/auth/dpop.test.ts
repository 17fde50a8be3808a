import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { User } from '@gatehouse/core';
import { NOTIFICATION_HUB_EVENTS, NOTIFICATIONS_HUB_PATH } from '@gatehouse/contracts';
import { dpopKey, dpopProof, type DPoPKey } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { io } from 'socket.io-client';
import request from 'supertest';
import { createApp } from '../app.js';
import { attachNotificationHub } from '../features/notifications/hub.js';
import { buildExternalWorld, clientToken, personalAccessToken, type ExternalWorld } from '../features/external/testing.js';
import { mintAccessToken, type AccessTokenOptions } from '../testing/tokens.js';

const ALGS = 'algs="ES256 EdDSA Ed25519 PS256 RS256"';

describe('DPoP-bound tokens on the admin API, the external API and the notification hub', function () {
  this.timeout(30_000);
  let w: ExternalWorld;
  let key: DPoPKey;
  /** The address clients reach the product at: proofs name it. */
  let publicUrl: string;

  before(async () => {
    w = await buildExternalWorld();
    key = await dpopKey();
    publicUrl = w.context.config.server.publicUrl;
  });

  /** The admin console's JWT for the administrator, bound to `key` unless told (`cnf: undefined`: bound to none). */
  const consoleToken = (options: AccessTokenOptions & { cnf?: unknown } = {}) => {
    const { cnf, ...rest } = options;
    const confirmation = 'cnf' in options ? cnf : { jkt: key.jkt };
    return mintAccessToken(w.context, w.key, { sub: w.callers.admin.id, roles: ['Administrator'], ...rest, claims: { cnf: confirmation, ...rest.claims } });
  };

  /** A request under a scheme, with the proofs given (each its own DPoP header). */
  const send = (method: 'get' | 'post', path: string, authorization: string, proofs: string[] = []) => {
    const req = request(w.server)[method](path).set('Authorization', authorization).set('Accept-Language', 'en');
    // An array goes out as one header line per value; superagent's types only admit it for Cookie.
    return proofs.length ? req.set('DPoP', proofs as unknown as string) : req;
  };

  /** A proof for `method` at the public address of `path`, for `token`. */
  const proofFor = (method: string, path: string, token: string, signer = key) => dpopProof(signer, method, `${publicUrl}${path}`, { token });

  const ME = '/api/v1/admin/me';

  describe('the admin console’s bound JWT', () => {
    it('opens the admin API under the DPoP scheme with a proof for the call', async () => {
      const token = await consoleToken();
      const res = await send('get', ME, `DPoP ${token}`, [await proofFor('GET', ME, token)]);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ id: w.callers.admin.id });
    });

    it('is refused as a bearer token, with a DPoP challenge (invalid_token)', async () => {
      const token = await consoleToken();
      for (const proofs of [[], [await proofFor('GET', ME, token)]]) {
        const res = await send('get', ME, `Bearer ${token}`, proofs);
        expect(res.status).to.equal(401);
        expect(res.headers['www-authenticate']).to.equal(`DPoP error="invalid_token", ${ALGS}`);
        expect(res.body).to.include({ code: 'errors.unauthorized' });
      }
    });

    it('is refused under the DPoP scheme without a proof (invalid_token)', async () => {
      const res = await send('get', ME, `DPoP ${await consoleToken()}`);
      expect(res.status).to.equal(401);
      expect(res.headers['www-authenticate']).to.equal(`DPoP error="invalid_token", ${ALGS}`);
    });

    it('is refused with a proof used before, even when the copies race (invalid_dpop_proof)', async () => {
      const token = await consoleToken();
      const proof = await proofFor('GET', ME, token);
      expect((await send('get', ME, `DPoP ${token}`, [proof])).status).to.equal(200);
      const replayed = await send('get', ME, `DPoP ${token}`, [proof]);
      expect(replayed.status).to.equal(401);
      expect(replayed.headers['www-authenticate']).to.equal(`DPoP error="invalid_dpop_proof", ${ALGS}`);

      const raced = await proofFor('GET', ME, token);
      const statuses = (await Promise.all(Array.from({ length: 4 }, () => send('get', ME, `DPoP ${token}`, [raced])))).map((res) => res.status);
      expect(statuses.sort()).to.deep.equal([200, 401, 401, 401]);
    });

    it('is refused with a proof for another call, another token or another key (invalid_dpop_proof)', async () => {
      const token = await consoleToken();
      const other = await dpopKey();
      for (const [name, proof] of [
        ['another path', await proofFor('GET', '/api/v1/admin/users', token)],
        ['another method', await proofFor('POST', ME, token)],
        ['another host', await dpopProof(key, 'GET', `https://elsewhere.example.com${ME}`, { token })],
        ['another token', await proofFor('GET', ME, await consoleToken())],
        ['another key', await proofFor('GET', ME, token, other)],
        ['an old proof', await dpopProof(key, 'GET', `${publicUrl}${ME}`, { token, iat: Math.floor(Date.now() / 1000) - 120 })],
      ] as const) {
        const res = await send('get', ME, `DPoP ${token}`, [proof]);
        expect(res.status, name).to.equal(401);
        expect(res.headers['www-authenticate'], name).to.equal(`DPoP error="invalid_dpop_proof", ${ALGS}`);
      }
      const twice = await send('get', ME, `DPoP ${token}`, [await proofFor('GET', ME, token), await proofFor('GET', ME, token)]);
      expect(twice.status, 'two proofs').to.equal(401);
    });

    it('is refused when its confirmation names a certificate rather than a key', async () => {
      const token = await consoleToken({ cnf: { 'x5t#S256': 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2' } });
      expect((await send('get', ME, `Bearer ${token}`)).status).to.equal(401);
      expect((await send('get', ME, `DPoP ${token}`, [await proofFor('GET', ME, token)])).status).to.equal(401);
    });

    it('answers a bound token without the admin scope 403 with a DPoP challenge', async () => {
      const token = await consoleToken({ scope: 'openid' });
      const res = await send('get', ME, `DPoP ${token}`, [await proofFor('GET', ME, token)]);
      expect(res.status).to.equal(403);
      expect(res.headers['www-authenticate']).to.equal(`DPoP error="insufficient_scope", ${ALGS}`);
    });
  });

  describe('tokens bound to no key', () => {
    it('keep working as bearer tokens', async () => {
      expect((await send('get', ME, `Bearer ${await consoleToken({ cnf: undefined })}`)).status).to.equal(200);
    });

    it('are refused under the DPoP scheme, proof or not (invalid_token)', async () => {
      const token = await consoleToken({ cnf: undefined });
      for (const proofs of [[], [await proofFor('GET', ME, token)]]) {
        const res = await send('get', ME, `DPoP ${token}`, proofs);
        expect(res.status).to.equal(401);
        expect(res.headers['www-authenticate']).to.equal(`DPoP error="invalid_token", ${ALGS}`);
      }
    });

    it('are refused under the DPoP scheme when they are personal access tokens, on the admin and the external API', async () => {
      const identityPat = await personalAccessToken(w, w.callers.admin, w.identity);
      expect((await send('get', ME, `Bearer ${identityPat.token}`)).status).to.equal(200);
      expect((await send('get', ME, `DPoP ${identityPat.token}`, [await proofFor('GET', ME, identityPat.token)])).status).to.equal(401);

      await w.context.dataSource.query('INSERT INTO application_owners (application_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [w.crm.id, w.ann.id]);
      const crmPat = await personalAccessToken(w, w.ann, w.crm);
      const path = `/api/v1/external/users/${w.ann.id}/roles`;
      expect((await send('get', path, `Bearer ${crmPat.token}`)).status).to.equal(200);
      const refused = await send('get', path, `DPoP ${crmPat.token}`, [await proofFor('GET', path, crmPat.token)]);
      expect(refused.status).to.equal(401);
      expect(refused.headers['www-authenticate']).to.equal(`DPoP error="invalid_token", ${ALGS}`);
    });
  });

  describe('the portal’s opaque token on the launcher calls', () => {
    /** An opaque access token stored as the provider stores it, issued to the portal for `user`, bound to `jkt` when given. */
    const portalToken = async (user: User, jkt?: string) => {
      const id = randomBytes(32).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      const payload = { kind: 'AccessToken', jti: id, accountId: user.id, clientId: w.context.config.oidc.portalClientId, grantId: `grant-${id}`, scope: 'openid', iat: now, exp: now + 3600, ...(jkt ? { jkt } : {}) };
      await w.context.dataSource.query(
        `INSERT INTO oidc_model_instances (model, id, payload, grant_id, expires_at) VALUES ('AccessToken', $1, $2, $3, now() + interval '1 hour')`,
        [id, payload, `grant-${id}`],
      );
      return id;
    };
    const HOME = '/api/v1/admin/applications/homeInfo';

    it('takes a bound one under the DPoP scheme with its proof, and refuses it as a bearer token or with a replayed proof', async () => {
      const token = await portalToken(w.ann, key.jkt);
      const proof = await proofFor('GET', HOME, token);
      expect((await send('get', HOME, `DPoP ${token}`, [proof])).status).to.equal(200);
      expect((await send('get', HOME, `DPoP ${token}`, [proof])).status).to.equal(401);
      const bearer = await send('get', HOME, `Bearer ${token}`);
      expect(bearer.status).to.equal(401);
      expect(bearer.headers['www-authenticate']).to.equal(`DPoP error="invalid_token", ${ALGS}`);
    });

    it('takes an unbound one as a bearer token only', async () => {
      const token = await portalToken(w.ann);
      expect((await send('get', HOME, `Bearer ${token}`)).status).to.equal(200);
      expect((await send('get', HOME, `DPoP ${token}`, [await proofFor('GET', HOME, token)])).status).to.equal(401);
    });
  });

  describe('the external API’s bound client-credentials token', () => {
    const path = () => `/api/v1/external/users/${w.ann.id}/roles`;

    it('is taken under the DPoP scheme with its proof, and refused as a bearer token or without a proof', async () => {
      const token = await clientToken(w, w.crm, { claims: { roles: undefined, cnf: { jkt: key.jkt } } });
      const res = await send('get', path(), `DPoP ${token}`, [await proofFor('GET', path(), token)]);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const bearer = await send('get', path(), `Bearer ${token}`);
      expect(bearer.status).to.equal(401);
      expect(bearer.headers['www-authenticate']).to.equal(`DPoP error="invalid_token", ${ALGS}`);
      expect((await send('get', path(), `DPoP ${token}`)).status).to.equal(401);
      const elsewhere = await send('get', path(), `DPoP ${token}`, [await proofFor('GET', '/api/v1/admin/me', token)]);
      expect(elsewhere.headers['www-authenticate']).to.equal(`DPoP error="invalid_dpop_proof", ${ALGS}`);
    });

    it('keeps an unbound one working as a bearer token, and refuses it under the DPoP scheme', async () => {
      const token = await clientToken(w, w.crm);
      expect((await send('get', path(), `Bearer ${token}`)).status).to.equal(200);
      expect((await send('get', path(), `DPoP ${token}`, [await proofFor('GET', path(), token)])).status).to.equal(401);
    });
  });

  describe('the notification hub', () => {
    let server: http.Server;
    let url: string;
    let close: () => Promise<void>;
    /** Where the console opens the hub: the handshake request's path, as socket.io sends it. */
    const HUB = `${NOTIFICATIONS_HUB_PATH}/`;

    before(async () => {
      const handler = createApp(w.context).callback();
      server = http.createServer((req, res) => void handler(req, res));
      const hub = await attachNotificationHub(w.context, server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      close = async () => {
        await hub.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      };
    });
    after(() => close());

    /** Whether the hub accepts a connection with this handshake. */
    const connects = (auth: Record<string, unknown>): Promise<boolean> =>
      new Promise((resolve, reject) => {
        const socket = io(url, { path: NOTIFICATIONS_HUB_PATH, transports: ['websocket'], auth, reconnection: false, forceNew: true });
        const timer = setTimeout(() => reject(new Error('neither accepted nor refused')), 5000);
        const done = (accepted: boolean) => {
          clearTimeout(timer);
          socket.disconnect();
          resolve(accepted);
        };
        socket.once(NOTIFICATION_HUB_EVENTS.beginConnection, () => done(true));
        socket.once('connect_error', () => done(false));
      });

    it('accepts a bound token with its proof for the handshake, once', async () => {
      const token = await consoleToken();
      const proof = await proofFor('GET', HUB, token);
      expect(await connects({ token, dpop: proof })).to.equal(true);
      expect(await connects({ token, dpop: proof }), 'replayed').to.equal(false);
    });

    it('refuses a bound token without a proof, or with a proof for another address or token', async () => {
      const token = await consoleToken();
      expect(await connects({ token })).to.equal(false);
      expect(await connects({ token, dpop: await proofFor('GET', ME, token) })).to.equal(false);
      expect(await connects({ token, dpop: await proofFor('GET', HUB, await consoleToken()) })).to.equal(false);
      expect(await connects({ token, dpop: 42 })).to.equal(false);
    });

    it('accepts an unbound token without a proof, and refuses it with one', async () => {
      const token = await consoleToken({ cnf: undefined });
      expect(await connects({ token })).to.equal(true);
      expect(await connects({ token, dpop: await proofFor('GET', HUB, token) })).to.equal(false);
    });
  });
});
