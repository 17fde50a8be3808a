import { expect } from 'chai';
import { accessTokenAfter, atLoginPage } from './support/flows.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const BOOTSTRAP = `
areas: [{ name: Default, default: true }, { name: Customers }]
tenants: [{ title: Shop, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, privateUrl: '\${url}/admin', roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: spa, name: spa, displayName: Browser app, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${url}/spa/callback'] }
  - { id: crm, name: crm, displayName: CRM, type: public, privateUrl: 'https://crm.example.com', roles: [{ name: Sales }], icon: 'data:image/png;base64,${PNG}' }
  - { id: wiki, name: wiki, displayName: Wiki, type: public, privateUrl: 'https://wiki.example.com', publicUrl: 'https://www.example.com/wiki', status: Maintenance }
  - { id: secret, name: secret, displayName: Secret tool, type: public, privateUrl: 'https://secret.example.com' }
  - { id: hidden, name: hidden, displayName: Hidden, type: public, hideInUserList: true, roles: [{ name: Any }] }
users:
  - userName: nina@example.com
    area: Default
    password: '${PASSWORD}'
    memberships: [{ tenant: Shop, application: crm, roles: [Sales] }, { tenant: Shop, application: hidden, roles: [Any] }]
  - userName: otto@example.com
    area: Default
    password: '${PASSWORD}'
    memberships: [{ tenant: Global, application: '1', roles: [Administrator] }]
`;

describe('home launcher API', function () {
  this.timeout(60_000);
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startTestServer({
      bootstrap: BOOTSTRAP,
      // The `spa` client the sign-in helpers use stands for the portal: only the portal's (and the
      // admin console's) tokens open the launcher calls.
      overrides: { 'portal.clientPortalAppId': 'crm', 'portal.helpdeskUrl': 'https://help.example.com/', 'oidc.portalClientId': 'spa' },
    });
    for (const name of ['nina', 'otto']) {
      const browser = await atLoginPage(server);
      const res = await browser.postJson('/api/v1/account/login', { userName: `${name}@example.com`, password: PASSWORD });
      tokens[name] = await accessTokenAfter(server, browser, ((await res.json()) as { redirectTo: string }).redirectTo);
      const [row] = await server.server.context.dataSource.query('SELECT id FROM users WHERE normalized_user_name = $1', [`${name}@example.com`]);
      ids[name] = row.id;
    }
  });
  after(() => server?.stop());

  const get = (path: string, user?: string) =>
    fetch(`${server.url}${path}`, { headers: user ? { authorization: `Bearer ${tokens[user]}`, 'accept-language': 'en' } : {} });

  it('lists the applications a user may open, and those with a public URL to ask for', async () => {
    const res = await get('/api/v1/admin/applications/homeInfo', 'nina');
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { applications: { items: Array<Record<string, unknown>>; count: number }; clientPortalAppId: unknown };
    expect(body.applications.items.map((a) => [a.id, a.hasAccess])).to.deep.equal([
      ['crm', true],
      ['wiki', false],
    ]);
    expect(body.applications.items[1]).to.include({ title: 'Wiki', publicUrl: 'https://www.example.com/wiki', status: 'Maintenance', isUserFavorite: false });
    expect(body.applications.count).to.equal(2);
    expect(body.clientPortalAppId, 'from CLIENT_PORTAL_APP_ID').to.equal('crm');
  });

  it('lists the Identity application to Administrators only', async () => {
    const body = (await (await get('/api/v1/admin/applications/homeInfo', 'otto')).json()) as { applications: { items: Array<{ id: string; hasAccess: boolean }> } };
    expect(body.applications.items.find((a) => a.id === '1')).to.deep.include({ hasAccess: true });
  });

  it('answers 401 without a token, and refuses a portal token on administration endpoints', async () => {
    expect((await get('/api/v1/admin/applications/homeInfo')).status).to.equal(401);
    const tenants = await fetch(`${server.url}/api/v1/admin/tenants/twoModeAuth/00000000-0000-0000-0000-000000000000`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.otto}`, 'content-type': 'application/json' },
      body: JSON.stringify({ enable: true }),
    });
    expect(tenants.status, 'even an Administrator needs the console token').to.equal(403);
  });

  it('serves icons with their content type and caching, and a default one', async () => {
    const png = await get('/api/v1/applications/icon/crm');
    expect(png.status).to.equal(200);
    expect(png.headers.get('content-type')).to.equal('image/png');
    expect(png.headers.get('cache-control')).to.equal('public, max-age=3600');
    expect(Buffer.from(await png.arrayBuffer()).toString('base64')).to.equal(PNG);
    const fallback = await get('/api/v1/applications/icon/wiki');
    expect(fallback.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(await fallback.text()).to.contain('<svg');
    const admin = await get('/api/v1/admin/applications/icon/crm', 'nina');
    expect(admin.headers.get('content-type')).to.equal('image/png');
  });

  it('gives the portal its configured links with the start-up configuration', async () => {
    const config = (await (await get('/api/v1/config')).json()) as { links: Record<string, string | undefined> };
    expect(config.links).to.deep.equal({ helpdesk: 'https://help.example.com/' });
  });

  it('tells an application status as text', async () => {
    const res = await get('/api/v1/applications/status/wiki');
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    expect(await res.text()).to.equal('Maintenance');
    expect((await get('/api/v1/applications/status/no-such-app')).status).to.equal(404);
  });

  it('lists a user applications to themself and to Administrators only', async () => {
    const own = await get(`/api/v1/applications/info/${ids.nina}`, 'nina');
    expect(((await own.json()) as { items: Array<{ id: string }> }).items.map((a) => a.id)).to.deep.equal(['crm']);
    expect((await get(`/api/v1/applications/info/${ids.nina}`, 'otto')).status).to.equal(200);
    expect((await get(`/api/v1/applications/info/${ids.otto}`, 'nina')).status).to.equal(403);
    expect((await get(`/api/v1/applications/info/${ids.nina}`)).status).to.equal(401);
  });
});
