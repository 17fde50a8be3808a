import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { startTestServer, type TestServer } from './support/server.js';

const SECRETS: Record<string, string> = {
  crm: 'crm-secret-0123456789-abcdefghijklmnop',
  erp: 'erp-secret-0123456789-abcdefghijklmnop',
  'admin-console': 'admin-console-secret-0123456789-abcdef',
};

// Two business applications with client credentials, the console declared confidential too (to
// show that it gets no external-API token either), and a user holding a role of each in ACME.
const BOOTSTRAP = `
areas: [{ name: Default, default: true }, { name: Customers }]
tenants: [{ title: ACME, area: Customers }, { title: ACME Spain, area: Customers, parent: ACME }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - id: admin-console
    name: admin-console
    displayName: Administration console
    type: confidential
    secret: '${SECRETS['admin-console']}'
    firstParty: true
    redirectUris: ['\${url}/admin/auth/callback']
    grantTypes: [authorization_code, refresh_token, client_credentials]
  - id: crm
    name: crm
    displayName: CRM
    type: confidential
    secret: '${SECRETS.crm}'
    redirectUris: ['\${url}/crm/callback']
    grantTypes: [authorization_code, refresh_token, client_credentials]
    roles: [{ name: Sales }]
  - id: erp
    name: erp
    displayName: ERP
    type: confidential
    secret: '${SECRETS.erp}'
    redirectUris: ['\${url}/erp/callback']
    grantTypes: [client_credentials]
    roles: [{ name: Clerk }]
users:
  - userName: jane@acme.example
    area: Customers
    language: en
    memberships:
      - { tenant: ACME, application: crm, roles: [Sales] }
      - { tenant: ACME, application: erp, roles: [Clerk] }
`;

describe('External API: client credentials from the provider', function () {
  this.timeout(120_000);
  let server: TestServer;
  const externalAudience = () => `${server.url}/api/v1/external`;
  const janeId = async () =>
    ((await server.server.context.dataSource.query(`SELECT id FROM users WHERE normalized_user_name = 'jane@acme.example'`)) as Array<{ id: string }>)[0]!.id;

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP });
  });
  after(async () => {
    await server?.stop();
  });

  async function tokenRequest(clientId: string, body: Record<string, string>) {
    const res = await fetch(`${server.url}/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${SECRETS[clientId]}`).toString('base64')}`,
      },
      body: new URLSearchParams(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  }

  const externalToken = (clientId: string) => tokenRequest(clientId, { grant_type: 'client_credentials', resource: externalAudience(), scope: 'external' });

  const api = (path: string, token: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' } });

  it('issues an application a JWT for the external API audience through client credentials, which the API takes as that application', async () => {
    const tokens = await externalToken('crm');
    expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
    const claims = decodeJwt(tokens.body.access_token!);
    expect(claims).to.deep.include({ aud: externalAudience(), client_id: 'crm', sub: 'crm', scope: 'external' });
    const res = await api(`/api/v1/external/users/${await janeId()}/roles`, tokens.body.access_token!);
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { tenants: Array<{ tenantName: string; roles: Array<{ roleName: string }> }> };
    expect(body.tenants).to.have.length(1);
    expect(body.tenants[0]!.tenantName).to.equal('ACME');
    expect(body.tenants[0]!.roles.map((role) => role.roleName)).to.deep.equal(['Sales']);
    const entities = (await (await api('/api/v1/external/tenants?view=tree', tokens.body.access_token!)).json()) as { items: Array<{ title: string; children: Array<{ title: string }> }> };
    expect(entities.items.map((t) => [t.title, t.children.map((c) => c.title)])).to.deep.equal([['ACME', ['ACME Spain']]]);
  });

  it("keeps each application to its own roles: erp's token sees Clerk, not crm's Sales", async () => {
    const tokens = await externalToken('erp');
    const body = (await (await api(`/api/v1/external/users/${await janeId()}/roles`, tokens.body.access_token!)).json()) as { tenants: Array<{ roles: Array<{ roleName: string }> }> };
    expect(body.tenants.flatMap((t) => t.roles.map((role) => role.roleName))).to.deep.equal(['Clerk']);
    const crmRole = await api('/api/v1/external/roles/Sales/users', tokens.body.access_token!);
    expect(crmRole.status).to.equal(404);
  });

  it('never issues the external API audience to the admin console, nor outside client credentials', async () => {
    const console = await externalToken('admin-console');
    expect(console.status).to.equal(400);
    expect(console.body.error).to.equal('invalid_target');
    const authorize = await fetch(
      `${server.url}/oidc/auth?${new URLSearchParams({ client_id: 'crm', response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/crm/callback`, state: 's', resource: externalAudience(), code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })}`,
      { redirect: 'manual' },
    );
    const location = new URL(authorize.headers.get('location') ?? '', server.url);
    expect(location.searchParams.get('error'), 'a user sign-in gets no external-API token').to.equal('invalid_target');
  });

  it('refuses an ordinary client-credentials token (opaque, no audience) and keeps the two APIs apart', async () => {
    const plain = await tokenRequest('crm', { grant_type: 'client_credentials' });
    expect(plain.status).to.equal(200);
    expect((await api(`/api/v1/external/users/${await janeId()}/roles`, plain.body.access_token!)).status).to.equal(401);
    const external = await externalToken('crm');
    expect((await api('/api/v1/admin/users', external.body.access_token!)).status, 'no key to the admin API').to.equal(401);
    const admin = await tokenRequest('crm', { grant_type: 'client_credentials', resource: `${server.url}/api/v1/admin` });
    expect(admin.body.error).to.equal('invalid_target');
  });
});
