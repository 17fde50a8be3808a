import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { User } from '@gatehouse/core';
import { buildApplication } from '@gatehouse/core/testing';
import { expect } from 'chai';
import * as oidc from 'openid-client';
import request from 'supertest';
import { PASSWORD, startIdp, userWithPassword, type Idp } from '../features/security/testing/portal-browser.js';

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const ACCESS_LIMIT_PER_MINUTE = 20;
const WRONG_CODES_PER_DAY = 5;

/** The path and query of an address of the provider. */
const pathOf = (url: string) => {
  const parsed = new URL(url, 'http://localhost');
  return `${parsed.pathname}${parsed.search}`;
};

const unescape = (value: string) =>
  value.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[entity]!);

/** The first form of a page: where it posts and its hidden fields. */
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  expect(action, html).to.be.a('string');
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) fields[name!] = unescape(value!);
  return { action: unescape(action!), fields };
}

/** A page's visible text, tags left out. */
const textOf = (html: string) => unescape(html.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');

/**
 * A person's browser on their phone or computer (cookies of its own, one address), opening the
 * device's verification address, signing in through the sign-in API as the login page does, and
 * answering the confirmation.
 */
class PhoneBrowser {
  private readonly agent: ReturnType<typeof request.agent>;
  private xsrf = '';

  constructor(
    server: Server,
    readonly address = `198.51.100.${1 + Math.floor(Math.random() * 250)}`,
    private readonly language = 'en',
  ) {
    this.agent = request.agent(server);
  }

  private headers<T extends request.Test>(req: T): T {
    return req.set('X-Forwarded-For', this.address).set('Accept-Language', this.language).set('User-Agent', 'Mozilla/5.0 (Android 15; Mobile) Firefox/133.0');
  }

  get(url: string): request.Test {
    return this.headers(this.agent.get(pathOf(url)));
  }

  post(url: string, form: Record<string, string>): request.Test {
    return this.headers(this.agent.post(pathOf(url)).type('form').send(form));
  }

  /** Opens an address of the provider, submitting the pages that submit themselves (form_post) as a browser would. */
  async open(url: string): Promise<request.Response> {
    let res = await this.get(url);
    for (let hops = 0; res.status === 200 && res.text.includes('document.forms[0].submit()'); hops++) {
      expect(hops, 'self-submitting pages').to.be.below(3);
      const { action, fields } = formOf(res.text);
      res = await this.post(action, fields);
    }
    return res;
  }

  /** Types a code on the code page (a fresh one is opened unless `page` is the one on screen). */
  async enterCode(userCode: string, page?: request.Response): Promise<request.Response> {
    const current = page ?? (await this.get('/oidc/device'));
    const { action, fields } = formOf(current.text);
    return this.post(action, { ...fields, user_code: userCode });
  }

  /** The sign-in page's password step, through the sign-in API; answers where the browser goes next. */
  async signIn(userName: string): Promise<string> {
    const config = await this.headers(this.agent.get('/api/v1/config'));
    this.xsrf = /XSRF-TOKEN=([^;]+)/.exec(String(config.headers['set-cookie']))![1]!;
    const res = await this.headers(this.agent.post('/api/v1/account/login').set('X-XSRF-TOKEN', this.xsrf)).send({ userName, password: PASSWORD });
    expect(res.body, JSON.stringify(res.body)).to.include({ success: true });
    return res.body.redirectTo as string;
  }

  /** Follows redirects from `url` to the page they end on. */
  async follow(url: string): Promise<request.Response> {
    let res = await this.open(url);
    for (let hops = 0; res.status >= 300 && res.status < 400; hops++) {
      expect(hops, 'redirects').to.be.below(5);
      res = await this.open(res.headers.location!);
    }
    return res;
  }

  /**
   * From the device's verification address to its confirmation page: the code is in the address,
   * and a browser where nobody is signed in signs in first.
   */
  async toConfirmation(verificationUriComplete: string, userName: string): Promise<request.Response> {
    const opened = await this.open(verificationUriComplete);
    expect(opened.status, opened.text).to.equal(303);
    expect(opened.headers.location).to.match(/^\/account\/login\?interaction=/);
    return this.follow(await this.signIn(userName));
  }

  /** Presses Confirm (or Cancel) on the confirmation page. */
  answer(confirmation: request.Response, confirm: boolean): request.Test {
    const { action, fields } = formOf(confirmation.text);
    return this.post(action, { ...fields, ...(confirm ? { confirm: 'yes' } : { abort: 'yes' }) });
  }
}

describe('Device authorization grant (RFC 8628)', () => {
  let idp: Idp;
  let server: Server;
  let issuer: string;
  let alice: User;
  let tv: { name: string; displayName: string };

  /** The device: a client of the provider through openid-client, public unless given a secret. */
  const device = (clientId: string, secret?: string) =>
    oidc.discovery(new URL(issuer), clientId, secret, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), { execute: [oidc.allowInsecureRequests] });

  /** One poll of the token endpoint, as a device makes it. */
  const poll = (clientId: string, deviceCode: string) =>
    fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: clientId }),
    });

  /** An application that allows devices (public: a CLI or a TV app without a secret). */
  const deviceApplication = async (overrides: Record<string, unknown> = {}) => {
    const id = `tv-${randomBytes(4).toString('hex')}`;
    return buildApplication(idp.context.dataSource, { id, name: id, displayName: 'Living-room TV', clientType: 'public', deviceFlow: true, redirectUris: [`https://${id}.example.com/cb`], ...overrides });
  };

  before(async () => {
    let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    idp = await startIdp({
      'server.publicUrl': url,
      'server.trustProxy': true,
      'security.signInRequestsPerMinute': ACCESS_LIMIT_PER_MINUTE,
      'security.failuresPerAccountAndAddressPerDay': WRONG_CODES_PER_DAY,
    });
    handler = (req, res) => void idp.server(req, res);
    issuer = idp.context.config.oidc.issuer;
    alice = await userWithPassword(idp, { firstName: 'Alice', lastName: 'Martin', language: 'en' });
    tv = await deviceApplication();
  });

  after(async () => {
    await idp.app.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('signs a user in on a device: the code, the sign-in, a confirmation naming the application, and tokens for that user', async () => {
    const config = await device(tv.name);
    expect(config.serverMetadata().device_authorization_endpoint).to.equal(`${issuer}/device/auth`);
    expect(config.serverMetadata().grant_types_supported).to.include(DEVICE_CODE_GRANT);

    const authorization = await oidc.initiateDeviceAuthorization(config, { scope: 'openid profile email' });
    expect(authorization.user_code).to.match(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(authorization.interval).to.equal(5);
    expect(authorization.expires_in).to.be.within(590, 600);
    expect(authorization.verification_uri_complete).to.equal(`${issuer}/device?user_code=${authorization.user_code}`);
    const polled = oidc.pollDeviceAuthorizationGrant(config, authorization);

    const phone = new PhoneBrowser(server);
    const confirmation = await phone.toConfirmation(authorization.verification_uri_complete!, alice.userName);
    expect(confirmation.status, confirmation.text).to.equal(200);
    const text = textOf(confirmation.text);
    expect(text).to.include('Connect Living-room TV?');
    expect(text).to.include(`A device asks to sign in to Living-room TV as Alice Martin (${alice.userName})`);
    expect(text).to.include(authorization.user_code);
    expect(text).to.include('Your name and profile').and.to.include('Your e-mail address');
    const policy = String(confirmation.headers['content-security-policy']);
    expect(policy).to.include("default-src 'none'").and.not.include('unsafe-inline');
    expect(confirmation.text).not.to.match(/ on[a-z]+="|style="/);

    const done = await phone.answer(confirmation, true);
    expect(done.status, done.text).to.equal(200);
    expect(textOf(done.text)).to.include('Living-room TV is now signed in on your device');
    expect(String(done.headers['content-security-policy'])).not.to.include('unsafe-inline');

    const tokens = await polled;
    expect(tokens.claims()?.sub).to.equal(alice.id);
    expect(tokens.claims()?.email).to.equal(alice.email);
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, alice.id);
    expect(userinfo.sub).to.equal(alice.id);

    const logged = await idp.context.dataSource.query<Array<{ result: string; reason: string; application_name: string }>>(
      'SELECT result, reason, application_name FROM authentication_logs WHERE user_id = $1 ORDER BY date',
      [alice.id],
    );
    expect(logged).to.deep.include({ result: 'Success', reason: 'Password verified', application_name: tv.name });
    expect(logged).to.deep.include({ result: 'Success', reason: 'Device sign-in confirmed', application_name: tv.name });
    // Session-log rows are written in the background, in batches.
    const sessionLogged = async () =>
      (await idp.context.dataSource.query<Array<{ n: number }>>('SELECT count(*)::int AS n FROM session_logs WHERE user_id = $1 AND application_name = $2', [alice.id, tv.name]))[0]!.n;
    for (let turn = 0; turn < 50 && (await sessionLogged()) === 0; turn++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await sessionLogged()).to.equal(1);
  });

  it('refuses a device code to an application that does not allow it (unauthorized_client), and serves one that has a secret', async () => {
    const browserOnly = await deviceApplication({ deviceFlow: false });
    const refused = await oidc.initiateDeviceAuthorization(await device(browserOnly.name), { scope: 'openid' }).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(oidc.ResponseBodyError);
    expect((refused as oidc.ResponseBodyError).error).to.equal('unauthorized_client');

    const secret = randomBytes(24).toString('base64url');
    const kiosk = await deviceApplication({ clientType: 'confidential', clientSecretEncrypted: idp.context.secrets.encrypt(secret) });
    const authorization = await oidc.initiateDeviceAuthorization(await device(kiosk.name, secret), { scope: 'openid' });
    expect(authorization.device_code).to.be.a('string');
    const wrongSecret = await oidc.initiateDeviceAuthorization(await device(kiosk.name, `${secret}x`), { scope: 'openid' }).catch((error: unknown) => error);
    expect((wrongSecret as oidc.WWWAuthenticateChallengeError).status).to.equal(401);
    expect((wrongSecret as oidc.WWWAuthenticateChallengeError).cause.map((challenge) => challenge.parameters.error)).to.include('invalid_client');
  });

  it('gives access_denied to the device when the user cancels, logs it, and says the code was refused afterwards', async () => {
    const config = await device(tv.name);
    const authorization = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    const polled = oidc.pollDeviceAuthorizationGrant(config, authorization).catch((error: unknown) => error);
    const bob = await userWithPassword(idp, { language: 'en' });
    const phone = new PhoneBrowser(server);

    const cancelled = await phone.answer(await phone.toConfirmation(authorization.verification_uri_complete!, bob.userName), false);
    expect(cancelled.status).to.equal(200);
    expect(textOf(cancelled.text)).to.include('You cancelled: the device was not connected.');

    const denied = await polled;
    expect(denied).to.be.instanceOf(oidc.ResponseBodyError);
    expect((denied as oidc.ResponseBodyError).error).to.equal('access_denied');
    expect(textOf((await phone.enterCode(authorization.user_code)).text)).to.include('This code was refused.');
    const logged = await idp.context.dataSource.query<Array<{ result: string; reason: string; application_name: string }>>(
      'SELECT result, reason, application_name FROM authentication_logs WHERE user_id = $1',
      [bob.id],
    );
    expect(logged).to.deep.include({ result: 'Failure', reason: 'Device sign-in refused by the user', application_name: tv.name });
  });

  it('gives expired_token for a device code past its life, and says its user code expired', async () => {
    const provider = idp.app.host.current;
    const client = await provider.Client.find(tv.name);
    const userCode = 'BCDFGHJK'.split('').sort(() => Math.random() - 0.5).join('');
    const expiring = new provider.DeviceCode({ client: client!, params: { client_id: tv.name, scope: 'openid' }, userCode, deviceInfo: {}, grantId: '', expiresIn: 1 });
    const deviceCode = await expiring.save();
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const phone = new PhoneBrowser(server);
    const page = await phone.enterCode(`${userCode.slice(0, 4)}-${userCode.slice(4)}`);
    expect(textOf(page.text)).to.include('This code has expired.');
    const authorization = { device_code: deviceCode, user_code: userCode, verification_uri: `${issuer}/device`, expires_in: 60, interval: 1 };
    const expired = await oidc.pollDeviceAuthorizationGrant(await device(tv.name), authorization as oidc.DeviceAuthorizationResponse).catch((error: unknown) => error);
    expect((expired as oidc.ResponseBodyError).error).to.equal('expired_token');
  });

  it('shows the confirmation in the user’s language, and the code page in the browser’s before anyone signs in', async () => {
    const codePage = await new PhoneBrowser(server, undefined, 'fr-FR,fr;q=0.9').get('/oidc/device');
    expect(codePage.text).to.include('<html lang="fr">');
    expect(textOf(codePage.text)).to.include('Saisissez le code affiché sur votre appareil');
    expect(String(codePage.headers['content-security-policy'])).not.to.include('unsafe-inline');

    const authorization = await oidc.initiateDeviceAuthorization(await device(tv.name), { scope: 'openid email' });
    const jonas = await userWithPassword(idp, { firstName: 'Jonas', lastName: 'Weber', language: 'de' });
    const confirmation = await new PhoneBrowser(server).toConfirmation(authorization.verification_uri_complete!, jonas.userName);
    expect(confirmation.text).to.include('<html lang="de">');
    const text = textOf(confirmation.text);
    expect(text).to.include('Living-room TV verbinden?');
    expect(text).to.include(`Ein Gerät möchte sich bei Living-room TV als Jonas Weber (${jonas.userName}) anmelden.`);
    expect(text).to.include('Ihre E-Mail-Adresse');
    expect(confirmation.text).to.include('>Bestätigen</button>').and.to.include('>Abbrechen</button>');
  });

  it('takes a user code once: of two people confirming it at the same moment one connects the device, and the code is used afterwards', async () => {
    const config = await device(tv.name);
    const authorization = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    const [carol, mallory] = await Promise.all([userWithPassword(idp, { language: 'en' }), userWithPassword(idp, { language: 'en' })]);
    const carolsPhone = new PhoneBrowser(server);
    const mallorysPhone = new PhoneBrowser(server);
    const confirmations = [
      await carolsPhone.toConfirmation(authorization.verification_uri_complete!, carol.userName),
      await mallorysPhone.toConfirmation(authorization.verification_uri_complete!, mallory.userName),
    ];
    const answers = await Promise.all([carolsPhone.answer(confirmations[0]!, true), mallorysPhone.answer(confirmations[1]!, true)]);
    const connected = answers.map((res) => textOf(res.text).includes('is now signed in on your device'));
    expect(connected.filter(Boolean), answers.map((res) => textOf(res.text)).join(' | ')).to.have.length(1);
    expect(textOf(answers[connected.indexOf(false)]!.text)).to.include('This code has already been used.');

    const tokens = await poll(tv.name, authorization.device_code);
    expect(tokens.status).to.equal(200);
    const { id_token: idToken } = (await tokens.json()) as { id_token: string };
    const sub = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()).sub as string;
    expect(sub).to.equal(connected[0] ? carol.id : mallory.id);

    const again = await carolsPhone.enterCode(authorization.user_code);
    expect(textOf(again.text)).to.include('This code has already been used.');
    // Signed in now: another device's code goes straight to its confirmation.
    const next = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    expect(textOf((await carolsPhone.open(next.verification_uri_complete!)).text)).to.include('Connect Living-room TV?');
  });

  it('hands the tokens out once: of two polls at the same moment after the confirmation, one gets them', async () => {
    const authorization = await oidc.initiateDeviceAuthorization(await device(tv.name), { scope: 'openid' });
    const dave = await userWithPassword(idp, { language: 'en' });
    const phone = new PhoneBrowser(server);
    await phone.answer(await phone.toConfirmation(authorization.verification_uri_complete!, dave.userName), true);

    const answers = await Promise.all([poll(tv.name, authorization.device_code), poll(tv.name, authorization.device_code)]);
    expect(answers.map((res) => res.status).sort()).to.deep.equal([200, 400]);
    const refused = await answers.find((res) => res.status === 400)!.json();
    expect(refused).to.include({ error: 'invalid_grant' });
    const replayed = await poll(tv.name, authorization.device_code);
    expect(await replayed.json()).to.include({ error: 'invalid_grant' });
  });

  it('tells a device polling faster than its interval to slow down, and another application’s poll gets nothing', async () => {
    const authorization = await oidc.initiateDeviceAuthorization(await device(tv.name), { scope: 'openid' });
    const first = await poll(tv.name, authorization.device_code);
    expect(await first.json()).to.include({ error: 'authorization_pending' });
    const second = await poll(tv.name, authorization.device_code);
    expect(second.status).to.equal(400);
    expect(await second.json()).to.include({ error: 'slow_down' });

    const other = await deviceApplication();
    const stolen = await poll(other.name, authorization.device_code);
    expect(await stolen.json()).to.include({ error: 'invalid_grant' });
  });

  it('answers a confirmation posted without the page’s token (another site’s form) without confirming anything', async () => {
    const authorization = await oidc.initiateDeviceAuthorization(await device(tv.name), { scope: 'openid' });
    const erin = await userWithPassword(idp, { language: 'en' });
    const phone = new PhoneBrowser(server);
    const confirmation = await phone.toConfirmation(authorization.verification_uri_complete!, erin.userName);
    const { action, fields } = formOf(confirmation.text);

    const forged = await phone.post(action, { user_code: fields.user_code!, xsrf: 'forged', confirm: 'yes' });
    expect(textOf(forged.text)).not.to.include('is now signed in on your device');
    expect(await (await poll(tv.name, authorization.device_code)).json()).to.include({ error: 'authorization_pending' });
  });

  it('answers 429 with Retry-After to a burst of wrong codes from one address, not to another address', async () => {
    const phone = new PhoneBrowser(server, '203.0.113.7');
    let page = await phone.get('/oidc/device');
    for (let attempt = 0; attempt < WRONG_CODES_PER_DAY; attempt++) {
      page = await phone.enterCode('ZZZZ-ZZZZ', page);
      expect(page.status).to.equal(200);
      expect(textOf(page.text)).to.include('This code is not valid.');
    }
    const refused = await phone.enterCode('ZZZZ-ZZZZ', page);
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers['retry-after'])).to.be.greaterThan(0);
    expect(textOf(refused.text)).to.include('Too many wrong codes.');

    // Even the right code waits: the address has used up its tries.
    const authorization = await oidc.initiateDeviceAuthorization(await device(tv.name), { scope: 'openid' });
    expect((await phone.enterCode(authorization.user_code, page)).status).to.equal(429);
    const elsewhere = await new PhoneBrowser(server, '203.0.113.8').enterCode('ZZZZ-ZZZZ');
    expect(elsewhere.status).to.equal(200);
  });

  it('limits device authorization requests per application and address', async () => {
    const busy = await deviceApplication();
    const config = await device(busy.name);
    for (let i = 0; i < ACCESS_LIMIT_PER_MINUTE; i++) await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    const refused = await fetch(`${issuer}/device/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: busy.name, scope: 'openid' }),
    });
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
    expect(await refused.json()).to.include({ error: 'slow_down' });
    // Another application from the same address is not held back.
    const quiet = await deviceApplication();
    expect((await oidc.initiateDeviceAuthorization(await device(quiet.name), { scope: 'openid' })).device_code).to.be.a('string');
  });
});
