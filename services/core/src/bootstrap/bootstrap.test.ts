import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { DataSource } from 'typeorm';
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, IDENTITY_ROLES } from '../domain/constants.js';
import { Application, ApplicationExchangeAudience, Disclaimer, Role } from '../entities/applications.js';
import { Area, Tenant, User } from '../entities/identity.js';
import { WebhookEndpoint } from '../entities/webhooks.js';
import { verifyPassword } from '../security/passwords.js';
import { createTestContext } from '../testing/index.js';
import { resolveEffectiveRoles } from '../roles/effective-roles.js';
import { BootstrapError, applyBootstrap, readBootstrapFile } from './apply.js';

const PUBLIC_URL = 'https://id.example.com';

function writeFile(content: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gatehouse-bootstrap-')), 'bootstrap.yaml');
  writeFileSync(file, content);
  return file;
}

/** Every row of the tables bootstrap writes, to compare two states exactly. */
async function snapshot(ds: DataSource) {
  const tables = ['areas', 'tenants', 'applications', 'roles', 'role_scopes', 'users', 'tenant_members', 'tenant_member_roles'];
  const out: Record<string, unknown> = {};
  for (const t of tables) out[t] = await ds.query(`SELECT * FROM ${t} ORDER BY 1, 2`);
  return JSON.parse(JSON.stringify(out));
}

const DEPLOYMENT = `
areas:
  - name: Default
    default: true
  - name: Customers
  - name: Partners
tenants:
  - title: ACME
    area: Customers
  - title: ACME Spain
    area: Customers
    parent: ACME
applications:
  - id: '1'
    name: identity
    displayName: Identity Management
    type: public
    roles: [{ name: God }, { name: Administrator }, { name: User }]
  - id: crm
    name: crm-client
    displayName: CRM
    type: confidential
    secret: 'crm-secret-0123456789-abcdefghijklmnop'
    redirectUris: ['\${publicUrl}/crm/callback', 'https://crm.example.com/callback']
    grantTypes: [authorization_code, refresh_token, client_credentials]
    roles:
      - name: Sales
        scopes: [crm.read, crm.write]
users:
  - userName: jane@example.com
    firstName: Jane
    area: Customers
    password: 'Correct-Horse-42!'
    memberships:
      - tenant: ACME
        application: crm
        roles: [Sales]
`;

describe('bootstrap', () => {
  it('applies the shipped file: areas, Global tenant, Identity roles, both SPAs and the administrator', async () => {
    const { dataSource, secrets } = await createTestContext();
    const doc = await readBootstrapFile(path.resolve('config/bootstrap.yaml'), { publicUrl: PUBLIC_URL });
    const result = await applyBootstrap(dataSource, doc, { secrets, admin: { userName: 'root@example.com' } });

    expect((await dataSource.getRepository(Area).find()).map((a) => [a.name, a.isDefault]).sort()).to.deep.equal([
      ['Customers', false],
      ['Default', true],
    ]);
    expect(await dataSource.getRepository(Tenant).findOneBy({ id: GLOBAL_TENANT_ID })).to.include({ title: 'Global' });
    const roles = await dataSource.getRepository(Role).findBy({ applicationId: IDENTITY_APPLICATION_ID });
    expect(roles.map((r) => r.name).sort()).to.deep.equal([...IDENTITY_ROLES].sort());
    for (const id of ['portal', 'admin-console']) {
      const spa = await dataSource.getRepository(Application).findOneByOrFail({ id });
      expect(spa.clientType).to.equal('public');
      expect(spa.clientSecretEncrypted).to.equal(null);
      expect(spa.redirectUris[0]).to.match(new RegExp(`^${PUBLIC_URL}/`));
    }

    const admin = await dataSource.getRepository(User).findOneByOrFail({ normalizedUserName: 'root@example.com' });
    expect(result.generatedAdminPassword, 'a password is generated when none is configured').to.be.a('string');
    expect(result.generatedAdminPassword).to.have.length(20);
    expect(admin.passwordHash).to.match(/^\$argon2id\$/);
    expect(admin.passwordHash).not.to.contain(result.generatedAdminPassword!);
    expect(await verifyPassword(admin.passwordHash, result.generatedAdminPassword!)).to.equal(true);
    const adminRoles = await resolveEffectiveRoles(dataSource, admin.id, { tenantId: GLOBAL_TENANT_ID });
    expect(adminRoles.map((r) => r.roleName).sort()).to.deep.equal(['Administrator', 'God']);

    const again = await applyBootstrap(dataSource, doc, { secrets, admin: { userName: 'root@example.com' } });
    expect(again.generatedAdminPassword, 'the password is generated and shown only once').to.equal(undefined);
  });

  it('changes nothing on a second run with the same file', async () => {
    const { dataSource, secrets } = await createTestContext();
    const doc = await readBootstrapFile(writeFile(DEPLOYMENT), { publicUrl: PUBLIC_URL });
    const admin = { userName: 'root@example.com', password: 'Admin-password-123!' };
    const first = await applyBootstrap(dataSource, doc, { secrets, admin });
    expect(first.created).to.be.greaterThan(10);
    const before = await snapshot(dataSource);

    const second = await applyBootstrap(dataSource, doc, { secrets, admin });
    expect(second).to.deep.equal({ created: 0, updated: 0, unchanged: true });
    expect(await snapshot(dataSource), 'no row changed, not even modified_on').to.deep.equal(before);
  });

  it('updates what an edited file declares and keeps what it no longer mentions', async () => {
    const { dataSource, secrets } = await createTestContext();
    const admin = { userName: 'root@example.com', password: 'Admin-password-123!' };
    await applyBootstrap(dataSource, await readBootstrapFile(writeFile(DEPLOYMENT), { publicUrl: PUBLIC_URL }), { secrets, admin });
    const jane = await dataSource.getRepository(User).findOneByOrFail({ normalizedUserName: 'jane@example.com' });

    const edited = DEPLOYMENT.replace('displayName: CRM', 'displayName: Customer Relations')
      .replace("password: 'Correct-Horse-42!'", "password: 'Another-Password-99!'")
      .replace('firstName: Jane', 'firstName: Janet')
      .replace("secret: 'crm-secret-0123456789-abcdefghijklmnop'", "secret: 'rotated-secret-0123456789-abcdefghij'")
      .replace('  - name: Partners\n', '');
    const result = await applyBootstrap(dataSource, await readBootstrapFile(writeFile(edited), { publicUrl: PUBLIC_URL }), { secrets, admin });
    expect(result.created).to.equal(0);
    expect(result.updated).to.equal(2);

    const crm = await dataSource.getRepository(Application).findOneByOrFail({ id: 'crm' });
    expect(crm.displayName).to.equal('Customer Relations');
    expect(secrets.decrypt(crm.clientSecretEncrypted!)).to.equal('rotated-secret-0123456789-abcdefghij');
    const janet = await dataSource.getRepository(User).findOneByOrFail({ id: jane.id });
    expect(janet.firstName).to.equal('Janet');
    expect(await verifyPassword(janet.passwordHash, 'Correct-Horse-42!'), 'an existing password is never overwritten').to.equal(true);
    expect(await dataSource.getRepository(Area).findOneBy({ name: 'Partners' }), 'undeclared rows stay').to.not.equal(null);
  });

  it('writes only the fields a changed file declares: an existing row keeps the others, a new row takes the defaults', async () => {
    const { dataSource, secrets } = await createTestContext();
    const admin = { userName: 'root@example.com', password: 'Admin-password-123!' };
    await applyBootstrap(dataSource, await readBootstrapFile(writeFile(DEPLOYMENT), { publicUrl: PUBLIC_URL }), { secrets, admin });
    // What administrators changed since: none of it is in the file.
    await dataSource.query(`UPDATE tenants SET required_two_mode_authentification = true, creation_type = 'Auto' WHERE title = 'ACME'`);
    await dataSource.query(`UPDATE applications SET status = 'Maintenance', grant_types = '{authorization_code}' WHERE id = 'crm'`);
    await dataSource.query(`UPDATE users SET language = 'de', email = 'jane.doe@example.com', normalized_email = 'jane.doe@example.com' WHERE normalized_user_name = 'jane@example.com'`);

    const edited = DEPLOYMENT.replace('displayName: CRM', 'displayName: Customer Relations').replace(
      '  - title: ACME Spain\n',
      '  - title: Initech\n    area: Partners\n  - title: ACME Spain\n',
    );
    const result = await applyBootstrap(dataSource, await readBootstrapFile(writeFile(edited), { publicUrl: PUBLIC_URL }), { secrets, admin });
    expect(result).to.include({ created: 1, updated: 1, unchanged: false });

    expect(await dataSource.getRepository(Tenant).findOneByOrFail({ title: 'ACME' })).to.include({ requiredTwoModeAuthentification: true, creationType: 'Auto' });
    const crm = await dataSource.getRepository(Application).findOneByOrFail({ id: 'crm' });
    expect(crm).to.include({ displayName: 'Customer Relations', status: 'Maintenance' });
    expect(crm.grantTypes, 'declared in the file, so written back').to.deep.equal(['authorization_code', 'refresh_token', 'client_credentials']);
    expect(await dataSource.getRepository(User).findOneByOrFail({ normalizedUserName: 'jane@example.com' })).to.include({ language: 'de', email: 'jane.doe@example.com' });
    expect(await dataSource.getRepository(Tenant).findOneByOrFail({ title: 'Initech' })).to.include({ requiredTwoModeAuthentification: false, creationType: 'Manual', parentId: null });
  });

  it('declares which applications allow sign-in on devices: off unless declared, and left out, what an administrator set stays', async () => {
    const { dataSource, secrets } = await createTestContext();
    const admin = { userName: 'root@example.com', password: 'Admin-password-123!' };
    const grants = '    grantTypes: [authorization_code, refresh_token, client_credentials]\n';
    const declared = DEPLOYMENT.replace(grants, `${grants}    deviceFlow: true\n`);
    await applyBootstrap(dataSource, await readBootstrapFile(writeFile(declared), { publicUrl: PUBLIC_URL }), { secrets, admin });
    const applications = dataSource.getRepository(Application);
    expect(await applications.findOneByOrFail({ id: 'crm' })).to.include({ deviceFlow: true });
    expect(await applications.findOneByOrFail({ id: '1' })).to.include({ deviceFlow: false });

    await applyBootstrap(dataSource, await readBootstrapFile(writeFile(DEPLOYMENT), { publicUrl: PUBLIC_URL }), { secrets, admin });
    expect(await applications.findOneByOrFail({ id: 'crm' }), 'left out of the file: unchanged').to.include({ deviceFlow: true });
  });

  it('declares protocol hardening and token exchange: keys, PAR, JAR, FAPI 2.0 (which turns on PAR and DPoP) and the audiences', async () => {
    const { dataSource, secrets } = await createTestContext();
    const admin = { userName: 'root@example.com', password: 'Admin-password-123!' };
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = JSON.stringify({ ...publicKey.export({ format: 'jwk' }), kid: 'k1' });
    const grants = '    grantTypes: [authorization_code, refresh_token, client_credentials]\n';
    const declared = DEPLOYMENT.replace(
      grants,
      `${grants}    clientAuthentication: private_key_jwt\n    jwks: { keys: [${jwk}] }\n    fapi2: true\n    requireSignedRequestObject: true\n    tokenExchangeAudiences: [erp]\n`,
    ).replace('users:\n', "  - { id: erp, name: erp, displayName: ERP, secret: 'erp-secret-0123456789-abcdefghijklmnop', redirectUris: ['https://erp.example.com/cb'] }\nusers:\n");
    await applyBootstrap(dataSource, await readBootstrapFile(writeFile(declared), { publicUrl: PUBLIC_URL }), { secrets, admin });
    const crm = await dataSource.getRepository(Application).findOneByOrFail({ id: 'crm' });
    expect(crm).to.include({ clientAuthentication: 'private_key_jwt', fapi2: true, requirePar: true, requireDpop: true, requireSignedRequestObject: true });
    expect(crm.jwks).to.deep.equal({ keys: [JSON.parse(jwk)] });
    expect(await dataSource.getRepository(ApplicationExchangeAudience).findBy({ applicationId: 'crm' })).to.have.length(1);
    // The file says exactly which: declared again with an empty list, none are left.
    await applyBootstrap(dataSource, await readBootstrapFile(writeFile(declared.replace('tokenExchangeAudiences: [erp]', 'tokenExchangeAudiences: []')), { publicUrl: PUBLIC_URL }), { secrets, admin });
    expect(await dataSource.getRepository(ApplicationExchangeAudience).findBy({ applicationId: 'crm' })).to.have.length(0);
  });

  it('refuses protocol settings that cannot work, naming each', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const file = writeFile(`
areas: [{ name: Default, default: true }]
applications:
  - { id: a, name: a, displayName: A, secret: 'a-secret-0123456789-abcdefghijklmnopqr', fapi2: true }
  - { id: b, name: b, displayName: B, clientAuthentication: private_key_jwt }
  - { id: c, name: c, displayName: C, clientAuthentication: private_key_jwt, jwks: { keys: [${JSON.stringify(privateKey.export({ format: 'jwk' }))}] } }
  - { id: d, name: d, displayName: D, secret: 'd-secret-0123456789-abcdefghijklmnopqr', tokenExchangeAudiences: [nowhere, d] }
`);
    const error = await readBootstrapFile(file, { publicUrl: PUBLIC_URL }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(BootstrapError);
    const problems = (error as BootstrapError).problems.join('\n');
    expect(problems).to.match(/applications\.a\.fapi2: The FAPI 2\.0 profile needs a confidential application that authenticates with private_key_jwt/);
    expect(problems).to.match(/applications\.b\.jwks: private_key_jwt and signed request objects need the application's public keys/);
    expect(problems).to.match(/applications\.c\.jwks\.keys\.0: Key 1 holds a private part/);
    expect(problems).to.match(/applications\.d\.tokenExchangeAudiences\.0: There is no application nowhere/);
    expect(problems).to.match(/applications\.d\.tokenExchangeAudiences\.1: An application does not exchange tokens for itself/);
  });

  it('declares which roles consultants may request and service managers may give, and users’ categories', async () => {
    const { dataSource, secrets } = await createTestContext();
    const admin = { userName: 'root@example.com', password: 'Admin-password-123!' };
    const declared = DEPLOYMENT.replace(
      '      - name: Sales\n        scopes: [crm.read, crm.write]\n',
      '      - name: Sales\n        scopes: [crm.read, crm.write]\n        operationRequestVisibility: true\n      - name: Support\n        serviceManagerVisibility: true\n',
    ).replace('    firstName: Jane\n', '    firstName: Jane\n    internalCategory: Project Manager\n');
    await applyBootstrap(dataSource, await readBootstrapFile(writeFile(declared), { publicUrl: PUBLIC_URL }), { secrets, admin });
    const roles = dataSource.getRepository(Role);
    expect(await roles.findOneByOrFail({ applicationId: 'crm', name: 'Sales' })).to.include({ operationRequestVisibility: true, serviceManagerVisibility: false });
    expect(await roles.findOneByOrFail({ applicationId: 'crm', name: 'Support' })).to.include({ operationRequestVisibility: false, serviceManagerVisibility: true });
    expect(await dataSource.getRepository(User).findOneByOrFail({ normalizedUserName: 'jane@example.com' })).to.include({ internalCategory: 'Project Manager' });

    // Left out of a changed file, what the console set since stays.
    await dataSource.query(`UPDATE roles SET service_manager_visibility = true WHERE name = 'Sales' AND application_id = 'crm'`);
    await dataSource.query(`UPDATE users SET internal_category = 'Director' WHERE normalized_user_name = 'jane@example.com'`);
    await applyBootstrap(dataSource, await readBootstrapFile(writeFile(DEPLOYMENT.replace('displayName: CRM', 'displayName: CRM 2')), { publicUrl: PUBLIC_URL }), { secrets, admin });
    expect(await roles.findOneByOrFail({ applicationId: 'crm', name: 'Sales' })).to.include({ operationRequestVisibility: true, serviceManagerVisibility: true });
    expect(await dataSource.getRepository(User).findOneByOrFail({ normalizedUserName: 'jane@example.com' })).to.include({ internalCategory: 'Director' });
  });

  it('skips a file identical to the last one applied, even reformatted, whatever changed in the database since', async () => {
    const { dataSource, secrets } = await createTestContext();
    const admin = { userName: 'root@example.com', password: 'Admin-password-123!' };
    await applyBootstrap(dataSource, await readBootstrapFile(writeFile(DEPLOYMENT), { publicUrl: PUBLIC_URL }), { secrets, admin });
    await dataSource.query(`UPDATE applications SET display_name = 'Renamed in the console' WHERE id = 'crm'`);
    await dataSource.query(`DELETE FROM areas WHERE name = 'Partners'`);

    const reformatted = `# The same declarations, written another way.\n${DEPLOYMENT.replaceAll('\n\n', '\n')}`;
    const result = await applyBootstrap(dataSource, await readBootstrapFile(writeFile(reformatted), { publicUrl: PUBLIC_URL }), { secrets, admin });
    expect(result).to.deep.equal({ created: 0, updated: 0, unchanged: true });
    expect((await dataSource.getRepository(Application).findOneByOrFail({ id: 'crm' })).displayName).to.equal('Renamed in the console');
    expect(await dataSource.getRepository(Area).findOneBy({ name: 'Partners' }), 'not recreated').to.equal(null);

    const otherUrl = await applyBootstrap(dataSource, await readBootstrapFile(writeFile(DEPLOYMENT), { publicUrl: 'https://login.example.org' }), { secrets, admin });
    expect(otherUrl.unchanged, 'another public URL changes the document').to.equal(false);
  });

  it('provisions the administrator once: never recreated, nor given its roles again, nor another one for a new name', async () => {
    const { dataSource, secrets } = await createTestContext();
    const doc = await readBootstrapFile(writeFile(DEPLOYMENT), { publicUrl: PUBLIC_URL });
    await applyBootstrap(dataSource, doc, { secrets, admin: { userName: 'root@example.com', password: 'Admin-password-123!' } });
    const root = await dataSource.getRepository(User).findOneByOrFail({ normalizedUserName: 'root@example.com' });
    await dataSource.query('DELETE FROM tenant_members WHERE user_id = $1', [root.id]);
    await dataSource.query('DELETE FROM users WHERE id = $1', [root.id]);

    const edited = await readBootstrapFile(writeFile(DEPLOYMENT.replace('firstName: Jane', 'firstName: Janet')), { publicUrl: PUBLIC_URL });
    const result = await applyBootstrap(dataSource, edited, { secrets, admin: { userName: 'root@example.com' } });
    expect(result.generatedAdminPassword).to.equal(undefined);
    expect(await dataSource.getRepository(User).findOneBy({ normalizedUserName: 'root@example.com' })).to.equal(null);
    await applyBootstrap(dataSource, doc, { secrets, admin: { userName: 'other-root@example.com', password: 'Admin-password-123!' } });
    expect(await dataSource.getRepository(User).findOneBy({ normalizedUserName: 'other-root@example.com' })).to.equal(null);
  });

  it('records an administrator a database already holds without giving it roles again (a deployment bootstrapped before)', async () => {
    const { dataSource, secrets } = await createTestContext();
    const doc = await readBootstrapFile(writeFile(DEPLOYMENT), { publicUrl: PUBLIC_URL });
    const admin = { userName: 'root@example.com', password: 'Admin-password-123!' };
    await applyBootstrap(dataSource, doc, { secrets, admin });
    const root = await dataSource.getRepository(User).findOneByOrFail({ normalizedUserName: 'root@example.com' });
    await dataSource.query(
      `DELETE FROM tenant_member_roles WHERE role_id = (SELECT id FROM roles WHERE application_id = '1' AND name = 'God')
         AND tenant_member_id IN (SELECT id FROM tenant_members WHERE user_id = $1)`,
      [root.id],
    );
    await dataSource.query('DELETE FROM bootstrap_state');

    await applyBootstrap(dataSource, doc, { secrets, admin });
    const roles = await resolveEffectiveRoles(dataSource, root.id, { tenantId: GLOBAL_TENANT_ID });
    expect(roles.map((r) => r.roleName)).to.deep.equal(['Administrator']);
    const [state] = await dataSource.query('SELECT document_sha256, administrator_user_name, administrator_provisioned_at FROM bootstrap_state');
    expect(state.document_sha256).to.match(/^[0-9a-f]{64}$/);
    expect(state.administrator_user_name).to.equal('root@example.com');
    expect(state.administrator_provisioned_at).to.be.an.instanceOf(Date);
  });

  it('applies the file once when several nodes start together', async () => {
    const { dataSource, secrets } = await createTestContext();
    const doc = await readBootstrapFile(writeFile(DEPLOYMENT), { publicUrl: PUBLIC_URL });
    const results = await Promise.all([1, 2, 3].map(() => applyBootstrap(dataSource, doc, { secrets, admin: { userName: 'root@example.com' } })));
    expect(results.filter((r) => !r.unchanged)).to.have.length(1);
    expect(results.filter((r) => r.generatedAdminPassword), 'one administrator, one password shown').to.have.length(1);
    expect(await dataSource.getRepository(User).countBy({ normalizedUserName: 'root@example.com' })).to.equal(1);
  });

  it('stores a client secret encrypted, never in plain text', async () => {
    const { dataSource, secrets } = await createTestContext();
    const doc = await readBootstrapFile(writeFile(DEPLOYMENT), { publicUrl: PUBLIC_URL });
    await applyBootstrap(dataSource, doc, { secrets, admin: { userName: 'root@example.com', password: 'Admin-password-123!' } });
    const [row] = await dataSource.query(`SELECT * FROM applications WHERE id = 'crm'`);
    expect(JSON.stringify(row)).not.to.contain('crm-secret-0123456789');
    expect(secrets.decrypt(row.client_secret_encrypted)).to.equal('crm-secret-0123456789-abcdefghijklmnop');
    expect(row.redirect_uris).to.deep.equal([`${PUBLIC_URL}/crm/callback`, 'https://crm.example.com/callback']);
    const spain = await dataSource.getRepository(Tenant).findOneByOrFail({ title: 'ACME Spain' });
    const acme = await dataSource.getRepository(Tenant).findOneByOrFail({ title: 'ACME' });
    expect(spain.parentId).to.equal(acme.id);
    const jane = await dataSource.getRepository(User).findOneByOrFail({ normalizedUserName: 'jane@example.com' });
    const janeRoles = await resolveEffectiveRoles(dataSource, jane.id, { tenantId: spain.id });
    expect(janeRoles.map((r) => `${r.roleName}:${r.hierarchyType}`)).to.deep.equal(['Sales:ByHierarchy']);
  });

  it('reports every problem of an invalid file with its path', async () => {
    const file = writeFile(`
areas: [{ name: Default, default: true }, { name: Other, default: true }]
applications:
  - { id: spa, name: spa, displayName: SPA, type: public, secret: 'a-secret-that-is-long-enough-0123456789' }
  - { id: x, name: x, displayName: X, colour: blue }
users:
  - { userName: not-an-email, area: Default }
`);
    const error = await readBootstrapFile(file, { publicUrl: PUBLIC_URL }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(BootstrapError);
    const problems = (error as BootstrapError).problems.join('\n');
    expect(problems).to.match(/applications\.1: Unrecognized key: "colour"/i);
    expect(problems).to.match(/users\.0\.userName/);
    expect(problems).to.match(/only one area can be the default/);
    expect(problems).to.match(/a public client has no secret/);
  });

  it('refuses references to areas, tenants and roles that do not exist, changing nothing', async () => {
    const { dataSource, secrets } = await createTestContext();
    const file = writeFile(`
areas: [{ name: Default, default: true }]
tenants: [{ title: T, area: Nowhere }]
users:
  - userName: a@example.com
    area: Default
    memberships: [{ tenant: Missing, application: '1', roles: [Ghost] }]
`);
    const doc = await readBootstrapFile(file, { publicUrl: PUBLIC_URL });
    const error = await applyBootstrap(dataSource, doc, { secrets, admin: { userName: 'root@example.com' } }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(BootstrapError);
    expect((error as BootstrapError).problems).to.deep.equal([
      'tenants.T.area: area "Nowhere" does not exist',
      'users.a@example.com.memberships.tenant: no tenant is titled "Missing"',
      // This file forgot the Identity application, whose roles the administrator holds.
      'administrator: role "Administrator" does not exist in application "1"',
      'administrator: role "God" does not exist in application "1"',
    ]);
    expect(await dataSource.getRepository(Area).count(), 'the transaction rolled back').to.equal(0);
  });

  describe('disclaimers', () => {
    const WITH_DISCLAIMER = DEPLOYMENT.replace(
      '    roles:\n      - name: Sales\n',
      "    disclaimer:\n      en: 'Use the CRM for company business only.'\n      fr: 'Utilisez le CRM pour les affaires de la société uniquement.'\n    roles:\n      - name: Sales\n",
    );
    const admin = { userName: 'root@example.com', password: 'Admin-password-123!' };
    const versions = (dataSource: DataSource) =>
      dataSource.getRepository(Disclaimer).find({ where: { applicationId: 'crm' }, order: { version: 'ASC' } });

    it('gives an application its disclaimer as version 1, with the text of each language', async () => {
      const { dataSource, secrets } = await createTestContext();
      await applyBootstrap(dataSource, await readBootstrapFile(writeFile(WITH_DISCLAIMER), { publicUrl: PUBLIC_URL }), { secrets, admin });

      const rows = await versions(dataSource);
      expect(rows.map((row) => [row.version, row.content])).to.deep.equal([
        [1, { en: 'Use the CRM for company business only.', fr: 'Utilisez le CRM pour les affaires de la société uniquement.' }],
      ]);
    });

    it('adds a version when the text changes, and none when the file changes elsewhere or lists the languages in another order', async () => {
      const { dataSource, secrets } = await createTestContext();
      await applyBootstrap(dataSource, await readBootstrapFile(writeFile(WITH_DISCLAIMER), { publicUrl: PUBLIC_URL }), { secrets, admin });
      const [first] = await versions(dataSource);

      const elsewhere = WITH_DISCLAIMER.replace('displayName: CRM', 'displayName: Customer Relations').replace(
        "      en: 'Use the CRM for company business only.'\n      fr: 'Utilisez le CRM pour les affaires de la société uniquement.'\n",
        "      fr: 'Utilisez le CRM pour les affaires de la société uniquement.'\n      en: 'Use the CRM for company business only.'\n",
      );
      const unchanged = await applyBootstrap(dataSource, await readBootstrapFile(writeFile(elsewhere), { publicUrl: PUBLIC_URL }), { secrets, admin });
      expect(unchanged).to.include({ created: 0, updated: 1 });
      expect((await versions(dataSource)).map((row) => row.id), 'the same version, still accepted by those who did').to.deep.equal([first!.id]);

      const reworded = elsewhere.replace('for company business only.', 'for company business only, never for private matters.');
      const result = await applyBootstrap(dataSource, await readBootstrapFile(writeFile(reworded), { publicUrl: PUBLIC_URL }), { secrets, admin });
      expect(result.created).to.equal(1);
      const rows = await versions(dataSource);
      expect(rows.map((row) => row.version)).to.deep.equal([1, 2]);
      expect(rows[1]!.content.en).to.equal('Use the CRM for company business only, never for private matters.');
      expect(rows[0]!.content.en, 'the version users accepted stays as it was').to.equal('Use the CRM for company business only.');
    });

    it('refuses a disclaimer in an unknown language or without any text', async () => {
      const file = writeFile(`
applications:
  - { id: a, name: a, displayName: A, type: public, disclaimer: { en: 'Terms', klingon: 'Terms' } }
  - { id: b, name: b, displayName: B, type: public, disclaimer: {} }
  - { id: c, name: c, displayName: C, type: public, disclaimer: { fr: '   ' } }
`);
      const error = await readBootstrapFile(file, { publicUrl: PUBLIC_URL }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(BootstrapError);
      const problems = (error as BootstrapError).problems.join('\n');
      expect(problems).to.match(/applications\.0\.disclaimer: Unrecognized key: "klingon"/);
      expect(problems).to.match(/applications\.1\.disclaimer: a disclaimer needs its text in one language at least/);
      expect(problems).to.match(/applications\.2\.disclaimer\.fr/);
    });
  });

  describe('groups, security settings, webhooks and tenant ids', () => {
    const admin = { userName: 'root@example.com', password: 'Admin-password-123!' };
    const WEBHOOK_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const SECTIONS = `${DEPLOYMENT}groups:
  - name: Sales team
    area: Customers
    description: Field sales
    memberships:
      - { tenant: ACME, application: crm, roles: [Sales], inheritable: false }
security:
  Lockout: { maxFailedAttempts: 7 }
webhooks:
  - { url: 'https://hooks.example.com/a', events: [user.created], application: crm, secret: '\${env:GATEHOUSE_TEST_HOOK_SECRET}' }
  - { url: 'https://hooks.example.com/b', events: [role.granted, role.granted], enabled: false }
`;
    const read = (content: string, env: Record<string, string> = { GATEHOUSE_TEST_HOOK_SECRET: WEBHOOK_SECRET }) => readBootstrapFile(writeFile(content), { publicUrl: PUBLIC_URL, env });

    it('gives a group its roles, stores the security settings whole, registers the webhooks; applied again, changes nothing', async () => {
      const { dataSource, secrets } = await createTestContext();
      const doc = await read(SECTIONS);
      await applyBootstrap(dataSource, doc, { secrets, admin });

      const [group] = await dataSource.query(
        `SELECT g.description, t.title, m.is_inheritable, r.name FROM groups g JOIN tenant_members m ON m.group_id = g.id JOIN tenants t ON t.id = m.tenant_id
           JOIN tenant_member_roles mr ON mr.tenant_member_id = m.id JOIN roles r ON r.id = mr.role_id WHERE g.name = 'Sales team'`,
      );
      expect(group).to.deep.equal({ description: 'Field sales', title: 'ACME', is_inheritable: false, name: 'Sales' });
      const [lockout] = await dataSource.query(`SELECT body, modified_by_id FROM security_configs WHERE title = 'Lockout'`);
      expect(lockout).to.deep.equal({ body: { maxFailedAttempts: 7, lockoutMinutes: 5, permanentAfterLockouts: 3 }, modified_by_id: null });
      const hooks = await dataSource.getRepository(WebhookEndpoint).find({ order: { url: 'ASC' } });
      expect(hooks.map((hook) => [hook.url, hook.applicationId, hook.events, hook.enabled])).to.deep.equal([
        ['https://hooks.example.com/a', 'crm', ['user.created'], true],
        ['https://hooks.example.com/b', null, ['role.granted'], false],
      ]);
      expect(secrets.decrypt(hooks[0]!.secretEncrypted), 'the secret of the environment').to.equal(WEBHOOK_SECRET);
      expect(secrets.decrypt(hooks[1]!.secretEncrypted), 'none declared: one of its own').to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);

      // Forgotten, as on a database bootstrapped by another file: every declaration is compared again.
      await dataSource.query('DELETE FROM bootstrap_state');
      expect(await applyBootstrap(dataSource, doc, { secrets, admin })).to.include({ created: 0, updated: 0 });
      const rotated = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
      await applyBootstrap(dataSource, await read(SECTIONS, { GATEHOUSE_TEST_HOOK_SECRET: rotated }), { secrets, admin });
      const hook = await dataSource.getRepository(WebhookEndpoint).findOneByOrFail({ url: 'https://hooks.example.com/a' });
      expect(hook.id, 'the same endpoint').to.equal(hooks[0]!.id);
      expect(secrets.decrypt(hook.secretEncrypted)).to.equal(rotated);
    });

    it('refuses what the console refuses, naming each: an unknown setting key, phishing-resistant only without the second factor, a bad webhook secret', async () => {
      const error = await read(
        `${DEPLOYMENT.replace('  - title: ACME\n    area: Customers\n', '  - title: ACME\n    area: Customers\n    phishingResistantOnly: true\n')}security:\n  Lockout: { maxFailedAttempt: 3 }\nwebhooks:\n  - { url: 'https://hooks.example.com/a', events: [user.created], secret: short }\n`,
      ).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(BootstrapError);
      const problems = (error as BootstrapError).problems.join('\n');
      expect(problems).to.match(/security\.Lockout: Unrecognized key: "maxFailedAttempt"/);
      expect(problems).to.match(/tenants\.0\.phishingResistantOnly: Phishing-resistant only needs the second factor/);
      expect(problems).to.match(/webhooks\.0\.secret: a signing secret is whsec_ followed by at least 24 bytes in base64/);
    });

    it('refuses a webhook to a private address (unless the deployment allows them), of an unknown application, or moved to another application', async () => {
      const { dataSource, secrets } = await createTestContext();
      const hooks = `${DEPLOYMENT}webhooks:\n  - { url: 'https://10.0.0.1/hook', events: [user.created] }\n  - { url: 'https://hooks.example.com/x', events: [user.created], application: nowhere }\n`;
      const error = await applyBootstrap(dataSource, await read(hooks), { secrets, admin }).catch((e: unknown) => e);
      expect((error as BootstrapError).problems).to.deep.equal([
        'webhooks.https://10.0.0.1/hook.url: This address is on a private or loopback network: webhooks are not sent there unless the deployment allows private networks',
        'webhooks.https://hooks.example.com/x.application: application "nowhere" does not exist',
      ]);

      const allowed = `${DEPLOYMENT}webhooks:\n  - { id: 7b0c5e0e-8a34-4f7e-9d1e-3a6f0c1b2d4e, url: 'https://10.0.0.1/hook', events: [user.created] }\n`;
      await applyBootstrap(dataSource, await read(allowed), { secrets, admin, allowPrivateNetworkRequests: true });
      expect(await dataSource.getRepository(WebhookEndpoint).findOneByOrFail({ id: '7b0c5e0e-8a34-4f7e-9d1e-3a6f0c1b2d4e' })).to.include({ url: 'https://10.0.0.1/hook' });
      const moved = allowed.replace('events: [user.created] }', 'events: [user.created], application: crm }');
      const refused = await applyBootstrap(dataSource, await read(moved), { secrets, admin, allowPrivateNetworkRequests: true }).catch((e: unknown) => e);
      expect((refused as BootstrapError).problems).to.deep.equal([`webhooks.7b0c5e0e-8a34-4f7e-9d1e-3a6f0c1b2d4e.application: an endpoint's application cannot change (it is "none")`]);
    });

    it('finds a tenant by its id: created with it, renamed by it, never moved under its own descendant', async () => {
      const { dataSource, secrets } = await createTestContext();
      const [parent, child] = ['5c1d7a52-3f0e-4b8a-9c61-0e2f4a7b9d13', '8e4b2c91-6a3d-4f5e-8b7c-1d9e0f2a3b4c'];
      const tree = (first: string, second: string) =>
        `areas: [{ name: Default, default: true }]\napplications: [{ id: '1', name: identity, displayName: Identity, type: public, roles: [{ name: God }, { name: Administrator }] }]\ntenants:\n${first}\n${second}\n`;
      await applyBootstrap(
        dataSource,
        await read(tree(`  - { id: ${parent}, title: Holding, area: Default }`, `  - { id: ${child}, title: Branch, area: Default, parent: Holding }`)),
        { secrets, admin },
      );
      expect(await dataSource.getRepository(Tenant).findOneByOrFail({ id: child })).to.include({ title: 'Branch', parentId: parent });

      await applyBootstrap(dataSource, await read(tree(`  - { id: ${parent}, title: Holding Group, area: Default }`, `  - { id: ${child}, title: Branch, area: Default, parent: ${parent} }`)), { secrets, admin });
      expect(await dataSource.getRepository(Tenant).findOneByOrFail({ id: parent })).to.include({ title: 'Holding Group' });

      const cycle = await applyBootstrap(dataSource, await read(tree(`  - { id: ${child}, title: Branch, area: Default }`, `  - { id: ${parent}, title: Holding Group, area: Default, parent: Branch }`)), { secrets, admin }).catch(
        (e: unknown) => e,
      );
      expect((cycle as BootstrapError).problems).to.deep.equal(['tenants.Holding Group.parent: "Branch" is the tenant itself or one of its descendants']);
    });

    it('names a variable that is not set, wherever the file refers to it, and reads none but the GATEHOUSE_ ones', async () => {
      const file = DEPLOYMENT.replace("'https://crm.example.com/callback'", "'${env:GATEHOUSE_CRM_CALLBACK}'").replace('displayName: CRM', 'displayName: ${env:DATABASE_URL}');
      const error = await read(file, { DATABASE_URL: 'postgres://secret@db/gatehouse' }).catch((e: unknown) => e);
      expect((error as BootstrapError).problems).to.deep.equal([
        'applications.1.displayName: ${env:DATABASE_URL} is not a variable a bootstrap file may read (their names start with GATEHOUSE_ and hold capitals, digits and _)',
        'applications.1.redirectUris.1: the environment variable GATEHOUSE_CRM_CALLBACK is not set',
      ]);
    });
  });
});
