import { writeFileSync } from 'node:fs';
import { GLOBAL_TENANT_ID } from '@gatehouse/core';
import { expect } from 'chai';
import { Browser } from './support/browser.js';
import { PKCE, PKCE_VERIFIER } from './support/flows.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
/** What startTestServer configures for the bootstrap administrator. */
const ADMIN = { userName: 'admin@gatehouse.local', password: 'Admin-password-123!' };

const BOOTSTRAP = `
areas:
  - { name: Default, default: true }
  - { name: Customers }
tenants:
  - { title: ACME, area: Customers }
applications:
  - id: '1'
    name: identity
    displayName: Identity Management
    type: public
    roles: [{ name: God }, { name: Administrator }, { name: User }]
  - id: admin-console
    name: admin-console
    displayName: Administration console
    type: public
    firstParty: true
    redirectUris: ['\${url}/admin/auth/callback']
users:
  - userName: god@example.com
    firstName: Gina
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: Global, application: '1', roles: [God, Administrator] }
`;

describe('security: restarts keep administrators’ decisions', function () {
  this.timeout(120_000);
  let server: TestServer;
  const db = () => server.server.context.dataSource;

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP });
  });
  after(() => server?.stop());

  /** Signs in to the admin console (code flow with PKCE): its access token for the admin API. */
  async function adminToken(credentials: { userName: string; password: string }): Promise<string> {
    const browser = new Browser(server.url);
    const redirectUri = `${server.url}/admin/auth/callback`;
    const params = new URLSearchParams({ client_id: 'admin-console', response_type: 'code', scope: 'openid profile admin', redirect_uri: redirectUri, ...PKCE });
    await browser.get(`/oidc/auth?${params}`);
    await browser.get('/api/v1/config');
    const login = await browser.postJson('/api/v1/account/login', credentials);
    const body = (await login.json()) as { redirectTo: string };
    expect(login.status, JSON.stringify(body)).to.equal(200);
    const { url } = await browser.follow(body.redirectTo);
    const res = await fetch(`${server.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: new URL(url).searchParams.get('code')!,
        client_id: 'admin-console',
        redirect_uri: redirectUri,
        code_verifier: PKCE_VERIFIER,
      }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  }

  const adminApi = async (token: string, method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/api/v1/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const tenant = async (title: string) =>
    (await db().query('SELECT id, tax_number, required_two_mode_authentification AS two_factor FROM tenants WHERE title = $1', [title]))[0] as
      | { id: string; tax_number: string | null; two_factor: boolean }
      | undefined;
  const userId = async (userName: string): Promise<string | undefined> =>
    (await db().query('SELECT id FROM users WHERE normalized_user_name = $1', [userName]))[0]?.id;
  /** The Identity roles a user holds in the Global tenant, by own membership. */
  const globalRoles = async (id: string): Promise<string[]> =>
    (
      await db().query(
        `SELECT r.name FROM tenant_members m JOIN tenant_member_roles mr ON mr.tenant_member_id = m.id JOIN roles r ON r.id = mr.role_id
          WHERE m.user_id = $1 AND m.tenant_id = $2 AND r.application_id = '1' ORDER BY r.name`,
        [id, GLOBAL_TENANT_ID],
      )
    ).map((r: { name: string }) => r.name);

  it('keeps a tenant’s second factor switched on through the admin API after a restart with the same file', async () => {
    const god = await adminToken({ userName: 'god@example.com', password: PASSWORD });
    const acme = (await tenant('ACME'))!;
    expect(acme.two_factor, 'the file leaves it out: off when the tenant is created').to.equal(false);
    const res = await adminApi(god, 'POST', `/tenants/twoModeAuth/${acme.id}`, { enable: true });
    expect(res.status, await res.clone().text()).to.equal(200);

    await server.restart();
    expect((await tenant('ACME'))!.two_factor, 'still required after the restart').to.equal(true);
  });

  it('does not give the bootstrap administrator God back after God removed it, at a restart', async () => {
    const adminId = (await userId(ADMIN.userName))!;
    expect(await globalRoles(adminId), 'provisioned at the first start').to.deep.equal(['Administrator', 'God']);
    const godRole = (await db().query(`SELECT id FROM roles WHERE application_id = '1' AND name = 'God'`))[0].id as string;
    const god = await adminToken({ userName: 'god@example.com', password: PASSWORD });
    const res = await adminApi(god, 'DELETE', `/users/${adminId}/roles/1?roleId=${godRole}&tenantId=${GLOBAL_TENANT_ID}`);
    expect(res.status, await res.clone().text()).to.equal(200);
    expect(await globalRoles(adminId)).to.deep.equal(['Administrator']);

    await server.restart();
    expect(await globalRoles(adminId), 'God is not granted again').to.deep.equal(['Administrator']);
  });

  it('does not recreate the bootstrap administrator after God deleted it, at a restart, so its configured password opens nothing', async () => {
    const adminId = (await userId(ADMIN.userName))!;
    const god = await adminToken({ userName: 'god@example.com', password: PASSWORD });
    const res = await adminApi(god, 'DELETE', `/users/${adminId}`);
    expect(res.status, await res.clone().text()).to.equal(204);

    await server.restart();
    expect(await userId(ADMIN.userName), 'not recreated').to.equal(undefined);
    const browser = new Browser(server.url);
    const params = new URLSearchParams({ client_id: 'admin-console', response_type: 'code', scope: 'openid admin', redirect_uri: `${server.url}/admin/auth/callback`, ...PKCE });
    await browser.get(`/oidc/auth?${params}`);
    await browser.get('/api/v1/config');
    const login = await browser.postJson('/api/v1/account/login', ADMIN);
    expect(login.status).to.be.within(400, 499);
    expect(((await login.json()) as { success?: boolean }).success).to.not.equal(true);
  });

  it('applies what a changed file declares, and only that: undeclared values and the administrator’s absence stay', async () => {
    const changed = BOOTSTRAP.replaceAll('${url}', server.url).replace(
      '  - { title: ACME, area: Customers }\n',
      '  - { title: ACME, area: Customers, taxNumber: FR-123 }\n  - { title: Globex, area: Customers, requiredTwoModeAuthentification: true }\n',
    );
    writeFileSync(server.server.context.config.bootstrap.file, changed);

    await server.restart();
    expect(await tenant('ACME'), 'the declared tax number is applied; the undeclared second factor stays on').to.include({ tax_number: 'FR-123', two_factor: true });
    expect(await tenant('Globex'), 'a declared value applies to a new tenant').to.include({ two_factor: true });
    expect(await userId(ADMIN.userName), 'the administrator is provisioned once, not at every change of the file').to.equal(undefined);
    const god = await adminToken({ userName: 'god@example.com', password: PASSWORD });
    expect((await adminApi(god, 'GET', '/tenants?$search=Globex')).status, 'the product still serves').to.equal(200);
  });
});
