import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { Browser } from './support/browser.js';
import { PKCE, PKCE_VERIFIER, accessTokenAfter, startServerWithMail } from './support/flows.js';
import type { TestServer } from './support/server.js';
import type { MailCatcher } from './support/smtp.js';

const PASSWORD = 'Correct-Horse-42!';
const BOOTSTRAP = `
areas:
  - { name: Default, default: true }
  - { name: Customers }
tenants:
  - { title: Beta Corp, area: Customers }
  - { title: Acme, area: Customers }
  - { title: Acme Iberia, area: Customers, parent: Acme }
  - { title: Beta Labs, area: Customers, parent: Beta Corp }
  - { title: Zeta, area: Customers }
  - { title: Secret Co, area: Customers }
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }, { name: IdentityConsultant }] }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'] }
  - { id: crm, name: crm, displayName: CRM, type: public, firstParty: true, redirectUris: ['\${url}/crm/callback'], roles: [{ name: Agent }, { name: Viewer }, { name: Auditor }] }
users:
  - userName: nina@example.com
    email: Nina.Ng@Example.com
    firstName: Nina
    lastName: Ng
    area: Customers
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: Acme, application: '1', roles: [User] }
      - { tenant: Beta Corp, application: '1', roles: [IdentityConsultant], inheritable: false }
      - { tenant: Acme, application: crm, roles: [Viewer] }
      - { tenant: Acme Iberia, application: crm, roles: [Agent] }
      - { tenant: Global, application: crm, roles: [Auditor] }
  - userName: omar@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Zeta, application: '1', roles: [User] }]
  - { userName: paul@example.com, firstName: Paul, lastName: Roy, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: rita@example.com, firstName: Rita, lastName: Sousa, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: lena@example.com, firstName: Lena, lastName: Berg, area: Default, language: fr, password: '${PASSWORD}' }
  - userName: sara@example.com
    area: Default
    language: fr
    password: '${PASSWORD}'
    memberships: [{ tenant: Secret Co, application: '1', roles: [User] }]
`;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

interface Tokens {
  access_token: string;
  id_token: string;
}

/** Signs `userName` in to `client` with `scope` and redeems the code. */
async function signIn(server: TestServer, userName: string, client = 'spa', scope = 'openid'): Promise<Tokens> {
  const browser = new Browser(server.url);
  const redirectUri = `${server.url}/${client}/callback`;
  await browser.get(`/oidc/auth?${new URLSearchParams({ client_id: client, response_type: 'code', scope, redirect_uri: redirectUri, ...PKCE })}`);
  await browser.get('/api/v1/config');
  const login = await browser.postJson('/api/v1/account/login', { userName, password: PASSWORD });
  const { redirectTo } = (await login.json()) as { redirectTo: string };
  if (client === 'spa') return { access_token: await accessTokenAfter(server, browser, redirectTo), id_token: '' };
  const { url } = await browser.follow(redirectTo);
  const res = await fetch(`${server.url}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: new URL(url).searchParams.get('code')!,
      client_id: client,
      redirect_uri: redirectUri,
      code_verifier: PKCE_VERIFIER,
    }),
  });
  return (await res.json()) as Tokens;
}

describe('profile API: /api/v1/profile, its companies and the current_company claim', function () {
  this.timeout(120_000);
  let server: TestServer;
  let smtp: MailCatcher;
  let stop: () => Promise<void>;
  const tokens = new Map<string, string>();

  before(async () => {
    ({ server, smtp, stop } = await startServerWithMail(BOOTSTRAP));
  });
  after(() => stop?.());

  /** The portal's access token of `userName` (one sign-in per user for the suite). */
  async function tokenOf(userName: string): Promise<string> {
    if (!tokens.has(userName)) tokens.set(userName, (await signIn(server, userName)).access_token);
    return tokens.get(userName)!;
  }

  async function call(method: string, path: string, token: string | undefined, json?: unknown, language = 'en'): Promise<Answer> {
    const res = await fetch(`${server.url}/api/v1/profile${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', 'accept-language': language },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  const as = async (userName: string, method: string, path: string, json?: unknown, language?: string) =>
    call(method, path, await tokenOf(userName), json, language);

  const idOf = async (title: string): Promise<string> => {
    const [row] = await server.server.context.dataSource.query('SELECT id FROM tenants WHERE title = $1', [title]);
    return row.id as string;
  };

  describe('GET /api/v1/profile', () => {
    it("answers the signed-in user's profile, picture address, identity roles and companies", async () => {
      const { status, body } = await as('nina@example.com', 'GET', '');

      expect(status).to.equal(200);
      const hash = createHash('sha256').update('nina.ng@example.com').digest('hex');
      expect(body).to.deep.include({
        userName: 'nina@example.com',
        email: 'Nina.Ng@Example.com',
        firstName: 'Nina',
        lastName: 'Ng',
        language: 'en',
        areaName: 'Customers',
        avatarUrl: `/api/v1/avatar/${hash}?size=180`,
        currentCompany: null,
        companyCount: 3,
      });
      expect(body.roles).to.deep.equal(['IdentityConsultant', 'User']);
      expect(body).to.not.have.any.keys('password_hash', 'passwordHash', 'totp_secret_encrypted');
    });

    it('refuses a call without a token, and a token issued to another application', async () => {
      expect((await call('GET', '', undefined)).status).to.equal(401);
      const crm = await signIn(server, 'paul@example.com', 'crm', 'openid');
      expect((await call('GET', '', crm.access_token)).status).to.equal(401);
      expect((await call('PUT', '', crm.access_token, { firstName: 'X', lastName: 'Y', language: 'de' })).status).to.equal(401);
      expect((await call('GET', '/tenants', crm.access_token)).status).to.equal(401);
    });
  });

  describe('PUT /api/v1/profile', () => {
    it('stores the names (trimmed) and the language, and answers the updated profile', async () => {
      const { status, body } = await as('paul@example.com', 'PUT', '', { firstName: '  Pablo ', lastName: 'Rey', language: 'es' });

      expect(status).to.equal(200);
      expect(body).to.deep.include({ userName: 'paul@example.com', firstName: 'Pablo', lastName: 'Rey', language: 'es' });
      expect((await as('paul@example.com', 'GET', '')).body).to.deep.include({ firstName: 'Pablo', lastName: 'Rey', language: 'es' });
    });

    it('refuses each missing or blank field with the spec message, in the caller\u2019s language', async () => {
      const missing = await as('rita@example.com', 'PUT', '', {});
      expect(missing.status).to.equal(400);
      expect(missing.body.errors).to.deep.equal([
        { field: 'firstName', code: 'users.first_name_required', message: 'Please input your first name!' },
        { field: 'lastName', code: 'users.last_name_required', message: 'Please input your last name!' },
        { field: 'language', code: 'users.language_required', message: 'Please select your preferred language!' },
      ]);

      const blank = await as('rita@example.com', 'PUT', '', { firstName: ' ', lastName: 'Sousa', language: 'en' }, 'fr');
      expect(blank.status).to.equal(400);
      expect(blank.body.errors).to.deep.equal([{ field: 'firstName', code: 'users.first_name_required', message: 'Veuillez saisir votre prénom !' }]);

      for (const [field, body] of [
        ['lastName', { firstName: 'Rita', lastName: '', language: 'en' }],
        ['language', { firstName: 'Rita', lastName: 'Sousa', language: '' }],
      ] as const) {
        const answer = await as('rita@example.com', 'PUT', '', body);
        expect(answer.status, field).to.equal(400);
        expect((answer.body.errors as Array<{ field: string }>).map((e) => e.field), field).to.deep.equal([field]);
      }
      expect((await as('rita@example.com', 'GET', '')).body).to.deep.include({ firstName: 'Rita', lastName: 'Sousa', language: 'en' });
    });

    it('refuses an unknown language, names longer than 100 characters and any read-only field, changing nothing', async () => {
      const language = await as('rita@example.com', 'PUT', '', { firstName: 'Rita', lastName: 'Sousa', language: 'xx' });
      expect(language.status).to.equal(400);
      expect(language.body.errors).to.deep.equal([
        { field: 'language', code: 'users.language_invalid', message: 'Invalid preferred language' },
      ]);

      const long = await as('rita@example.com', 'PUT', '', { firstName: 'R'.repeat(101), lastName: 'Sousa', language: 'en' });
      expect(long.status).to.equal(400);
      expect(long.body.errors).to.deep.equal([{ field: 'firstName', code: 'validation.too_long', message: 'firstName must have at most 100 characters' }]);

      for (const field of ['email', 'userName']) {
        const readOnly = await as('rita@example.com', 'PUT', '', { firstName: 'Rita', lastName: 'Sousa', language: 'de', [field]: 'mallory@example.com' });
        expect(readOnly.status, field).to.equal(400);
        expect(readOnly.body.errors, field).to.deep.equal([{ field, code: 'validation.unknown_field', message: `${field} is not a known field` }]);
      }
      expect((await as('rita@example.com', 'GET', '')).body).to.deep.include({ userName: 'rita@example.com', email: 'rita@example.com', language: 'en' });
    });

    it('makes the new language the language of the mails sent afterwards', async () => {
      expect((await as('omar@example.com', 'PUT', '', { firstName: 'Omar', lastName: 'Haddad', language: 'de' })).status).to.equal(200);
      const since = smtp.mails.length;

      const reset = await as('omar@example.com', 'GET', '/resetPassword/omar@example.com');

      expect(reset.status).to.equal(200);
      const mail = await smtp.next('omar@example.com', since);
      expect(mail.subject).to.equal('Setzen Sie Ihr Passwort zurück');
    });

    it('puts the new names in the tokens issued afterwards', async () => {
      await as('rita@example.com', 'PUT', '', { firstName: 'Margarida', lastName: 'Sousa', language: 'pt-PT' });

      const { id_token } = await signIn(server, 'rita@example.com', 'crm', 'openid profile');

      expect(decodeJwt(id_token)).to.include({ given_name: 'Margarida', family_name: 'Sousa', name: 'Margarida Sousa', locale: 'pt-PT' });
    });

    it('marks the language as chosen (locale_chosen) only once the person changes it, so the SPAs switch to it at sign-in on any device', async () => {
      const claims = async () => decodeJwt((await signIn(server, 'lena@example.com', 'crm', 'openid profile')).id_token);

      // The language the account was given: the tokens say it, not that she chose it.
      expect(await claims()).to.include({ locale: 'fr' }).and.not.have.property('locale_chosen');
      // Saving her names with that same language is no choice of language.
      expect((await as('lena@example.com', 'PUT', '', { firstName: 'Lena', lastName: 'Berg-Holm', language: 'fr' })).status).to.equal(200);
      expect(await claims()).to.include({ family_name: 'Berg-Holm', locale: 'fr' }).and.not.have.property('locale_chosen');

      expect((await as('lena@example.com', 'PUT', '', { firstName: 'Lena', lastName: 'Berg-Holm', language: 'de' })).status).to.equal(200);
      expect(await claims()).to.include({ locale: 'de', locale_chosen: true });
      // Once hers, it stays hers, back to French included.
      expect((await as('lena@example.com', 'PUT', '', { firstName: 'Lena', lastName: 'Berg-Holm', language: 'fr' })).status).to.equal(200);
      expect(await claims()).to.include({ locale: 'fr', locale_chosen: true });
    });
  });

  describe('GET /api/v1/profile/tenants', () => {
    it("lists the user's companies by title: own memberships and the tenants below an inheritable one, never another's", async () => {
      const { status, body } = await as('nina@example.com', 'GET', '/tenants');

      expect(status).to.equal(200);
      const titles = (body.items as Array<{ title: string }>).map((item) => item.title);
      // Beta Labs is below Beta Corp, whose membership is not inheritable.
      expect(titles).to.deep.equal(['Acme', 'Acme Iberia', 'Beta Corp']);
      expect(body.count).to.equal(3);
      expect(body.items).to.deep.include({ id: await idOf('Acme'), title: 'Acme' });
    });

    it('searches the title and pages with skip and take, keeping the total', async () => {
      const search = await as('nina@example.com', 'GET', '/tenants?searchQuery=acme');
      expect((search.body.items as Array<{ title: string }>).map((item) => item.title)).to.deep.equal(['Acme', 'Acme Iberia']);
      expect(search.body.count).to.equal(2);

      const page = await as('nina@example.com', 'GET', '/tenants?skip=1&take=1');
      expect(page.body).to.deep.equal({ items: [{ id: await idOf('Acme Iberia'), title: 'Acme Iberia' }], count: 3 });

      const beyond = await as('nina@example.com', 'GET', '/tenants?skip=10');
      expect(beyond.body).to.deep.equal({ items: [], count: 3 });

      const literal = await as('nina@example.com', 'GET', '/tenants?searchQuery=%25');
      expect(literal.body).to.deep.equal({ items: [], count: 0 });

      expect((await as('nina@example.com', 'GET', '/tenants?take=0')).status).to.equal(400);
    });

    it('counts the tenants a group of the user belongs to', async () => {
      const db = server.server.context.dataSource;
      const [area] = await db.query(`SELECT id FROM areas WHERE name = 'Default'`);
      const [group] = await db.query(`INSERT INTO groups (name, area_id) VALUES ('Auditors', $1) RETURNING id`, [area.id]);
      const [paul] = await db.query(`SELECT id FROM users WHERE normalized_user_name = 'paul@example.com'`);
      await db.query('INSERT INTO group_members (group_id, user_id) VALUES ($1, $2)', [group.id, paul.id]);
      await db.query(`INSERT INTO tenant_members (tenant_id, identity_type, group_id) VALUES ($1, 'Group', $2)`, [await idOf('Beta Labs'), group.id]);

      const { body } = await as('paul@example.com', 'GET', '/tenants');

      expect(body).to.deep.equal({ items: [{ id: await idOf('Beta Labs'), title: 'Beta Labs' }], count: 1 });
    });
  });

  describe('PUT /api/v1/profile/currentCompany and the current_company claim', () => {
    it("keeps the user's choice among their companies and answers it", async () => {
      const acmeIberia = await idOf('Acme Iberia');

      const { status, body } = await as('nina@example.com', 'PUT', '/currentCompany', { tenantId: acmeIberia.toUpperCase() });

      expect(status).to.equal(200);
      expect(body).to.deep.equal({ id: acmeIberia, title: 'Acme Iberia' });
      expect((await as('nina@example.com', 'GET', '')).body.currentCompany).to.deep.equal({ id: acmeIberia, title: 'Acme Iberia' });
    });

    it("refuses another user's tenant, a tenant below a non-inheritable membership and an unknown one alike, keeping the choice", async () => {
      await as('nina@example.com', 'PUT', '/currentCompany', { tenantId: await idOf('Acme') });
      for (const tenantId of [await idOf('Secret Co'), await idOf('Beta Labs'), '3f0d7a4e-8b1c-4d2e-9f3a-1b2c3d4e5f60']) {
        const { status, body } = await as('nina@example.com', 'PUT', '/currentCompany', { tenantId });
        expect(status, tenantId).to.equal(404);
        expect(body).to.include({ code: 'users.tenant_not_found', message: 'Tenant not found' });
      }
      const malformed = await as('nina@example.com', 'PUT', '/currentCompany', { tenantId: 'acme' });
      expect(malformed.status).to.equal(400);
      expect((await as('nina@example.com', 'GET', '')).body.currentCompany).to.deep.equal({ id: await idOf('Acme'), title: 'Acme' });
    });

    it('sends the current company to an application only when it asks for the company scope', async () => {
      await as('nina@example.com', 'PUT', '/currentCompany', { tenantId: await idOf('Beta Corp') });
      // Nina holds no CRM role in Beta Corp itself: only the global one applies there.
      const expected = { id: await idOf('Beta Corp'), title: 'Beta Corp', roles: ['Auditor'] };

      const withScope = await signIn(server, 'nina@example.com', 'crm', 'openid profile company');
      expect(decodeJwt(withScope.id_token).current_company).to.deep.equal(expected);
      const userinfo = await fetch(`${server.url}/oidc/me`, { headers: { authorization: `Bearer ${withScope.access_token}` } });
      expect(((await userinfo.json()) as Record<string, unknown>).current_company).to.deep.equal(expected);

      const withoutScope = await signIn(server, 'nina@example.com', 'crm', 'openid profile');
      expect(decodeJwt(withoutScope.id_token)).to.not.have.property('current_company');
      const plainUserinfo = await fetch(`${server.url}/oidc/me`, { headers: { authorization: `Bearer ${withoutScope.access_token}` } });
      expect((await plainUserinfo.json()) as Record<string, unknown>).to.not.have.property('current_company');
    });

    it("names the user's roles in the company for the requesting application: own, inherited from a parent and global", async () => {
      await as('nina@example.com', 'PUT', '/currentCompany', { tenantId: await idOf('Acme Iberia') });
      const inIberia = await signIn(server, 'nina@example.com', 'crm', 'openid company roles');
      expect(decodeJwt(inIberia.id_token).current_company).to.deep.equal({ id: await idOf('Acme Iberia'), title: 'Acme Iberia', roles: ['Agent', 'Auditor', 'Viewer'] });
      // The roles claim names every CRM role held anywhere; the company's are those that apply there.
      expect(decodeJwt(inIberia.id_token).roles).to.deep.equal(['Agent', 'Auditor', 'Viewer']);

      await as('nina@example.com', 'PUT', '/currentCompany', { tenantId: await idOf('Acme') });
      const inAcme = await signIn(server, 'nina@example.com', 'crm', 'openid company');
      expect(decodeJwt(inAcme.id_token).current_company).to.deep.equal({ id: await idOf('Acme'), title: 'Acme', roles: ['Auditor', 'Viewer'] });
    });

    it('takes the only company of a user who never chose, and sends none for a user without a company', async () => {
      expect((await as('omar@example.com', 'GET', '')).body).to.deep.include({ companyCount: 1, currentCompany: { id: await idOf('Zeta'), title: 'Zeta' } });
      const omar = await signIn(server, 'omar@example.com', 'crm', 'openid company');
      expect(decodeJwt(omar.id_token).current_company).to.deep.equal({ id: await idOf('Zeta'), title: 'Zeta', roles: [] });

      expect((await as('rita@example.com', 'GET', '')).body).to.deep.include({ companyCount: 0, currentCompany: null });
      const rita = await signIn(server, 'rita@example.com', 'crm', 'openid company');
      expect(decodeJwt(rita.id_token)).to.not.have.property('current_company');
    });

    it('forgets a choice once the user no longer belongs to that company', async () => {
      const db = server.server.context.dataSource;
      await as('sara@example.com', 'PUT', '/currentCompany', { tenantId: await idOf('Secret Co') });
      await db.query(`DELETE FROM tenant_members WHERE user_id = (SELECT id FROM users WHERE normalized_user_name = 'sara@example.com')`);

      expect((await as('sara@example.com', 'GET', '')).body).to.deep.include({ companyCount: 0, currentCompany: null });
      const sara = await signIn(server, 'sara@example.com', 'crm', 'openid company');
      expect(decodeJwt(sara.id_token)).to.not.have.property('current_company');
    });
  });
});
