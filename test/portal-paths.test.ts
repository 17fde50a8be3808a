import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as adminApi from '@gatehouse/admin-api';
import * as idp from '@gatehouse/idp';
import { expect } from 'chai';
import request from 'supertest';
import { Browser } from './support/browser.js';
import { PKCE } from './support/flows.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }] }
  - { id: portal, name: portal, displayName: Portal, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${url}/auth/callback'], postLogoutRedirectUris: ['\${url}/'] }
users:
  - { userName: nora@example.com, area: Default, language: en, password: '${PASSWORD}' }
`;

/** A build folder whose shell is recognisable, so a test can tell the SPA shell from anything else. */
function fakeBuild(name: string): string {
  const dist = mkdtempSync(path.join(tmpdir(), `gatehouse-${name}-`));
  writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html lang="fr"><head><title>${name}</title></head><body><div id="root"></div></body></html>`);
  return dist;
}

function directive(policy: string | undefined, name: string): string[] | undefined {
  const found = (policy ?? '').split(';').map((part) => part.trim().split(/\s+/)).find(([key]) => key === name);
  return found?.slice(1);
}

describe('portal paths and the silent sign-in callback', function () {
  this.timeout(90_000);
  let server: TestServer;
  let portal: ReturnType<Awaited<ReturnType<typeof idp.createApp>>['callback']>;
  let adminConsole: ReturnType<ReturnType<typeof adminApi.createApp>['callback']>;
  let closeIdp: () => Promise<void>;

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP });
    const idpApp = await idp.createApp(server.server.context, { portalDist: fakeBuild('portal') });
    closeIdp = () => idpApp.close();
    portal = idpApp.callback();
    adminConsole = adminApi.createApp(server.server.context, { adminDist: fakeBuild('admin') }).callback();
  });
  after(async () => {
    await closeIdp?.();
    await server?.stop();
  });

  it('answers the portal routes 200 and any other path, /home included, 404 with the SPA shell', async () => {
    for (const route of ['/', '/account/login', '/profile', '/auth/callback', '/rights', '/rigths', '/disclaimers', '/clients', '/service-manager', '/home/companies/select']) {
      const res = await request(portal).get(route);
      expect(res.status, route).to.equal(200);
      expect(res.text, route).to.contain('<div id="root">');
    }
    for (const route of ['/home', '/home/', '/home/companies', '/home/companies/select/more', '/no/such/page', '/rights/more', '/disclaimer', '/service-managers']) {
      const res = await request(portal).get(route);
      expect(res.status, route).to.equal(404);
      expect(res.type, route).to.equal('text/html');
      expect(res.text, route).to.contain('<div id="root">');
    }
  });

  it('lets the callbacks be framed by this site only, and every other page by no one', async () => {
    const framable = { portal: await request(portal).get('/auth/callback?code=c&state=s'), admin: await request(adminConsole).get('/admin/auth/callback') };
    for (const [name, res] of Object.entries(framable)) {
      expect(res.status, name).to.equal(200);
      expect(res.headers['x-frame-options'], name).to.equal('SAMEORIGIN');
      expect(directive(res.headers['content-security-policy'], 'frame-ancestors'), name).to.deep.equal(["'self'"]);
    }
    const closed = {
      home: await request(portal).get('/'),
      login: await request(portal).get('/account/login'),
      unknown: await request(portal).get('/home'),
      callbackLookAlike: await request(portal).get('/auth/callback/more'),
      admin: await request(adminConsole).get('/admin/'),
      api: await request(portal).get('/api/v1/config'),
    };
    for (const [name, res] of Object.entries(closed)) {
      expect(res.headers['x-frame-options'], name).to.equal('DENY');
      expect(directive(res.headers['content-security-policy'], 'frame-ancestors'), name).to.deep.equal(["'none'"]);
    }
  });

  describe('prompt=none back to the portal callback', () => {
    const silentSignIn = () =>
      `/oidc/auth?${new URLSearchParams({
        client_id: 'portal',
        response_type: 'code',
        scope: 'openid profile',
        redirect_uri: `${server.url}/auth/callback`,
        prompt: 'none',
        state: 'silent-state',
        ...PKCE,
      })}`;

    it('comes back with login_required when the provider session is over', async () => {
      const res = await new Browser(server.url).follow(silentSignIn());

      const answer = new URL(res.url);
      expect(answer.pathname).to.equal('/auth/callback');
      expect(answer.searchParams.get('error')).to.equal('login_required');
      expect(answer.searchParams.get('state')).to.equal('silent-state');
    });

    it('comes back with a code, without any page, while the provider session is alive', async () => {
      const browser = new Browser(server.url);
      const signIn = new URLSearchParams({ client_id: 'portal', response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/auth/callback`, ...PKCE });
      await browser.get(`/oidc/auth?${signIn}`);
      await browser.get('/api/v1/config');
      const login = await browser.postJson('/api/v1/account/login', { userName: 'nora@example.com', password: PASSWORD });
      await browser.follow(((await login.json()) as { redirectTo: string }).redirectTo);

      const res = await browser.follow(silentSignIn());

      const answer = new URL(res.url);
      expect(answer.pathname).to.equal('/auth/callback');
      expect(answer.searchParams.get('code')).to.be.a('string');
      expect(answer.searchParams.get('state')).to.equal('silent-state');
      expect(answer.searchParams.get('error')).to.equal(null);
    });
  });
});
