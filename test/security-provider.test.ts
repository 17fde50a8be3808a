import { createHash } from 'node:crypto';
import { Application } from '@gatehouse/core';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { Browser } from './support/browser.js';
import { PKCE, PKCE_VERIFIER } from './support/flows.js';
import { startTestServer, type TestServer } from './support/server.js';
import { MailCatcher } from './support/smtp.js';

const PASSWORD = 'Correct-Horse-42!';
const SECRETS: Record<string, string> = {
  'admin-console': 'admin-console-secret-0123456789-abcdef',
  'rp-web': 'rp-web-secret-0123456789-abcdefghijkl',
  partner: 'partner-secret-0123456789-abcdefghijk',
};
const CALLBACKS: Record<string, string> = {
  'admin-console': '/admin/auth/callback',
  'rp-web': '/rp/callback',
  partner: '/partner/callback',
  reports: '/reports/callback',
  stopped: '/stopped/callback',
};

// The console is declared confidential with client credentials here, to show that even it gets
// no admin-API token for itself; it signs users in like the public console of a real deployment.
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
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
  - id: rp-web
    name: rp-web
    displayName: CRM
    type: confidential
    secret: '${SECRETS['rp-web']}'
    firstParty: true
    redirectUris: ['\${url}/rp/callback']
    grantTypes: [authorization_code, refresh_token, client_credentials]
  - id: partner
    name: partner
    displayName: Partner portal
    type: confidential
    secret: '${SECRETS.partner}'
    redirectUris: ['\${url}/partner/callback']
  - { id: reports, name: reports, displayName: Reports, type: public, firstParty: true, redirectUris: ['\${url}/reports/callback'] }
  - { id: stopped, name: stopped, displayName: Old Reports, type: public, status: Stopped, redirectUris: ['\${url}/stopped/callback'] }
users:
  - userName: alice@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Global, application: '1', roles: [Administrator, God] }]
  - { userName: rita@example.com, area: Default, language: en, password: '${PASSWORD}' }
`;

/** Where a return address sends a browser, read as a browser reads it (tab, CR and LF dropped). */
const landsOn = (base: string, target: string) => new URL(target, base).origin;

/** Return addresses that must never take the browser off the product. */
const HOSTILE_RETURN_URLS = ['/\t/evil.example', '/\r\n/evil.example', '\\\\evil.example', '/\\evil.example', 'https://evil.example/', '//evil.example', '/..//evil.example'];

/** The sources a policy directive allows. */
function directive(policy: string | null, name: string): string[] | undefined {
  const found = (policy ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name);
  return found?.slice(1);
}

/** Every inline script and style of a page is allowed by the answer's policy: by nonce or by hash. */
function expectInlineCodeAllowed(html: string, policy: string | null) {
  expect(policy, 'a Content-Security-Policy header').to.be.a('string');
  expect(policy).not.to.contain('unsafe-inline');
  for (const [, attributes, content] of html.matchAll(/<style([^>]*)>([\s\S]*?)<\/style>/g)) {
    const hash = `'sha256-${createHash('sha256').update(content!).digest('base64')}'`;
    const nonce = /nonce="([^"]+)"/.exec(attributes!)?.[1];
    expect(directive(policy, 'style-src'), 'the page style is allowed').to.satisfy((s: string[]) => s.includes(hash) || (nonce && s.includes(`'nonce-${nonce}'`)));
  }
  for (const [, attributes] of html.matchAll(/<script([^>]*)>/g)) {
    if (/\ssrc=/.test(attributes!)) continue;
    const nonce = /nonce="([^"]+)"/.exec(attributes!)?.[1];
    expect(nonce, 'every inline script carries a nonce').to.be.a('string');
    expect(directive(policy, 'script-src')).to.include(`'nonce-${nonce}'`);
  }
}

describe('security: the provider’s token policy, redirects, headers and pages', function () {
  this.timeout(120_000);
  let server: TestServer;
  let smtp: MailCatcher;
  const adminAudience = () => `${server.url}/api/v1/admin`;
  const applications = () => server.server.context.dataSource.getRepository(Application);

  before(async () => {
    smtp = await new MailCatcher().start();
    // Behind a trusted proxy, as in the Caddy set-up: X-Forwarded-Proto tells a TLS request.
    server = await startTestServer({ bootstrap: BOOTSTRAP, overrides: { 'mail.smtpUrl': smtp.url, 'server.trustProxy': true } });
  });
  after(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  /** Changes an application as the admin API would, and tells every node. */
  async function updateApplication(id: string, fields: Partial<Omit<Application, 'jwks'>>) {
    await applications().update(id, fields);
    server.server.context.broadcast.publish('application.changed', { clientId: id });
  }

  const authorizeUrl = (clientId: string, extra: Record<string, string> = {}) =>
    `/oidc/auth?${new URLSearchParams({ client_id: clientId, response_type: 'code', scope: 'openid', redirect_uri: `${server.url}${CALLBACKS[clientId]}`, state: 'st', nonce: 'no', ...PKCE, ...extra })}`;

  /** Signs in on the sign-in page the provider sent the browser to; answers the login response. */
  async function signIn(browser: Browser, loginPage: URL, userName = 'alice@example.com') {
    expect(loginPage.pathname).to.equal('/account/login');
    await browser.get('/api/v1/config');
    const res = await browser.postJson('/api/v1/account/login', { userName, password: PASSWORD, interaction: loginPage.searchParams.get('interaction') });
    expect(res.status).to.equal(200);
    return (await res.json()) as { redirectTo: string };
  }

  /** An authorization request in `browser`, signing in when asked: where the browser ends (callback or consent page). */
  async function authorize(browser: Browser, clientId: string, extra: Record<string, string> = {}): Promise<URL> {
    const start = await browser.get(authorizeUrl(clientId, extra));
    const location = new URL(start.headers.get('location') ?? start.url, server.url);
    if (location.pathname !== '/account/login') return new URL((await browser.follow(location.toString())).url);
    const { redirectTo } = await signIn(browser, location);
    return new URL((await browser.follow(redirectTo)).url);
  }

  async function tokenRequest(clientId: string, body: Record<string, string>) {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (SECRETS[clientId]) headers.authorization = `Basic ${Buffer.from(`${clientId}:${SECRETS[clientId]}`).toString('base64')}`;
    else body = { ...body, client_id: clientId };
    const res = await fetch(`${server.url}/oidc/token`, { method: 'POST', headers, body: new URLSearchParams(body) });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  }

  const redeem = (clientId: string, callback: URL, extra: Record<string, string> = {}) =>
    tokenRequest(clientId, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: `${server.url}${CALLBACKS[clientId]}`,
      code_verifier: PKCE_VERIFIER,
      ...extra,
    });

  /** The admin console's sign-in of Alice: its access token for the admin API. */
  async function adminConsoleToken(): Promise<string> {
    const callback = await authorize(new Browser(server.url), 'admin-console', { scope: 'openid profile admin' });
    const tokens = await redeem('admin-console', callback);
    expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
    return tokens.body.access_token!;
  }

  describe('security: only the admin console gets admin-API tokens', () => {
    it('refuses the admin API to a first-party application signing in an administrator, at authorization and at token time', async () => {
      const browser = new Browser(server.url);
      // The administrator is signed in to the CRM as usual…
      const normal = await authorize(browser, 'rp-web', { scope: 'openid profile' });
      expect(normal.searchParams.get('code')).to.be.a('string');
      // …and the CRM's back end asks the provider for an admin-API token for her.
      const attack = await authorize(browser, 'rp-web', { scope: 'openid admin', resource: adminAudience() });
      expect(attack.pathname).to.equal('/rp/callback');
      expect(attack.searchParams.get('error')).to.equal('invalid_target');
      expect(attack.searchParams.get('code'), 'no code for the admin API').to.equal(null);

      // Naming the resource only at the token endpoint gets nothing either.
      const again = await authorize(browser, 'rp-web', { scope: 'openid' });
      const tokens = await redeem('rp-web', again, { resource: adminAudience() });
      expect(tokens.status).to.equal(400);
      expect(tokens.body.error).to.equal('invalid_target');
      expect(tokens.body.access_token).to.equal(undefined);
    });

    it('refuses the admin API to a third-party application, before any consent is asked', async () => {
      const browser = new Browser(server.url);
      await authorize(browser, 'rp-web');
      const attack = await authorize(browser, 'partner', { scope: 'openid admin', resource: adminAudience() });
      expect(attack.pathname, 'no consent page that would hide the resource').to.equal('/partner/callback');
      expect(attack.searchParams.get('error')).to.equal('invalid_target');
      expect(attack.searchParams.get('code')).to.equal(null);
    });

    it('never issues an admin-API token through client credentials, not even to the admin console', async () => {
      for (const clientId of ['rp-web', 'admin-console']) {
        const res = await tokenRequest(clientId, { grant_type: 'client_credentials', resource: adminAudience(), scope: 'admin' });
        expect(res.status, clientId).to.equal(400);
        expect(res.body.error, clientId).to.equal('invalid_target');
        expect(res.body.access_token, clientId).to.equal(undefined);
      }
      // Without the resource the console's own token is an ordinary one, not for the admin API.
      const own = await tokenRequest('admin-console', { grant_type: 'client_credentials' });
      expect(own.status).to.equal(200);
      expect(() => decodeJwt(own.body.access_token!), 'an opaque token, not an admin-API JWT').to.throw();
    });

    it('still gives the admin console its admin-API JWT, which the admin API accepts', async () => {
      const accessToken = await adminConsoleToken();
      const claims = decodeJwt(accessToken);
      expect(claims.aud).to.equal(adminAudience());
      expect(claims.client_id).to.equal('admin-console');
      expect(String(claims.scope).split(' ')).to.include('admin');
      const users = await fetch(`${server.url}/api/v1/admin/users`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect(users.status).to.equal(200);
    });

    it('shows the resource scopes on the consent screen, and "Allow" grants what the screen showed', async () => {
      await updateApplication('admin-console', { isFirstParty: false });
      try {
        const browser = new Browser(server.url);
        const consentPage = await authorize(browser, 'admin-console', { scope: 'openid admin' });
        expect(consentPage.pathname).to.equal('/account/login');
        const details = (await (await browser.get('/api/v1/account/interaction')).json()) as {
          uid: string;
          prompt: string;
          missingScopes: string[];
          resourceScopes: Array<{ resource: string; scopes: string[] }>;
        };
        expect(details.prompt).to.equal('consent');
        expect(details.missingScopes).to.include('openid');
        expect(details.resourceScopes, 'the admin API access is listed').to.deep.equal([{ resource: adminAudience(), scopes: ['admin'] }]);

        const consent = await browser.postJson('/api/v1/account/consent', { approve: true, interaction: details.uid });
        expect(consent.status).to.equal(200);
        const callback = new URL((await browser.follow(((await consent.json()) as { redirectTo: string }).redirectTo)).url);
        const tokens = await redeem('admin-console', callback);
        expect(String(decodeJwt(tokens.body.access_token!).scope).split(' ')).to.include('admin');
      } finally {
        await updateApplication('admin-console', { isFirstParty: true });
      }
    });

    it('does not approve a consent the page did not show: another request started in the same browser meanwhile', async () => {
      const browser = new Browser(server.url);
      const first = await authorize(browser, 'partner', { scope: 'openid' });
      const shown = ((await (await browser.get('/api/v1/account/interaction')).json()) as { uid: string }).uid;
      expect(first.searchParams.get('interaction')).to.equal(shown);
      // A page elsewhere starts another request of the application in this browser: a new interaction.
      const swapped = new URL((await browser.follow(authorizeUrl('partner', { scope: 'openid email profile' }))).url);
      expect(swapped.searchParams.get('interaction')).to.be.a('string').and.not.equal(shown);

      for (const payload of [{ approve: true, interaction: shown }, { approve: true }]) {
        const refused = await browser.postJson('/api/v1/account/consent', payload, { 'accept-language': 'en' });
        expect(refused.status, JSON.stringify(payload)).to.equal(400);
        expect(((await refused.json()) as { code: string }).code).to.equal('account.interaction_expired');
      }
      const details = (await (await browser.get('/api/v1/account/interaction')).json()) as { uid: string; missingScopes: string[] };
      expect(details.missingScopes, 'nothing was granted by the refused calls').to.include.members(['openid', 'email', 'profile']);
      const approved = await browser.postJson('/api/v1/account/consent', { approve: true, interaction: details.uid });
      expect(approved.status).to.equal(200);
    });
  });

  describe('security: returnUrl never leaves the product', () => {
    it('answers an expired sign-in with a redirectTo on this site, whatever returnUrl says', async () => {
      const browser = new Browser(server.url);
      await browser.get('/api/v1/config');
      for (const returnUrl of HOSTILE_RETURN_URLS) {
        const res = await browser.postJson('/api/v1/account/login', { userName: 'alice@example.com', password: PASSWORD, returnUrl });
        const body = (await res.json()) as { code: string; redirectTo: string };
        expect(body.code, JSON.stringify(returnUrl)).to.equal('account.interaction_expired');
        expect(landsOn(server.url, body.redirectTo), JSON.stringify(returnUrl)).to.equal(server.url);
        expect(body.redirectTo, JSON.stringify(returnUrl)).to.match(/^\/(?![/\\])/);
      }
      // A percent-encoded tab is part of a path on this site: kept as it is.
      const encoded = await browser.postJson('/api/v1/account/login', { userName: 'alice@example.com', password: PASSWORD, returnUrl: '/%09/evil.example' });
      expect(((await encoded.json()) as { redirectTo: string }).redirectTo).to.equal('/%09/evil.example');
    });

    it('puts only a path of this site in the reset mail, and redirects there after the reset', async () => {
      const browser = new Browser(server.url);
      await browser.get('/api/v1/config');
      const before = smtp.mails.length;
      const requested = await browser.postJson('/api/v1/account/resetPassword', { username: 'rita@example.com', returnUrl: '/\t/evil.example' });
      expect(requested.status).to.equal(200);
      const mail = await smtp.next('rita@example.com', before, (m) => /changePassword\?/.test(m.text ?? ''));
      const link = new URL(/https?:\/\/\S+changePassword\S+/.exec(mail.text!)![0]);
      const inMail = link.searchParams.get('returnUrl')!;
      expect(landsOn(server.url, inMail), inMail).to.equal(server.url);

      const changed = await browser.postJson('/api/v1/account/changePassword', {
        identityName: 'rita@example.com',
        token: link.searchParams.get('token'),
        newPassword: 'Reset-Pass-2026!!',
        confirmPassword: 'Reset-Pass-2026!!',
        returnUrl: '/\t/evil.example',
      });
      const body = (await changed.json()) as { success: boolean; redirectTo: string };
      expect(body.success).to.equal(true);
      expect(landsOn(server.url, body.redirectTo)).to.equal(server.url);
    });

    it('links the Microsoft sign-in pages home to this site only', async () => {
      for (const returnUrl of HOSTILE_RETURN_URLS) {
        const res = await new Browser(server.url).get(`/api/v1/account/externalLogin?provider=mslive&returnUrl=${encodeURIComponent(returnUrl)}`);
        const html = await res.text();
        const links = [...html.matchAll(/<a href="([^"]*)"/g)].map(([, href]) => href!.replace(/&#39;/g, "'").replace(/&amp;/g, '&'));
        expect(links, JSON.stringify(returnUrl)).not.to.be.empty;
        for (const href of links) expect(landsOn(server.url, href), JSON.stringify(returnUrl)).to.equal(server.url);
      }
    });
  });

  describe('security: a stopped application cannot sign anyone in', () => {
    it('refuses a sign-in started by POST (a pushed request, or the form-encoded authorization request)', async () => {
      const browser = new Browser(server.url);
      const form = Object.fromEntries(new URLSearchParams(authorizeUrl('stopped').split('?')[1]));
      const pushed = await browser.request('POST', '/oidc/request', { form });
      expect(pushed.status).to.equal(400);
      expect(((await pushed.json()) as { request_uri?: string }).request_uri, 'no request to start the sign-in with').to.equal(undefined);
      const posted = await browser.request('POST', '/oidc/auth', { form });
      expect(posted.status, 'no redirect to the sign-in page').to.be.oneOf([404, 503]);
      expect(posted.headers.get('location')).to.equal(null);
      expect(browser.cookie('gh_interaction'), 'no sign-in started').to.equal(undefined);
    });

    it('refuses a sign-in started by GET /oidc/auth, with the page that says why', async () => {
      const res = await new Browser(server.url).get(authorizeUrl('stopped'));
      expect(res.status).to.equal(503);
      expect(res.headers.get('location')).to.equal(null);
      expect(await res.text()).to.contain('Old Reports');
    });

    it('does not finish a sign-in started before the application was stopped', async () => {
      const browser = new Browser(server.url);
      const start = await browser.get(authorizeUrl('reports'));
      const loginPage = new URL(start.headers.get('location')!, server.url);
      await updateApplication('reports', { status: 'Stopped' });
      try {
        const { redirectTo } = await signIn(browser, loginPage);
        const resumed = await browser.get(redirectTo);
        expect(resumed.status).to.equal(503);
        expect(resumed.headers.get('location'), 'no code goes to the application').to.equal(null);
        expect(await resumed.text()).to.contain('Reports');
      } finally {
        await updateApplication('reports', { status: 'Running' });
      }
    });

    it('redeems no code, refreshes no token and issues no client-credentials token once stopped', async () => {
      const browser = new Browser(server.url);
      const tokens = await redeem('rp-web', await authorize(browser, 'rp-web'));
      expect(tokens.body.refresh_token).to.be.a('string');
      const pendingCode = await authorize(browser, 'rp-web');
      await updateApplication('rp-web', { status: 'Stopped' });
      try {
        const refreshed = await tokenRequest('rp-web', { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token! });
        const credentials = await tokenRequest('rp-web', { grant_type: 'client_credentials' });
        const redeemed = await redeem('rp-web', pendingCode);
        for (const [name, res] of Object.entries({ refreshed, credentials, redeemed })) {
          expect(res.status, name).to.be.oneOf([400, 401]);
          expect(res.body.access_token, name).to.equal(undefined);
        }
      } finally {
        await updateApplication('rp-web', { status: 'Running' });
      }
      const restarted = await tokenRequest('rp-web', { grant_type: 'client_credentials' });
      expect(restarted.status, 'running again, it works again').to.equal(200);
    });
  });

  describe('security: headers and pages', () => {
    it('forbids framing and inline code everywhere: API answers, the SPA shell, provider and Microsoft pages', async () => {
      const browser = new Browser(server.url);
      const answers = {
        api: await browser.get('/api/v1/config'),
        spa: await browser.get('/account/login'),
        adminSpa: await browser.get('/admin/'),
        providerError: await browser.get(authorizeUrl('no-such-client')),
        microsoft: await browser.get('/api/v1/account/externalLogin?provider=mslive'),
      };
      for (const [name, res] of Object.entries(answers)) {
        const policy = res.headers.get('content-security-policy');
        expect(res.headers.get('x-frame-options'), name).to.equal('DENY');
        expect(directive(policy, 'frame-ancestors'), name).to.deep.equal(["'none'"]);
        expect(policy, name).not.to.contain('unsafe-inline');
        if (res.headers.get('content-type')?.startsWith('text/html')) expectInlineCodeAllowed(await res.text(), policy);
      }
      // The SPAs allow their run-time styles by a nonce that changes with every answer.
      const nonces = await Promise.all([1, 2].map(async () => directive((await browser.get('/account/login')).headers.get('content-security-policy'), 'style-src')));
      expect(nonces[0]!.find((s) => s.startsWith("'nonce-"))).to.be.a('string').and.not.equal(nonces[1]!.find((s) => s.startsWith("'nonce-")));
      expect(answers.providerError.status).to.equal(400);
    });

    it('signs out without a click only when the request comes from this site', async () => {
      const browser = new Browser(server.url);
      await authorize(browser, 'rp-web');
      for (const site of ['cross-site', 'same-site', 'none', undefined]) {
        const res = await browser.get('/oidc/session/end?client_id=rp-web', site ? { 'sec-fetch-site': site } : {});
        const html = await res.text();
        expect(html, `Sec-Fetch-Site: ${site}`).not.to.contain('<script');
        expect(html.replace(/<noscript>[\s\S]*?<\/noscript>/g, ''), 'a visible confirm button').to.match(/<button form="op\.logoutForm" type="submit" name="logout" value="yes">/);
        expectInlineCodeAllowed(html, res.headers.get('content-security-policy'));
      }
      const own = await browser.get('/oidc/session/end?client_id=rp-web', { 'sec-fetch-site': 'same-origin' });
      const html = await own.text();
      expect(html).to.match(/<script nonce="[^"]+">/);
      expectInlineCodeAllowed(html, own.headers.get('content-security-policy'));
    });

    it('ends a sign-out no application asked to come back from on the spec’s "Login has successfully ended", in the visitor’s language', async () => {
      for (const [language, heading] of [
        ['en', 'Login has successfully ended'],
        ['fr', 'La session a bien été fermée'],
        ['de', 'Die Anmeldung wurde erfolgreich beendet'],
      ] as const) {
        const browser = new Browser(server.url);
        await authorize(browser, 'rp-web');
        const confirm = await (await browser.get('/oidc/session/end?client_id=rp-web')).text();
        const action = /<form[^>]*action="([^"]+)"/.exec(confirm)![1]!.replaceAll('&amp;', '&');
        const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm)![1]!;
        const confirmed = await browser.request('POST', action, { form: { xsrf, logout: 'yes' } });
        expect(confirmed.status, language).to.equal(303);
        const end = await browser.get(confirmed.headers.get('location')!, { 'accept-language': language });
        const html = await end.text();
        expect(end.status, language).to.equal(200);
        expect(html, language).to.contain(`<h1>${heading}</h1>`);
        expect(html, language).to.contain(`<html lang="${language}">`);
        expectInlineCodeAllowed(html, end.headers.get('content-security-policy'));
      }
    });

    it('sends HSTS over TLS only: behind the trusted proxy, when it says the request came over https', async () => {
      for (const path of ['/api/v1/config', '/account/login', '/oidc/.well-known/openid-configuration']) {
        const tls = await fetch(`${server.url}${path}`, { headers: { 'x-forwarded-proto': 'https' } });
        expect(tls.headers.get('strict-transport-security'), path).to.equal('max-age=31536000; includeSubDomains');
        const plain = await fetch(`${server.url}${path}`);
        expect(plain.headers.get('strict-transport-security'), path).to.equal(null);
      }
    });

    it('answers an unknown or prototype sort field with a 400 naming orderBy, not a 500', async () => {
      const auth = { authorization: `Bearer ${await adminConsoleToken()}`, 'accept-language': 'en' };
      for (const orderBy of ['constructor', 'toString asc', '__proto__', 'hasOwnProperty desc', 'password_hash']) {
        for (const path of ['/api/v1/admin/areas', '/api/v1/admin/users']) {
          const res = await fetch(`${server.url}${path}?orderBy=${encodeURIComponent(orderBy)}`, { headers: auth });
          const body = (await res.json()) as { code: string; errors: Array<{ field: string; message: string }> };
          expect(res.status, `${path} ${orderBy}`).to.equal(400);
          expect(body.code).to.equal('errors.validation');
          expect(body.errors[0]!.field, `${path} ${orderBy}`).to.equal('orderBy');
        }
      }
      const named = await fetch(`${server.url}/api/v1/admin/areas?orderBy=constructor`, { headers: auth });
      expect(((await named.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).to.match(/^orderBy must be one of: .*name/);
      expect((await fetch(`${server.url}/api/v1/admin/areas?orderBy=name%20desc`, { headers: auth })).status).to.equal(200);
    });
  });
});

describe('security: HSTS on every answer of a product served over https', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({
      bootstrap: `areas: [{ name: Default, default: true }]\napplications: [{ id: '1', name: identity, displayName: Identity, type: public, roles: [{ name: God }, { name: Administrator }] }]\n`,
      overrides: { 'server.publicUrl': 'https://id.example.test' },
    });
  });
  after(() => server?.stop());

  it('sends Strict-Transport-Security for a year, subdomains included, on API answers, pages and provider answers', async () => {
    for (const path of ['/api/v1/config', '/account/login', '/oidc/.well-known/openid-configuration', '/oidc/auth?client_id=nobody']) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(res.headers.get('strict-transport-security'), path).to.equal('max-age=31536000; includeSubDomains');
    }
  });
});
