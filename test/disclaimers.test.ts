import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { Browser } from './support/browser.js';
import { PKCE, PKCE_VERIFIER } from './support/flows.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const USERS = ['nina', 'omar', 'pia', 'quinn', 'otto'] as const;
type UserName = (typeof USERS)[number];

// `spa` plays the portal; `crm` and `partner` are relying applications that are not first-party.
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
tenants: [{ title: Shop, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${url}/spa/callback'] }
  - id: admin-console
    name: admin-console
    displayName: Administration console
    type: public
    firstParty: true
    hideInUserList: true
    redirectUris: ['\${url}/admin-console/callback']
    disclaimer: { en: 'Administrators keep what they see confidential.', fr: 'Les administrateurs gardent confidentiel ce qu’ils voient.' }
  - id: crm
    name: crm
    displayName: CRM
    type: public
    privateUrl: https://crm.example.com
    icon: 'data:image/png;base64,${PNG}'
    redirectUris: ['\${url}/crm/callback']
    roles: [{ name: Sales }]
    disclaimer: { en: 'Use the CRM for company business only.', fr: 'Utilisez le CRM pour les affaires de la société uniquement.' }
  - { id: wiki, name: wiki, displayName: Wiki, type: public, roles: [{ name: Reader }], disclaimer: { fr: 'Conditions du wiki.' } }
  - { id: docs, name: docs, displayName: Docs, type: public, roles: [{ name: Reader }], disclaimer: { en: 'Documents stay inside.' } }
  - { id: hr, name: hr, displayName: HR, type: public, roles: [{ name: Employee }], disclaimer: { en: 'HR terms, first edition.' } }
  - { id: erp, name: erp, displayName: ERP, type: public, roles: [{ name: Buyer }], disclaimer: { en: 'ERP terms.' } }
  - { id: mail, name: mail, displayName: Mail, type: public, roles: [{ name: User }] }
  - { id: partner, name: partner, displayName: Partner portal, type: public, redirectUris: ['\${url}/partner/callback'] }
users:
${USERS.filter((name) => name !== 'otto')
  .map(
    (name) => `  - userName: ${name}@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: Shop, application: crm, roles: [Sales] }
      - { tenant: Shop, application: wiki, roles: [Reader] }
      - { tenant: Shop, application: docs, roles: [Reader] }
      - { tenant: Shop, application: hr, roles: [Employee] }
      - { tenant: Shop, application: mail, roles: [User] }`,
  )
  .join('\n')}
  - userName: otto@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Global, application: '1', roles: [Administrator] }]
`;

interface Item {
  appInfoId: string;
  appName: string;
  displayAppName: string;
  privateUrl: string | null;
  icon: string | null;
  version: number;
  text: string;
  textLanguage: string | null;
  languages: string[];
  accepted: boolean;
  onAcceptedDate: string | null;
}

interface Gate {
  accepted: boolean;
  onAcceptedDate: string | null;
  version: number | null;
  text: string | null;
  textLanguage: string | null;
  languages: string[];
}

describe('disclaimers API', function () {
  this.timeout(120_000);
  let server: TestServer;
  const ids = {} as Record<UserName, string>;

  /**
   * Signs `user` in to `client` and redeems the code: the user's access token for that client
   * (the console's is its admin-API JWT). A client that is not first-party asks for consent first.
   */
  async function tokenFor(user: UserName, client: string): Promise<string> {
    const browser = new Browser(server.url);
    const redirectUri = `${server.url}/${client}/callback`;
    const scope = client === 'admin-console' ? 'openid admin' : 'openid';
    await browser.get(`/oidc/auth?${new URLSearchParams({ client_id: client, response_type: 'code', scope, redirect_uri: redirectUri, ...PKCE })}`);
    await browser.get('/api/v1/config');
    const login = await browser.postJson('/api/v1/account/login', { userName: `${user}@example.com`, password: PASSWORD });
    let landed = new URL((await browser.follow(((await login.json()) as { redirectTo: string }).redirectTo)).url);
    if (landed.pathname === '/account/login') {
      const { uid } = (await (await browser.get('/api/v1/account/interaction')).json()) as { uid: string };
      const consent = await browser.postJson('/api/v1/account/consent', { approve: true, interaction: uid });
      landed = new URL((await browser.follow(((await consent.json()) as { redirectTo: string }).redirectTo)).url);
    }
    const res = await fetch(`${server.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: landed.searchParams.get('code')!, client_id: client, redirect_uri: redirectUri, code_verifier: PKCE_VERIFIER }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  }

  function call(method: string, path: string, token?: string, options: { json?: unknown; language?: string } = {}) {
    const headers: Record<string, string> = { 'accept-language': options.language ?? 'en' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${server.url}${path}`, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
  }

  async function list(token: string, query = ''): Promise<{ items: Item[]; count: number }> {
    const res = await call('GET', `/api/v1/profile/disclaimers${query}`, token);
    expect(res.status).to.equal(200);
    return (await res.json()) as { items: Item[]; count: number };
  }

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP, overrides: { 'oidc.portalClientId': 'spa' } });
    for (const name of USERS) {
      const [row] = await server.server.context.dataSource.query('SELECT id FROM users WHERE normalized_user_name = $1', [`${name}@example.com`]);
      ids[name] = row.id;
    }
  });
  after(() => server?.stop());

  describe('GET /api/v1/profile/disclaimers and PUT /api/v1/profile/disclaimer/{id}', () => {
    it('lists the disclaimers of the applications the user may open, with the text in the caller’s language', async () => {
      const token = await tokenFor('nina', 'spa');
      const { items, count } = await list(token, '?skip=0&take=9999');

      expect(items.map((item) => item.appInfoId), 'ERP (no role), Mail (no disclaimer) and the console (not an administrator) are left out').to.deep.equal(['crm', 'docs', 'hr', 'wiki']);
      expect(count).to.equal(4);
      expect(items[0]).to.deep.equal({
        appInfoId: 'crm',
        appName: 'crm',
        displayAppName: 'CRM',
        privateUrl: 'https://crm.example.com',
        icon: '/api/v1/applications/icon/crm',
        version: 1,
        text: 'Use the CRM for company business only.',
        textLanguage: 'en',
        languages: ['en', 'fr'],
        accepted: false,
        onAcceptedDate: null,
      });
      expect(items[3], 'a text only written in French is shown in French, and says so').to.deep.include({
        icon: null,
        privateUrl: null,
        text: 'Conditions du wiki.',
        textLanguage: 'fr',
        languages: ['fr'],
      });
      const french = (await (await call('GET', '/api/v1/profile/disclaimers', token, { language: 'fr' })).json()) as { items: Item[] };
      expect(french.items[0]).to.include({ text: 'Utilisez le CRM pour les affaires de la société uniquement.', textLanguage: 'fr' });
      // A reader of a language the text is not written in gets the English one, named as such.
      const german = (await (await call('GET', '/api/v1/profile/disclaimers', token, { language: 'de' })).json()) as { items: Item[] };
      expect(german.items[0]).to.include({ text: 'Use the CRM for company business only.', textLanguage: 'en' });
    });

    it('orders accepted disclaimers first, by acceptance date ascending, and pages with skip and take', async () => {
      const token = await tokenFor('omar', 'spa');
      for (const app of ['wiki', 'crm']) expect((await call('PUT', `/api/v1/profile/disclaimer/${app}`, token)).status, app).to.equal(200);

      const { items } = await list(token);
      expect(items.map((item) => [item.appInfoId, item.accepted])).to.deep.equal([
        ['wiki', true],
        ['crm', true],
        ['docs', false],
        ['hr', false],
      ]);
      expect(new Date(items[0]!.onAcceptedDate!).getTime()).to.be.lessThan(new Date(items[1]!.onAcceptedDate!).getTime());
      const page = await list(token, '?skip=1&take=2');
      expect(page.items.map((item) => item.appInfoId)).to.deep.equal(['crm', 'docs']);
      expect(page.count).to.equal(4);
      expect((await call('GET', '/api/v1/profile/disclaimers?take=10000', token)).status, 'at most 9999').to.equal(400);
    });

    it('accepts the latest version once: a second acceptance keeps the first date', async () => {
      const token = await tokenFor('pia', 'spa');
      const first = await call('PUT', '/api/v1/profile/disclaimer/docs', token, { json: { version: 1 } });
      expect(first.status).to.equal(200);
      const accepted = (await first.json()) as Item;
      expect(accepted).to.include({ appInfoId: 'docs', accepted: true, version: 1 });
      expect(Date.now() - new Date(accepted.onAcceptedDate!).getTime()).to.be.within(0, 60_000);

      const again = (await (await call('PUT', '/api/v1/profile/disclaimer/docs', token)).json()) as Item;
      expect(again.onAcceptedDate).to.equal(accepted.onAcceptedDate);
      const [{ count }] = await server.server.context.dataSource.query('SELECT count(*)::int AS count FROM disclaimer_acceptances WHERE user_id = $1', [ids.pia]);
      expect(count).to.equal(1);
    });

    it('asks for a new acceptance when a new version is published, and refuses to accept a version the user did not read', async () => {
      const token = await tokenFor('quinn', 'spa');
      expect((await call('PUT', '/api/v1/profile/disclaimer/hr', token)).status).to.equal(200);
      await server.server.context.dataSource.query(`INSERT INTO disclaimers (application_id, version, content) VALUES ('hr', 2, $1)`, [
        JSON.stringify({ en: 'HR terms, second edition.' }),
      ]);

      const hr = (await list(token)).items.find((item) => item.appInfoId === 'hr')!;
      expect(hr).to.include({ version: 2, text: 'HR terms, second edition.', accepted: false, onAcceptedDate: null });
      const gate = (await (await call('GET', `/api/v1/profile/disclaimer/${ids.quinn}/hr`, token)).json()) as Gate;
      expect(gate).to.include({ accepted: false, version: 2 });

      const stale = await call('PUT', '/api/v1/profile/disclaimer/hr', token, { json: { version: 1 } });
      expect(stale.status).to.equal(409);
      expect(((await stale.json()) as { message: string }).message).to.equal(
        'This disclaimer has changed since it was shown. Read the new version before accepting it.',
      );
      const current = await call('PUT', '/api/v1/profile/disclaimer/hr', token, { json: { version: 2 } });
      expect(((await current.json()) as Item).accepted).to.equal(true);
    });

    it('answers 404 for an application without a disclaimer, one the user may not open, or an unknown one', async () => {
      const token = await tokenFor('nina', 'spa');
      for (const app of ['mail', 'erp', 'admin-console', 'no-such-app']) {
        const res = await call('PUT', `/api/v1/profile/disclaimer/${app}`, token);
        expect(res.status, app).to.equal(404);
        expect(((await res.json()) as { message: string }).message, app).to.equal('Not found');
      }
      expect((await call('PUT', '/api/v1/profile/disclaimer/crm', token, { json: { version: 'one' } })).status, 'a malformed version').to.equal(400);
    });

    it('lists the console’s disclaimer to administrators, and takes the portal’s token only', async () => {
      const otto = await tokenFor('otto', 'spa');
      expect((await list(otto)).items.map((item) => item.appInfoId)).to.deep.equal(['admin-console']);

      const crm = await tokenFor('nina', 'crm');
      expect((await call('GET', '/api/v1/profile/disclaimers', crm)).status, 'a relying application’s token').to.equal(401);
      expect((await call('PUT', '/api/v1/profile/disclaimer/crm', crm)).status).to.equal(401);
      expect((await call('GET', '/api/v1/profile/disclaimers')).status, 'no token').to.equal(401);
    });
  });

  describe('GET and POST /api/v1/profile/disclaimer/{userId}/{applicationName}', () => {
    it('tells the signed-in user whether they accepted, and records the acceptance from an empty POST', async () => {
      const token = await tokenFor('pia', 'spa');
      const path = `/api/v1/profile/disclaimer/${ids.pia}/crm`;
      expect(await (await call('GET', path, token)).json()).to.deep.equal({
        accepted: false,
        onAcceptedDate: null,
        version: 1,
        text: 'Use the CRM for company business only.',
        textLanguage: 'en',
        languages: ['en', 'fr'],
      });

      const posted = await call('POST', path, token);
      expect(posted.status).to.equal(200);
      const accepted = (await posted.json()) as Gate;
      expect(accepted).to.include({ accepted: true, version: 1 });
      expect(await (await call('GET', path, token)).json()).to.deep.equal(accepted);
      expect(((await (await call('POST', path, token)).json()) as Gate).onAcceptedDate, 'idempotent').to.equal(accepted.onAcceptedDate);
      expect((await list(token)).items.find((item) => item.appInfoId === 'crm')).to.include({ accepted: true });
    });

    it('answers accepted for an application without a disclaimer: nothing stops its users', async () => {
      const token = await tokenFor('pia', 'spa');
      expect(await (await call('GET', `/api/v1/profile/disclaimer/${ids.pia}/mail`, token)).json()).to.deep.equal({
        accepted: true,
        onAcceptedDate: null,
        version: null,
        text: null,
        textLanguage: null,
        languages: [],
      });
    });

    it('takes the token of the application named itself', async () => {
      const crm = await tokenFor('quinn', 'crm');
      const path = `/api/v1/profile/disclaimer/${ids.quinn}/crm`;
      expect(((await (await call('GET', path, crm)).json()) as Gate).accepted).to.equal(false);
      expect(((await (await call('POST', path, crm)).json()) as Gate).accepted).to.equal(true);
    });

    it('refuses another user’s id (403) and records nothing for them', async () => {
      const token = await tokenFor('pia', 'spa');
      const path = `/api/v1/profile/disclaimer/${ids.nina}/wiki`;
      expect((await call('GET', path, token)).status).to.equal(403);
      const posted = await call('POST', path, token);
      expect(posted.status).to.equal(403);
      expect(((await posted.json()) as { message: string }).message).to.equal('You do not have permission to perform this action');
      expect((await call('GET', `/api/v1/profile/disclaimer/not-a-user-id/wiki`, token)).status).to.equal(403);
      const rows = await server.server.context.dataSource.query(
        `SELECT 1 FROM disclaimer_acceptances da JOIN disclaimers d ON d.id = da.disclaimer_id WHERE da.user_id = $1 AND d.application_id = 'wiki'`,
        [ids.nina],
      );
      expect(rows).to.have.length(0);
    });

    it('refuses the token of an unrelated application (403), before saying whether the application exists', async () => {
      const partner = await tokenFor('quinn', 'partner');
      for (const app of ['wiki', 'no-such-app']) {
        expect((await call('GET', `/api/v1/profile/disclaimer/${ids.quinn}/${app}`, partner)).status, app).to.equal(403);
        expect((await call('POST', `/api/v1/profile/disclaimer/${ids.quinn}/${app}`, partner)).status, app).to.equal(403);
      }
      expect((await call('GET', `/api/v1/profile/disclaimer/${ids.quinn}/partner`, partner)).status, 'its own gate').to.equal(200);
      const crm = await tokenFor('quinn', 'crm');
      expect((await call('GET', `/api/v1/profile/disclaimer/${ids.quinn}/wiki`, crm)).status, 'another relying application').to.equal(403);
    });

    it('answers 404 for an unknown application, and 401 without a valid token', async () => {
      const token = await tokenFor('nina', 'spa');
      const unknown = await call('GET', `/api/v1/profile/disclaimer/${ids.nina}/no-such-app`, token);
      expect(unknown.status).to.equal(404);
      expect(((await unknown.json()) as { message: string }).message).to.equal('Application not found');
      expect((await call('POST', `/api/v1/profile/disclaimer/${ids.nina}/no-such-app`, token)).status).to.equal(404);
      for (const bad of [undefined, 'not-a-token', 'a.b.c']) {
        const res = await call('GET', `/api/v1/profile/disclaimer/${ids.nina}/crm`, bad);
        expect(res.status, String(bad)).to.equal(401);
        expect(res.headers.get('www-authenticate')).to.equal('Bearer error="invalid_token"');
      }
    });

    it('takes the admin console’s JWT for the console’s own gate, but not a forged one nor on the portal’s list', async () => {
      const console = await tokenFor('otto', 'admin-console');
      expect(decodeJwt(console).client_id, 'the console holds its admin-API JWT').to.equal('admin-console');
      const path = `/api/v1/profile/disclaimer/${ids.otto}/admin-console`;
      expect(await (await call('GET', path, console, { language: 'fr' })).json()).to.include({
        accepted: false,
        version: 1,
        text: 'Les administrateurs gardent confidentiel ce qu’ils voient.',
      });
      expect(((await (await call('POST', path, console)).json()) as Gate).accepted).to.equal(true);

      const [header, , signature] = console.split('.');
      const claims = { ...decodeJwt(console), sub: ids.nina };
      const forged = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
      expect((await call('GET', `/api/v1/profile/disclaimer/${ids.nina}/admin-console`, forged)).status, 'a changed payload').to.equal(401);
      expect((await call('GET', '/api/v1/profile/disclaimers', console)).status, 'the list is the portal’s').to.equal(401);
    });
  });
});
