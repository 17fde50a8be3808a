import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { Browser } from './support/browser.js';
import { PKCE, tokensAfter } from './support/flows.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, redirectUris: ['\${url}/admin-console/callback'] }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'] }
users:
  - userName: god@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Global, application: '1', roles: [God, Administrator] }]
  - userName: admin@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Global, application: '1', roles: [Administrator] }]
  - { userName: ivy@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: jack@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: kate@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: ann@group.example, area: Default, language: en, password: '${PASSWORD}' }
`;

/** Limits high enough that only the account lockout decides. */
const NO_THROTTLE = {
  'security.signInRequestsPerMinute': 1_000_000,
  'security.failuresPerAddressPerHour': 1_000_000,
  'security.failuresPerAccountAndAddressPerDay': 1_000_000,
};

interface Tokens {
  access_token: string;
  id_token: string;
  expires_in: number;
}

describe('security configuration: applied at once, without a restart', function () {
  this.timeout(120_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP, overrides: { 'oidc.portalClientId': 'spa', ...NO_THROTTLE } });
  });
  after(() => server?.stop());

  /** A browser at the sign-in page of a new authorization request of `client`. */
  async function signInPage(client: string, scope: string): Promise<Browser> {
    const browser = new Browser(server.url);
    const params = new URLSearchParams({ client_id: client, response_type: 'code', scope, redirect_uri: `${server.url}/${client}/callback`, ...PKCE });
    await browser.get(`/oidc/auth?${params}`);
    await browser.get('/api/v1/config');
    return browser;
  }

  const login = async (browser: Browser, userName: string, password = PASSWORD) => {
    const res = await browser.postJson('/api/v1/account/login', { userName, password }, { 'accept-language': 'en' });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { errors: string[] } };
  };

  /** Signs in to `client` with the password and redeems the code. */
  async function tokensFor(userName: string, client = 'spa', scope = 'openid profile'): Promise<Tokens> {
    const browser = await signInPage(client, scope);
    const { body } = await login(browser, userName);
    expect(body.success, JSON.stringify(body)).to.equal(true);
    return tokensAfter<Tokens>(server, browser, String(body.redirectTo), client);
  }

  const consoleToken = async (userName = 'god@example.com') => (await tokensFor(userName, 'admin-console', 'openid profile admin')).access_token;

  const adminApi = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  const setConfig = async (id: string, yaml: string) => {
    const res = await adminApi(await consoleToken(), 'PUT', `/securityConfig/${id}`, { body: yaml });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };

  it('locks an account at the third wrong password once God lowers the threshold to 3', async () => {
    const before = await login(await signInPage('spa', 'openid'), 'ivy@example.com', 'Wrong-password-1!');
    expect(before.body.errors, 'five attempts by default').to.deep.equal(['Incorrect username or password. 4 attempts left']);

    await setConfig('Lockout', 'maxFailedAttempts: 3\nlockoutMinutes: 10');
    const browser = await signInPage('spa', 'openid');
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await login(browser, 'jack@example.com', `Wrong-password-${i}!`));
    expect(answers.map((a) => a.status)).to.deep.equal([401, 401, 423]);
    expect(answers[1]!.body.errors).to.deep.equal(['Incorrect username or password. 1 attempt left']);
    expect(answers[2]!.body.code).to.equal('account.locked');
    // The message and the field name the threshold in force, not the default.
    expect(String((answers[2]!.body.errors as string[])[0])).to.match(/^Your account is locked after 3 failed attempts\. Try again after /);
    expect(answers[2]!.body.lockedAfter).to.equal(3);
    const [row] = await server.server.context.dataSource.query(
      `SELECT lockout_end - now() AS remaining FROM users WHERE normalized_user_name = 'jack@example.com'`,
    );
    expect(row.remaining.minutes, 'locked for the configured 10 minutes').to.be.oneOf([9, 10]);
    expect((await login(browser, 'jack@example.com')).status, 'the right password too, while locked').to.equal(423);
  });

  it('issues the next tokens with the new lifetimes', async () => {
    const before = await tokensFor('kate@example.com');
    expect(before.expires_in).to.equal(3600);

    await setConfig('TokenLifetimes', 'accessTokenSeconds: 300\nidTokenSeconds: 600\nadminApiAccessTokenSeconds: 120');
    const after = await tokensFor('kate@example.com');
    expect(after.expires_in).to.equal(300);
    const idToken = decodeJwt(after.id_token);
    expect(idToken.exp! - idToken.iat!).to.equal(600);
    const adminToken = decodeJwt(await consoleToken());
    expect(adminToken.exp! - adminToken.iat!, 'the console’s admin API token').to.equal(120);
  });

  it('refuses a password the new policy refuses at the next change, and the pages read the policy from the configuration', async () => {
    await setConfig('PasswordPolicy', 'minLength: 18');
    const config = (await (await fetch(`${server.url}/api/v1/config`)).json()) as { policy: { minLength: number } };
    expect(config.policy).to.include({ minLength: 18, historySize: 7, maxAgeDays: 90 });

    await server.server.context.dataSource.query(`UPDATE users SET password_changed_at = now() - interval '91 days' WHERE normalized_user_name = 'kate@example.com'`);
    const browser = await signInPage('spa', 'openid');
    const { body } = await login(browser, 'kate@example.com');
    expect(body).to.include({ success: false, changePassword: true });
    const change = async (newPassword: string) => {
      const res = await browser.postJson('/api/v1/account/changePassword', { token: body.token, newPassword, confirmPassword: newPassword }, { 'accept-language': 'en' });
      return { status: res.status, body: (await res.json()) as { errors: string[] } };
    };
    const short = await change('Fresh-Horse-42!x');
    expect(short.status).to.equal(400);
    expect(short.body.errors).to.deep.equal(['The password must have at least 18 characters']);
    expect((await change('Fresh-Horse-42!-long-enough')).status).to.equal(200);
  });

  it('requires the Microsoft sign-in from the new group domains, and the login page learns them', async () => {
    expect((await login(await signInPage('spa', 'openid'), 'ann@group.example')).status, 'not a group domain yet').to.equal(200);

    await setConfig('GroupDomains', 'domains: [group.example]\ndomainFragment: grupo-es');
    const config = (await (await fetch(`${server.url}/api/v1/config`)).json()) as { groupDomains: string[]; groupDomainFragment?: string };
    expect(config).to.deep.include({ groupDomains: ['group.example'], groupDomainFragment: 'grupo-es' });
    const refused = await login(await signInPage('spa', 'openid'), 'ann@group.example');
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('account.use_professional_account');
  });

  it('keeps the settings to God: an Administrator is refused and nothing changes', async () => {
    const god = await consoleToken();
    const before = (await adminApi(god, 'GET', '/securityConfig/Lockout')).body;
    const res = await adminApi(await consoleToken('admin@example.com'), 'PUT', '/securityConfig/Lockout', { body: 'maxFailedAttempts: 1' });
    expect(res.status).to.equal(403);
    expect((await adminApi(god, 'GET', '/securityConfig/Lockout')).body).to.deep.equal(before);
  });

  describe('the inspector, with the provider’s own tokens', () => {
    it('recognises an ID token, an opaque access token and the console’s JWT, each vouched for, with the subject’s roles now', async () => {
      const admin = await consoleToken('admin@example.com');
      const portal = await tokensFor('ivy@example.com');
      const inspect = async (token: string) => (await adminApi(admin, 'POST', '/inspector', { token })).body;

      const id = await inspect(portal.id_token);
      expect(id).to.deep.include({ kind: 'idToken', signature: 'valid', issuedByThisProvider: true, state: 'active' });
      expect((id.subject as { userName: string }).userName).to.equal('ivy@example.com');

      const opaque = await inspect(portal.access_token);
      expect(opaque).to.deep.include({ kind: 'opaqueAccessToken', state: 'active', claims: null });
      expect((opaque.subject as { userName: string }).userName).to.equal('ivy@example.com');

      const jwt = await inspect(admin);
      expect(jwt).to.deep.include({ kind: 'accessToken', signature: 'valid', state: 'active' });
      const groups = jwt.effectiveRoles as Array<{ applicationName: string; tenantName: string; roles: Array<{ roleName: string; hierarchyType: string }> }>;
      expect(groups.map((g) => [g.applicationName, g.tenantName, g.roles.map((r) => `${r.roleName} ${r.hierarchyType}`)])).to.deep.equal([
        ['identity', 'Global', ['Administrator Own']],
      ]);
    });

    it('reports a revoked access token as not recognised', async () => {
      const admin = await consoleToken('admin@example.com');
      const portal = await tokensFor('ivy@example.com');
      await fetch(`${server.url}/oidc/token/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: portal.access_token, client_id: 'spa' }),
      });
      const res = await adminApi(admin, 'POST', '/inspector', { token: portal.access_token });
      expect(res.body).to.deep.include({ kind: 'unknown', subject: null });
    });
  });
});
