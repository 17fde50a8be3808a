import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dpopKey, dpopProof } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { calculateJwkThumbprint, createRemoteJWKSet, decodeJwt, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose';
import * as oidc from 'openid-client';
import { Browser } from './support/browser.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const ORDERS_SECRET = 'orders-secret-0123456789-abcdefghijklmn';
const OTHER_SECRET = 'other-secret-0123456789-abcdefghijklmno';
const BILLING_SECRET = 'billing-secret-0123456789-abcdefghijklm';
const PAR_SECRET = 'par-secret-0123456789-abcdefghijklmnopq';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

interface KeyPair {
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  jwk: JWK;
}

async function keyPair(alg: 'ES256' | 'RS256' | 'EdDSA', kid: string): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** A JWKS served on 127.0.0.1, as an application publishes its keys (jwks_uri). */
async function serveJwks(keys: JWK[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function bootstrap(keys: Record<'jar' | 'pkj' | 'fapi', JWK>, jwksUri: string): string {
  const jwks = (key: JWK) => JSON.stringify({ keys: [key] });
  const app = (id: string, rest: string) =>
    `  - { id: ${id}, name: ${id}, displayName: ${id}, firstParty: true, privateUrl: 'https://${id}.example.com', redirectUris: ['\${url}/${id}/callback'], ${rest} }`;
  return `
areas: [{ name: Default, default: true }]
tenants: [{ title: ACME, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
${app('par-app', `type: confidential, secret: '${PAR_SECRET}', requirePar: true, roles: [{ name: User }]`)}
${app('jar-app', `type: public, requireSignedRequestObject: true, jwks: ${jwks(keys.jar)}, roles: [{ name: User }]`)}
${app('pkj-app', `type: confidential, clientAuthentication: private_key_jwt, jwks: ${jwks(keys.pkj)}, roles: [{ name: User }]`)}
${app('uri-app', `type: confidential, clientAuthentication: private_key_jwt, jwksUri: '${jwksUri}', grantTypes: [client_credentials], roles: [{ name: User }]`)}
${app('fapi-app', `type: confidential, clientAuthentication: private_key_jwt, jwks: ${jwks(keys.fapi)}, fapi2: true, roles: [{ name: User }]`)}
${app('orders', `type: confidential, secret: '${ORDERS_SECRET}', tokenExchangeAudiences: [billing], roles: [{ name: User }]`)}
${app('other', `type: confidential, secret: '${OTHER_SECRET}', tokenExchangeAudiences: [billing], roles: [{ name: User }]`)}
  - id: billing
    name: billing
    displayName: Billing
    firstParty: true
    type: confidential
    secret: '${BILLING_SECRET}'
    privateUrl: 'https://billing.example.com'
    redirectUris: ['\${url}/billing/callback']
    roles:
      - { name: Clerk, scopes: [invoices.read] }
      - { name: Manager, scopes: [invoices.read, invoices.approve] }
users:
  - userName: alice@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: ACME, application: par-app, roles: [User] }
      - { tenant: ACME, application: jar-app, roles: [User] }
      - { tenant: ACME, application: pkj-app, roles: [User] }
      - { tenant: ACME, application: fapi-app, roles: [User] }
      - { tenant: ACME, application: orders, roles: [User] }
      - { tenant: ACME, application: billing, roles: [Clerk] }
  - userName: bob@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: ACME, application: orders, roles: [User] }
`;
}

describe('Protocol hardening per application, driven by openid-client: PAR, JAR, private_key_jwt, FAPI 2.0, token exchange', function () {
  this.timeout(180_000);
  let server: TestServer;
  let jwksServer: Awaited<ReturnType<typeof serveJwks>>;
  const keys = {} as Record<'jar' | 'pkj' | 'fapi' | 'uri' | 'stranger', KeyPair>;
  const noTls = { execute: [oidc.allowInsecureRequests] };
  const issuer = () => new URL(`${server.url}/oidc`);
  const redirectUri = (clientId: string) => `${server.url}/${clientId}/callback`;

  before(async () => {
    keys.jar = await keyPair('RS256', 'jar-1');
    keys.pkj = await keyPair('ES256', 'pkj-1');
    keys.fapi = await keyPair('ES256', 'fapi-1');
    keys.uri = await keyPair('EdDSA', 'uri-1');
    delete keys.uri.jwk.alg;
    keys.stranger = await keyPair('ES256', 'pkj-1');
    jwksServer = await serveJwks([keys.uri.jwk]);
    server = await startTestServer({
      bootstrap: bootstrap({ jar: keys.jar.jwk, pkj: keys.pkj.jwk, fapi: keys.fapi.jwk }, jwksServer.url),
      // The JWKS of uri-app is served on this computer: the provider may fetch from a loopback address here.
      overrides: { 'oidc.allowPrivateNetworkRequests': true },
    });
  });
  after(async () => {
    await server?.stop();
    await jwksServer?.close();
  });

  /** The user signs in through the JSON API the portal uses; answers the client's callback URL (with its code or error). */
  async function signIn(authorizationUrl: URL, userName = 'alice@example.com'): Promise<URL> {
    const browser = new Browser(server.url);
    const start = await browser.get(authorizationUrl.toString());
    const location = new URL(start.headers.get('location')!, server.url);
    const uid = location.searchParams.get('interaction');
    expect(uid, `not sent to sign in: ${location}`).to.be.a('string');
    await browser.get('/api/v1/config');
    const login = await browser.postJson('/api/v1/account/login', { userName, password: PASSWORD, interaction: uid });
    const body = (await login.json()) as { redirectTo: string };
    expect(login.status, JSON.stringify(body)).to.equal(200);
    return new URL((await browser.follow(body.redirectTo)).url);
  }

  /** What the provider answers a plain authorization request of this client (no PAR, no request object). */
  async function plainRequest(clientId: string, extra: Record<string, string> = {}): Promise<{ status: number; error: string | null; description: string | null }> {
    const params = new URLSearchParams({ client_id: clientId, response_type: 'code', scope: 'openid', redirect_uri: redirectUri(clientId), ...extra });
    const res = await fetch(`${server.url}/oidc/auth?${params}`, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (location) {
      const url = new URL(location, server.url);
      return { status: res.status, error: url.searchParams.get('error'), description: url.searchParams.get('error_description') };
    }
    const html = await res.text();
    return { status: res.status, error: /invalid_request|unauthorized_client|invalid_client/.exec(html)?.[0] ?? null, description: html };
  }

  /** A full code flow of `config` (PKCE S256), the URL built by `build`; the token response. */
  async function codeFlow(
    config: oidc.Configuration,
    clientId: string,
    build: (params: Record<string, string>) => Promise<URL> | URL,
    tokenOptions?: oidc.DPoPOptions,
    userName?: string,
  ) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = await build({
      redirect_uri: redirectUri(clientId),
      scope: 'openid profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const callback = await signIn(url, userName);
    expect(callback.searchParams.get('iss'), 'the issuer in the authorization response (RFC 9207)').to.equal(issuer().href.replace(/\/$/, ''));
    return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, tokenOptions);
  }

  describe('discovery', () => {
    it('advertises the grants, client authentications, PAR, request objects and DPoP that are on, and nothing else', async () => {
      const res = await fetch(`${server.url}/oidc/.well-known/openid-configuration`);
      const meta = (await res.json()) as Record<string, unknown>;
      expect(meta.grant_types_supported).to.have.members([
        'authorization_code',
        'refresh_token',
        'client_credentials',
        'urn:ietf:params:oauth:grant-type:device_code',
        TOKEN_EXCHANGE,
      ]);
      expect(meta.token_endpoint_auth_methods_supported).to.have.members(['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt']);
      expect(meta.token_endpoint_auth_signing_alg_values_supported).to.have.members(['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519']);
      expect(meta.request_object_signing_alg_values_supported).to.have.members(['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519']);
      expect(meta.pushed_authorization_request_endpoint).to.equal(`${server.url}/oidc/request`);
      expect(meta.request_parameter_supported).to.equal(true);
      expect(meta.authorization_response_iss_parameter_supported).to.equal(true);
      expect(meta.dpop_signing_alg_values_supported).to.include('ES256');
      expect(meta.code_challenge_methods_supported).to.deep.equal(['S256']);
      expect(meta.response_types_supported).to.deep.equal(['code']);
      // Required per application, not of every client.
      expect(meta.require_pushed_authorization_requests).to.equal(undefined);
      expect(meta.require_signed_request_object).to.equal(undefined);
    });
  });

  describe('an application that requires pushed authorization requests (PAR, RFC 9126)', () => {
    it('is refused a request sent straight to the authorization endpoint', async () => {
      const answer = await plainRequest('par-app');
      expect(answer.error).to.equal('invalid_request');
      expect(answer.description).to.match(/Pushed Authorization Request must be used/);
    });

    it('signs the user in with a pushed request', async () => {
      const config = await oidc.discovery(issuer(), 'par-app', PAR_SECRET, oidc.ClientSecretBasic(PAR_SECRET), noTls);
      const tokens = await codeFlow(config, 'par-app', (params) => oidc.buildAuthorizationUrlWithPAR(config, params));
      expect(tokens.claims()!.sub).to.be.a('string');
      expect(tokens.access_token).to.be.a('string');
    });
  });

  describe('an application that requires signed request objects (JAR, RFC 9101)', () => {
    it('is refused a plain request, and a request object signed with a key that is not its own', async () => {
      const answer = await plainRequest('jar-app');
      expect(answer.error).to.equal('invalid_request');
      expect(answer.description).to.match(/Request Object must be used/);
      const config = await oidc.discovery(issuer(), 'jar-app', undefined, oidc.None(), noTls);
      const forged = await oidc.buildAuthorizationUrlWithJAR(config, { redirect_uri: redirectUri('jar-app'), scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }, { key: keys.stranger.privateKey, kid: 'jar-1' });
      const res = await fetch(forged, { redirect: 'manual' });
      const location = new URL(res.headers.get('location') ?? 'http://x/', server.url);
      expect(location.searchParams.get('error')).to.equal('invalid_request_object');
    });

    it('signs the user in with a request object signed by its key', async () => {
      const config = await oidc.discovery(issuer(), 'jar-app', undefined, oidc.None(), noTls);
      const tokens = await codeFlow(config, 'jar-app', (params) => oidc.buildAuthorizationUrlWithJAR(config, params, { key: keys.jar.privateKey, kid: 'jar-1' }));
      expect(tokens.claims()!.aud).to.equal('jar-app');
    });
  });

  describe('client authentication by private_key_jwt (RFC 7523)', () => {
    it('redeems a code with a client assertion signed by the key of its JWKS given by value', async () => {
      const config = await oidc.discovery(issuer(), 'pkj-app', undefined, oidc.PrivateKeyJwt({ key: keys.pkj.privateKey, kid: 'pkj-1' }), noTls);
      const tokens = await codeFlow(config, 'pkj-app', (params) => oidc.buildAuthorizationUrl(config, params));
      expect(tokens.claims()!.aud).to.equal('pkj-app');
    });

    it('gets client credentials with a key published at its JWKS address', async () => {
      const config = await oidc.discovery(issuer(), 'uri-app', undefined, oidc.PrivateKeyJwt({ key: keys.uri.privateKey, kid: 'uri-1' }), noTls);
      const tokens = await oidc.clientCredentialsGrant(config, {}).catch((error: oidc.ResponseBodyError) => { throw new Error(`${error.error}: ${error.error_description}`); });
      expect(tokens.access_token).to.be.a('string');
    });

    it('is refused an assertion signed with another key, and the shared-secret method', async () => {
      const forged = await oidc.discovery(issuer(), 'uri-app', undefined, oidc.PrivateKeyJwt({ key: keys.stranger.privateKey, kid: 'uri-1' }), noTls);
      const refused = await oidc.clientCredentialsGrant(forged, {}).catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(oidc.ResponseBodyError);
      expect((refused as oidc.ResponseBodyError).error).to.equal('invalid_client');
      const basic = await fetch(`${server.url}/oidc/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from('uri-app:anything-at-all').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
      });
      expect(basic.status).to.equal(401);
      expect(((await basic.json()) as { error: string }).error).to.equal('invalid_client');
    });
  });

  describe('an application under the FAPI 2.0 Security Profile', () => {
    const fapiConfig = () => oidc.discovery(issuer(), 'fapi-app', undefined, oidc.PrivateKeyJwt({ key: keys.fapi.privateKey, kid: 'fapi-1' }), noTls);

    it('refuses a plain request, and a pushed request without PKCE', async () => {
      const answer = await plainRequest('fapi-app', { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' });
      expect(answer.error).to.equal('invalid_request');
      expect(answer.description).to.match(/Pushed Authorization Request must be used/);
      const config = await fapiConfig();
      const withoutPkce = await oidc.buildAuthorizationUrlWithPAR(config, { redirect_uri: redirectUri('fapi-app'), scope: 'openid' }).catch((error: unknown) => error);
      expect(withoutPkce).to.be.instanceOf(oidc.ResponseBodyError);
      expect((withoutPkce as oidc.ResponseBodyError).error).to.equal('invalid_request');
      expect((withoutPkce as oidc.ResponseBodyError).error_description).to.match(/PKCE/);
    });

    it('issues DPoP-bound tokens only: a code redeemed without a proof is refused, with one it is bound', async () => {
      const config = await fapiConfig();
      const refused = await codeFlow(config, 'fapi-app', (params) => oidc.buildAuthorizationUrlWithPAR(config, params)).catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(oidc.ResponseBodyError);
      // The provider keeps the reason (no DPoP proof) out of its invalid_grant answer.
      expect((refused as oidc.ResponseBodyError).error).to.equal('invalid_grant');
      const key = await dpopKey();
      const DPoP = oidc.getDPoPHandle(config, { privateKey: key.privateKey, publicKey: key.publicKey });
      const tokens = await codeFlow(config, 'fapi-app', (params) => oidc.buildAuthorizationUrlWithPAR(config, params, { DPoP }), { DPoP });
      expect(tokens.token_type).to.equal('dpop');
      const introspection = await oidc.tokenIntrospection(config, tokens.access_token);
      expect(introspection.active).to.equal(true);
      expect(introspection.cnf).to.deep.equal({ jkt: key.jkt });
    });
  });

  describe('token exchange (RFC 8693)', () => {
    const orders = () => oidc.discovery(issuer(), 'orders', ORDERS_SECRET, oidc.ClientSecretBasic(ORDERS_SECRET), noTls);
    const other = () => oidc.discovery(issuer(), 'other', OTHER_SECRET, oidc.ClientSecretBasic(OTHER_SECRET), noTls);
    const billing = () => oidc.discovery(issuer(), 'billing', BILLING_SECRET, oidc.ClientSecretBasic(BILLING_SECRET), noTls);
    const exchange = (config: oidc.Configuration, subjectToken: string, extra: Record<string, string> = {}, options?: oidc.DPoPOptions) =>
      oidc.genericGrantRequest(config, TOKEN_EXCHANGE, { subject_token: subjectToken, subject_token_type: ACCESS_TOKEN_TYPE, audience: 'billing', ...extra }, options);
    const refusal = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error, 'the exchange was refused').to.be.instanceOf(oidc.ResponseBodyError);
      return error as oidc.ResponseBodyError;
    };
    let aliceToken: string;
    let aliceSub: string;

    before(async () => {
      const config = await orders();
      const tokens = await codeFlow(config, 'orders', (params) => oidc.buildAuthorizationUrl(config, params));
      aliceToken = tokens.access_token;
      aliceSub = tokens.claims()!.sub;
    });

    it('gives the calling application a JWT for the audience naming the user, itself as actor and the user’s roles there, no more', async () => {
      const exchanged = await exchange(await orders(), aliceToken);
      expect(exchanged.issued_token_type).to.equal(ACCESS_TOKEN_TYPE);
      expect(exchanged.token_type).to.equal('bearer');
      const claims = decodeJwt(exchanged.access_token);
      expect(claims).to.include({ sub: aliceSub, aud: 'billing', client_id: 'orders', scope: 'invoices.read' });
      expect(claims.act).to.deep.equal({ sub: 'orders' });
      expect(claims.roles).to.deep.equal(['Clerk']);
      // The audience verifies it with the provider's published keys, as a resource server does.
      const { payload } = await jwtVerify(exchanged.access_token, createRemoteJWKSet(new URL(`${server.url}/oidc/jwks`)), { issuer: issuer().href.replace(/\/$/, ''), audience: 'billing' });
      expect(payload.sub).to.equal(aliceSub);
      const rows = await server.server.context.dataSource.query(
        `SELECT result, reason, application_name FROM authentication_logs WHERE user_name = 'alice@example.com' AND reason LIKE 'token exchange%' ORDER BY id`,
      );
      expect(rows).to.deep.include({ result: 'Success', reason: 'token exchange by orders for billing', application_name: 'billing' });
    });

    it('lives no longer than the access-token lifetime and the subject token', async () => {
      const exchanged = await exchange(await orders(), aliceToken);
      const subject = await oidc.tokenIntrospection(await orders(), aliceToken);
      const claims = decodeJwt(exchanged.access_token);
      expect(claims.exp!).to.be.at.most(subject.exp!);
    });

    it('refuses a scope the user’s roles in the audience do not give, and an audience not configured for the application', async () => {
      const scope = await refusal(exchange(await orders(), aliceToken, { scope: 'invoices.read invoices.approve' }));
      expect(scope.error).to.equal('invalid_scope');
      const target = await refusal(exchange(await orders(), aliceToken, { audience: 'pkj-app' }));
      expect(target.error).to.equal('invalid_target');
      const rows = await server.server.context.dataSource.query(
        `SELECT result FROM authentication_logs WHERE user_name = 'alice@example.com' AND reason LIKE 'token exchange by orders refused%'`,
      );
      expect(rows.length).to.be.at.least(2);
    });

    it('refuses a token issued to another application, a user without a role in the audience, and an application without the grant', async () => {
      const stolen = await refusal(exchange(await other(), aliceToken));
      expect(stolen.error).to.equal('invalid_grant');
      const config = await orders();
      const bob = await codeFlow(config, 'orders', (params) => oidc.buildAuthorizationUrl(config, params), undefined, 'bob@example.com');
      const roleless = await refusal(exchange(config, bob.access_token));
      expect(roleless.error).to.equal('invalid_grant');
      expect(roleless.error_description).to.match(/no role in billing/);
      // An application configured for no exchange has not the grant at all.
      const notAllowed = await refusal(exchange(await billing(), aliceToken));
      expect(notAllowed.error).to.equal('invalid_request');
      expect(notAllowed.error_description).to.equal('requested grant type is not allowed for this client');
    });

    it('refuses a malformed request: another token type, an actor token, no audience', async () => {
      const config = await orders();
      for (const extra of <Array<Record<string, string>>>[
        { subject_token_type: 'urn:ietf:params:oauth:token-type:id_token' },
        { actor_token: aliceToken, actor_token_type: ACCESS_TOKEN_TYPE },
        { audience: '' },
        { subject_token: 'not-a-token' },
      ]) {
        const error = await refusal(exchange(config, aliceToken, extra));
        expect(error.error, JSON.stringify(extra)).to.be.oneOf(['invalid_request', 'invalid_grant']);
      }
    });

    it('exchanges a DPoP-bound token only with a proof of its key, and binds the new token to it', async () => {
      const config = await orders();
      const key = await dpopKey();
      const DPoP = oidc.getDPoPHandle(config, { privateKey: key.privateKey, publicKey: key.publicKey });
      const bound = await codeFlow(config, 'orders', (params) => oidc.buildAuthorizationUrl(config, params), { DPoP });
      expect(bound.token_type).to.equal('dpop');
      const withoutProof = await refusal(exchange(config, bound.access_token));
      expect(withoutProof.error).to.equal('invalid_grant');
      const otherKey = await dpopKey();
      const otherProof = await refusal(exchange(config, bound.access_token, {}, { DPoP: oidc.getDPoPHandle(config, { privateKey: otherKey.privateKey, publicKey: otherKey.publicKey }) }));
      expect(otherProof.error).to.equal('invalid_grant');
      const exchanged = await exchange(config, bound.access_token, {}, { DPoP });
      expect(exchanged.token_type).to.equal('dpop');
      expect(decodeJwt(exchanged.access_token).cnf).to.deep.equal({ jkt: await calculateJwkThumbprint(key.jwk) });
      // A proof sent a second time is a replay.
      const proof = await dpopProof(key, 'POST', `${server.url}/oidc/token`);
      const replay = async () =>
        fetch(`${server.url}/oidc/token`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`orders:${ORDERS_SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded', dpop: proof },
          body: new URLSearchParams({ grant_type: TOKEN_EXCHANGE, subject_token: bound.access_token, subject_token_type: ACCESS_TOKEN_TYPE, audience: 'billing' }),
        });
      expect((await replay()).status).to.equal(200);
      const replayed = await replay();
      expect(replayed.status).to.equal(400);
      expect(((await replayed.json()) as { error: string }).error).to.equal('invalid_dpop_proof');
    });

    it('refuses a subject token once revoked', async () => {
      const config = await orders();
      const tokens = await codeFlow(config, 'orders', (params) => oidc.buildAuthorizationUrl(config, params));
      await oidc.tokenRevocation(config, tokens.access_token);
      const error = await refusal(exchange(config, tokens.access_token));
      expect(error.error).to.equal('invalid_grant');
    });
  });
});
