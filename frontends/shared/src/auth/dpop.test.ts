import { UserManager, type INavigator, type IWindow, type NavigateParams } from 'oidc-client-ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authorizedFetch, createApiDependencies } from '../api/authorized-base-query';
import { stubSubtleCrypto } from '../testing/dom';
import { AuthService } from './auth-service';
import { DpopNonces, dpopTarget, requestAuthorization } from './dpop';
import { MemoryDPoPStore } from './testing/memory-dpop-store';
import { createTokenLock } from './token-lock';
import { userManagerSettings } from './user-manager';

const AUTHORITY = 'https://id.example.com/oidc';
const TOKEN_ENDPOINT = `${AUTHORITY}/token`;
const ORIGIN = 'http://localhost:3000';
const CLIENT = { authority: AUTHORITY, clientId: 'portal', scopes: 'openid offline_access' };

interface Jwk {
  kty: string;
  crv: string;
  x: string;
  y: string;
  d?: string;
}

interface Proof {
  header: { typ: string; alg: string; jwk: Jwk };
  payload: { htm: string; htu: string; iat: number; jti: string; ath?: string; nonce?: string };
  /** Whether the signature holds with the key named in the header. */
  signed: boolean;
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
const jsonPart = (part: string) => JSON.parse(new TextDecoder().decode(fromBase64url(part))) as unknown;
const sha256 = async (text: string) => base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));

/** Reads a DPoP proof as its server would: its parts, and its signature checked with the key it names. */
async function readProof(jwt: string | null | undefined): Promise<Proof> {
  const [header, payload, signature] = (jwt ?? '').split('.') as [string, string, string];
  const parsed = { header: jsonPart(header), payload: jsonPart(payload) } as Omit<Proof, 'signed'>;
  const key = await crypto.subtle.importKey('jwk', parsed.header.jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  const signed = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, fromBase64url(signature), new TextEncoder().encode(`${header}.${payload}`));
  return { ...parsed, signed };
}

/** The RFC 7638 thumbprint of an EC public key: what `dpop_jkt` and `cnf.jkt` carry. */
const thumbprint = (jwk: Jwk) => sha256(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }));

const unsignedJwt = (claims: Record<string, unknown>) =>
  `${base64url(new TextEncoder().encode('{"alg":"none"}'))}.${base64url(new TextEncoder().encode(JSON.stringify(claims)))}.`;

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/**
 * The provider's discovery and token endpoint: it answers `token_type: DPoP` to a request with a
 * proof, as oidc-provider does, and keeps each token request with its proof. With `nonce` set, a
 * proof without it is refused with `use_dpop_nonce` and the nonce (RFC 9449 §8).
 */
class FakeProvider {
  tokenRequests: Array<{ grant: string; proof: string | null; refreshToken: string | null }> = [];
  /** API calls, with their Authorization and DPoP headers. */
  apiCalls: Request[] = [];
  nonce: string | undefined;
  private issued = 0;

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.url === `${AUTHORITY}/.well-known/openid-configuration`) {
      return json({
        issuer: AUTHORITY,
        authorization_endpoint: `${AUTHORITY}/auth`,
        token_endpoint: TOKEN_ENDPOINT,
        end_session_endpoint: `${AUTHORITY}/session/end`,
        jwks_uri: `${AUTHORITY}/jwks`,
      });
    }
    if (request.url === TOKEN_ENDPOINT) return this.token(request);
    this.apiCalls.push(request);
    return json({ ok: true });
  };

  private async token(request: Request): Promise<Response> {
    const form = new URLSearchParams(await request.text());
    const proof = request.headers.get('DPoP');
    this.tokenRequests.push({ grant: form.get('grant_type')!, proof, refreshToken: form.get('refresh_token') });
    if (this.nonce && (await readProof(proof)).payload.nonce !== this.nonce) {
      return json({ error: 'use_dpop_nonce', error_description: 'nonce required' }, 400, { 'DPoP-Nonce': this.nonce });
    }
    this.issued += 1;
    const now = Math.floor(Date.now() / 1000);
    return json({
      access_token: `access-${this.issued}`,
      refresh_token: `refresh-${this.issued}`,
      token_type: proof ? 'DPoP' : 'Bearer',
      expires_in: 3600,
      scope: CLIENT.scopes,
      id_token: unsignedJwt({ iss: AUTHORITY, sub: 'user-1', aud: CLIENT.clientId, iat: now, exp: now + 3600 }),
    });
  }
}

/** The browser's navigation to the provider: the address is kept, and nothing leaves the page. */
class RecordingNavigator implements INavigator {
  urls: string[] = [];
  async prepare(): Promise<IWindow> {
    return {
      navigate: async ({ url }: NavigateParams) => {
        this.urls.push(url);
        return { url };
      },
      close: () => undefined,
    };
  }
  async callback(): Promise<void> {}
}

/** One tab of the SPA: its own oidc-client-ts manager over the origin's shared key store. */
function openTab(store: MemoryDPoPStore) {
  const navigator = new RecordingNavigator();
  const manager = new UserManager(userManagerSettings(CLIENT, { origin: ORIGIN }, store), navigator);
  const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined), storage: localStorage });
  return { auth, manager, navigator };
}

describe('DPoP: tokens bound to a key the SPA cannot give away', () => {
  let provider: FakeProvider;
  let store: MemoryDPoPStore;

  beforeEach(() => {
    stubSubtleCrypto();
    provider = new FakeProvider();
    store = new MemoryDPoPStore();
    vi.stubGlobal('fetch', provider.fetch);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  /** Signs in through the provider: the redirect, then the callback page with the code. */
  async function signIn(tab: ReturnType<typeof openTab>) {
    await tab.auth.signIn('/');
    const authorize = new URL(tab.navigator.urls.at(-1)!);
    await tab.auth.completeSignIn(`${ORIGIN}/auth/callback?code=code-1&state=${authorize.searchParams.get('state')}`);
    return authorize;
  }

  it('binds the authorization code and the tokens to a non-extractable key pair kept in the store', async () => {
    const tab = openTab(store);

    const authorize = await signIn(tab);

    // One key pair, for this client, whose private half no script can export.
    expect([...store.entries.keys()]).toEqual(['portal']);
    const { privateKey, publicKey } = store.entries.get('portal')!.keys;
    expect(privateKey.extractable).toBe(false);
    expect(privateKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });
    await expect(crypto.subtle.exportKey('jwk', privateKey)).rejects.toThrow();
    const jkt = await thumbprint((await crypto.subtle.exportKey('jwk', publicKey)) as Jwk);
    // The code is bound to the key (RFC 9449 §10), and its exchange proves possession of it.
    expect(authorize.searchParams.get('dpop_jkt')).toBe(jkt);
    expect(provider.tokenRequests).toHaveLength(1);
    const exchange = await readProof(provider.tokenRequests[0]!.proof);
    expect(exchange.header).toEqual({ alg: 'ES256', typ: 'dpop+jwt', jwk: { kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String) } });
    expect(exchange.header.jwk.d).toBeUndefined();
    expect(exchange.signed).toBe(true);
    expect(await thumbprint(exchange.header.jwk)).toBe(jkt);
    expect(exchange.payload).toMatchObject({ htm: 'POST', htu: TOKEN_ENDPOINT });
    expect(exchange.payload.ath).toBeUndefined();
    // The stored user says its tokens are bound.
    expect((await tab.manager.getUser())?.token_type).toBe('DPoP');
  });

  it('sends every API call as `DPoP <token>` with a fresh proof of the call’s method and URL, without its query', async () => {
    const tab = openTab(store);
    await signIn(tab);
    const jkt = await thumbprint((await readProof(provider.tokenRequests[0]!.proof)).header.jwk);
    const dependencies = createApiDependencies(tab.auth, () => 'en');

    await authorizedFetch(dependencies, '/api/v1/admin/users/export?format=xlsx#top', { method: 'post' });
    await authorizedFetch(dependencies, '/api/v1/admin/users/export?format=xlsx', { method: 'post' });

    expect(provider.apiCalls).toHaveLength(2);
    const [first, second] = provider.apiCalls as [Request, Request];
    expect(first.headers.get('Authorization')).toBe('DPoP access-1');
    const proof = await readProof(first.headers.get('DPoP'));
    expect(proof.signed).toBe(true);
    expect(proof.header.typ).toBe('dpop+jwt');
    expect(proof.header.jwk.d).toBeUndefined();
    expect(await thumbprint(proof.header.jwk)).toBe(jkt);
    expect(proof.payload.htm).toBe('POST');
    expect(proof.payload.htu).toBe(`${ORIGIN}/api/v1/admin/users/export`);
    expect(proof.payload.ath).toBe(await sha256('access-1'));
    expect(Math.abs(proof.payload.iat - Date.now() / 1000)).toBeLessThan(5);
    // Each call its own proof: a server refuses a proof it has seen (RFC 9449 §11.1).
    const again = await readProof(second.headers.get('DPoP'));
    expect(again.payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(again.payload.jti).not.toBe(proof.payload.jti);
  });

  it('refreshes with a proof of the same key, and sends the nonce the provider asks for', async () => {
    const tab = openTab(store);
    await signIn(tab);
    const signedInWith = (await readProof(provider.tokenRequests[0]!.proof)).header.jwk;
    provider.nonce = 'nonce-1';

    const renewed = await tab.auth.renew({ rejectedToken: 'access-1' });

    expect(renewed).toMatchObject({ access_token: 'access-2', token_type: 'DPoP' });
    const refreshes = provider.tokenRequests.slice(1);
    expect(refreshes.map((r) => r.grant)).toEqual(['refresh_token', 'refresh_token']);
    expect(refreshes.map((r) => r.refreshToken)).toEqual(['refresh-1', 'refresh-1']);
    const [refused, accepted] = await Promise.all(refreshes.map((r) => readProof(r.proof)));
    expect(refused!.payload.nonce).toBeUndefined();
    expect(accepted!.payload).toMatchObject({ htm: 'POST', htu: TOKEN_ENDPOINT, nonce: 'nonce-1' });
    expect(accepted!.signed).toBe(true);
    expect(accepted!.header.jwk).toEqual(signedInWith);
  });

  it('shares the key pair between the tabs of the origin, and signing out removes it', async () => {
    const first = openTab(store);
    await signIn(first);
    // Another tab reads the same stored user, and signs its calls with the same key.
    const second = openTab(store);
    await second.auth.initialize();
    const dependencies = createApiDependencies(second.auth, () => 'en');

    await authorizedFetch(dependencies, '/api/v1/profile');

    const fromSecondTab = await readProof(provider.apiCalls[0]!.headers.get('DPoP'));
    expect(fromSecondTab.header.jwk).toEqual((await readProof(provider.tokenRequests[0]!.proof)).header.jwk);

    await first.auth.signOut();

    expect(first.navigator.urls.at(-1)).toMatch(/\/session\/end\?/);
    expect(store.entries.size).toBe(0);
    second.auth.dispose();
  });

  it('sends a bound token without a proof once its key is gone, for the server to refuse', async () => {
    const tab = openTab(store);
    await signIn(tab);
    store.entries.clear();

    const authorization = await tab.auth.authorize({ url: `${ORIGIN}/api/v1/profile`, method: 'GET' });

    expect(authorization).toEqual({ token: 'access-1', headers: { Authorization: 'DPoP access-1' } });
  });
});

describe('DPoP helpers', () => {
  it('names the call without its query and fragment', () => {
    expect(dpopTarget('https://id.example.com/base/api/v1/x?y=1#z')).toBe('https://id.example.com/base/api/v1/x');
  });

  it('sends a token the provider did not bind with the Bearer scheme and no proof', () => {
    expect(requestAuthorization({ access_token: 't', token_type: 'Bearer' }, 'proof')).toEqual({ token: 't', headers: { Authorization: 'Bearer t' } });
    expect(requestAuthorization({ access_token: 't', token_type: 'dpop' }, 'proof')).toEqual({ token: 't', headers: { Authorization: 'DPoP t', DPoP: 'proof' } });
  });

  it('keeps the nonce a server sends, per origin, and reads its challenge only from a 401 use_dpop_nonce', () => {
    const nonces = new DpopNonces();
    const challenge = new Response(null, { status: 401, headers: { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce", error_description="x"', 'DPoP-Nonce': 'n-1' } });
    const refusal = new Response(null, { status: 401, headers: { 'WWW-Authenticate': 'DPoP error="invalid_dpop_proof"', 'DPoP-Nonce': 'n-2' } });
    const fresh = new Response(null, { status: 200, headers: { 'DPoP-Nonce': 'n-3' } });

    expect(nonces.remember('https://a.example.com/x', challenge)).toBe('n-1');
    expect(nonces.for('https://a.example.com/other?q')).toBe('n-1');
    expect(nonces.remember('https://a.example.com/x', refusal)).toBeUndefined();
    expect(nonces.for('https://a.example.com/x')).toBe('n-2');
    expect(nonces.remember('https://a.example.com/x', fresh)).toBeUndefined();
    expect(nonces.for('https://a.example.com/x')).toBe('n-3');
    expect(nonces.for('https://b.example.com/x')).toBeUndefined();
  });
});
