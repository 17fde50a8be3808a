import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { Browser } from './support/browser.js';
import { PKCE, accessTokenAfter } from './support/flows.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
tenants:
  - { title: Acme, area: Default }
  - { title: Acme Spain, area: Default, parent: Acme }
  - { title: Team Place, area: Default }
  - { title: Bob Corp, area: Default }
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }] }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'] }
  - { id: crm, name: crm, displayName: Customer Relations, roles: [{ name: Editor }, { name: Viewer }, { name: Auditor }] }
  - { id: hr, name: hr, displayName: HR Secrets, roles: [{ name: Payroll }] }
users:
  - userName: alice@example.com
    firstName: Alice
    lastName: Liddell
    area: Default
    language: es
    password: '${PASSWORD}'
    memberships: [{ tenant: Acme, application: crm, roles: [Editor], inheritable: true }]
  - userName: bob@example.com
    firstName: Robert
    lastName: Hidden
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Bob Corp, application: hr, roles: [Payroll] }]
`;

/** Signs in with the password (with `userAgent`) and redeems the code: an access token of the portal. */
async function tokenFor(server: TestServer, userName: string, userAgent: string): Promise<string> {
  const browser = new Browser(server.url);
  const params = new URLSearchParams({ client_id: 'spa', response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/spa/callback`, ...PKCE });
  await browser.get(`/oidc/auth?${params}`);
  await browser.get('/api/v1/config');
  const res = await browser.postJson('/api/v1/account/login', { userName, password: PASSWORD }, { 'accept-language': 'en', 'user-agent': userAgent });
  const { redirectTo } = (await res.json()) as { redirectTo: string };
  return accessTokenAfter(server, browser, redirectTo);
}

async function download(server: TestServer, token: string, language?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (language) headers['accept-language'] = language;
  const res = await fetch(`${server.url}/api/v1/profile/myData`, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  const workbook = new ExcelJS.Workbook();
  if (res.ok) await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return { res, workbook, bytes };
}

/** The rows of a sheet, each as the text of its cells (dates as ISO strings). */
function rowsOf(workbook: ExcelJS.Workbook, sheetName: string): string[][] {
  const sheet = workbook.getWorksheet(sheetName);
  if (!sheet) throw new Error(`no sheet ${sheetName}: ${workbook.worksheets.map((s) => s.name).join(', ')}`);
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    const values = (row.values as unknown[]).slice(1);
    rows.push(values.map((value) => (value instanceof Date ? value.toISOString() : value === null || value === undefined ? '' : String(value))));
  });
  return rows;
}

/** Every cell's text in the workbook. */
const allText = (workbook: ExcelJS.Workbook) => workbook.worksheets.flatMap((sheet) => rowsOf(workbook, sheet.name).flat()).join('\n');

describe('GET /api/v1/profile/myData', function () {
  this.timeout(120_000);
  let server: TestServer;
  let alice: string;

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP, overrides: { 'oidc.portalClientId': 'spa' } });
    const db = server.server.context.dataSource;
    const [{ id: aliceId }] = await db.query(`SELECT id FROM users WHERE user_name = 'alice@example.com'`);
    const [{ id: bobId }] = await db.query(`SELECT id FROM users WHERE user_name = 'bob@example.com'`);
    const [{ id: areaId }] = await db.query(`SELECT id FROM areas WHERE name = 'Default'`);
    // Groups: one of Alice's (holding a role in Team Place), one of Bob's.
    const [{ id: aliceGroup }] = await db.query(`INSERT INTO groups (name, area_id) VALUES ('Alice Team', $1) RETURNING id`, [areaId]);
    const [{ id: bobGroup }] = await db.query(`INSERT INTO groups (name, area_id) VALUES ('Bob Secret Circle', $1) RETURNING id`, [areaId]);
    await db.query(`INSERT INTO group_members (group_id, user_id, permission) VALUES ($1, $2, 'Owner'), ($3, $4, 'Reader')`, [aliceGroup, aliceId, bobGroup, bobId]);
    const [{ id: member }] = await db.query(
      `INSERT INTO tenant_members (tenant_id, identity_type, group_id) SELECT id, 'Group', $1 FROM tenants WHERE title = 'Team Place' RETURNING id`,
      [aliceGroup],
    );
    await db.query(`INSERT INTO tenant_member_roles (tenant_member_id, role_id) SELECT $1, id FROM roles WHERE application_id = 'crm' AND name = 'Auditor'`, [member]);
    // Disclaimers: Alice accepted the CRM's, Bob the HR one's.
    const [{ id: crmTerms }] = await db.query(`INSERT INTO disclaimers (application_id, content) VALUES ('crm', '{"en":"CRM terms"}') RETURNING id`);
    const [{ id: hrTerms }] = await db.query(`INSERT INTO disclaimers (application_id, content) VALUES ('hr', '{"en":"HR terms"}') RETURNING id`);
    await db.query(`INSERT INTO disclaimer_acceptances (disclaimer_id, user_id, accepted_at) VALUES ($1, $2, '2025-03-04T05:06:07Z'), ($3, $4, now())`, [
      crmTerms,
      aliceId,
      hrTerms,
      bobId,
    ]);
    // Rights requests: Alice's own, and Bob's on behalf of someone else.
    await db.query(
      `INSERT INTO rights_requests (user_id, request_date, full_name, email, request_type, rights)
       VALUES ($1, '2025-01-15', 'Alice Liddell', 'alice@example.com', 'Direct', '{Access,Correction}'),
              ($2, '2025-02-20', 'Bobby Represented', 'bobby@example.com', 'Representative', '{Supression}')`,
      [aliceId, bobId],
    );
    // A sign-in older than the 90 days listed.
    await db.query(
      `INSERT INTO authentication_logs (date, user_id, user_name, result, user_agent) VALUES (now() - interval '120 days', $1, 'alice@example.com', 'Success', 'AncientAgent/0.1')`,
      [aliceId],
    );
    alice = await tokenFor(server, 'alice@example.com', 'AliceAgent/1.0');
    await tokenFor(server, 'bob@example.com', 'BobAgent/2.0');
  });
  after(() => server?.stop());

  it('downloads "My data.xlsx", never cached', async () => {
    const { res } = await download(server, alice, 'en');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).to.equal('attachment; filename="My data.xlsx"');
    expect(res.headers.get('cache-control')).to.equal('no-store');
  });

  it('holds the profile, memberships and roles, groups, disclaimers, recent sign-ins and rights requests of the caller', async () => {
    const { workbook } = await download(server, alice, 'en');
    expect(workbook.worksheets.map((sheet) => sheet.name)).to.deep.equal(['Profile', 'Memberships and roles', 'Groups', 'Disclaimers', 'Recent sign-ins', 'Rights requests']);

    const profile = rowsOf(workbook, 'Profile');
    expect(profile[0]).to.deep.equal(['Field', 'Value']);
    expect(profile).to.deep.include.members([['User name', 'alice@example.com'], ['E-mail', 'alice@example.com'], ['First name', 'Alice'], ['Last name', 'Liddell'], ['Preferred language', 'es'], ['Area', 'Default']]);

    expect(rowsOf(workbook, 'Memberships and roles')).to.deep.equal([
      ['Tenant', 'Application', 'Role', 'Granted'],
      ['Acme', 'Customer Relations', 'Editor', 'Directly'],
      ['Acme Spain', 'Customer Relations', 'Editor', 'Inherited'],
      ['Team Place', 'Customer Relations', 'Auditor', 'Directly'],
    ]);

    const groups = rowsOf(workbook, 'Groups');
    expect(groups.map((row) => row.slice(0, 2))).to.deep.equal([['Group', 'Permission'], ['Alice Team', 'Owner']]);
    expect(groups[0]![2]).to.equal('Member since (UTC)');

    expect(rowsOf(workbook, 'Disclaimers')).to.deep.equal([['Application', 'Accepted on (UTC)'], ['Customer Relations', '2025-03-04T05:06:07.000Z']]);

    const signIns = rowsOf(workbook, 'Recent sign-ins');
    expect(signIns[0]).to.deep.equal(['Date (UTC)', 'Result', 'Sign-in method', 'IP address', 'Browser']);
    expect(signIns.slice(1).some((row) => row[1] === 'Success' && row[2] === 'Password' && row[4] === 'AliceAgent/1.0')).to.equal(true);
    expect(signIns.some((row) => row.includes('AncientAgent/0.1')), 'older than 90 days').to.equal(false);

    expect(rowsOf(workbook, 'Rights requests')).to.deep.equal([
      ['Request date', 'Request type', 'Rights', 'Sent on (UTC)'],
      ['2025-01-15', 'Direct', 'Access, Correction', rowsOf(workbook, 'Rights requests')[1]![3]!],
    ]);
  });

  it('holds nothing about anyone else', async () => {
    const text = allText((await download(server, alice, 'en')).workbook);
    for (const other of ['bob@example.com', 'Robert', 'Hidden', 'Bob Corp', 'HR Secrets', 'Payroll', 'Bob Secret Circle', 'BobAgent', 'Bobby', 'Representative', 'Erasure']) {
      expect(text, other).to.not.contain(other);
    }
  });

  it('writes sheet names, headers and values in the caller’s language', async () => {
    const { res, workbook } = await download(server, alice, 'fr-FR,fr;q=0.9');
    expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="Mes donnees.xlsx"; filename*=UTF-8''Mes%20donn%C3%A9es.xlsx`);
    expect(workbook.worksheets.map((sheet) => sheet.name)).to.deep.equal(['Profil', 'Appartenances et rôles', 'Groupes', 'Avertissements', 'Connexions récentes', 'Demandes d’exercice de droits']);
    expect(rowsOf(workbook, 'Profil')[0]).to.deep.equal(['Champ', 'Valeur']);
    expect(rowsOf(workbook, 'Groupes')[1]!.slice(0, 2)).to.deep.equal(['Alice Team', 'Propriétaire']);
    expect(rowsOf(workbook, 'Demandes d’exercice de droits')[1]!.slice(1, 3)).to.deep.equal(['Directe', 'Accès, Rectification']);
  });

  it('uses the user’s preferred language when the call names none', async () => {
    const { res, workbook } = await download(server, alice);
    expect(res.headers.get('content-disposition')).to.equal('attachment; filename="Mis datos.xlsx"');
    expect(workbook.worksheets[0]!.name).to.equal('Perfil');
  });

  it('refuses a call without a valid portal token', async () => {
    const res = await fetch(`${server.url}/api/v1/profile/myData`, { headers: { authorization: 'Bearer forged' } });
    expect(res.status).to.equal(401);
    expect(((await res.json()) as { code: string }).code).to.equal('errors.unauthorized');
  });
});
