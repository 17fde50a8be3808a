import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '@gatehouse/core';
import { BootstrapError, readBootstrap } from '@gatehouse/core/bootstrap';
import { exportConfigurationCommand } from '@gatehouse/launcher';
import { expect } from 'chai';
import YAML from 'yaml';
import { Browser } from './support/browser.js';
import { PKCE, tokensAfter } from './support/flows.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
/** What startTestServer gives the bootstrap administrator of every instance. */
const ADMIN = { userName: 'admin@gatehouse.local', password: 'Admin-password-123!' };

/** Instance A's start: the areas and the disclaimer (the file is their only source), the product's applications, two users. */
const BOOTSTRAP_A = `
areas:
  - { name: Default, default: true }
  - { name: Customers }
  - { name: Partners, system: true }
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, redirectUris: ['\${publicUrl}/admin-console/callback'] }
  - id: intranet
    name: intranet
    displayName: Intranet
    type: public
    redirectUris: ['\${publicUrl}/intranet/callback']
    disclaimer: { en: 'Company business only.', fr: 'Pour les affaires de la société uniquement.' }
  - id: wiki
    name: wiki
    displayName: Company wiki
    protocol: saml
    saml:
      entityId: urn:example:wiki
      assertionConsumerServices: [{ url: 'https://wiki.example.com/saml/acs' }]
      singleLogoutUrl: https://wiki.example.com/saml/logout
      nameIdFormat: persistent
      attributes: [{ source: email, name: mail }, { source: roles, name: groups }]
  - { id: payroll, name: payroll, displayName: Payroll, protocol: saml }
users:
  - { userName: god@example.com, area: Default, language: en, password: '${PASSWORD}', memberships: [{ tenant: Global, application: '1', roles: [God, Administrator] }] }
  - { userName: admin@example.com, area: Default, language: en, password: '${PASSWORD}', memberships: [{ tenant: Global, application: '1', roles: [Administrator] }] }
`;

const silent = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/** The console's access token of a user of `server`. */
async function consoleToken(server: TestServer, credentials: { userName: string; password: string }): Promise<string> {
  const browser = new Browser(server.url);
  const params = new URLSearchParams({ client_id: 'admin-console', response_type: 'code', scope: 'openid profile admin', redirect_uri: `${server.url}/admin-console/callback`, ...PKCE });
  await browser.get(`/oidc/auth?${params}`);
  await browser.get('/api/v1/config');
  const login = await browser.postJson('/api/v1/account/login', credentials, { 'accept-language': 'en' });
  const body = (await login.json()) as { success?: boolean; redirectTo: string };
  expect(body.success, JSON.stringify(body)).to.equal(true);
  return (await tokensAfter(server, browser, body.redirectTo, 'admin-console')).access_token;
}

async function adminApi(server: TestServer, token: string, method: string, apiPath: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/v1/admin${apiPath}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined;
  expect(res.status, `${method} ${apiPath}: ${text}`).to.be.below(300);
  return json;
}

describe('configuration export: one deployment’s configuration applied to an empty one', function () {
  this.timeout(300_000);
  let a: TestServer;
  let b: TestServer | undefined;
  /** Every secret instance A handed out: none may be in an export. */
  const secrets: Record<string, string> = {};
  let exported: string;
  let variables: string[];
  let file: string;

  before(async () => {
    a = await startTestServer({ bootstrap: BOOTSTRAP_A });
    const god = await consoleToken(a, { userName: 'god@example.com', password: PASSWORD });
    const call = (method: string, apiPath: string, body?: unknown) => adminApi(a, god, method, apiPath, body);

    // An application with a secret, roles and scopes.
    const crm = await call('POST', '/applications', {
      id: 'crm',
      name: 'crm-client',
      displayName: 'CRM',
      type: 'confidential',
      privateUrl: 'https://crm.example.com',
      redirectUris: ['https://crm.example.com/callback', `${a.url}/crm/callback`],
      deviceFlow: true,
    });
    secrets.crm = crm.sharedSecret;
    const sales = await call('POST', '/app/crm/roles', { name: 'Sales', description: 'Sells', operationRequestVisibility: true });
    const support = await call('POST', '/app/crm/roles', { name: 'Support', serviceManagerVisibility: true });
    for (const scope of ['crm.write', 'crm.read']) await call('POST', `/app/crm/roles/${sales.id}/scopes`, { scope });

    // A tenant tree of three levels, the middle one requiring a phishing-resistant second factor.
    const areas = (await call('GET', '/areas')).items as Array<{ id: string; name: string }>;
    const customers = areas.find((area) => area.name === 'Customers')!.id;
    const acme = await call('POST', '/tenants', { title: 'ACME', areaId: customers, taxNumber: 'ES-B123' });
    const europe = await call('POST', '/tenants', { title: 'ACME Europe', areaId: customers, parentId: acme.id });
    const spain = await call('POST', '/tenants', { title: 'ACME Spain', areaId: customers, parentId: europe.id });
    await call('POST', `/tenants/twoModeAuth/${europe.id}`, { enable: true, phishingResistantOnly: true });
    await call('POST', `/tenants/twoModeAuth/${spain.id}`, { enable: true });

    // A group with roles in two tenants.
    const group = await call('POST', '/groups', { name: 'Sales team', description: 'Field sales', areaId: customers });
    await call('POST', `/groups/${group.id}/roles`, { tenantId: acme.id, roleIds: [sales.id], isInheritable: false });
    await call('POST', `/groups/${group.id}/roles`, { tenantId: spain.id, roleIds: [sales.id, support.id] });

    // Security settings changed.
    await call('PUT', '/securityConfig/Lockout', { body: 'maxFailedAttempts: 7\nlockoutMinutes: 15' });
    await call('PUT', '/securityConfig/PasswordPolicy', { body: 'minLength: 14\nrequireSymbol: false' });

    // A webhook for the application.
    const webhook = await call('POST', '/webhooks', { url: 'https://hooks.example.com/gatehouse', description: 'CRM sync', events: ['user.created', 'role.granted'], applicationId: 'crm' });
    secrets.webhook = webhook.secret;

    const res = await fetch(`${a.url}/api/v1/admin/configuration/export`, { headers: { authorization: `Bearer ${god}` } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/yaml/);
    expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="gatehouse-configuration-\d{4}-\d{2}-\d{2}\.yaml"$/);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    exported = await res.text();

    file = path.join(mkdtempSync(path.join(tmpdir(), 'gatehouse-export-')), 'configuration.yaml');
    variables = (await exportConfigurationCommand(a.server.context.config, { file, logger: createLogger('silent'), stderr: silent() })).map((variable) => variable.name);
  });

  after(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('writes the same file from the admin API and from the launcher', () => {
    expect(readFileSync(file, 'utf8')).to.equal(exported);
  });

  it('holds no secret: each one is an environment reference listed in the header', () => {
    for (const [what, secret] of Object.entries(secrets)) {
      expect(secret, what).to.be.a('string').with.length.above(20);
      expect(exported, `the ${what} secret`).not.to.contain(secret);
    }
    expect(exported).not.to.match(/\$argon2|whsec_/);
    const webhookVariable = variables.find((name) => name.startsWith('GATEHOUSE_WEBHOOK_'));
    expect(variables).to.deep.equal(['GATEHOUSE_APP_CRM_SECRET', webhookVariable]);
    expect(exported).to.contain('secret: ${env:GATEHOUSE_APP_CRM_SECRET}');
    expect(exported).to.contain(`secret: \${env:${webhookVariable}}`);
    const header = exported.slice(0, exported.indexOf('\nareas:'));
    expect(header).to.match(/# +GATEHOUSE_APP_CRM_SECRET +client secret of application crm \(required/);
    expect(header).to.contain(webhookVariable);
    // No user is in it, and addresses of the deployment are written portably.
    expect(exported).not.to.match(/god@example\.com|admin@example\.com|users:/);
    expect(exported).not.to.contain(a.url);
    expect(exported).to.contain('${publicUrl}/crm/callback');
  });

  it('describes a SAML application by its service provider settings', () => {
    const document = YAML.parse(exported) as { applications: Array<{ id: string; protocol?: string; saml?: Record<string, unknown> }> };
    const wiki = document.applications.find((app) => app.id === 'wiki')!;
    expect(wiki.protocol).to.equal('saml');
    expect(wiki.saml).to.deep.equal({
      entityId: 'urn:example:wiki',
      assertionConsumerServices: [{ url: 'https://wiki.example.com/saml/acs', binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST' }],
      singleLogoutUrl: 'https://wiki.example.com/saml/logout',
      nameIdFormat: 'persistent',
      attributes: [{ source: 'email', name: 'mail' }, { source: 'roles', name: 'groups' }],
      wantAuthnRequestsSigned: false,
      encryptAssertions: false,
    });
    expect(document.applications.find((app) => app.id === 'intranet')).not.to.have.property('protocol');
    // One whose settings are still to come stays a SAML application.
    const payroll = document.applications.find((app) => app.id === 'payroll')!;
    expect(payroll.protocol).to.equal('saml');
    expect(payroll).not.to.have.property('saml');
  });

  it('lists the tenants parents first, with their MFA settings, and the groups with their roles', () => {
    const titles = [...exported.matchAll(/^ {4}title: (.+)$/gm)].map((match) => match[1]);
    expect(titles).to.deep.equal(['ACME', 'ACME Europe', 'ACME Spain']);
    expect(exported).to.match(/title: ACME Europe\n(.*\n)*? {4}requiredTwoModeAuthentification: true\n {4}phishingResistantOnly: true/);
    expect(exported).to.match(/- name: Sales team\n {4}area: Customers\n {4}description: Field sales\n {4}memberships:\n {6}- tenant: ACME\n {8}application: crm\n {8}roles:\n {10}- Sales\n {8}inheritable: false/);
  });

  it('gives an empty deployment started with the file the same configuration, its secrets read from the environment', async () => {
    const env = { GATEHOUSE_APP_CRM_SECRET: secrets.crm!, [variables[1]!]: secrets.webhook! };
    Object.assign(process.env, env);
    try {
      b = await startTestServer({ bootstrap: exported });
    } finally {
      for (const name of Object.keys(env)) delete process.env[name];
    }
    const db = b.server.context.dataSource;
    const [crm] = await db.query(`SELECT client_secret_encrypted FROM applications WHERE id = 'crm'`);
    expect(b.server.context.secrets.decrypt(crm.client_secret_encrypted), 'the client secret A gave').to.equal(secrets.crm);
    const [webhook] = await db.query(`SELECT secret_encrypted FROM webhook_endpoints`);
    expect(b.server.context.secrets.decrypt(webhook.secret_encrypted), 'the signing secret A gave').to.equal(secrets.webhook);

    // B's administrator (users are not exported: B's own bootstrap administrator) exports B.
    const god = await consoleToken(b, ADMIN);
    const res = await fetch(`${b.url}/api/v1/admin/configuration/export`, { headers: { authorization: `Bearer ${god}` } });
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal(exported);
  });

  it('stops the import of the file, naming the variable, when a client secret’s variable is not set', async () => {
    const error = await readBootstrap(file, { publicUrl: 'https://id.example.com', env: { [variables[1]!]: secrets.webhook } }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(BootstrapError);
    expect((error as BootstrapError).problems).to.deep.equal([`applications.2.secret: the environment variable GATEHOUSE_APP_CRM_SECRET is not set`]);
  });

  it('imports the file without the webhook’s variable, saying that a new endpoint gets a secret of its own', async () => {
    const { document, notices } = await readBootstrap(file, { publicUrl: 'https://id.example.com', env: { GATEHOUSE_APP_CRM_SECRET: secrets.crm } });
    expect(document.webhooks[0]!.secret).to.equal(undefined);
    expect(notices).to.have.length(1);
    expect(notices[0]).to.contain(variables[1]!).and.to.contain('a new endpoint gets a signing secret of its own');
  });

  it('is for God only: an Administrator gets 403', async () => {
    const admin = await consoleToken(a, { userName: 'admin@example.com', password: PASSWORD });
    const res = await fetch(`${a.url}/api/v1/admin/configuration/export`, { headers: { authorization: `Bearer ${admin}`, 'accept-language': 'en' } });
    expect(res.status).to.equal(403);
    expect(((await res.json()) as { message: string }).message).to.equal('You do not have permission to perform this action');
  });
});
