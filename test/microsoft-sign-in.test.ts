import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ConfigError, loadConfig } from '@gatehouse/core';
import { expect } from 'chai';
import { Browser } from './support/browser.js';
import { PKCE, accessTokenAfter } from './support/flows.js';
import { MicrosoftAuthority, type AuthorityAccount } from './support/microsoft-authority.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const CALLBACK = '/api/v1/account/externalLogin/callback';
const BOOTSTRAP = `
areas: [{ name: Default, default: true }, { name: Partners }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }] }
  - { id: spa, name: spa, displayName: Browser app, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'] }
users:
  - { userName: ana@group.example, firstName: Ana, area: Default }
  - { userName: gus@group.example, firstName: Gus, area: Default }
  - { userName: ines@group.example, area: Default }
  - { userName: dora@group.example, area: Default }
  - { userName: leo@group.example, area: Default }
  - { userName: tim@group.example, area: Default }
  - { userName: bob@example.com, area: Default, password: '${PASSWORD}' }
  - { userName: carl@subsidiary.example, area: Default, password: '${PASSWORD}' }
  - { userName: puppet@client.example, email: new.cfo@group.example, area: Default, password: '${PASSWORD}' }
  - { userName: rita@group.example, email: rita.private@example.com, area: Default }
  - { userName: mia@group.example, area: Default }
  - { userName: cfo@group.example, area: Default }
  - { userName: dan@group.example, area: Default }
`;

/** Where a request ended: its URL and the answer (the page, or a redirect not followed). */
interface Stop {
  url: string;
  response: Response;
}

describe('Microsoft sign-in (Entra ID federation)', function () {
  this.timeout(60_000);
  let authority: MicrosoftAuthority;
  let server: TestServer;
  const db = () => server.server.context.dataSource;

  before(async () => {
    authority = await MicrosoftAuthority.listen();
    server = await startTestServer({
      bootstrap: BOOTSTRAP,
      overrides: authority.config({
        'signIn.groupDomains': 'group.example',
        'microsoft.autoProvisionDomains': 'subsidiary.example',
        'microsoft.provisionArea': 'Partners',
        'microsoft.timeoutMs': 1500,
      }),
    });
    await authority.register(`${server.url}${CALLBACK}`);
  });
  after(async () => {
    await server?.stop();
    await authority?.stop();
  });

  /** A browser at the sign-in page of a new authorization request of the `spa` client, and its interaction. */
  async function atLoginPage(): Promise<{ browser: Browser; uid: string }> {
    const browser = new Browser(server.url);
    const params = new URLSearchParams({ client_id: 'spa', response_type: 'code', scope: 'openid email', redirect_uri: `${server.url}/spa/callback`, ...PKCE });
    const res = await browser.get(`/oidc/auth?${params}`);
    const uid = new URL(res.headers.get('location')!, server.url).searchParams.get('interaction')!;
    return { browser, uid };
  }

  /** Follows redirects on both origins until the browser reaches `until` (not requested) or an answer that is not a redirect. */
  async function walk(browser: Browser, url: string, until?: string): Promise<Stop & { hops: string[] }> {
    const hops: string[] = [];
    let current = new URL(url, server.url).toString();
    for (let i = 0; i < 15; i++) {
      hops.push(current);
      if (until && current.startsWith(until)) return { url: current, response: new Response(null, { status: 299 }), hops };
      const response = await browser.get(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { url: current, response, hops };
      current = new URL(location, current).toString();
    }
    throw new Error(`redirect loop: ${hops.join(' → ')}`);
  }

  /** Login page → "Microsoft" → the authority → back: the callback URL the browser is sent to (not yet requested). */
  async function toCallback(account?: AuthorityAccount, start?: { browser: Browser; uid: string }) {
    const { browser, uid } = start ?? (await atLoginPage());
    if (account) authority.signInAs(account);
    const res = await browser.get(`/api/v1/account/externalLogin?provider=mslive&returnUrl=${encodeURIComponent('/home')}`);
    expect(res.status, await res.clone().text()).to.equal(302);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${authority.issuer}/auth?`), location).to.equal(true);
    const { url } = await walk(browser, location, `${server.url}${CALLBACK}`);
    return { browser, uid, callbackUrl: url };
  }

  /** The whole chain: the sign-in page, Microsoft, the callback, the provider, and the application's callback with a code. */
  async function signInWithMicrosoft(account: AuthorityAccount) {
    const { browser, uid, callbackUrl } = await toCallback(account);
    const res = await browser.get(callbackUrl, { 'accept-language': 'en' });
    return { browser, uid, res };
  }

  /** The user the application's tokens are about, after a finished sign-in. */
  async function subjectAfter(browser: Browser, res: Response): Promise<string> {
    expect(res.status).to.equal(303);
    const redirectTo = res.headers.get('location')!;
    expect(redirectTo.startsWith(`${server.url}/oidc/auth/`), redirectTo).to.equal(true);
    const accessToken = await accessTokenAfter(server, browser, redirectTo);
    const me = await fetch(`${server.url}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    return ((await me.json()) as { sub: string }).sub;
  }

  const userId = async (userName: string): Promise<string> =>
    (await db().query('SELECT id FROM users WHERE normalized_user_name = $1', [userName]))[0]?.id;
  const lastLog = async (): Promise<Record<string, unknown>> =>
    (await db().query('SELECT user_id, user_name, result, reason, authentication_provider FROM authentication_logs ORDER BY id DESC LIMIT 1'))[0];
  const pageText = async (res: Response) => {
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    return res.text();
  };
  const person = (email: string, extra: Partial<AuthorityAccount> = {}): AuthorityAccount => ({ oid: randomUUID(), email, ...extra });

  describe('configuration', () => {
    const configDir = () => mkdtempSync(`${tmpdir()}/gatehouse-ms-config-`);
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig({ env, configDir: configDir() });
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    };

    it('is off when nothing is configured', () => {
      const config = loadConfig({ env: {}, configDir: configDir() });
      expect(config.microsoft.enabled).to.equal(false);
      expect(config.microsoft.timeoutMs).to.equal(4000);
    });

    it('stops the start-up when it is only partly configured, naming what is missing', () => {
      const tenant = { ENTRA_TENANT_ID: randomUUID() };
      expect(problemsOf(tenant).join('\n'))
        .to.contain('microsoft.clientId (ENTRA_CLIENT_ID)')
        .and.contain('microsoft.clientSecret (ENTRA_CLIENT_SECRET) or microsoft.certificateThumbprint (ENTRA_CERT_THUMBPRINT)');
      expect(problemsOf({ ...tenant, ENTRA_CLIENT_ID: randomUUID(), ENTRA_CERT_THUMBPRINT: 'ab'.repeat(20) })).to.deep.equal([
        'microsoft: the Microsoft sign-in is partly configured; missing microsoft.certificateKeyFile (ENTRA_CERT_KEY_FILE)',
      ]);
      expect(problemsOf({ ENTRA_CLIENT_SECRET: 's3cret' })[0]).to.contain('microsoft.tenantId (ENTRA_TENANT_ID)');
      expect(problemsOf({ ENTRA_AUTHORITY: 'http://login.example.com/x' })[0]).to.match(/^microsoft\.authority .*https/);
    });

    it('defaults the authority to Entra ID for the tenant', () => {
      const tenantId = randomUUID();
      const config = loadConfig({
        env: { ENTRA_TENANT_ID: tenantId, ENTRA_CLIENT_ID: randomUUID(), ENTRA_CLIENT_SECRET: 's3cret' },
        configDir: configDir(),
      });
      expect(config.microsoft).to.include({ enabled: true, authority: `https://login.microsoftonline.com/${tenantId}` });
    });

    it('GET /api/v1/config tells the portal to show the Microsoft button', async () => {
      const res = await fetch(`${server.url}/api/v1/config`);
      expect(((await res.json()) as { microsoftSignIn: boolean }).microsoftSignIn).to.equal(true);
    });
  });

  describe('GET /api/v1/account/externalLogin', () => {
    it('sends the browser to Microsoft with PKCE (S256), state and nonce, and binds the state to the browser', async () => {
      const { browser } = await atLoginPage();
      const res = await browser.get('/api/v1/account/externalLogin?provider=mslive&returnUrl=%2Fhome');
      expect(res.status).to.equal(302);
      const query = new URL(res.headers.get('location')!).searchParams;
      expect(query.get('client_id')).to.equal(authority.clientId);
      expect(query.get('response_type')).to.equal('code');
      expect(query.get('response_mode')).to.equal('query');
      expect(query.get('code_challenge_method')).to.equal('S256');
      expect(query.get('code_challenge')).to.match(/^[\w-]{43}$/);
      expect(query.get('redirect_uri')).to.equal(`${server.url}${CALLBACK}`);
      expect(query.get('scope')!.split(' ')).to.include.members(['openid', 'email', 'profile']);
      expect(query.get('state')).to.match(/^[\w-]{43}$/);
      expect(query.get('nonce')).to.match(/^[\w-]{43}$/);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('gh_ext_state='))!;
      expect(cookie).to.contain(`gh_ext_state=${query.get('state')}`);
      expect(cookie).to.match(/httponly/i).and.match(/samesite=lax/i).and.match(/path=\/api\/v1\/account\/externalLogin/i);
    });

    it('shows a page, not a redirect, when no sign-in is pending in this browser', async () => {
      const res = await new Browser(server.url).get('/api/v1/account/externalLogin?provider=mslive&returnUrl=%2Fprofile', { 'accept-language': 'en' });
      expect(res.status).to.equal(400);
      expect(res.headers.get('location')).to.equal(null);
      const html = await pageText(res);
      expect(html).to.contain('Your sign-in has expired. Please start again.').and.contain('href="/profile"');
    });

    it('refuses another provider than mslive', async () => {
      const { browser } = await atLoginPage();
      const res = await browser.get('/api/v1/account/externalLogin?provider=google', { 'accept-language': 'en' });
      expect(res.status).to.equal(400);
      expect(await pageText(res)).to.contain('This sign-in provider is not supported.');
    });
  });

  describe('GET /api/v1/account/externalLogin/callback', () => {
    it('links a group-domain account to the local user with that e-mail at its first sign-in, and resumes the application sign-in', async () => {
      const ana = person('ana@group.example', { givenName: 'Ana', familyName: 'Lima' });
      const { browser, res } = await signInWithMicrosoft(ana);
      const id = await userId('ana@group.example');
      expect(await subjectAfter(browser, res)).to.equal(id);
      const links = await db().query('SELECT user_id, provider, tid, oid, email, last_used_at FROM user_external_logins WHERE oid = $1', [ana.oid]);
      expect(links).to.have.length(1);
      expect(links[0]).to.include({ user_id: id, provider: 'Microsoft', tid: authority.tenantId, email: 'ana@group.example' });
      expect(links[0].last_used_at).to.be.an.instanceOf(Date);
      expect(await lastLog()).to.deep.include({ user_id: id, result: 'Success', authentication_provider: 'Microsoft' });
      expect(browser.cookie('gh_ext_state'), 'the state cookie is spent').to.equal(undefined);
    });

    it('finds the same user by its link after the e-mail changed at Microsoft, and updates the stored e-mail', async () => {
      const gus = person('gus@group.example');
      const first = await signInWithMicrosoft(gus);
      const id = await userId('gus@group.example');
      expect(await subjectAfter(first.browser, first.res)).to.equal(id);

      const renamed = { ...gus, email: 'gustavo.new@group.example' };
      const second = await signInWithMicrosoft(renamed);
      expect(await subjectAfter(second.browser, second.res)).to.equal(id);
      const [link] = await db().query('SELECT email FROM user_external_logins WHERE oid = $1', [gus.oid]);
      expect(link.email).to.equal('gustavo.new@group.example');
      expect(await userId('gustavo.new@group.example'), 'no second account').to.equal(undefined);
    });

    it('never links by e-mail alone: a guest or another tenant claiming a group e-mail is refused', async () => {
      const id = await userId('ines@group.example');
      for (const impostor of [
        person('ines@group.example', { idp: 'https://sts.windows.net/another-tenant/' }),
        person('ines@group.example', { tid: randomUUID() }),
      ]) {
        const { res } = await signInWithMicrosoft(impostor);
        expect(res.status).to.equal(403);
        expect(await res.text()).to.contain('No account matches your Microsoft account');
      }
      expect(await db().query('SELECT 1 FROM user_external_logins WHERE user_id = $1', [id])).to.have.length(0);
    });

    it('creates the user of an auto-provisioning domain at the first sign-in, in the configured area, without a password', async () => {
      const eve = person('Eve.Martin@Subsidiary.example', { givenName: 'Eve', familyName: 'Martin' });
      const { browser, res } = await signInWithMicrosoft(eve);
      const [user] = await db().query(
        `SELECT u.id, u.user_name, u.email, u.email_verified, u.first_name, u.last_name, u.password_hash, a.name AS area
           FROM users u JOIN areas a ON a.id = u.area_id WHERE u.normalized_user_name = 'eve.martin@subsidiary.example'`,
      );
      expect(user).to.include({
        user_name: 'eve.martin@subsidiary.example',
        email: 'eve.martin@subsidiary.example',
        email_verified: true,
        first_name: 'Eve',
        last_name: 'Martin',
        password_hash: null,
        area: 'Partners',
      });
      expect(await subjectAfter(browser, res)).to.equal(user.id);
      expect(await db().query('SELECT 1 FROM user_external_logins WHERE user_id = $1 AND oid = $2', [user.id, eve.oid])).to.have.length(1);
      expect(await lastLog()).to.deep.include({ user_id: user.id, result: 'Success', reason: 'Microsoft account provisioned', authentication_provider: 'Microsoft' });
    });

    it('refuses an unknown domain with a clear page offering another try, creates nobody, and logs it', async () => {
      const zed = person('zed@elsewhere.example');
      const { uid, res } = await signInWithMicrosoft(zed);
      expect(res.status).to.equal(403);
      expect(res.headers.get('location')).to.equal(null);
      const html = await pageText(res);
      expect(html).to.contain('No account matches your Microsoft account. Please contact your administrator.');
      expect(html).to.contain(`href="/account/login?interaction=${uid}"`);
      expect(await userId('zed@elsewhere.example')).to.equal(undefined);
      expect(await db().query('SELECT 1 FROM user_external_logins WHERE oid = $1', [zed.oid])).to.have.length(0);
      expect(await lastLog()).to.deep.include({ user_id: null, user_name: 'zed@elsewhere.example', result: 'Failure', authentication_provider: 'Microsoft' });
    });

    it('does not take over a local account of an auto-provisioning domain', async () => {
      const { res } = await signInWithMicrosoft(person('carl@subsidiary.example'));
      expect(res.status).to.equal(403);
      expect(await res.text()).to.contain('An account with this e-mail address already exists but is not linked to your Microsoft account.');
      expect(await lastLog()).to.deep.include({ user_id: await userId('carl@subsidiary.example'), result: 'Failure', authentication_provider: 'Microsoft' });
    });

    it('refuses draft and locked users with their messages, and logs each refusal', async () => {
      await db().query(`UPDATE users SET draft = true WHERE normalized_user_name = 'dora@group.example'`);
      await db().query(`UPDATE users SET locked = true WHERE normalized_user_name = 'leo@group.example'`);
      await db().query(`UPDATE users SET lockout_end = now() + interval '5 minutes' WHERE normalized_user_name = 'tim@group.example'`);
      const cases = [
        { email: 'dora@group.example', status: 403, text: 'User pending approval.', result: 'Failure' },
        // Microsoft proved who they are: the lock is headed "User Is Locked Out", its own words after.
        { email: 'leo@group.example', status: 423, text: 'Your account is blocked. An administrator must unblock it.', result: 'FullUserLocked', headline: true },
        { email: 'tim@group.example', status: 423, text: 'Your account is locked after 5 failed attempts. Try again after', result: 'UserLocked', headline: true },
      ];
      for (const { email, status, text, result, headline } of cases) {
        const { res } = await signInWithMicrosoft(person(email));
        expect(res.status, email).to.equal(status);
        const body = await res.text();
        expect(body, email).to.contain(text);
        const alert = /<p role="alert">([^<]*)<\/p>/.exec(body)?.[1];
        if (headline) expect(alert, email).to.equal('User Is Locked Out');
        else expect(alert, email).to.contain(text);
        expect(await lastLog(), email).to.deep.include({ user_id: await userId(email), result, authentication_provider: 'Microsoft' });
      }
    });

    it('refuses a callback whose state this browser did not start (forged), before redeeming the code', async () => {
      const attacker = await toCallback(person('zed2@elsewhere.example'));
      const victim = await atLoginPage();
      await victim.browser.get('/api/v1/account/externalLogin?provider=mslive');
      const redemptions = authority.tokenRequests;
      const res = await victim.browser.get(attacker.callbackUrl, { 'accept-language': 'en' });
      expect(res.status).to.equal(400);
      expect(await pageText(res)).to.contain('This sign-in answer does not belong to this browser. Please start again.');
      expect(authority.tokenRequests).to.equal(redemptions);
      expect(await lastLog()).to.deep.include({ result: 'Failure', reason: 'Callback state does not match this browser', authentication_provider: 'Microsoft' });
    });

    it('refuses a replayed callback: a state is taken once', async () => {
      const { browser, callbackUrl } = await toCallback(person('ana@group.example'));
      const cookies = `gh_ext_state=${browser.cookie('gh_ext_state')}; gh_ext_state.sig=${browser.cookie('gh_ext_state.sig')}`;
      const first = await browser.get(callbackUrl);
      expect(first.status).to.equal(303);
      const redemptions = authority.tokenRequests;
      const replay = await fetch(callbackUrl, { headers: { cookie: cookies, 'accept-language': 'en' }, redirect: 'manual' });
      expect(replay.status).to.equal(400);
      expect(await pageText(replay)).to.contain('This sign-in answer was already used or has expired. Please start again.');
      expect(authority.tokenRequests).to.equal(redemptions);
    });

    it('ends a cancelled sign-in on a page with a link back to the sign-in page, never a redirect to Microsoft', async () => {
      const start = await atLoginPage();
      authority.signInAs(person('ana@group.example'));
      authority.error = 'access_denied';
      const { browser, uid, callbackUrl } = await toCallback(undefined, start);
      expect(new URL(callbackUrl).searchParams.get('error')).to.equal('access_denied');
      const res = await browser.get(callbackUrl, { 'accept-language': 'fr' });
      expect(res.status).to.equal(400);
      expect(res.headers.get('location')).to.equal(null);
      const html = await pageText(res);
      expect(html).to.contain('La connexion avec Microsoft a été annulée ou le consentement a été refusé.');
      expect(html).to.contain(`href="/account/login?interaction=${uid}"`);
      expect(await lastLog()).to.deep.include({ result: 'Failure', authentication_provider: 'Microsoft' });

      // Trying again from the same sign-in page works.
      authority.error = undefined;
      const again = await toCallback(undefined, { browser, uid });
      const done = await browser.get(again.callbackUrl);
      expect(await subjectAfter(browser, done)).to.equal(await userId('ana@group.example'));
    });

    it('gives up within the configured time when Microsoft does not answer the code redemption', async () => {
      const { browser, uid, callbackUrl } = await toCallback(person('ana@group.example'));
      authority.hangTokenEndpoint = true;
      try {
        const started = Date.now();
        const res = await browser.get(callbackUrl, { 'accept-language': 'en' });
        const elapsed = Date.now() - started;
        expect(res.status).to.equal(503);
        const html = await pageText(res);
        expect(html).to.contain('Microsoft is not responding. Please try again in a few minutes.');
        expect(html).to.contain(`href="/account/login?interaction=${uid}"`);
        // ENTRA_TIMEOUT_MS is 1500 here: the page comes from the timeout, and well within 5 s.
        expect(elapsed).to.be.at.least(1400).and.below(5000);
      } finally {
        authority.hangTokenEndpoint = false;
      }
    });

    it('shows a clear page at once when Microsoft is down', async () => {
      const { browser, callbackUrl } = await toCallback(person('ana@group.example'));
      await authority.stop();
      try {
        const started = Date.now();
        const res = await browser.get(callbackUrl, { 'accept-language': 'en' });
        expect(Date.now() - started).to.be.below(5000);
        expect(res.status).to.equal(503);
        expect(await pageText(res)).to.contain('Microsoft is not responding.');
        expect(await lastLog()).to.deep.include({ result: 'Failure', authentication_provider: 'Microsoft' });
      } finally {
        await authority.start();
      }
    });
  });

  describe('security: Microsoft accounts link only to the right person', () => {
    const linksOf = async (userName: string) => db().query('SELECT oid, email FROM user_external_logins WHERE user_id = $1', [await userId(userName)]);

    it('never links a group-domain identity to a local account whose e-mail column holds its name', async () => {
      // An area administrator can type any e-mail on an account whose password they know.
      const cfo = person('new.cfo@group.example');
      const { res } = await signInWithMicrosoft(cfo);
      expect(res.status).to.equal(403);
      expect(await res.text()).to.contain('No account matches your Microsoft account');
      expect(await linksOf('puppet@client.example'), 'the puppet account gets no link').to.deep.equal([]);
      expect(await db().query('SELECT 1 FROM user_external_logins WHERE oid = $1', [cfo.oid])).to.have.length(0);
      expect(await lastLog()).to.deep.include({ user_id: null, user_name: 'new.cfo@group.example', result: 'Failure', authentication_provider: 'Microsoft' });
    });

    it('links a group-domain identity to the account whose user name is its UPN, whatever that account’s e-mail column holds', async () => {
      const rita = person('rita@group.example');
      const { browser, res } = await signInWithMicrosoft(rita);
      expect(await subjectAfter(browser, res)).to.equal(await userId('rita@group.example'));
      expect(await linksOf('rita@group.example')).to.deep.equal([{ oid: rita.oid, email: 'rita@group.example' }]);
    });

    it('takes the identity’s name from its UPN, not from the email claim a directory administrator can set', async () => {
      const mia = person('cfo@group.example', { preferredUsername: 'mia@group.example' });
      const { browser, res } = await signInWithMicrosoft(mia);
      expect(await subjectAfter(browser, res)).to.equal(await userId('mia@group.example'));
      expect(await linksOf('mia@group.example')).to.deep.equal([{ oid: mia.oid, email: 'mia@group.example' }]);
      expect(await linksOf('cfo@group.example'), 'the account named in the email claim stays unlinked').to.deep.equal([]);
    });

    it('links nothing when the UPN is not an e-mail address, even if the email claim names an account', async () => {
      const dan = person('dan@group.example', { preferredUsername: 'dan-sso' });
      const { res } = await signInWithMicrosoft(dan);
      expect(res.status).to.equal(403);
      expect(await res.text()).to.contain('No account matches your Microsoft account');
      expect(await linksOf('dan@group.example')).to.deep.equal([]);
    });
  });

  describe('local accounts on the same server', () => {
    it('still sign in with their password', async () => {
      const { browser } = await atLoginPage();
      await browser.get('/api/v1/config');
      const res = await browser.postJson('/api/v1/account/login', { userName: 'bob@example.com', password: PASSWORD });
      const body = (await res.json()) as { success: boolean; redirectTo: string };
      expect(body.success).to.equal(true);
      const accessToken = await accessTokenAfter(server, browser, body.redirectTo);
      const me = await fetch(`${server.url}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect(((await me.json()) as { sub: string }).sub).to.equal(await userId('bob@example.com'));
      expect(await lastLog()).to.deep.include({ result: 'Success', authentication_provider: 'Local' });
    });

    it('of a group domain are still told to use Microsoft', async () => {
      const { browser } = await atLoginPage();
      await browser.get('/api/v1/config');
      const res = await browser.postJson('/api/v1/account/login', { userName: 'ana@group.example', password: PASSWORD });
      expect(res.status).to.equal(403);
      expect(await res.json()).to.include({ code: 'account.use_professional_account', externalLoginRequired: true });
    });
  });
});
