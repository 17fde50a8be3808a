// Sender-constrained tokens (DPoP, RFC 9449) in Debian's Chromium against `npm start`: the console and
// the portal sign in with tokens bound to a key pair the page keeps in IndexedDB and cannot export,
// every API call carries a fresh proof of it, the tabs share it, signing out removes it, and a token
// copied out of the browser is refused without a proof.
import { createHash, createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, SCREENSHOTS, launchChromium, startProduct, type RunningProduct } from '../support/product.js';

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `dpop-${name}.png`), fullPage: true });

const CONSOLE = 'admin-console';
const PORTAL = 'portal';

interface StoredUser {
  access_token: string;
  refresh_token?: string;
  token_type: string;
}

/** A client's key pair in the origin's IndexedDB, as any script of the page can read it. */
interface StoredKey {
  extractable: boolean;
  algorithm: string;
  /** Whether the page managed to export the private key. */
  exported: boolean;
  publicJwk: JsonWebKey;
}

/** An API call of the page, with what authorized it. */
interface ApiCall {
  method: string;
  url: string;
  authorization: string | undefined;
  proof: string | undefined;
  status: number;
}

interface Proof {
  header: { typ?: string; alg?: string; jwk?: JsonWebKey };
  payload: { htm?: string; htu?: string; iat?: number; jti?: string; ath?: string };
  signingInput: string;
  signature: Buffer;
}

// A page script (a string: the pages' policy refuses what a function's serialisation may need). It
// opens the database as oidc-client-ts does, creating its store if the database is new.
const STORED_KEY = `(async (client) => {
  const opened = indexedDB.open('oidc');
  opened.onupgradeneeded = () => opened.result.createObjectStore('dpop');
  const db = await new Promise((resolve, reject) => { opened.onsuccess = () => resolve(opened.result); opened.onerror = () => reject(opened.error); });
  try {
    const read = db.transaction('dpop').objectStore('dpop').get(client);
    const entry = await new Promise((resolve, reject) => { read.onsuccess = () => resolve(read.result); read.onerror = () => reject(read.error); });
    if (!entry) return null;
    const { privateKey, publicKey } = entry.keys;
    return {
      extractable: privateKey.extractable,
      algorithm: privateKey.algorithm.name + ' ' + privateKey.algorithm.namedCurve,
      exported: await crypto.subtle.exportKey('jwk', privateKey).then(() => true, () => false),
      publicJwk: await crypto.subtle.exportKey('jwk', publicKey),
    };
  } finally {
    db.close();
  }
})`;

const storedKey = async (page: Page, client: string) => (await page.evaluate(`${STORED_KEY}(${JSON.stringify(client)})`)) as StoredKey | null;

/** The client's signed-in user in localStorage (oidc-client-ts's `oidc.user:<authority>:<client>`). */
async function storedUser(page: Page, client: string): Promise<StoredUser> {
  const entries = (await page.evaluate(
    `Object.keys(localStorage).filter((key) => key.startsWith('oidc.user:') && key.endsWith(${JSON.stringify(`:${client}`)})).map((key) => localStorage.getItem(key))`,
  )) as string[];
  expect(entries, `the stored user of ${client}`).to.have.length(1);
  return JSON.parse(entries[0]!) as StoredUser;
}

/** Every call of the page to the product's API, as it went out, with the status it got. */
function recordApiCalls(page: Page, base: string): ApiCall[] {
  const calls: ApiCall[] = [];
  page.on('response', async (response) => {
    const request = response.request();
    if (!request.url().startsWith(`${base}/api/`)) return;
    const headers = await request.allHeaders();
    calls.push({ method: request.method(), url: request.url(), authorization: headers.authorization, proof: headers.dpop, status: response.status() });
  });
  return calls;
}

/** Waits for a call the page made and got an answer to. */
async function callTo(calls: ApiCall[], page: Page, matches: (call: ApiCall) => boolean, what: string): Promise<ApiCall> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const call = calls.find(matches);
    if (call) return call;
    if (Date.now() > deadline) throw new Error(`no ${what} among ${calls.map((c) => `${c.status} ${c.method} ${c.url}`).join(', ')}`);
    await page.waitForTimeout(100);
  }
}

const base64urlJson = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The RFC 7638 thumbprint of an EC public key: what `dpop_jkt` and `cnf.jkt` carry. */
const thumbprint = (jwk: JsonWebKey) => sha256(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }));

function readProof(jwt: string): Proof {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  return { header: base64urlJson(header), payload: base64urlJson(payload), signingInput: `${header}.${payload}`, signature: Buffer.from(signature, 'base64url') };
}

/**
 * Checks the calls that carried a token, as a resource server would: each under the DPoP scheme with
 * its own proof, signed by the key `jkt` names, of its method and address (without the query), and of
 * the token it carried.
 */
function expectProvenCalls(calls: ApiCall[], jkt: string): void {
  const authorized = calls.filter((call) => call.authorization);
  expect(authorized.length, 'API calls with a token').to.be.greaterThan(0);
  const seen = new Set<string>();
  for (const call of authorized) {
    const what = `${call.method} ${call.url}`;
    const token = /^DPoP (\S+)$/.exec(call.authorization!)?.[1];
    expect(token, `${what}: the DPoP scheme`).to.be.a('string');
    expect(call.proof, `${what}: a proof`).to.be.a('string');
    const proof = readProof(call.proof!);
    expect(proof.header.typ, what).to.equal('dpop+jwt');
    expect(proof.header.alg, what).to.equal('ES256');
    expect(proof.header.jwk?.d, `${what}: no private part in the proof`).to.equal(undefined);
    expect(thumbprint(proof.header.jwk!), `${what}: the key the token is bound to`).to.equal(jkt);
    const key = createPublicKey({ key: proof.header.jwk!, format: 'jwk' });
    expect(verify('sha256', Buffer.from(proof.signingInput), { key, dsaEncoding: 'ieee-p1363' }, proof.signature), `${what}: signed`).to.equal(true);
    const url = new URL(call.url);
    expect(proof.payload.htm, what).to.equal(call.method);
    expect(proof.payload.htu, what).to.equal(`${url.origin}${url.pathname}`);
    expect(proof.payload.ath, `${what}: the token's hash`).to.equal(sha256(token!));
    expect(Math.abs(proof.payload.iat! - Date.now() / 1000), `${what}: issued just now`).to.be.below(600);
    expect(seen.has(proof.payload.jti!), `${what}: a proof of its own`).to.equal(false);
    seen.add(proof.payload.jti!);
  }
}

/**
 * Sends the token a call carried from outside the browser, as one who copied it would: as a bearer
 * token, under the DPoP scheme without a proof, and with the call's own proof replayed.
 */
async function expectCopiedTokenRefused(call: ApiCall): Promise<void> {
  const token = call.authorization!.slice('DPoP '.length);
  const attempts: Array<[string, Record<string, string>]> = [
    ['as a bearer token', { authorization: `Bearer ${token}` }],
    ['without a proof', { authorization: `DPoP ${token}` }],
    ['with a proof replayed', { authorization: `DPoP ${token}`, dpop: call.proof! }],
  ];
  for (const [how, headers] of attempts) {
    const response = await fetch(call.url, { method: call.method, headers });
    expect(response.status, `${call.method} ${call.url} ${how} (${response.headers.get('www-authenticate')})`).to.equal(401);
  }
}

describe('sender-constrained tokens (DPoP) in a real browser', function () {
  this.timeout(300_000);
  let product: RunningProduct;
  let browser: Browser;
  let introspectionEndpoint: string;

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    product = await startProduct();
    browser = await launchChromium();
    const discovery = (await (await fetch(`${product.base}/oidc/.well-known/openid-configuration`)).json()) as { introspection_endpoint: string };
    introspectionEndpoint = discovery.introspection_endpoint;
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  /** What the provider says of a token its client holds (a public client introspects its own). */
  async function introspect(token: string, client: string): Promise<{ active: boolean; cnf?: { jkt?: string } }> {
    const response = await fetch(introspectionEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: client }),
    });
    expect(response.status, 'introspection').to.equal(200);
    return (await response.json()) as { active: boolean; cnf?: { jkt?: string } };
  }

  async function signIn(page: Page) {
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await page.getByLabel('User', { exact: true }).fill('admin@gatehouse.local');
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  it('binds the console’s tokens to a key the page cannot export, proves every call, shares the key with a second tab, and a copied token is refused', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(90_000);
    const calls = recordApiCalls(page, product.base);

    await page.goto(`${product.base}/admin/`);
    await signIn(page);
    await page.waitForURL(new RegExp(`^${product.base}/admin/?$`), { timeout: 30_000 });
    await page.getByRole('heading', { name: /Welcome/ }).waitFor({ timeout: 30_000 });
    await shot(page, 'console');

    // The stored tokens are bound: the console's JWT names the key's thumbprint.
    const user = await storedUser(page, CONSOLE);
    expect(user.token_type).to.equal('DPoP');
    const claims = base64urlJson(user.access_token.split('.')[1]!) as { cnf?: { jkt?: string } };
    const jkt = claims.cnf?.jkt;
    expect(jkt, 'cnf.jkt of the access token').to.be.a('string');
    // The key is in IndexedDB, and no script of the page can take its private half away.
    const key = await storedKey(page, CONSOLE);
    expect(key).to.include({ extractable: false, exported: false, algorithm: 'ECDSA P-256' });
    expect(thumbprint(key!.publicJwk)).to.equal(jkt);
    // The refresh token is bound to it too.
    expect(await introspect(user.refresh_token!, CONSOLE)).to.deep.include({ active: true, cnf: { jkt } });

    const me = await callTo(calls, page, (call) => call.url === `${product.base}/api/v1/admin/me` && call.status === 200, 'GET /api/v1/admin/me answered 200');
    expectProvenCalls(calls, jkt!);

    // A second tab of the same origin signs nothing in again: it takes the stored user, and signs its calls with the same key.
    const second = await context.newPage();
    second.setDefaultTimeout(90_000);
    const secondCalls = recordApiCalls(second, product.base);
    await second.goto(`${product.base}/admin/users`);
    await second.getByRole('row').filter({ hasText: 'admin@gatehouse.local' }).waitFor({ timeout: 60_000 });
    await callTo(secondCalls, second, (call) => call.url.startsWith(`${product.base}/api/v1/admin/users`) && call.status === 200, 'the list of users answered 200');
    expectProvenCalls(secondCalls, jkt!);

    await expectCopiedTokenRefused(me);
    await context.close();
  });

  it('binds the portal’s tokens the same way, and signing out removes the key pair', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(90_000);
    const calls = recordApiCalls(page, product.base);

    await page.goto(`${product.base}/`);
    await signIn(page);
    await page.waitForURL(`${product.base}/`, { timeout: 30_000 });
    await page.getByRole('heading', { name: /Welcome/ }).waitFor({ timeout: 30_000 });
    await shot(page, 'portal');

    // The portal's tokens are opaque: the provider says what they are bound to.
    const user = await storedUser(page, PORTAL);
    expect(user.token_type).to.equal('DPoP');
    const key = await storedKey(page, PORTAL);
    expect(key).to.include({ extractable: false, exported: false, algorithm: 'ECDSA P-256' });
    const jkt = thumbprint(key!.publicJwk);
    expect(await introspect(user.access_token, PORTAL)).to.deep.include({ active: true, cnf: { jkt } });
    expect(await introspect(user.refresh_token!, PORTAL)).to.deep.include({ active: true, cnf: { jkt } });

    // The self-service API and the launcher's, both with the portal's token.
    const profile = await callTo(calls, page, (call) => call.url === `${product.base}/api/v1/profile` && call.status === 200, 'GET /api/v1/profile answered 200');
    const home = await callTo(calls, page, (call) => call.url === `${product.base}/api/v1/admin/applications/homeInfo` && call.status === 200, 'the tiles answered 200');
    expectProvenCalls(calls, jkt);
    await expectCopiedTokenRefused(profile);
    await expectCopiedTokenRefused(home);

    // "Close session": the key pair goes with the tokens (the sign-in page that follows may make a new one).
    const visited: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && visited.push(new URL(frame.url()).pathname));
    await page.getByRole('button', { name: /Account of/ }).click();
    await page.getByRole('button', { name: 'Close session' }).click();
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 60_000 });
    expect(visited.some((p) => p.startsWith('/oidc/session/end')), `through the provider's sign-out: ${visited.join(' → ')}`).to.equal(true);
    const after = await storedKey(page, PORTAL);
    expect(after && thumbprint(after.publicJwk), 'the signed-out key pair').to.not.equal(jkt);
    await context.close();
  });
});
