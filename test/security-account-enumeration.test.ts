import { expect } from 'chai';
import { Browser } from './support/browser.js';
import { PKCE } from './support/flows.js';
import { startTestServer, type TestServer } from './support/server.js';
import { MailCatcher } from './support/smtp.js';

const PASSWORD = 'Correct-Horse-42!';
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }] }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'] }
users:
  - { userName: active@example.com, firstName: Ada, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: locked@example.com, firstName: Lea, area: Default, language: fr, password: '${PASSWORD}' }
  - { userName: pending@example.com, firstName: Pia, area: Default, language: de, password: '${PASSWORD}' }
  - { userName: staff@group.example, firstName: Sam, area: Default, language: es, password: '${PASSWORD}' }
  - { userName: bomb@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: locked-login@example.com, area: Default, language: en, password: '${PASSWORD}' }
`;
const withLink = (mail: { text?: string }) => /changePassword\?/.test(mail.text ?? '');

/** Everything an answer shows the caller but what differs on every call (its date and request id). */
interface Shown {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function shown(res: Response): Promise<Shown> {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!['date', 'x-request-id'].includes(name)) headers[name] = value;
  });
  const body = (await res.text()).replace(/"requestId":"[^"]*"/, '"requestId":"…"');
  return { status: res.status, headers, body };
}

describe('security: an unauthenticated answer tells nothing about the account it names', function () {
  this.timeout(120_000);
  let server: TestServer;
  let smtp: MailCatcher;
  const db = () => server.server.context.dataSource;

  before(async () => {
    smtp = await new MailCatcher().start();
    server = await startTestServer({
      bootstrap: BOOTSTRAP,
      overrides: { 'mail.smtpUrl': smtp.url, 'oidc.portalClientId': 'spa', 'signIn.groupDomains': 'group.example', 'security.signInRequestsPerMinute': 1_000_000 },
    });
    await db().query(`UPDATE users SET locked = true WHERE normalized_user_name = 'locked@example.com'`);
    await db().query(`UPDATE users SET draft = true WHERE normalized_user_name = 'pending@example.com'`);
  });
  after(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  /** Asks for a reset link as the sign-in page does, from a browser of its own. */
  async function askReset(userName: string, language?: string): Promise<Response> {
    const browser = new Browser(server.url);
    await browser.get('/api/v1/config');
    return browser.postJson('/api/v1/account/resetPassword', { username: userName, ...(language ? { language } : {}) }, { 'accept-language': 'en' });
  }

  /** Forgets the mail counts of these accounts (one mail a minute each), as a presented reset link does. */
  async function mayMailAgain(...userNames: string[]) {
    const rows: Array<{ id: string }> = await db().query('SELECT id FROM users WHERE normalized_user_name = ANY($1)', [userNames]);
    for (const { id } of rows) await server.server.context.throttle.mailUsed(id);
  }

  /** The mails that arrived for `to` since `since` mails had arrived, once the product has had time to send any. */
  async function mailsTo(to: string, since: number) {
    await new Promise((resolve) => setTimeout(resolve, 700));
    return smtp.mails.slice(since).filter((mail) => (Array.isArray(mail.to) ? mail.to : [mail.to]).some((a) => a?.text.includes(to)));
  }

  /** A browser at the sign-in page of a new authorization request of the portal. */
  async function signInPage(): Promise<Browser> {
    const browser = new Browser(server.url);
    const params = new URLSearchParams({ client_id: 'spa', response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/spa/callback`, ...PKCE });
    await browser.get(`/oidc/auth?${params}`);
    await browser.get('/api/v1/config');
    return browser;
  }

  it('answers wrong passwords for an account an administrator locked as for an unknown name, attempt after attempt, and the lock to the right password only', async () => {
    await db().query(`UPDATE users SET locked = true WHERE normalized_user_name = 'locked-login@example.com'`);
    const login = async (userName: string, password: string) => {
      const answer = await shown(await (await signInPage()).postJson('/api/v1/account/login', { userName, password }, { 'accept-language': 'fr' }));
      // The end of a lock is a date to the minute, and the same lock may straddle one.
      return { ...answer, body: answer.body.replace(/\d{4}-\d{2}-\d{2}[T ][\d:.]+Z?( UTC)?/g, '…') };
    };
    for (let attempt = 1; attempt <= 7; attempt++) {
      const locked = await login('locked-login@example.com', `Wrong-${attempt}!`);
      const unknown = await login('nobody-login@example.com', `Wrong-${attempt}!`);
      expect(locked, `attempt ${attempt}`).to.deep.equal(unknown);
      expect(locked.status, `attempt ${attempt}`).to.equal(attempt < 5 ? 401 : 423);
    }
    const right = await login('locked-login@example.com', PASSWORD);
    expect(right.status).to.equal(423);
    expect(JSON.parse(right.body).code).to.equal('account.locked_permanently');
  });

  it('answers a reset request for an unknown, a locked, a pending, a group and an active account with the same status, headers and body', async () => {
    const since = smtp.mails.length;
    const answers: Record<string, Shown> = {};
    for (const userName of ['nobody@example.com', 'locked@example.com', 'pending@example.com', 'staff@group.example', 'active@example.com', 'nobody@group.example']) {
      answers[userName] = await shown(await askReset(userName));
    }
    const active = answers['active@example.com']!;
    expect(active.status).to.equal(200);
    expect(JSON.parse(active.body)).to.include({ success: true, message: 'Please check your email inbox. We have sent you instructions to reset your password.' });
    for (const [userName, answer] of Object.entries(answers)) expect(answer, userName).to.deep.equal(active);
    // Each account was mailed after its answer; those mails are the next tests' subject.
    for (const userName of ['active@example.com', 'locked@example.com', 'pending@example.com', 'staff@group.example']) await smtp.next(userName, since);
  });

  it('mails what applies, in the user’s language: the link to an active account, the lock to a locked one, nothing to an unknown address', async () => {
    await mayMailAgain('active@example.com', 'locked@example.com');
    const since = smtp.mails.length;
    await askReset('active@example.com');
    await askReset('locked@example.com', 'fr');
    await askReset('nobody@example.com');

    const link = await smtp.next('active@example.com', since, withLink);
    expect(link.subject).to.equal('Reset your password');
    const locked = await smtp.next('locked@example.com', since);
    expect(withLink(locked), 'a locked account gets no link').to.equal(false);
    expect(locked.subject).to.match(/bloqué/);
    expect(locked.text).to.match(/Bonjour Lea/).and.match(/bloqué/).and.match(/administrateur/);
    expect(await mailsTo('nobody@example.com', since)).to.deep.equal([]);
    expect(await mailsTo('locked@example.com', since), 'one mail').to.have.length(1);
  });

  it('tells a pending account it awaits approval, and a group user to sign in with the professional account, without a link', async () => {
    await mayMailAgain('pending@example.com', 'staff@group.example');
    const since = smtp.mails.length;
    await askReset('pending@example.com', 'de');
    await askReset('staff@group.example', 'es');
    const pending = await smtp.next('pending@example.com', since);
    expect(withLink(pending)).to.equal(false);
    expect(pending.text).to.match(/Hallo Pia/).and.match(/Genehmigung/);
    const staff = await smtp.next('staff@group.example', since);
    expect(withLink(staff)).to.equal(false);
    expect(staff.text).to.match(/Hola, Sam/).and.match(/cuenta profesional/);
    const [row] = await db().query(
      `SELECT count(*)::int AS links FROM user_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.purpose = 'PasswordReset' AND u.normalized_user_name IN ('locked@example.com', 'pending@example.com', 'staff@group.example')`,
    );
    expect(row.links, 'no reset link exists for them').to.equal(0);
  });

  it('limits the mails of a locked account as those of an active one: 20 parallel requests send one', async () => {
    await db().query(`UPDATE users SET locked = true WHERE normalized_user_name = 'bomb@example.com'`);
    const since = smtp.mails.length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => askReset('bomb@example.com')));
    expect(answers.map((a) => a.status)).to.deep.equal(Array(20).fill(200));
    await smtp.next('bomb@example.com', since);
    expect(await mailsTo('bomb@example.com', since)).to.have.length(1);
  });
});
