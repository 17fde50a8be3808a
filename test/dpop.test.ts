import { dpopKey, dpopProof, type DPoPKey } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { Browser } from './support/browser.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const MACHINE_SECRET = 'machine-secret-0123456789-abcdefghijkl';
const LEGACY_SECRET = 'legacy-secret-0123456789-abcdefghijklm';
const ALGS = 'algs="ES256 EdDSA Ed25519 PS256 RS256"';

const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
tenants: [{ title: ACME, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${url}/admin/auth/callback'] }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${url}/spa/callback'] }
  - { id: strict, name: strict, displayName: Strict app, type: public, firstParty: true, requireDpop: true, redirectUris: ['\${url}/strict/callback'] }
  - { id: machine, name: machine, displayName: Machine, type: confidential, secret: '${MACHINE_SECRET}', requireDpop: true, grantTypes: [client_credentials], roles: [{ name: Reader }] }
  - id: legacy
    name: legacy
    displayName: Legacy
    type: confidential
    secret: '${LEGACY_SECRET}'
    grantTypes: [client_credentials]
    privateUrl: 'https://legacy.example.com'
    redirectUris: ['https://legacy.example.com/callback']
    roles: [{ name: Reader }]
users:
  - userName: alice@example.com
    firstName: Alice
    lastName: Martin
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: Global, application: '1', roles: [Administrator] }
      - { tenant: ACME, application: machine, roles: [Reader] }
      - { tenant: ACME, application: legacy, roles: [Reader] }
`;

describe('DPoP: sender-constrained tokens from the provider to the product’s APIs, driven by openid-client', function () {
  this.timeout(120_000);
  let server: TestServer;
  const noTls = { execute: [oidc.allowInsecureRequests] };
  const issuer = () => new URL(`${server.url}/oidc`);
  const publicClient = (clientId: string) => oidc.discovery(issuer(), clientId, undefined, oidc.None(), noTls);

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP, overrides: { 'oidc.portalClientId': 'spa' } });
  });
  after(() => server?.stop());

  /** A DPoP key pair and openid-client's handle on it for `config`. */
  async function holder(config: oidc.Configuration): Promise<{ key: DPoPKey; handle: oidc.DPoPHandle }> {
    const key = await dpopKey();
    return { key, handle: oidc.getDPoPHandle(config, { privateKey: key.privateKey, publicKey: key.publicKey }) };
  }

  /** Alice signs in through the JSON API the portal uses; answers the client's callback URL (with its code). */
  async function signIn(authorizationUrl: URL): Promise<URL> {
    const browser = new Browser(server.url);
    const start = await browser.get(authorizationUrl.toString());
    const uid = new URL(start.headers.get('location')!, server.url).searchParams.get('interaction');
    await browser.get('/api/v1/config');
    const login = await browser.postJson('/api/v1/account/login', { userName: 'alice@example.com', password: PASSWORD, interaction: uid });
    const body = (await login.json()) as { redirectTo: string };
    expect(login.status, JSON.stringify(body)).to.equal(200);
    return new URL((await browser.follow(body.redirectTo)).url);
  }

  /** The authorization code flow of a public client (PKCE), redeemed with a DPoP proof when `dpop` is given. */
  async function codeFlow(config: oidc.Configuration, clientId: string, dpop?: oidc.DPoPHandle) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${server.url}/${clientId === 'admin-console' ? 'admin/auth' : clientId}/callback`,
      // The console asks for the admin API's scope, as it does (public config's adminScopes).
      scope: clientId === 'admin-console' ? 'openid profile admin' : 'openid profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const callback = await signIn(url);
    return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, dpop ? { DPoP: dpop } : undefined);
  }

  /** A call with the token under `scheme`, with these DPoP headers. */
  const call = (path: string, scheme: 'Bearer' | 'DPoP', token: string, proofs: string[] = [], init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `${scheme} ${token}`);
    headers.set('accept-language', 'en');
    for (const proof of proofs) headers.append('dpop', proof);
    return fetch(`${server.url}${path}`, { ...init, headers });
  };

  describe('the admin console and the admin API', () => {
    let config: oidc.Configuration;
    let key: DPoPKey;
    let handle: oidc.DPoPHandle;
    let tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
    const ME = '/api/v1/admin/me';
    const proofFor = (method: string, path: string, token: string, signer = key) => dpopProof(signer, method, `${server.url}${path}`, { token });

    before(async () => {
      config = await publicClient('admin-console');
      ({ key, handle } = await holder(config));
      tokens = await codeFlow(config, 'admin-console', handle);
    });

    it('gets an access token bound to its key (token_type DPoP, cnf.jkt) and opens the admin API with a proof', async () => {
      expect(tokens.token_type).to.equal('dpop');
      expect(decodeJwt(tokens.access_token).cnf).to.deep.equal({ jkt: key.jkt });
      const res = await oidc.fetchProtectedResource(config, tokens.access_token, new URL(`${server.url}${ME}`), 'GET', undefined, undefined, { DPoP: handle });
      expect(res.status).to.equal(200);
      expect(((await res.json()) as { userName: string }).userName).to.equal('alice@example.com');
    });

    it('is refused as a bearer token, and under the DPoP scheme without a proof', async () => {
      const bearer = await call(ME, 'Bearer', tokens.access_token);
      expect(bearer.status).to.equal(401);
      expect(bearer.headers.get('www-authenticate')).to.equal(`DPoP error="invalid_token", ${ALGS}`);
      const unproven = await call(ME, 'DPoP', tokens.access_token);
      expect(unproven.status).to.equal(401);
      expect(unproven.headers.get('www-authenticate')).to.equal(`DPoP error="invalid_token", ${ALGS}`);
    });

    it('refuses a proof sent a second time, and a proof made for another address, method or key', async () => {
      const proof = await proofFor('GET', ME, tokens.access_token);
      expect((await call(ME, 'DPoP', tokens.access_token, [proof])).status).to.equal(200);
      const replayed = await call(ME, 'DPoP', tokens.access_token, [proof]);
      expect(replayed.status).to.equal(401);
      expect(replayed.headers.get('www-authenticate')).to.equal(`DPoP error="invalid_dpop_proof", ${ALGS}`);
      for (const [name, other] of [
        ['another address', await proofFor('GET', '/api/v1/admin/users', tokens.access_token)],
        ['another method', await proofFor('DELETE', ME, tokens.access_token)],
        ['another key', await proofFor('GET', ME, tokens.access_token, await dpopKey())],
      ] as const) {
        const res = await call(ME, 'DPoP', tokens.access_token, [other]);
        expect(res.status, name).to.equal(401);
        expect(res.headers.get('www-authenticate'), name).to.equal(`DPoP error="invalid_dpop_proof", ${ALGS}`);
      }
    });

    it('refreshes with a proof of the same key into a token bound to it; without it, or with another key, gets nothing', async () => {
      const stranger = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair());
      for (const options of [undefined, { DPoP: stranger }]) {
        const refused = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, options).catch((error: oidc.ResponseBodyError) => error);
        expect((refused as oidc.ResponseBodyError).error).to.equal('invalid_grant');
      }
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: handle });
      expect(refreshed.token_type).to.equal('dpop');
      expect(decodeJwt(refreshed.access_token).cnf).to.deep.equal({ jkt: key.jkt });
      const res = await oidc.fetchProtectedResource(config, refreshed.access_token, new URL(`${server.url}${ME}`), 'GET', undefined, undefined, { DPoP: handle });
      expect(res.status).to.equal(200);
      expect((await call(ME, 'Bearer', refreshed.access_token)).status).to.equal(401);
    });

    it('opens the disclaimer gate with its JWT and a proof, never as a bearer token', async () => {
      const { sub } = decodeJwt(tokens.access_token);
      const path = `/api/v1/profile/disclaimer/${String(sub)}/admin-console`;
      expect((await call(path, 'DPoP', tokens.access_token, [await proofFor('GET', path, tokens.access_token)])).status).to.equal(200);
      const bearer = await call(path, 'Bearer', tokens.access_token);
      expect(bearer.status).to.equal(401);
      expect(bearer.headers.get('www-authenticate')).to.equal(`DPoP error="invalid_token", ${ALGS}`);
    });

    it('turns on "Require DPoP" for an application through the admin API, and the provider refuses its token requests without a proof from then on', async () => {
      const legacy = oidc.discovery(issuer(), 'legacy', LEGACY_SECRET, oidc.ClientSecretBasic(LEGACY_SECRET), noTls);
      const before = await oidc.clientCredentialsGrant(await legacy, { resource: `${server.url}/api/v1/external` });
      expect(before.token_type).to.equal('bearer');

      const body = JSON.stringify({
        displayName: 'Legacy',
        type: 'confidential',
        privateUrl: 'https://legacy.example.com',
        redirectUris: ['https://legacy.example.com/callback'],
        requireDpop: true,
      });
      const path = '/api/v1/admin/applications/legacy';
      const put = await call(path, 'DPoP', tokens.access_token, [await proofFor('PUT', path, tokens.access_token)], { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
      expect(put.status, await put.clone().text()).to.equal(200);
      expect(((await put.json()) as { requireDpop: boolean }).requireDpop).to.equal(true);

      const refused = await oidc.clientCredentialsGrant(await legacy, { resource: `${server.url}/api/v1/external` }).catch((error: oidc.ResponseBodyError) => error);
      expect((refused as oidc.ResponseBodyError).error).to.equal('invalid_grant');
      const { handle: legacyKey } = await holder(await legacy);
      const bound = await oidc.clientCredentialsGrant(await legacy, { resource: `${server.url}/api/v1/external` }, { DPoP: legacyKey });
      expect(bound.token_type).to.equal('dpop');
    });
  });

  describe('the portal and the self-service API', () => {
    let config: oidc.Configuration;
    let handle: oidc.DPoPHandle;
    let key: DPoPKey;
    let token: string;
    const PROFILE = '/api/v1/profile';

    before(async () => {
      config = await publicClient('spa');
      ({ key, handle } = await holder(config));
      const tokens = await codeFlow(config, 'spa', handle);
      expect(tokens.token_type).to.equal('dpop');
      token = tokens.access_token;
    });

    it('opens the profile with a proof, and is refused as a bearer token or with a replayed proof', async () => {
      const res = await oidc.fetchProtectedResource(config, token, new URL(`${server.url}${PROFILE}`), 'GET', undefined, undefined, { DPoP: handle });
      expect(res.status).to.equal(200);
      const bearer = await call(PROFILE, 'Bearer', token);
      expect(bearer.status).to.equal(401);
      expect(bearer.headers.get('www-authenticate')).to.equal(`DPoP error="invalid_token", ${ALGS}`);
      const proof = await dpopProof(key, 'GET', `${server.url}${PROFILE}`, { token });
      expect((await call(PROFILE, 'DPoP', token, [proof])).status).to.equal(200);
      const replayed = await call(PROFILE, 'DPoP', token, [proof]);
      expect(replayed.status).to.equal(401);
      expect(replayed.headers.get('www-authenticate')).to.equal(`DPoP error="invalid_dpop_proof", ${ALGS}`);
    });

    it('changes the profile under the DPoP scheme without the XSRF header, as under the Bearer scheme', async () => {
      const body = JSON.stringify({ firstName: 'Alicia', lastName: 'Martin', language: 'en' });
      const proof = await dpopProof(key, 'PUT', `${server.url}${PROFILE}`, { token });
      const res = await call(PROFILE, 'DPoP', token, [proof], { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
      expect(res.status, await res.clone().text()).to.equal(200);
      expect(((await res.json()) as { firstName: string }).firstName).to.equal('Alicia');
    });

    it('opens the launcher calls of the admin API and the disclaimers, the gate among them, with a proof, never as a bearer token', async () => {
      const profile = await oidc.fetchProtectedResource(config, token, new URL(`${server.url}${PROFILE}`), 'GET', undefined, undefined, { DPoP: handle });
      const { id } = (await profile.json()) as { id: string };
      for (const path of ['/api/v1/admin/applications/homeInfo', '/api/v1/profile/disclaimers', `/api/v1/profile/disclaimer/${id}/strict`]) {
        const res = await oidc.fetchProtectedResource(config, token, new URL(`${server.url}${path}`), 'GET', undefined, undefined, { DPoP: handle });
        expect(res.status, path).to.equal(200);
        expect((await call(path, 'Bearer', token)).status, path).to.equal(401);
      }
    });
  });

  describe('applications that require DPoP', () => {
    it('get no token for a code without a proof, and a bound one with it', async () => {
      const config = await publicClient('strict');
      const refused = await codeFlow(config, 'strict').catch((error: oidc.ResponseBodyError) => error);
      expect(refused).to.be.instanceOf(oidc.ResponseBodyError);
      expect((refused as oidc.ResponseBodyError).error).to.equal('invalid_grant');
      const { handle } = await holder(config);
      const tokens = await codeFlow(config, 'strict', handle);
      expect(tokens.token_type).to.equal('dpop');
    });

    it('get no client-credentials token without a proof; a bound one opens the external API with a proof only', async () => {
      const config = await oidc.discovery(issuer(), 'machine', MACHINE_SECRET, oidc.ClientSecretBasic(MACHINE_SECRET), noTls);
      const resource = { resource: `${server.url}/api/v1/external` };
      const refused = await oidc.clientCredentialsGrant(config, resource).catch((error: oidc.ResponseBodyError) => error);
      expect((refused as oidc.ResponseBodyError).error).to.equal('invalid_grant');

      const { key, handle } = await holder(config);
      const tokens = await oidc.clientCredentialsGrant(config, resource, { DPoP: handle });
      expect(tokens.token_type).to.equal('dpop');
      expect(decodeJwt(tokens.access_token).cnf).to.deep.equal({ jkt: key.jkt });
      const [{ id }] = (await server.server.context.dataSource.query(`SELECT id FROM users WHERE user_name = 'alice@example.com'`)) as Array<{ id: string }>;
      const path = `/api/v1/external/users/${id}/roles`;
      const res = await oidc.fetchProtectedResource(config, tokens.access_token, new URL(`${server.url}${path}`), 'GET', undefined, undefined, { DPoP: handle });
      expect(res.status, await res.clone().text()).to.equal(200);
      expect((await call(path, 'Bearer', tokens.access_token)).status).to.equal(401);
    });

    it('leave the others free: an application that does not require it still gets bearer tokens, good as such', async () => {
      const config = await publicClient('spa');
      const tokens = await codeFlow(config, 'spa');
      expect(tokens.token_type).to.equal('bearer');
      expect((await call('/api/v1/profile', 'Bearer', tokens.access_token)).status).to.equal(200);
      expect((await call('/api/v1/profile', 'DPoP', tokens.access_token)).status).to.equal(401);
    });
  });

  describe('the provider’s nonces', () => {
    it('go to a client whose clock is off (use_dpop_nonce), and its proof with one is taken', async () => {
      const key = await dpopKey();
      const tokenEndpoint = `${server.url}/oidc/token`;
      const request = async (nonce?: string) =>
        fetch(tokenEndpoint, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`machine:${MACHINE_SECRET}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
            // Ten minutes behind: too old on its own.
            dpop: await dpopProof(key, 'POST', tokenEndpoint, { iat: Math.floor(Date.now() / 1000) - 600, claims: { nonce } }),
          },
          body: new URLSearchParams({ grant_type: 'client_credentials', resource: `${server.url}/api/v1/external` }),
        });
      const first = await request();
      expect(first.status).to.equal(400);
      expect(((await first.json()) as { error: string }).error).to.equal('use_dpop_nonce');
      const nonce = first.headers.get('dpop-nonce');
      expect(nonce).to.be.a('string');
      const second = await request(nonce!);
      expect(second.status, await second.clone().text()).to.equal(200);
      expect(((await second.json()) as { token_type: string }).token_type).to.equal('DPoP');
    });
  });
});
