import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { SignJWT, exportJWK, type JWK } from 'jose';
import { dpopKey, dpopProof, type DPoPKey } from '../testing/dpop.js';
import {
  DPOP_PROOF_WINDOW_SECONDS,
  DPoPError,
  DPoPVerifier,
  accessTokenHash,
  presentedToken,
  tokenChallenge,
  type DPoPRequest,
  type PresentedToken,
} from './dpop.js';

const PUBLIC_URL = 'https://id.example.com/identity';
const URL_ME = 'https://id.example.com/identity/api/v1/admin/me';
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

interface ProofOptions {
  htm?: string;
  htu?: string;
  iat?: number;
  jti?: string;
  /** The token whose hash goes in `ath`; null leaves `ath` out. */
  token?: string | null;
  header?: Record<string, unknown>;
}

/** A proof as a client makes one: for GET at /api/v1/admin/me, now, for TOKEN, unless told. */
function proof(key: DPoPKey, options: ProofOptions = {}): Promise<string> {
  return dpopProof(key, options.htm ?? 'GET', options.htu ?? URL_ME, {
    token: options.token === null ? undefined : (options.token ?? TOKEN),
    iat: options.iat,
    jti: options.jti,
    header: options.header,
  });
}

/** A JWS with any header and payload and no signature at all (`alg: none`). */
function unsigned(header: object, payload: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part(header)}.${part(payload)}.`;
}

const request = (proofs: string[], overrides: Partial<DPoPRequest> = {}): DPoPRequest => ({ method: 'GET', urls: [URL_ME], proofs, ...overrides });
const dpop: PresentedToken = { scheme: 'DPoP', token: TOKEN };
const bearer: PresentedToken = { scheme: 'Bearer', token: TOKEN };

/** The refusal a check ends with, or undefined when it passes. */
async function refusal(check: Promise<void>): Promise<DPoPError | undefined> {
  try {
    await check;
    return undefined;
  } catch (error) {
    if (!(error instanceof DPoPError)) throw error;
    return error;
  }
}

/** A Redis client that is not connected: every command fails. */
function disconnectedRedis(): { redis: Redis; sent: string[] } {
  const sent: string[] = [];
  const setUp = { status: 'reconnecting', constructor: Object, defineCommand: () => undefined, isReady: undefined };
  const redis = new Proxy(setUp as Record<string, unknown>, {
    get: (target, key) => {
      if (key in target || typeof key !== 'string' || key === 'then') return target[key as string];
      return () => {
        sent.push(key);
        return Promise.reject(new Error('not connected'));
      };
    },
  }) as unknown as Redis;
  return { redis, sent };
}

/** An incoming request as Node gives it to a server. */
function incoming(url: string, headers: Record<string, string | string[]> = {}, method = 'GET'): IncomingMessage {
  const distinct = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]));
  return { method, url, headers: Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, Array.isArray(v) ? v.join(', ') : v])), headersDistinct: distinct, socket: {} } as unknown as IncomingMessage;
}

describe('DPoP at the resource servers', () => {
  let verifier: DPoPVerifier;
  let key: DPoPKey;

  beforeEach(async () => {
    verifier = new DPoPVerifier({ publicUrl: PUBLIC_URL, trustProxy: false });
    key = await dpopKey();
  });

  describe('the Authorization header', () => {
    it('reads a token under the Bearer or the DPoP scheme, whatever their case, and nothing else', () => {
      expect(presentedToken(`Bearer ${TOKEN}`)).to.deep.equal({ scheme: 'Bearer', token: TOKEN });
      expect(presentedToken(`dpop ${TOKEN}`)).to.deep.equal({ scheme: 'DPoP', token: TOKEN });
      for (const header of ['', 'Basic dXNlcjpwYXNz', `Bearer`, `DPoP ${TOKEN} extra`, `MAC ${TOKEN}`, undefined]) {
        expect(presentedToken(header), String(header)).to.equal(undefined);
      }
    });

    it('answers a challenge in the scheme of the request, naming the proof algorithms for DPoP', () => {
      expect(tokenChallenge(undefined)).to.equal('Bearer');
      expect(tokenChallenge('Bearer', 'invalid_token')).to.equal('Bearer error="invalid_token"');
      expect(tokenChallenge('DPoP', 'invalid_dpop_proof')).to.equal('DPoP error="invalid_dpop_proof", algs="ES256 EdDSA Ed25519 PS256 RS256"');
      expect(tokenChallenge('DPoP')).to.equal('DPoP algs="ES256 EdDSA Ed25519 PS256 RS256"');
    });
  });

  describe('a valid proof', () => {
    for (const alg of ['ES256', 'RS256', 'PS256', 'EdDSA']) {
      it(`is accepted once, signed with ${alg} by the key the token is bound to`, async () => {
        const signer = await dpopKey(alg);
        expect(await refusal(verifier.check(request([await proof(signer)]), dpop, signer.jkt))).to.equal(undefined);
      });
    }

    it('is accepted whatever query the request and the htu carry (RFC 9449 §4.3)', async () => {
      const signed = await proof(key, { htu: `${URL_ME}?top=10#part` });
      expect(await refusal(verifier.check(request([signed]), dpop, key.jkt))).to.equal(undefined);
    });

    it('passes a token bound to no key under the Bearer scheme, a DPoP header or not', async () => {
      expect(await refusal(verifier.check(request([]), bearer, undefined))).to.equal(undefined);
      expect(await refusal(verifier.check(request([await proof(key)]), bearer, undefined))).to.equal(undefined);
    });
  });

  describe('the scheme against the binding', () => {
    it('refuses a bound token under the Bearer scheme, even with a valid proof (invalid_token)', async () => {
      for (const proofs of [[], [await proof(key)]]) {
        expect(await refusal(verifier.check(request(proofs), bearer, key.jkt))).to.include({ error: 'invalid_token' });
      }
    });

    it('refuses a bound token under the DPoP scheme without a proof (invalid_token)', async () => {
      expect(await refusal(verifier.check(request([]), dpop, key.jkt))).to.include({ error: 'invalid_token' });
    });

    it('refuses a token bound to no key under the DPoP scheme, with a proof or not', async () => {
      expect(await refusal(verifier.check(request([]), dpop, undefined))).to.include({ error: 'invalid_token' });
      expect(await refusal(verifier.check(request([await proof(key)]), dpop, undefined))).to.include({ error: 'invalid_token' });
    });
  });

  describe('a bad proof (invalid_dpop_proof)', () => {
    const refusedProof = async (proofs: string[], overrides: Partial<DPoPRequest> = {}, jkt = key.jkt) => {
      const refused = await refusal(verifier.check(request(proofs, overrides), dpop, jkt));
      expect(refused, 'refused').to.be.instanceOf(DPoPError);
      expect(refused!.error).to.equal('invalid_dpop_proof');
      return refused!;
    };

    it('refuses a proof made for another method', async () => {
      await refusedProof([await proof(key, { htm: 'POST' })]);
      await refusedProof([await proof(key, { htm: 'get' })]);
    });

    it('refuses a proof made for another address: another path, host, scheme or base path', async () => {
      for (const htu of [
        'https://id.example.com/identity/api/v1/admin/users',
        'https://evil.example.com/identity/api/v1/admin/me',
        'http://id.example.com/identity/api/v1/admin/me',
        'https://id.example.com/api/v1/admin/me',
        'not a url',
        'javascript:alert(1)',
      ]) {
        expect((await refusedProof([await proof(key, { htu })])).reason, htu).to.equal('htu');
      }
    });

    it(`refuses a proof made more than ${DPOP_PROOF_WINDOW_SECONDS} s ago, or as far ahead`, async () => {
      const now = Math.floor(Date.now() / 1000);
      await refusedProof([await proof(key, { iat: now - DPOP_PROOF_WINDOW_SECONDS - 2 })]);
      await refusedProof([await proof(key, { iat: now + DPOP_PROOF_WINDOW_SECONDS + 2 })]);
      expect(await refusal(verifier.check(request([await proof(key, { iat: now - DPOP_PROOF_WINDOW_SECONDS + 5 })]), dpop, key.jkt))).to.equal(undefined);
    });

    it('refuses a proof used a second time, on this node, even sent at once (Promise.all)', async () => {
      const signed = await proof(key);
      expect(await refusal(verifier.check(request([signed]), dpop, key.jkt))).to.equal(undefined);
      expect((await refusedProof([signed])).reason).to.equal('replayed');

      const raced = await proof(key);
      const results = await Promise.all(Array.from({ length: 5 }, () => refusal(verifier.check(request([raced]), dpop, key.jkt))));
      expect(results.filter((result) => result === undefined)).to.have.length(1);
      expect(results.filter((result) => result?.reason === 'replayed')).to.have.length(4);
    });

    it('refuses a proof reusing the jti of another proof of the same key', async () => {
      const jti = randomUUID();
      expect(await refusal(verifier.check(request([await proof(key, { jti })]), dpop, key.jkt))).to.equal(undefined);
      expect((await refusedProof([await proof(key, { jti })])).reason).to.equal('replayed');
    });

    it('refuses a proof without ath, or made for another access token', async () => {
      await refusedProof([await proof(key, { token: null })]);
      await refusedProof([await proof(key, { token: `${TOKEN}x` })]);
    });

    it('refuses a proof signed by another key than the token is bound to', async () => {
      const other = await dpopKey();
      expect((await refusedProof([await proof(other)])).reason).to.match(/another key/);
    });

    it('refuses a proof whose header names another key than the one that signed it', async () => {
      const other = await dpopKey();
      await refusedProof([await proof(other, { header: { jwk: key.jwk } })]);
    });

    it('refuses alg none and HMAC proofs', async () => {
      const claims = { htm: 'GET', htu: URL_ME, iat: Math.floor(Date.now() / 1000), jti: randomUUID(), ath: accessTokenHash(TOKEN) };
      await refusedProof([unsigned({ alg: 'none', typ: 'dpop+jwt', jwk: key.jwk }, claims)]);
      const secret = new TextEncoder().encode('a shared secret of thirty-two bytes!');
      const hmac = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: key.jwk }).sign(secret);
      await refusedProof([hmac]);
      const secretJwk = { kty: 'oct', k: Buffer.from(secret).toString('base64url') } as JWK;
      const withSecretKey = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: secretJwk }).sign(secret);
      await refusedProof([withSecretKey]);
    });

    it('refuses a proof whose header carries a private key', async () => {
      const privateJwk = await exportJWK(key.privateKey);
      expect((await refusedProof([await proof(key, { header: { jwk: privateJwk } })])).reason).to.match(/private key/);
    });

    it('refuses a JWT of another type, without a key, two proofs, or what is no JWT', async () => {
      await refusedProof([await proof(key, { header: { typ: 'JWT' } })]);
      await refusedProof([await proof(key, { header: { jwk: undefined } })]);
      await refusedProof([await proof(key), await proof(key)]);
      await refusedProof(['not-a-jwt']);
      await refusedProof(['x'.repeat(10_000)]);
    });

    it('does not spend a proof it refuses: the one that would pass still does', async () => {
      const signed = await proof(key);
      await refusedProof([signed], { method: 'POST' });
      expect(await refusal(verifier.check(request([signed]), dpop, key.jkt))).to.equal(undefined);
    });
  });

  describe('where proofs are remembered', () => {
    it('remembers them in memory at once while Redis is not connected, sending it nothing', async () => {
      const { redis, sent } = disconnectedRedis();
      const shared = new DPoPVerifier({ publicUrl: PUBLIC_URL, trustProxy: false, redis, namespace: 'test' });
      const signed = await proof(key);
      expect(await refusal(shared.check(request([signed]), dpop, key.jkt))).to.equal(undefined);
      expect(await refusal(shared.check(request([signed]), dpop, key.jkt))).to.include({ reason: 'replayed' });
      expect(sent).to.deep.equal([]);
    });
  });

  describe('the address of a request', () => {
    it('is the public URL origin and the path as the client sent it, base path included, without the query', () => {
      const req = verifier.requestOf(incoming('/identity/api/v1/admin/me?top=5', { host: '10.0.0.7:3000', dpop: 'a.b.c' }));
      expect(req).to.deep.equal({ method: 'GET', urls: [URL_ME], proofs: ['a.b.c'] });
    });

    it('takes the address as it reached the product when a mount took the base path off the request', () => {
      // koa-mount strips its prefix from req.url; Koa keeps the original in ctx.originalUrl.
      const mounted = incoming('/api/v1/admin/me?top=5', { dpop: 'a.b.c' });
      expect(verifier.requestOf(mounted, undefined, '/identity/api/v1/admin/me?top=5').urls).to.deep.equal([URL_ME]);
      expect(verifier.requestOf(mounted).urls, 'without it, the proof for the public address would not match').to.not.deep.equal([URL_ME]);
    });

    it('keeps every DPoP header apart, so that two are seen as two', () => {
      expect(verifier.requestOf(incoming('/identity/x', { dpop: ['a.b.c', 'd.e.f'] })).proofs).to.deep.equal(['a.b.c', 'd.e.f']);
    });

    it('never takes a path for a host (//host/path)', () => {
      expect(verifier.requestOf(incoming('//evil.example.com/api')).urls).to.deep.equal(['https://id.example.com//evil.example.com/api']);
    });

    it('believes the forwarded origin only behind a trusted proxy', () => {
      const forwarded = { host: '10.0.0.7:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'login.example.org' };
      expect(verifier.requestOf(incoming('/identity/api/v1/admin/me', forwarded)).urls).to.deep.equal([URL_ME]);
      const behindProxy = new DPoPVerifier({ publicUrl: PUBLIC_URL, trustProxy: true });
      expect(behindProxy.requestOf(incoming('/identity/api/v1/admin/me', forwarded)).urls).to.deep.equal([URL_ME, 'https://login.example.org/identity/api/v1/admin/me']);
    });
  });
});
