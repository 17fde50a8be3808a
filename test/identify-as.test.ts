import { randomUUID } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { NOTIFICATION_HUB_EVENTS, NOTIFICATIONS_HUB_PATH } from '@gatehouse/contracts';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import sharp from 'sharp';
import { io, type Socket } from 'socket.io-client';
import { Browser } from './support/browser.js';
import { PKCE, PKCE_VERIFIER } from './support/flows.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: admin-console, name: admin-console, displayName: Console, type: public, firstParty: true, redirectUris: ['\${url}/admin-console/callback'], disclaimer: { en: 'Console terms.' } }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'], disclaimer: { en: 'Portal terms.' } }
  - { id: partner, name: partner, displayName: Partner, type: public, redirectUris: ['\${url}/partner/callback'] }
  - id: handbook
    name: handbook
    displayName: Staff handbook
    protocol: saml
    saml: { entityId: 'urn:example:handbook', assertionConsumerServices: [{ url: 'https://handbook.example.com/saml/acs' }] }
    roles: [{ name: Reader }]
    disclaimer: { en: 'The handbook is confidential.' }
users:
  - { userName: god@example.com, firstName: Grace, lastName: Odin, area: Default, language: en, password: '${PASSWORD}', memberships: [{ tenant: Global, application: '1', roles: [God] }] }
  - { userName: zeus@example.com, firstName: Zeus, area: Default, language: en, password: '${PASSWORD}', memberships: [{ tenant: Global, application: '1', roles: [God] }] }
  - { userName: ada@example.com, firstName: Ada, lastName: Admin, area: Default, language: en, password: '${PASSWORD}', memberships: [{ tenant: Global, application: '1', roles: [Administrator] }] }
  - { userName: tom@example.com, firstName: Tom, area: Default, language: en, password: '${PASSWORD}', memberships: [{ tenant: Global, application: '1', roles: [User] }] }
  - { userName: lou@example.com, area: Default, language: en, password: '${PASSWORD}' }
`;

/** The portal's scopes and the console's, as `/api/v1/config` gives them. */
const PORTAL_SCOPE = 'openid profile email roles offline_access';
const CONSOLE_SCOPE = 'openid profile email roles offline_access admin';

interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  expires_in: number;
  error?: string;
}

describe('Identify As: a God user signed in as another user, end to end', function () {
  this.timeout(180_000);
  let server: TestServer;
  const ids = new Map<string, string>();

  before(async () => {
    server = await startTestServer({
      bootstrap: BOOTSTRAP,
      overrides: { 'oidc.portalClientId': 'spa', 'identifyAs.enabled': true, 'identifyAs.maxMinutes': 5 },
    });
    for (const row of await db(`SELECT id, user_name FROM users`)) ids.set(row.user_name as string, row.id as string);
  });
  after(() => server?.stop());

  const db = (sql: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> => server.server.context.dataSource.query(sql, params);
  const idOf = (userName: string) => ids.get(userName)!;

  /** Starts an authorization of `client` in `browser`: where the provider sends it (with prompt=none when `silent`). */
  async function authorize(browser: Browser, client: string, scope: string, silent = false) {
    const params = new URLSearchParams({ client_id: client, response_type: 'code', scope, redirect_uri: `${server.url}/${client}/callback`, ...PKCE });
    if (silent) params.set('prompt', 'none');
    const res = await browser.get(`/oidc/auth?${params}`);
    return new URL(res.headers.get('location')!, server.url);
  }

  async function redeem(client: string, callback: URL): Promise<Tokens> {
    const code = callback.searchParams.get('code');
    expect(code, `no code in ${callback}`).to.be.a('string');
    return token(client, { grant_type: 'authorization_code', code: code!, redirect_uri: `${server.url}/${client}/callback`, code_verifier: PKCE_VERIFIER });
  }

  async function token(client: string, form: Record<string, string>): Promise<Tokens> {
    const res = await fetch(`${server.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: client, ...form }),
    });
    return (await res.json()) as Tokens;
  }

  /** A browser signed in as `userName` (a provider session), and its tokens for `client`. */
  async function signIn(userName: string, client = 'admin-console', scope = CONSOLE_SCOPE, browser = new Browser(server.url)) {
    const loginPage = await authorize(browser, client, scope);
    expect(loginPage.pathname).to.equal('/account/login');
    await browser.get('/api/v1/config');
    const login = await browser.postJson('/api/v1/account/login', { userName, password: PASSWORD, interaction: loginPage.searchParams.get('interaction') });
    const { redirectTo } = (await login.json()) as { redirectTo: string };
    const { url } = await browser.follow(redirectTo);
    return { browser, tokens: await redeem(client, new URL(url)) };
  }

  /** Tokens for `client` from the browser's provider session, without a prompt. */
  async function silently(browser: Browser, client: string, scope: string): Promise<Tokens> {
    const { url } = await browser.follow((await authorize(browser, client, scope, true)).toString());
    return redeem(client, new URL(url));
  }

  async function api(method: string, path: string, bearer: string, body?: unknown) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, 'accept-language': 'en', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  }

  async function startIdentifyAs(consoleToken: string, target: string): Promise<string> {
    const res = await api('POST', `/api/v1/admin/dashboard/identifyAs/${idOf(target)}`, consoleToken);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.redirectUrl as string;
  }

  /** Grace (God) signed in to the console, then signed in as `target` in the same browser. */
  async function graceAs(target: string) {
    const { browser, tokens } = await signIn('god@example.com');
    const redirectUrl = await startIdentifyAs(tokens.access_token, target);
    const start = await browser.get(redirectUrl);
    expect(start.status, await start.clone().text()).to.equal(303);
    expect(start.headers.get('location')).to.equal('/');
    expect(start.headers.get('referrer-policy')).to.equal('no-referrer');
    return { browser, consoleToken: tokens.access_token, redirectUrl };
  }

  const userinfo = async (accessToken: string) => {
    const res = await fetch(`${server.url}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    return { status: res.status, body: res.status === 200 ? ((await res.json()) as Record<string, unknown>) : {} };
  };

  /** Rows written in the background (session logs) appear within a moment. */
  async function eventually<T>(read: () => Promise<T[]>): Promise<T[]> {
    for (let i = 0; i < 40; i++) {
      const rows = await read();
      if (rows.length) return rows;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return read();
  }

  const sockets: Socket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });

  /** A console's connection to the notification hub with `accessToken` in its handshake. */
  function hubSocket(accessToken: string): Socket {
    const socket = io(server.url, { path: NOTIFICATIONS_HUB_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: accessToken } });
    sockets.push(socket);
    return socket;
  }

  /** Whether the hub accepted the connection (BeginConnection) or refused it (connect_error). */
  function handshake(socket: Socket): Promise<'accepted' | 'refused'> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('neither accepted nor refused')), 5000);
      const settle = (outcome: 'accepted' | 'refused') => () => {
        clearTimeout(timer);
        resolve(outcome);
      };
      socket.once(NOTIFICATION_HUB_EVENTS.beginConnection, settle('accepted'));
      socket.once('connect_error', settle('refused'));
    });
  }

  /** Why the socket was disconnected; rejects when it is still connected after 5 s. */
  function disconnection(socket: Socket): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('still connected after 5 s')), 5000);
      socket.once('disconnect', (reason: string) => {
        clearTimeout(timer);
        resolve(reason);
      });
    });
  }

  it("switches the God user's browser to the user: the portal's and the console's tokens and userinfo carry act, capped at the end", async () => {
    const { browser } = await graceAs('ada@example.com');
    const grace = idOf('god@example.com');
    const [impersonation] = await db(`SELECT id FROM impersonations WHERE actor_id = $1 AND ended_at IS NULL`, [grace]);
    // The actor (RFC 8693), and the impersonation itself: a token outlives neither.
    const act = { sub: grace, name: 'Grace Odin', impersonation_id: impersonation!.id };

    const portal = await silently(browser, 'spa', PORTAL_SCOPE);
    const idToken = decodeJwt(portal.id_token);
    expect(idToken.sub).to.equal(idOf('ada@example.com'));
    expect(idToken.act).to.deep.equal(act);
    // Five minutes at most (the configured end), whatever the usual lifetime (an hour).
    expect(portal.expires_in).to.be.at.most(300);
    expect((idToken.exp as number) - (idToken.iat as number)).to.be.at.most(300);
    const me = await userinfo(portal.access_token);
    expect(me.status).to.equal(200);
    expect(me.body).to.include({ sub: idOf('ada@example.com') });
    expect(me.body.act).to.deep.equal(act);

    const console = await silently(browser, 'admin-console', CONSOLE_SCOPE);
    const access = decodeJwt(console.access_token);
    expect(access.sub).to.equal(idOf('ada@example.com'));
    expect(access.act).to.deep.equal(act);
    expect(access.roles).to.deep.equal(['Administrator']);
    expect((access.exp as number) - (access.iat as number)).to.be.at.most(300);

    // A refresh keeps the actor and the cap.
    const refreshed = await token('spa', { grant_type: 'refresh_token', refresh_token: portal.refresh_token! });
    expect(refreshed.error, JSON.stringify(refreshed)).to.equal(undefined);
    expect(decodeJwt(refreshed.id_token).act).to.deep.equal(act);
    expect(refreshed.expires_in).to.be.at.most(300);

    // Every log row written meanwhile names Grace: the session log of the tokens, the system log of a change.
    const sessionRows = await eventually(() => db(`SELECT actor_id FROM session_logs WHERE user_id = $1 AND actor_id IS NOT NULL`, [idOf('ada@example.com')]));
    expect(sessionRows.map((row) => row.actor_id)).to.include(grace);
    const [area] = await db(`SELECT id FROM areas WHERE name = 'Default'`);
    const created = await api('POST', '/api/v1/admin/groups', console.access_token, { name: 'Made on behalf', areaId: area!.id });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const [change] = await db(`SELECT user_id, actor_id FROM system_logs WHERE operation = 'CreateGroup' AND metadata::text LIKE '%Made on behalf%'`);
    expect(change).to.deep.equal({ user_id: idOf('ada@example.com'), actor_id: grace });

    // The Logs page says who acted, to another God user.
    const zeus = await signIn('zeus@example.com');
    const logs = await api('GET', '/api/v1/admin/logs/systemlog?operation=CreateGroup', zeus.tokens.access_token);
    const row = (logs.body.items as Array<Record<string, unknown>>).find((item) => item.userId === idOf('ada@example.com'));
    expect(row).to.include({ actorId: grace, actorName: 'Grace Odin' });
    const start = await api('GET', `/api/v1/admin/logs/systemlog?operation=IdentifyAs&metadataUserId=${idOf('ada@example.com')}`, zeus.tokens.access_token);
    expect(start.body.count).to.be.at.least(1);
  });

  it("ends the God user's own session and grants at the start: their portal refresh token no longer works", async () => {
    const { browser, tokens } = await signIn('god@example.com');
    const own = await silently(browser, 'spa', PORTAL_SCOPE);
    const redirectUrl = await startIdentifyAs(tokens.access_token, 'tom@example.com');
    expect((await browser.get(redirectUrl)).status).to.equal(303);
    const refreshed = await token('spa', { grant_type: 'refresh_token', refresh_token: own.refresh_token! });
    expect(refreshed.error).to.equal('invalid_grant');
    expect((await userinfo(own.access_token)).status).to.equal(401);
  });

  it('redeems a code once, within its minute, only in the browser of the God user who asked for it', async () => {
    const grace = await signIn('god@example.com');
    const redirectUrl = await startIdentifyAs(grace.tokens.access_token, 'tom@example.com');
    expect(redirectUrl).to.match(new RegExp(`^${server.url}/api/v1/account/identifyAs/start\\?code=[A-Za-z0-9_-]{40,}$`));
    const code = new URL(redirectUrl).searchParams.get('code')!;
    const [stored] = await db(`SELECT token_hash, context FROM user_tokens WHERE user_id = $1 AND purpose = 'IdentifyAs' ORDER BY created_at DESC LIMIT 1`, [idOf('god@example.com')]);
    expect(stored!.token_hash).to.not.equal(code);
    expect(stored!.context).to.deep.equal({ targetId: idOf('tom@example.com') });

    // Another user's session, or none: refused, and the code stays its owner's.
    const ada = await signIn('ada@example.com');
    const stranger = await ada.browser.get(redirectUrl, { 'accept-language': 'en' });
    expect(stranger.status).to.equal(403);
    expect(await stranger.text()).to.contain('This sign-in link was issued to another user');
    expect((await new Browser(server.url).get(redirectUrl)).status).to.equal(403);
    expect((await db(`SELECT 1 FROM impersonations WHERE target_id = $1 AND actor_id = $2`, [idOf('tom@example.com'), idOf('ada@example.com')])).length).to.equal(0);

    // Its owner redeems it once; the second time, it is spent.
    expect((await grace.browser.get(redirectUrl)).status).to.equal(303);
    const again = await grace.browser.get(redirectUrl, { 'accept-language': 'en' });
    expect(again.status).to.equal(400);
    expect(again.headers.get('content-type')).to.match(/text\/html/);
    expect(await again.text()).to.contain('This sign-in link is invalid, used or expired');

    // A code older than its minute is refused.
    const zeus = await signIn('zeus@example.com');
    const late = await startIdentifyAs(zeus.tokens.access_token, 'tom@example.com');
    await db(`UPDATE user_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND purpose = 'IdentifyAs' AND consumed_at IS NULL`, [idOf('zeus@example.com')]);
    expect((await zeus.browser.get(late)).status).to.equal(400);
  });

  it('lets only one of two simultaneous redemptions of a code through', async () => {
    const grace = await signIn('god@example.com');
    const redirectUrl = await startIdentifyAs(grace.tokens.access_token, 'tom@example.com');
    const before = await db(`SELECT count(*)::int AS n FROM impersonations WHERE actor_id = $1`, [idOf('god@example.com')]);
    const answers = await Promise.all([grace.browser.get(redirectUrl), grace.browser.get(redirectUrl)]);
    expect(answers.filter((answer) => answer.status === 303)).to.have.length(1);
    expect(answers.filter((answer) => answer.status !== 303).map((answer) => answer.status)).to.satisfy((statuses: number[]) => statuses.every((s) => s === 400 || s === 403));
    const after = await db(`SELECT count(*)::int AS n FROM impersonations WHERE actor_id = $1`, [idOf('god@example.com')]);
    expect(after[0]!.n).to.equal((before[0]!.n as number) + 1);
  });

  it("ends the God user's previous impersonation when they start another: one user at a time", async () => {
    const first = await graceAs('tom@example.com');
    const tom = await silently(first.browser, 'spa', PORTAL_SCOPE);
    await graceAs('ada@example.com');
    expect((await token('spa', { grant_type: 'refresh_token', refresh_token: tom.refresh_token! })).error).to.equal('invalid_grant');
    const open = await db(`SELECT target_id FROM impersonations WHERE actor_id = $1 AND ended_at IS NULL`, [idOf('god@example.com')]);
    expect(open.map((row) => row.target_id)).to.deep.equal([idOf('ada@example.com')]);
  });

  it('refuses who may not start one: another role, a personal access token, the user themself, a God user, a locked or pending account, and while signed in as someone', async () => {
    const grace = await signIn('god@example.com');
    const ada = await signIn('ada@example.com');
    const refusal = async (bearer: string, target: string) => api('POST', `/api/v1/admin/dashboard/identifyAs/${target}`, bearer);

    expect((await refusal(ada.tokens.access_token, idOf('tom@example.com'))).status).to.equal(403);
    const pat = await api('POST', '/api/v1/keys', grace.tokens.access_token, { name: 'ci', applicationName: 'identity' });
    expect(pat.status, JSON.stringify(pat.body)).to.equal(201);
    expect(await refusal(pat.body.token as string, idOf('tom@example.com'))).to.deep.include({ status: 403 });
    expect((await refusal(pat.body.token as string, idOf('tom@example.com'))).body.message).to.equal(
      'Signing in as another user needs a console session, not a personal access token',
    );
    expect((await refusal(grace.tokens.access_token, idOf('god@example.com'))).body.code).to.equal('identifyAs.self');
    expect((await refusal(grace.tokens.access_token, idOf('zeus@example.com'))).body.code).to.equal('identifyAs.target_god');
    await db(`UPDATE users SET locked = true WHERE id = $1`, [idOf('lou@example.com')]);
    expect((await refusal(grace.tokens.access_token, idOf('lou@example.com'))).body.code).to.equal('identifyAs.target_locked');
    await db(`UPDATE users SET locked = false, draft = true WHERE id = $1`, [idOf('lou@example.com')]);
    expect((await refusal(grace.tokens.access_token, idOf('lou@example.com'))).body.code).to.equal('identifyAs.target_draft');
    await db(`UPDATE users SET draft = false WHERE id = $1`, [idOf('lou@example.com')]);
    expect((await refusal(grace.tokens.access_token, '00000000-0000-4000-8000-000000000001')).status).to.equal(404);

    // Signed in as Ada (an administrator, not God), the console cannot start another.
    const { browser } = await graceAs('ada@example.com');
    const asAda = await silently(browser, 'admin-console', CONSOLE_SCOPE);
    expect((await refusal(asAda.access_token, idOf('tom@example.com'))).status).to.equal(403);
  });

  it('is off unless the deployment enables it: the console offers nothing, the calls answer 404', async () => {
    const grace = await signIn('god@example.com');
    const enabled = await api('GET', '/api/v1/admin/dashboard/identyfyasEnabled', grace.tokens.access_token);
    expect(enabled.body).to.deep.equal({ enabled: true, maxMinutes: 5 });
    const redirectUrl = await startIdentifyAs(grace.tokens.access_token, 'tom@example.com');
    const { config } = server.server.context;
    config.identifyAs.enabled = false;
    try {
      expect((await api('GET', '/api/v1/admin/dashboard/identyfyasEnabled', grace.tokens.access_token)).body).to.deep.equal({ enabled: false, maxMinutes: 5 });
      expect((await api('POST', `/api/v1/admin/dashboard/identifyAs/${idOf('tom@example.com')}`, grace.tokens.access_token)).status).to.equal(404);
      // A code issued before it was turned off is not honoured either.
      expect((await grace.browser.get(redirectUrl)).status).to.equal(404);
    } finally {
      config.identifyAs.enabled = true;
    }
  });

  it("refuses the user's own password, second factor, personal access tokens and data requests while signed in as them", async () => {
    const { browser } = await graceAs('tom@example.com');
    const portal = await silently(browser, 'spa', PORTAL_SCOPE);
    const reset = await api('GET', '/api/v1/profile/resetPassword/tom@example.com', portal.access_token);
    expect(reset.status).to.equal(403);
    expect(reset.body.code).to.equal('identifyAs.not_while_impersonating');
    expect((await api('POST', '/api/v1/profile/totp', portal.access_token, { password: PASSWORD })).body.code).to.equal('identifyAs.not_while_impersonating');
    const rights = await fetch(`${server.url}/api/v1/profile/excerciseRights`, { method: 'POST', headers: { authorization: `Bearer ${portal.access_token}` } });
    expect(rights.status).to.equal(403);
    // Nor their names, language or current company: the profile reads, and refuses every change.
    const tom = idOf('tom@example.com');
    const [before] = await db(`SELECT first_name, last_name, language, language_chosen_on, current_company_id FROM users WHERE id = $1`, [tom]);
    expect((await api('GET', '/api/v1/profile', portal.access_token)).status).to.equal(200);
    const rename = await api('PUT', '/api/v1/profile', portal.access_token, { firstName: 'Hacked', lastName: 'ByGod', language: 'de' });
    expect(rename.status, JSON.stringify(rename.body)).to.equal(403);
    expect(rename.body.code).to.equal('identifyAs.not_while_impersonating');
    const company = await api('PUT', '/api/v1/profile/currentCompany', portal.access_token, { tenantId: '00000000-0000-4000-8000-000000000001' });
    expect(company.status, JSON.stringify(company.body)).to.equal(403);
    expect(company.body.code).to.equal('identifyAs.not_while_impersonating');
    expect(await db(`SELECT first_name, last_name, language, language_chosen_on, current_company_id FROM users WHERE id = $1`, [tom])).to.deep.equal([before]);

    const ada = await graceAs('ada@example.com');
    const console = await silently(ada.browser, 'admin-console', CONSOLE_SCOPE);
    const pat = await api('POST', '/api/v1/keys', console.access_token, { name: 'mine', applicationName: 'identity' });
    expect(pat.status).to.equal(403);
    expect(pat.body.code).to.equal('identifyAs.not_while_impersonating');
  });

  it("refuses accepting the user's terms, changing their picture, downloading their data and approving a consent in their name while signed in as them", async () => {
    const { browser } = await graceAs('ada@example.com');
    const ada = idOf('ada@example.com');
    const portal = await silently(browser, 'spa', PORTAL_SCOPE);
    const console = await silently(browser, 'admin-console', CONSOLE_SCOPE);
    const refused = (answer: { status: number; body: Record<string, unknown> }) => {
      expect(answer.status, JSON.stringify(answer.body)).to.equal(403);
      expect(answer.body).to.include({ code: 'identifyAs.not_while_impersonating', message: 'This is not possible while signed in on behalf of another user' });
    };

    // The terms, from the portal's list and through the gate (with the portal's token, and with the console's).
    refused(await api('PUT', '/api/v1/profile/disclaimer/spa', portal.access_token, { version: 1 }));
    refused(await api('POST', `/api/v1/profile/disclaimer/${ada}/spa`, portal.access_token));
    refused(await api('POST', `/api/v1/profile/disclaimer/${ada}/admin-console`, console.access_token));
    expect(await db(`SELECT disclaimer_id FROM disclaimer_acceptances WHERE user_id = $1`, [ada])).to.deep.equal([]);
    // Reading whether they are accepted stays open: the console asks it before it shows anything.
    expect((await api('GET', `/api/v1/profile/disclaimer/${ada}/admin-console`, console.access_token)).body).to.include({ accepted: false });

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await sharp({ create: { width: 64, height: 64, channels: 3, background: '#2e86c1' } }).png().toBuffer())]), 'me.png');
    const picture = await fetch(`${server.url}/api/v1/profile/avatar`, { method: 'POST', headers: { authorization: `Bearer ${portal.access_token}`, 'accept-language': 'en' }, body: form });
    refused({ status: picture.status, body: (await picture.json()) as Record<string, unknown> });
    expect(await db(`SELECT user_id FROM user_avatars WHERE user_id = $1`, [ada])).to.deep.equal([]);

    const myData = await fetch(`${server.url}/api/v1/profile/myData`, { headers: { authorization: `Bearer ${portal.access_token}`, 'accept-language': 'en' } });
    expect(myData.status).to.equal(403);

    // A third-party application asks for consent: approving it would be the user's own grant.
    expect((await authorize(browser, 'partner', 'openid profile')).pathname).to.equal('/account/login');
    const details = (await (await browser.get('/api/v1/account/interaction')).json()) as { uid: string; prompt: string };
    expect(details.prompt).to.equal('consent');
    const approved = await browser.postJson('/api/v1/account/consent', { approve: true, interaction: details.uid }, { 'accept-language': 'fr' });
    expect(approved.status).to.equal(403);
    expect(await approved.json()).to.deep.include({
      code: 'identifyAs.not_while_impersonating',
      errors: ["Ce n'est pas possible lorsque vous êtes connecté pour le compte d'un autre utilisateur"],
    });
    const grants = await db(`SELECT id FROM oidc_model_instances WHERE model = 'Grant' AND payload->>'accountId' = $1 AND payload->>'clientId' = 'partner'`, [ada]);
    expect(grants).to.deep.equal([]);
    // Declining grants nothing: the application is told access_denied.
    const declined = (await (await browser.postJson('/api/v1/account/consent', { approve: false, interaction: details.uid })).json()) as { redirectTo: string };
    const { url } = await browser.follow(declined.redirectTo);
    expect(new URL(url).searchParams.get('error')).to.equal('access_denied');
  });

  it("refuses accepting a SAML application's terms in the user's name: the service provider gets no assertion", async () => {
    const { browser } = await graceAs('ada@example.com');
    const ada = idOf('ada@example.com');
    const request = `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>urn:example:handbook</saml:Issuer></samlp:AuthnRequest>`;
    const sso = await browser.get(`/saml/sso?${new URLSearchParams({ SAMLRequest: deflateRawSync(Buffer.from(request)).toString('base64') })}`);
    expect(sso.status, await sso.clone().text()).to.equal(303);
    // The provider session is Ada's (as Grace): no sign-in page, straight to the application's terms.
    const { response, url } = await browser.follow(sso.headers.get('location')!);
    expect(new URL(url).pathname).to.equal('/saml/continue');
    const gate = await response.text();
    expect(response.status, gate).to.equal(200);
    expect(gate).to.include('The handbook is confidential.');
    const fields = Object.fromEntries([...gate.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1]!, match[2]!]));
    const accepted = await browser.request('POST', '/saml/disclaimer', { form: { ...fields, decision: 'accept' } });
    const page = await accepted.text();
    expect(accepted.status, page).to.equal(403);
    expect(page).to.include('accepted by the user alone, not by someone signed in as them');
    expect(page).to.not.include('SAMLResponse');
    expect(await db(`SELECT disclaimer_id FROM disclaimer_acceptances WHERE user_id = $1`, [ada])).to.deep.equal([]);
  });

  it('drops the hub sockets of an impersonation when it ends from the portal, and refuses its token afterwards', async () => {
    const { browser } = await graceAs('ada@example.com');
    const portal = await silently(browser, 'spa', PORTAL_SCOPE);
    const console = await silently(browser, 'admin-console', CONSOLE_SCOPE);
    const socket = hubSocket(console.access_token);
    expect(await handshake(socket)).to.equal('accepted');
    const dropped = disconnection(socket);

    expect((await api('POST', '/api/v1/account/identifyAs/end', portal.access_token)).status).to.equal(200);

    expect(await dropped).to.equal('io server disconnect');
    expect(await handshake(hubSocket(console.access_token))).to.equal('refused');
  });

  it('refuses the tokens of an ended impersonation, even once the God user signs in as the same user again', async () => {
    const ada = idOf('ada@example.com');
    const first = await graceAs('ada@example.com');
    const firstPortal = await silently(first.browser, 'spa', PORTAL_SCOPE);
    const old = (await silently(first.browser, 'admin-console', CONSOLE_SCOPE)).access_token;
    expect((await api('GET', '/api/v1/admin/me', old)).status).to.equal(200);
    expect((await api('POST', '/api/v1/account/identifyAs/end', firstPortal.access_token)).status).to.equal(200);

    // The same God user, the same user: a new impersonation, with tokens of its own.
    const second = await graceAs('ada@example.com');
    const current = (await silently(second.browser, 'admin-console', CONSOLE_SCOPE)).access_token;
    expect((await api('GET', '/api/v1/admin/me', current)).status).to.equal(200);
    expect(await handshake(hubSocket(current))).to.equal('accepted');

    expect((await api('GET', '/api/v1/admin/me', old)).status).to.equal(401);
    expect(await handshake(hubSocket(old))).to.equal('refused');
    expect((await api('GET', `/api/v1/profile/disclaimer/${ada}/admin-console`, old)).status).to.equal(401);
  });

  it("refuses the portal's token on the profile API once its impersonation's time has come", async () => {
    const { browser } = await graceAs('tom@example.com');
    const portal = await silently(browser, 'spa', PORTAL_SCOPE);
    expect((await api('GET', '/api/v1/profile', portal.access_token)).status).to.equal(200);
    await db(`UPDATE impersonations SET expires_at = now() - interval '1 second' WHERE target_id = $1 AND ended_at IS NULL`, [idOf('tom@example.com')]);
    expect((await api('GET', '/api/v1/profile', portal.access_token)).status).to.equal(401);
  });

  it('ends from the portal: logged, the session closed and its tokens revoked, nothing refreshed any more', async () => {
    const { browser } = await graceAs('ada@example.com');
    const portal = await silently(browser, 'spa', PORTAL_SCOPE);
    const console = await silently(browser, 'admin-console', CONSOLE_SCOPE);
    expect((await api('GET', '/api/v1/admin/me', console.access_token)).status).to.equal(200);

    const ended = await api('POST', '/api/v1/account/identifyAs/end', portal.access_token);
    expect(ended.status, JSON.stringify(ended.body)).to.equal(200);
    expect(ended.body).to.include({ success: true, redirectTo: '/' });

    const [row] = await db(`SELECT ended_at, end_reason FROM impersonations WHERE target_id = $1 ORDER BY started_at DESC LIMIT 1`, [idOf('ada@example.com')]);
    expect(row!.end_reason).to.equal('Ended');
    const [log] = await db(`SELECT user_id, actor_id, metadata FROM system_logs WHERE operation = 'EndIdentifyAs' ORDER BY id DESC LIMIT 1`);
    expect(log).to.deep.include({ user_id: idOf('ada@example.com'), actor_id: idOf('god@example.com') });
    expect((log!.metadata as { reason: string }).reason).to.equal('Ended');

    expect((await token('spa', { grant_type: 'refresh_token', refresh_token: portal.refresh_token! })).error).to.equal('invalid_grant');
    expect((await userinfo(portal.access_token)).status).to.equal(401);
    // The console's JWT stops with the impersonation, not at its own expiry.
    expect((await api('GET', '/api/v1/admin/me', console.access_token)).status).to.equal(401);
    // The browser has no session any more: an application asking silently is told to sign in.
    const silent = await authorize(browser, 'spa', PORTAL_SCOPE, true);
    expect(silent.searchParams.get('error')).to.equal('login_required');
    // Nothing left to end.
    expect((await api('POST', '/api/v1/account/identifyAs/end', portal.access_token)).status).to.equal(401);
  });

  it('ends by itself at its time: no token refreshed or issued from that session, the browser sent to sign in', async () => {
    const { browser } = await graceAs('tom@example.com');
    const portal = await silently(browser, 'spa', PORTAL_SCOPE);
    await db(`UPDATE impersonations SET expires_at = now() - interval '1 second' WHERE target_id = $1 AND ended_at IS NULL`, [idOf('tom@example.com')]);

    expect((await token('spa', { grant_type: 'refresh_token', refresh_token: portal.refresh_token! })).error).to.equal('invalid_grant');
    expect((await userinfo(portal.access_token)).status).to.equal(401);
    const silent = await authorize(browser, 'spa', PORTAL_SCOPE, true);
    expect(silent.searchParams.get('error')).to.equal('login_required');
    const [row] = await db(`SELECT end_reason FROM impersonations WHERE target_id = $1 ORDER BY started_at DESC LIMIT 1`, [idOf('tom@example.com')]);
    expect(row!.end_reason).to.equal('Expired');
    const logs = await db(`SELECT metadata FROM system_logs WHERE operation = 'EndIdentifyAs' AND user_id = $1`, [idOf('tom@example.com')]);
    expect(logs.map((log) => (log.metadata as { reason: string }).reason)).to.include('Expired');

    // Asked again, the browser goes to the sign-in page; the God user signing in gets a session of their own.
    const again = await signIn('god@example.com', 'spa', PORTAL_SCOPE, browser);
    const own = decodeJwt(again.tokens.id_token);
    expect(own.sub).to.equal(idOf('god@example.com'));
    expect(own).to.not.have.property('act');
    expect((await token('spa', { grant_type: 'refresh_token', refresh_token: again.tokens.refresh_token! })).error).to.equal(undefined);
  });
});
