// Two nodes of the product, each its own process, on one PostgreSQL database and one Redis, behind
// a proxy that alternates between them: nothing a user does may depend on reaching the same node
// twice. Runs with DATABASE_URL and REDIS_URL set (a fresh database is made on that server).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NOTIFICATION_HUB_EVENTS, NOTIFICATIONS_HUB_PATH } from '@gatehouse/contracts';
import { createTestDatabase, type TestDatabase } from '@gatehouse/core/testing';
import { expect } from 'chai';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { Browser } from '../support/browser.js';
import { AlternatingProxy, freePort, startNode, type ProductNode } from './cluster.js';

const PASSWORD = 'Correct-Horse-42!';
/** RFC 7636's example verifier and its S256 challenge. */
const PKCE_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const PKCE = { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };
const ADMIN = { userName: 'admin@example.com', password: 'Admin-password-123!' };
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
applications:
  - id: '1'
    name: identity
    displayName: Identity Management
    type: public
    roles: [{ name: God }, { name: Administrator }, { name: User }]
  - { id: portal, name: portal, displayName: Portal, type: public, firstParty: true, grantTypes: [authorization_code, refresh_token], redirectUris: ['\${publicUrl}/auth/callback'] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, grantTypes: [authorization_code, refresh_token], redirectUris: ['\${publicUrl}/admin/auth/callback'] }
users:
  - { userName: walker@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: racer@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: guessed@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: ann@example.com, area: Default, language: en, password: '${PASSWORD}', memberships: [{ tenant: Global, application: '1', roles: [Administrator] }] }
`;
const CALLBACK = { portal: '/auth/callback', 'admin-console': '/admin/auth/callback' } as const;
type Client = keyof typeof CALLBACK;

interface Tokens {
  access_token?: string;
  error?: string;
}

const external = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe('several nodes: two product processes on one PostgreSQL and Redis, behind an alternating proxy', function () {
  if (!external) {
    // Without a shared database and Redis there is nothing to share between processes.
    it('is pending: it needs DATABASE_URL and REDIS_URL (a PostgreSQL server and Redis that both nodes reach)');
    return;
  }
  this.timeout(240_000);

  let database: TestDatabase;
  let db: pg.Client;
  let proxy: AlternatingProxy;
  const nodes: ProductNode[] = [];
  const node = (name: string) => nodes.find((n) => n.name === name)!;

  before(async () => {
    database = await createTestDatabase();
    const proxyPort = await freePort();
    const publicUrl = `http://127.0.0.1:${proxyPort}`;
    proxy = await new AlternatingProxy(nodes).start(proxyPort);
    const bootstrap = path.join(mkdtempSync(path.join(tmpdir(), 'gatehouse-nodes-')), 'bootstrap.yaml');
    writeFileSync(bootstrap, BOOTSTRAP);
    const env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '5',
      REDIS_URL: process.env.REDIS_URL!,
      PUBLIC_URL: publicUrl,
      IDP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      IDP_BOOTSTRAP: bootstrap,
      IDP_ADMIN_USERNAME: ADMIN.userName,
      IDP_ADMIN_PASSWORD: ADMIN.password,
      // Only the account lockout decides here, not the per-address limits (one address sends everything).
      SIGN_IN_RATE_LIMIT: '100000',
      SIGN_IN_FAILURE_LIMIT: '100000',
      SIGN_IN_ACCOUNT_FAILURE_LIMIT: '100000',
    };
    // Both start at once on the empty database: migrations, bootstrap and first signing keys race.
    nodes.push(...(await Promise.all([startNode('A', env), startNode('B', env)])));
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      for (const n of nodes) console.log(`--- node ${n.name} ---\n${n.output().slice(-4000)}`);
    }
  });

  after(async () => {
    await Promise.allSettled(nodes.map((n) => n.stop()));
    await proxy?.stop();
    await db?.end();
    await database?.drop();
  });

  const servedBy = (res: Response) => res.headers.get('x-served-by');

  /** Makes the next request through the proxy go to another node than `name`. */
  const awayFrom = (name: string | null) => {
    if (proxy.next === name) proxy.skip();
  };

  const authorizePath = (client: Client, scope = 'openid') =>
    `/oidc/auth?${new URLSearchParams({ client_id: client, response_type: 'code', scope, redirect_uri: `${proxy.url}${CALLBACK[client]}`, state: 'st', ...PKCE })}`;

  /** Starts a sign-in at the provider: the browser, at the login page, and the node that started it. */
  async function startSignIn(client: Client = 'portal', scope?: string) {
    const browser = new Browser(proxy.url);
    await browser.get('/api/v1/config');
    const started = await browser.get(authorizePath(client, scope));
    expect(started.status).to.equal(303);
    expect(new URL(started.headers.get('location')!, proxy.url).pathname).to.equal('/account/login');
    return { browser, startedOn: servedBy(started) };
  }

  async function login(browser: Browser, userName: string, password: string) {
    const res = await browser.postJson('/api/v1/account/login', { userName, password }, { 'accept-language': 'en' });
    return { status: res.status, node: servedBy(res), body: (await res.json()) as { success: boolean; redirectTo: string | null; attemptsLeft?: number; code?: string } };
  }

  /** Follows the provider's redirects back to the client: the code and the node that issued it. */
  async function codeAfter(browser: Browser, redirectTo: string, client: Client = 'portal') {
    let url = new URL(redirectTo, proxy.url);
    for (let hops = 0; hops < 5; hops++) {
      const res = await browser.get(url.toString());
      const location = new URL(res.headers.get('location') ?? '', url);
      if (location.pathname === CALLBACK[client]) {
        const code = location.searchParams.get('code');
        expect(code, location.toString()).to.be.a('string');
        return { code: code!, issuedBy: servedBy(res) };
      }
      expect(res.status, `${url.pathname} answered ${res.status}`).to.be.within(300, 399);
      url = location;
    }
    throw new Error('no code after five redirects');
  }

  async function redeem(code: string, client: Client = 'portal', origin = proxy.url) {
    const res = await fetch(`${origin}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: client, redirect_uri: `${proxy.url}${CALLBACK[client]}`, code_verifier: PKCE_VERIFIER }),
    });
    return { status: res.status, node: servedBy(res), tokens: (await res.json()) as Tokens };
  }

  /** A full sign-in through the proxy: the tokens for `client`. */
  async function signIn(userName: string, password: string, client: Client = 'portal', scope?: string): Promise<string> {
    const { browser } = await startSignIn(client, scope);
    const answer = await login(browser, userName, password);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    const { code } = await codeAfter(browser, answer.body.redirectTo!, client);
    const { tokens } = await redeem(code, client);
    expect(tokens.access_token, JSON.stringify(tokens)).to.be.a('string');
    return tokens.access_token!;
  }

  it('publishes the same signing keys and issuer on both nodes, even though they started together on an empty database', async () => {
    const [jwksA, jwksB] = await Promise.all(nodes.map(async (n) => (await fetch(`${n.url}/oidc/jwks`)).json() as Promise<{ keys: Array<{ kid: string }> }>));
    expect(jwksA!.keys.length).to.be.at.least(1);
    expect(jwksB).to.deep.equal(jwksA);
    const [configA, configB] = await Promise.all(nodes.map(async (n) => (await fetch(`${n.url}/oidc/.well-known/openid-configuration`)).json() as Promise<{ issuer: string }>));
    expect(configA!.issuer).to.equal(`${proxy.url}/oidc`);
    expect(configB!.issuer).to.equal(configA!.issuer);
    const [{ count }] = (await db.query(`SELECT count(DISTINCT kid)::int AS count FROM signing_keys WHERE status = 'active'`)).rows as Array<{ count: number }>;
    expect(count, 'one set of keys was created, not one per node').to.equal(jwksA!.keys.length);
  });

  it('finishes on one node a sign-in started on the other, and redeems on one node the code the other issued', async () => {
    const { browser, startedOn } = await startSignIn();
    awayFrom(startedOn);
    const answer = await login(browser, 'walker@example.com', PASSWORD);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.node, 'the password was checked on the other node').to.not.equal(startedOn);

    const { code, issuedBy } = await codeAfter(browser, answer.body.redirectTo!);
    expect(issuedBy).to.be.oneOf(['A', 'B']);
    awayFrom(issuedBy);
    const redeemed = await redeem(code);
    expect(redeemed.node, 'the code was redeemed on the node that did not issue it').to.not.equal(issuedBy);
    expect(redeemed.status, JSON.stringify(redeemed.tokens)).to.equal(200);

    // The access token is good on both nodes.
    for (const n of nodes) {
      const userinfo = await fetch(`${n.url}/oidc/me`, { headers: { authorization: `Bearer ${redeemed.tokens.access_token}` } });
      expect(userinfo.status, `userinfo on ${n.name}`).to.equal(200);
      expect(((await userinfo.json()) as { sub: string }).sub).to.be.a('string');
    }
  });

  it('redeems a code exactly once when both nodes are asked for it at the same moment', async () => {
    const { browser } = await startSignIn();
    const answer = await login(browser, 'racer@example.com', PASSWORD);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    const { code } = await codeAfter(browser, answer.body.redirectTo!);

    const attempts = await Promise.all(Array.from({ length: 8 }, () => redeem(code)));
    expect(new Set(attempts.map((a) => a.node)), 'both nodes were asked').to.deep.equal(new Set(['A', 'B']));
    const won = attempts.filter((a) => a.status === 200);
    expect(won, attempts.map((a) => `${a.node}:${a.status}`).join(' ')).to.have.length(1);
    expect(won[0]!.tokens.access_token).to.be.a('string');
    for (const lost of attempts.filter((a) => a !== won[0])) {
      expect(lost.status).to.equal(400);
      expect(lost.tokens.error).to.equal('invalid_grant');
    }
  });

  it('counts wrong passwords across nodes: the fifth locks the account, on whichever node comes next', async () => {
    const { browser } = await startSignIn();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await login(browser, 'guessed@example.com', `Wrong-guess-${i}!`));
    expect(new Set(answers.map((a) => a.node)), 'the guesses were spread over both nodes').to.deep.equal(new Set(['A', 'B']));
    expect(answers.slice(0, 4).map((a) => [a.status, a.body.attemptsLeft])).to.deep.equal([
      [401, 4],
      [401, 3],
      [401, 2],
      [401, 1],
    ]);
    expect(answers[4]!.status).to.equal(423);
    expect(answers[4]!.body.code).to.equal('account.locked');

    // The right password now waits for the lock to end, on both nodes.
    const rightOnes = [await login(browser, 'guessed@example.com', PASSWORD), await login(browser, 'guessed@example.com', PASSWORD)];
    expect(rightOnes.map((a) => a.node).sort()).to.deep.equal(['A', 'B']);
    for (const answer of rightOnes) {
      expect(answer.status).to.equal(423);
      expect(answer.body.success).to.equal(false);
    }
    const { rows } = await db.query(`SELECT lockout_end > now() AS locked, lockout_count FROM users WHERE normalized_user_name = 'guessed@example.com'`);
    expect(rows[0]).to.deep.equal({ locked: true, lockout_count: 1 });
  });

  describe('live notifications', () => {
    const sockets: Socket[] = [];
    after(() => {
      for (const socket of sockets) socket.disconnect();
    });

    it('reaches a console connected to one node when the notification is made on the other', async () => {
      const annToken = await signIn('ann@example.com', PASSWORD, 'admin-console', 'openid profile admin');
      const adminToken = await signIn(ADMIN.userName, ADMIN.password, 'admin-console', 'openid profile admin');

      // Ann's console holds its socket on node B.
      const socket = io(node('B').url, { path: NOTIFICATIONS_HUB_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: annToken } });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once(NOTIFICATION_HUB_EVENTS.beginConnection, () => resolve());
        socket.once('connect_error', reject);
      });
      const arriving = new Promise<{ type: string; description: string; userId: string }>((resolve) => socket.once(NOTIFICATION_HUB_EVENTS.newNotification, resolve));

      // The administrator gives Ann a role through node A: the grant's notification is made there.
      const [ann] = (await db.query(`SELECT id FROM users WHERE normalized_user_name = 'ann@example.com'`)).rows as Array<{ id: string }>;
      const [role] = (await db.query(`SELECT id FROM roles WHERE application_id = '1' AND name = 'User'`)).rows as Array<{ id: string }>;
      const grant = await fetch(`${node('A').url}/api/v1/admin/users/${ann!.id}/roles/1`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json', 'accept-language': 'en' },
        body: JSON.stringify({ roleIds: [role!.id] }),
      });
      expect(grant.status, await grant.clone().text()).to.equal(200);

      const notification = await arriving;
      expect(notification).to.include({ type: 'PermissionAssigned', userId: ann!.id });
      expect(notification.description).to.contain('User');
      const [stored] = (await db.query(`SELECT id FROM notifications WHERE user_id = $1 AND type = 'PermissionAssigned'`, [ann!.id])).rows as Array<{ id: string }>;
      expect(stored, 'the notification was stored once').to.not.equal(undefined);
    });
  });
});
