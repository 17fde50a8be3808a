import { execFile } from 'node:child_process';
import FakeTimers from '@sinonjs/fake-timers';
import { totpCode } from '@gatehouse/core';
import { expect } from 'chai';
import { Browser } from './support/browser.js';
import { PKCE, accessTokenAfter } from './support/flows.js';
import { ROOT } from './support/product.js';
import { startTestServer, type TestServer } from './support/server.js';
import { MailCatcher } from './support/smtp.js';

const PASSWORD = 'Correct-Horse-42!';
const USERS = ['burst', 'nodes', 'coded', 'enrol', 'disable', 'stale', 'downgrade', 'spray', 'queue', 'mailbomb', 'resend', 'breakglass'];
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
tenants:
  - { title: Secure Corp, area: Default, requiredTwoModeAuthentification: true }
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'] }
  - { id: crm, name: crm, displayName: CRM, type: public, firstParty: true, redirectUris: ['\${url}/crm/callback'] }
users:
${USERS.map((name) => `  - { userName: ${name}@example.com, area: Default, language: en, password: '${PASSWORD}' }`).join('\n')}
  - userName: coded2@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Secure Corp, application: '1', roles: [User] }]
`;

/** Limits high enough that only the account lockout decides (the throttling tests set their own). */
const NO_THROTTLE = {
  'security.signInRequestsPerMinute': 1_000_000,
  'security.failuresPerAddressPerHour': 1_000_000,
  'security.failuresPerAccountAndAddressPerDay': 1_000_000,
};

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function post(browser: Browser, path: string, json: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await browser.postJson(path, json, { 'accept-language': 'en', ...headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

async function lockState(server: TestServer, userName: string): Promise<{ locked: boolean; lockout_end: Date | null; failed_attempts: number }> {
  const [row] = await server.server.context.dataSource.query('SELECT locked, lockout_end, failed_attempts FROM users WHERE normalized_user_name = $1', [userName]);
  return row;
}

const isLocked = (state: { locked: boolean; lockout_end: Date | null }) => state.locked || (state.lockout_end !== null && state.lockout_end > new Date());

/** A browser at the sign-in page of a new authorization request of `client`. */
async function signInPage(server: TestServer, client = 'spa', origin = server.url): Promise<Browser> {
  const browser = new Browser(origin);
  const params = new URLSearchParams({ client_id: client, response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/${client}/callback`, ...PKCE });
  await browser.get(`/oidc/auth?${params}`);
  await browser.get('/api/v1/config');
  return browser;
}

/** Signs in with the password and redeems the code: an access token issued to `client`. */
async function tokenFor(server: TestServer, userName: string, client = 'spa'): Promise<string> {
  const browser = await signInPage(server, client);
  const { body } = await post(browser, '/api/v1/account/login', { userName, password: PASSWORD });
  return accessTokenAfter(server, browser, String(body.redirectTo), client);
}

function profileCall(server: TestServer, path: string, token: string, json?: unknown) {
  return fetch(`${server.url}/api/v1/profile${path}`, {
    method: json === undefined && path.startsWith('/resetPassword') ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'en' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
}

/**
 * 30 wrong guesses sent at once; the right one joins the burst once `rightAfter` of them have been
 * answered, while the others are still in flight (so the outcome does not depend on arrival order).
 */
async function amidBurst<T>(wrong: (i: number) => Promise<T>, right: () => Promise<T>, rightAfter = 5): Promise<T[]> {
  let answered = 0;
  let release = () => {};
  const enoughAnswered = new Promise<void>((resolve) => (release = resolve));
  const wrongOnes = Array.from({ length: 30 }, (_, i) =>
    wrong(i).then((answer) => {
      if (++answered >= rightAfter) release();
      return answer;
    }),
  );
  const rightOne = enoughAnswered.then(right);
  return [...(await Promise.all(wrongOnes)), await rightOne];
}

/** A burst of 30 wrong passwords with the right one amid it, spread over `origins` (nodes). */
async function burst(server: TestServer, userName: string, origins: string[] = [server.url]): Promise<Answer[]> {
  const browser = await signInPage(server);
  const browsers = origins.map((origin) => Object.assign(Object.create(Object.getPrototypeOf(browser)), browser, { origin }) as Browser);
  const send = (i: number, password: string) => post(browsers[i % browsers.length]!, '/api/v1/account/login', { userName, password });
  return amidBurst((i) => send(i, `Wrong-guess-${i}!`), () => send(30, PASSWORD));
}

/** The guesses the server actually checked: every answer but "locked" (423) and "try later" (429). */
const checked = (answers: Answer[]) => answers.filter((a) => a.status !== 423 && a.status !== 429);

describe('security: sign-in, second factor and throttling', function () {
  this.timeout(120_000);
  let server: TestServer;
  let smtp: MailCatcher;

  before(async () => {
    smtp = await new MailCatcher().start();
    server = await startTestServer({ bootstrap: BOOTSTRAP, overrides: { 'mail.smtpUrl': smtp.url, 'oidc.portalClientId': 'spa', ...NO_THROTTLE } });
  });
  after(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  describe('a burst of guesses cannot outrun the lockout', () => {
    it('checks at most five guesses of a burst of 30, and refuses the right password sent amid it; the account is locked afterwards', async () => {
      const answers = await burst(server, 'burst@example.com');
      expect(answers.filter((a) => a.body.success === true), 'no attempt of the burst signs in').to.have.length(0);
      expect(answers.every((a) => a.status < 500)).to.equal(true);
      expect(checked(answers).length, answers.map((a) => a.status).join()).to.be.at.most(5);
      // Amid the burst the right password meets either the five guesses still being checked (429,
      // "too many attempts", nothing verified) or the lock they ended in (423): refused either way.
      expect([423, 429], answers.map((a) => a.status).join()).to.include(answers[30]!.status);
      expect(isLocked(await lockState(server, 'burst@example.com')), 'locked afterwards').to.equal(true);
      const after = await post(await signInPage(server), '/api/v1/account/login', { userName: 'burst@example.com', password: PASSWORD });
      expect(after.status, 'the right password once the burst is over').to.equal(423);
    });

    it('refuses the right password sent amid the burst when it is spread over two nodes', async () => {
      const other = await server.addNode();
      try {
        const answers = await burst(server, 'nodes@example.com', [server.url, other.url]);
        expect(answers.filter((a) => a.body.success === true)).to.have.length(0);
        expect(answers.every((a) => a.status < 500), answers.map((a) => a.status).join()).to.equal(true);
        expect(checked(answers).length, answers.map((a) => a.status).join()).to.be.at.most(5);
        expect(isLocked(await lockState(server, 'nodes@example.com'))).to.equal(true);
      } finally {
        await other.stop();
      }
    });

    it('refuses the right e-mailed code sent among 30 wrong ones, and locks the account', async () => {
      const browser = await signInPage(server);
      const before = smtp.mails.length;
      const step = await post(browser, '/api/v1/account/login', { userName: 'coded2@example.com', password: PASSWORD });
      expect(step.body).to.include({ twoAuthentificationRequired: true, twoFactorMethod: 'email' });
      const code = /\b(\d{6})\b/.exec((await smtp.next('coded2@example.com', before)).text ?? '')![1]!;
      const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
      const verify = (guess: string) => post(browser, '/api/v1/account/verifyCode', { token: step.body.token, code: guess });
      const answers = await amidBurst((i) => verify(wrong(i)), () => verify(code));
      expect(answers.filter((a) => a.body.success === true)).to.have.length(0);
      expect(isLocked(await lockState(server, 'coded2@example.com'))).to.equal(true);
    });

    it('refuses the right authenticator code among 30 wrong ones when confirming an enrolment, and locks the account', async () => {
      const token = await tokenFor(server, 'enrol@example.com');
      const { secret } = (await (await profileCall(server, '/totp', token, {})).json()) as { secret: string };
      const code = totpCode(secret);
      const wrong = (i: number) => String((Number(code) + 500_000 + i) % 1_000_000).padStart(6, '0');
      const confirm = (guess: string) => profileCall(server, '/totp/confirm', token, { code: guess });
      const answers = await amidBurst((i) => confirm(wrong(i)), () => confirm(code));
      expect(answers.filter((a) => a.status === 200), 'the enrolment is not confirmed').to.have.length(0);
      expect(answers.every((a) => a.status < 500)).to.equal(true);
      expect(isLocked(await lockState(server, 'enrol@example.com'))).to.equal(true);
      const [row] = await server.server.context.dataSource.query(`SELECT totp_enabled_at FROM users WHERE normalized_user_name = 'enrol@example.com'`);
      expect(row.totp_enabled_at).to.equal(null);
    });
  });

  describe('another application’s token is not a key to the account', () => {
    it('refuses the self-service calls to a token issued to another application, and accepts the portal’s', async () => {
      const crm = await tokenFor(server, 'disable@example.com', 'crm');
      for (const [path, body] of [['/totp', {}], ['/totp/confirm', { code: '123456' }], ['/totp/disable', { code: '123456' }]] as const) {
        expect((await profileCall(server, path, crm, body)).status, path).to.equal(401);
      }
      expect((await profileCall(server, '/resetPassword/disable@example.com', crm)).status).to.equal(401);
      const portal = await tokenFor(server, 'disable@example.com');
      expect((await profileCall(server, '/totp', portal, {})).status).to.equal(200);
    });

    it('counts wrong codes on removing an authenticator toward the lockout', async () => {
      const token = await tokenFor(server, 'disable@example.com');
      const { secret } = (await (await profileCall(server, '/totp', token, {})).json()) as { secret: string };
      expect((await profileCall(server, '/totp/confirm', token, { code: totpCode(secret) })).status).to.equal(200);
      const wrong = String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, '0');
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await profileCall(server, '/totp/disable', token, { code: wrong })).status);
      expect(statuses).to.deep.equal([400, 400, 400, 400, 423]);
      expect(isLocked(await lockState(server, 'disable@example.com'))).to.equal(true);
      const [row] = await server.server.context.dataSource.query(`SELECT totp_enabled_at FROM users WHERE normalized_user_name = 'disable@example.com'`);
      expect(row.totp_enabled_at, 'the authenticator stays').to.be.instanceOf(Date);
    });

    it('asks for the password to add an authenticator more than ten minutes after signing in', async () => {
      const token = await tokenFor(server, 'stale@example.com');
      const clock = FakeTimers.install({ now: Date.now() + 11 * 60_000, toFake: ['Date'] });
      try {
        const bare = await profileCall(server, '/totp', token, {});
        expect(bare.status).to.equal(403);
        expect(((await bare.json()) as { code: string }).code).to.equal('account.reauthentication_required');
        const wrong = await profileCall(server, '/totp', token, { password: 'Not-my-password-1!' });
        expect(wrong.status).to.equal(400);
        expect((await lockState(server, 'stale@example.com')).failed_attempts, 'a wrong password counts').to.equal(1);
        expect((await profileCall(server, '/totp', token, { password: PASSWORD })).status).to.equal(200);
      } finally {
        clock.uninstall();
      }
    });
  });

  describe('no second-factor downgrade', () => {
    it('never mails a code to a user whose second factor is the authenticator app', async () => {
      const token = await tokenFor(server, 'downgrade@example.com');
      const { secret } = (await (await profileCall(server, '/totp', token, {})).json()) as { secret: string };
      expect((await profileCall(server, '/totp/confirm', token, { code: totpCode(secret) })).status).to.equal(200);

      const clock = FakeTimers.install({ now: Date.now() + 60_000, toFake: ['Date'] });
      try {
        const browser = await signInPage(server);
        const step = await post(browser, '/api/v1/account/login', { userName: 'downgrade@example.com', password: PASSWORD });
        expect(step.body).to.include({ twoAuthentificationRequired: true, twoFactorMethod: 'totp' });
        const mails = smtp.count('downgrade@example.com');
        const resend = await post(browser, '/api/v1/account/resendCode', { token: step.body.token });
        expect(resend.status).to.equal(400);
        expect(resend.body.code).to.equal('account.resend_not_available');
        expect(smtp.count('downgrade@example.com'), 'no mail').to.equal(mails);
        const ok = await post(browser, '/api/v1/account/verifyCode', { token: step.body.token, code: totpCode(secret, Date.now()) });
        expect(ok.body.success).to.equal(true);
      } finally {
        clock.uninstall();
      }
    });
  });
});

describe('security: abuse is throttled', function () {
  this.timeout(120_000);
  let server: TestServer;
  let smtp: MailCatcher;

  before(async () => {
    smtp = await new MailCatcher().start();
    server = await startTestServer({
      bootstrap: BOOTSTRAP,
      overrides: { 'mail.smtpUrl': smtp.url, 'oidc.portalClientId': 'spa', 'server.trustProxy': true, 'security.signInRequestsPerMinute': 40 },
    });
  });
  after(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('answers 429 with Retry-After past the requests an address may make per minute, and serves other addresses', async () => {
    const browser = await signInPage(server);
    const answers: Answer[] = [];
    for (let i = 0; i < 42; i++) answers.push(await post(browser, '/api/v1/account/login', { userName: `nobody${i}@example.com`, password: 'x' }, from('203.0.113.1')));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).to.be.at.least(2);
    expect(Number(refused[0]!.headers.get('retry-after'))).to.be.within(1, 60);
    expect(refused[0]!.body.errors).to.be.an('array').that.is.not.empty;
    const elsewhere = await post(browser, '/api/v1/account/login', { userName: 'spray@example.com', password: PASSWORD }, from('203.0.113.2'));
    expect(elsewhere.body.success).to.equal(true);
  });

  it('keeps one address from driving an account to the permanent lock', async () => {
    const attacker = from('198.51.100.7');
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      const browser = await signInPage(server);
      for (let i = 0; i < 5; i++) statuses.push((await post(browser, '/api/v1/account/login', { userName: 'spray@example.com', password: 'Wrong-guess-1!' }, attacker)).status);
      await server.server.context.dataSource.query(`UPDATE users SET lockout_end = now() - interval '1 second' WHERE normalized_user_name = 'spray@example.com' AND NOT locked`);
    }
    expect(statuses.slice(10), 'the third round is refused before any check').to.deep.equal([429, 429, 429, 429, 429]);
    expect((await lockState(server, 'spray@example.com')).locked, 'never permanently locked').to.equal(false);
    const owner = await post(await signInPage(server), '/api/v1/account/login', { userName: 'spray@example.com', password: PASSWORD }, from('192.0.2.10'));
    expect(owner.body.success, 'the owner, from their own address').to.equal(true);
  });

  it('answers 429 with Retry-After when the password-hashing queue is full, never a 5xx', async () => {
    await server.stop();
    server = await startTestServer({
      bootstrap: BOOTSTRAP,
      overrides: { 'mail.smtpUrl': smtp.url, 'security.hashConcurrency': 1, 'security.hashQueueLimit': 2, ...NO_THROTTLE },
    });
    const browser = await signInPage(server);
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => post(browser, '/api/v1/account/login', { userName: `queue${i}@example.com`, password: 'Wrong-guess-1!' })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 429).length, statuses.join()).to.be.at.least(1);
    expect(statuses.every((s) => s === 401 || s === 429), statuses.join()).to.equal(true);
    expect(answers.find((a) => a.status === 429)!.headers.get('retry-after')).to.equal('1');
  });

  it('sends one reset mail for 20 parallel requests for the same account', async () => {
    const before = smtp.count('mailbomb@example.com');
    const browser = new Browser(server.url);
    await browser.get('/api/v1/config');
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(browser, '/api/v1/account/resetPassword', { username: 'mailbomb@example.com' })));
    expect(answers.every((a) => a.status === 200), answers.map((a) => a.status).join()).to.equal(true);
    await smtp.next('mailbomb@example.com', smtp.mails.length - 1).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.count('mailbomb@example.com') - before).to.equal(1);
  });

  it('sends no extra code for parallel resend requests within 30 seconds', async () => {
    await server.server.context.dataSource.query(`UPDATE users SET two_factor_enabled = true WHERE normalized_user_name = 'resend@example.com'`);
    const browser = await signInPage(server);
    const before = smtp.mails.length;
    const step = await post(browser, '/api/v1/account/login', { userName: 'resend@example.com', password: PASSWORD });
    await smtp.next('resend@example.com', before);
    const count = smtp.count('resend@example.com');
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(browser, '/api/v1/account/resendCode', { token: step.body.token })));
    expect(answers.map((a) => a.status)).to.deep.equal(Array(10).fill(429));
    expect(answers[0]!.headers.get('retry-after')).to.match(/^\d+$/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.count('resend@example.com')).to.equal(count);
  });

  /** `npm run unlock -- <name>` without the build step: the launcher's entry point on the sources. */
  const unlockCommand = (userName: string) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', 'services/launcher/src/main.ts', '--unlock', userName],
        { cwd: ROOT, env: { ...process.env, DATABASE_URL: server.database.url, LOG_LEVEL: 'silent', NODE_ENV: 'test' }, encoding: 'utf8' },
        (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('lets an operator unlock a permanently locked account with `npm run unlock -- <userName>`', async () => {
    await server.server.context.dataSource.query(`UPDATE users SET locked = true, lockout_count = 3 WHERE normalized_user_name = 'breakglass@example.com'`);
    const refused = await post(await signInPage(server), '/api/v1/account/login', { userName: 'breakglass@example.com', password: PASSWORD });
    expect(refused.body.code).to.equal('account.locked_permanently');
    // Not spawnSync: the embedded test database is served by this very process.
    const run = await unlockCommand('BreakGlass@example.com');
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.contain('breakglass@example.com is unlocked');
    const [log] = await server.server.context.dataSource.query(
      `SELECT result FROM authentication_logs WHERE user_name = 'breakglass@example.com' ORDER BY id DESC LIMIT 1`,
    );
    expect(log.result).to.equal('Unlocked');
    const ok = await post(await signInPage(server), '/api/v1/account/login', { userName: 'breakglass@example.com', password: PASSWORD });
    expect(ok.body.success).to.equal(true);
    const unknown = await unlockCommand('nobody@example.com');
    expect(unknown.status).to.equal(1);
    expect(unknown.stderr).to.contain('No account has the user name nobody@example.com');
  });
});
