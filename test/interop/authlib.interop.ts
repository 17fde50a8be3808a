// Python's authlib (Debian's python3-authlib) as an independent relying party of the product:
// authlib_client.py runs discovery, the authorization code flow with PKCE S256, state and nonce,
// checks the ID token against the provider's JWKS, calls userinfo, refreshes and revokes, all with
// client_secret_basic and no DPoP proof; and an application's client_credentials token for the
// external API. This test plays the user's browser between the script's two halves.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { freePort, startTestServer, type TestServer } from '../support/server.js';
import { CookieBrowser, killPythonRuns, PythonRun, requirePython, signIn } from './support.js';

const PASSWORD = 'Correct-Horse-42!';
const SECRET = 'authlib-secret-0123456789-abcdefghijklm';
const MACHINE_SECRET = 'authlib-machine-secret-0123456789-abcdef';
const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'authlib_client.py');

const bootstrap = (callback: string) => `
areas: [{ name: Default, default: true }]
tenants: [{ title: ACME, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - id: authlib-rp
    name: authlib-rp
    displayName: Python application
    type: confidential
    secret: '${SECRET}'
    firstParty: true
    redirectUris: ['${callback}']
    roles: [{ name: Reader }]
  - id: authlib-machine
    name: authlib-machine
    displayName: Python batch
    type: confidential
    secret: '${MACHINE_SECRET}'
    grantTypes: [client_credentials]
    roles: [{ name: Clerk }]
users:
  - userName: alice@example.com
    firstName: Alice
    lastName: Martin
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: ACME, application: authlib-rp, roles: [Reader] }
      - { tenant: ACME, application: authlib-machine, roles: [Clerk] }
`;

describe('Interoperability: Python’s authlib (no DPoP) as a relying party and as an application with client credentials', function () {
  this.timeout(120_000);
  let server: TestServer;
  let callback: string;
  const issuer = () => `${server.url}/oidc`;

  before(async () => {
    requirePython(['authlib', 'requests'], 'python3-authlib python3-requests');
    callback = `http://127.0.0.1:${await freePort()}/authlib/callback`;
    server = await startTestServer({ bootstrap: bootstrap(callback) });
  });
  after(async () => {
    await killPythonRuns();
    await server?.stop();
  });

  it('signs in with code + PKCE S256, state and nonce; the ID token checks out against the JWKS; userinfo, refresh and revocation work', async () => {
    const run = new PythonRun(SCRIPT, ['code', issuer(), 'authlib-rp', SECRET, callback]);
    const { authorization_url: authorizationUrl } = (await run.next()) as { authorization_url: string };
    const authorize = new URL(authorizationUrl);
    expect(authorize.origin + authorize.pathname).to.equal(`${server.url}/oidc/auth`);
    expect(Object.fromEntries(authorize.searchParams)).to.include({ client_id: 'authlib-rp', response_type: 'code', redirect_uri: callback, code_challenge_method: 'S256' });
    for (const name of ['code_challenge', 'state', 'nonce']) expect(authorize.searchParams.get(name), name).to.be.a('string').and.not.empty;

    // The user's browser: to the product's login page, signed in, and back to the callback (not requested).
    const browser = new CookieBrowser();
    const atCallback = (url: URL) => url.toString().startsWith(callback);
    const toLogin = await browser.follow(authorizationUrl, (url) => url.pathname === '/account/login');
    const back = await browser.follow(await signIn(browser, new URL(toLogin.url), 'alice@example.com', PASSWORD), atCallback);
    expect(atCallback(new URL(back.url)), `not sent back to the application: ${JSON.stringify(back.hops)}`).to.equal(true);
    run.write(back.url);
    run.finish();

    const result = (await run.next()) as {
      token_type: string;
      id_token_alg: string;
      claims: Record<string, unknown>;
      userinfo: Record<string, unknown>;
      refresh: { token_type: string; new_access_token: boolean; new_refresh_token: boolean };
      revocation_status: number;
      refresh_after_revocation: string;
    };
    expect(await run.ended).to.equal(0);
    expect(result.token_type.toLowerCase(), 'a bearer token: the application sent no DPoP proof').to.equal('bearer');
    expect(result.id_token_alg).to.equal('RS256');
    expect(result.claims).to.include({ iss: issuer(), aud: 'authlib-rp', email: 'alice@example.com', name: 'Alice Martin' });
    expect(result.claims.sub).to.be.a('string').and.not.empty;
    expect(result.claims.roles).to.deep.equal(['Reader']);
    expect(result.userinfo).to.include({ sub: result.claims.sub, email: 'alice@example.com' });
    expect(result.userinfo.roles).to.deep.equal(['Reader']);
    expect(result.refresh).to.deep.equal({ token_type: result.token_type, new_access_token: true, new_refresh_token: true });
    expect(result.revocation_status).to.equal(200);
    expect(result.refresh_after_revocation, 'the revoked refresh token refreshes nothing').to.equal('invalid_grant');
  });

  it('gets a client_credentials token for the external API with client_secret_basic, which the API takes as the application', async () => {
    const [alice] = (await server.server.context.dataSource.query(`SELECT id FROM users WHERE normalized_user_name = 'alice@example.com'`)) as Array<{ id: string }>;
    const external = `${server.url}/api/v1/external`;
    const run = new PythonRun(SCRIPT, ['client_credentials', issuer(), 'authlib-machine', MACHINE_SECRET, external, 'external', `${external}/users/${alice!.id}/roles`]);
    const result = (await run.next()) as { token_type: string; scope: string; access_token: string; api_status: number; api_body: unknown };
    expect(await run.ended).to.equal(0);
    expect(result.token_type.toLowerCase()).to.equal('bearer');
    expect(result.scope).to.equal('external');
    expect(decodeJwt(result.access_token)).to.deep.include({ aud: external, client_id: 'authlib-machine', sub: 'authlib-machine', scope: 'external' });
    expect(result.api_status, JSON.stringify(result.api_body)).to.equal(200);
    const body = result.api_body as { tenants: Array<{ tenantName: string; roles: Array<{ roleName: string }> }> };
    expect(body.tenants.map((tenant) => [tenant.tenantName, tenant.roles.map((role) => role.roleName)])).to.deep.equal([['ACME', ['Clerk']]]);
  });
});
