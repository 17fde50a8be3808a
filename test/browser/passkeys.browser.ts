// "My security" and the sign-in with a passkey in Debian's Chromium against `npm start` on the
// embedded database. Chromium's virtual authenticator (DevTools protocol: internal transport,
// resident keys, user verification) stands for the phone or laptop: a passkey is added from the
// profile, then used to sign in from the user-name field's autofill and from the button, and once
// removed it is refused. An authenticator app and recovery codes are set up and used at the second
// step, and a session ended from the list loses its refresh token. Screenshots go to
// test-artifacts/screenshots/security-*.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { totpCode } from '@gatehouse/core';
import { expect } from 'chai';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { proofFromPage } from '../support/dpop.js';
import { launchChromium, SCREENSHOTS, settle, startProduct, type RunningProduct } from '../support/product.js';

const PASSWORD = 'Correct-Horse-42!';

// Two applications each: the portal sends someone with only one straight to it.
const user = (userName: string, firstName: string) => `
  - userName: ${userName}
    firstName: ${firstName}
    lastName: Silva
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: Main office, application: crm, roles: [Sales] }
      - { tenant: Main office, application: wiki, roles: [Reader] }`;

const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
tenants: [{ title: Main office, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, privateUrl: '\${publicUrl}/admin', roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: portal, name: portal, displayName: Portal, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${publicUrl}/auth/callback'], postLogoutRedirectUris: ['\${publicUrl}/'] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${publicUrl}/admin/auth/callback'], postLogoutRedirectUris: ['\${publicUrl}/admin/'] }
  - { id: crm, name: crm, displayName: CRM, description: Customers and sales, type: public, privateUrl: 'https://crm.example.com', roles: [{ name: Sales }] }
  - { id: wiki, name: wiki, displayName: Wiki, description: Company knowledge, type: public, privateUrl: 'https://wiki.example.com', roles: [{ name: Reader }] }
users:${user('nora@example.com', 'Nora')}${user('omar@example.com', 'Omar')}${user('lea@example.com', 'Lea')}
`;

/** What the portal keeps of its sign-in (oidc-client-ts's stored user). */
interface StoredSignIn {
  id_token: string;
  access_token: string;
  refresh_token?: string;
}

/** The claims of a JWT, unchecked: the test reads what the provider put in a token it issued. */
function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

describe('passkeys and "My security" in a real browser', function () {
  this.timeout(300_000);
  let product: RunningProduct;
  let base: string;
  let browser: Browser;

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    product = await startProduct({ bootstrap: BOOTSTRAP });
    base = product.base;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  const newContext = () => browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });

  /** The portal's stored sign-in, once it holds one. */
  async function storedSignIn(page: Page): Promise<StoredSignIn> {
    const key = `oidc.user:${base}/oidc:portal`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const raw = (await page.evaluate(`localStorage.getItem(${JSON.stringify(key)})`)) as string | null;
      if (raw) return JSON.parse(raw) as StoredSignIn;
      if (Date.now() > deadline) throw new Error(`the portal holds no sign-in under ${key}`);
      await page.waitForTimeout(100);
    }
  }

  /** The portal's home page, signed in as `firstName`. */
  async function atHome(page: Page, firstName: string) {
    await page.waitForURL(`${base}/`, { timeout: 60_000 });
    await page.getByRole('heading', { name: new RegExp(`Welcome, ${firstName}`) }).waitFor({ timeout: 30_000 });
  }

  async function openSignIn(page: Page) {
    await page.goto(`${base}/`, { waitUntil: 'commit' });
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await page.getByLabel('User', { exact: true }).waitFor();
  }

  async function signInWithPassword(page: Page, userName: string) {
    await page.getByLabel('User', { exact: true }).fill(userName);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  /** "Close session" from the user menu, through the provider's end-session page. */
  async function signOut(page: Page, firstName: string) {
    const visited: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && visited.push(new URL(frame.url()).pathname));
    await page.getByRole('button', { name: new RegExp(`Account of ${firstName}`) }).click();
    await page.getByRole('button', { name: 'Close session' }).click();
    const deadline = Date.now() + 90_000;
    while (!visited.some((p) => p.startsWith('/oidc/session/end'))) {
      if (Date.now() > deadline) throw new Error(`sign-out did not go through the provider: ${visited.join(' → ')}`);
      await page.waitForTimeout(100);
    }
  }

  async function openSecurity(page: Page) {
    await page.goto(`${base}/profile/security`);
    await page.getByRole('heading', { name: 'Passkeys' }).waitFor({ timeout: 30_000 });
  }

  /** The section of "My security" under a heading. */
  const section = (page: Page, heading: string) => page.locator('section', { has: page.getByRole('heading', { name: heading, exact: true }) });

  async function shot(page: Page, name: string) {
    await settle(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, `security-${name}.png`), fullPage: true });
  }

  /** A platform authenticator holding passkeys that verify their user, as a phone or a laptop with a fingerprint reader. */
  async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    return { cdp, authenticatorId };
  }

  it('adds a passkey from the profile, signs in with it from the autofill and the button, and refuses it once removed', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await openSignIn(page);
    expect(await page.getByLabel('User', { exact: true }).getAttribute('autocomplete')).to.equal('username webauthn');
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await signInWithPassword(page, 'nora@example.com');
    await atHome(page, 'Nora');
    expect(claimsOf((await storedSignIn(page)).id_token).amr).to.deep.equal(['pwd']);

    await openSecurity(page);
    const passkeys = section(page, 'Passkeys');
    await passkeys.getByText('You have no passkey yet.').waitFor();
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    const naming = page.getByRole('dialog', { name: 'Name your new passkey' });
    await naming.getByLabel('Name').fill('Work laptop');
    await naming.getByRole('button', { name: 'Save' }).click();
    await passkeys.getByText('Work laptop').waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials, 'the authenticator holds one discoverable passkey').to.have.length(1);
    expect(credentials[0]!.isResidentCredential).to.equal(true);
    await shot(page, 'passkey-added');

    // Signed out, the sign-in page's autofill offers the passkey; choosing it (the virtual
    // authenticator chooses at once) signs in with no name and no password typed.
    await signOut(page, 'Nora');
    await atHome(page, 'Nora');
    const autofilled = (await storedSignIn(page)).id_token;
    const byAutofill = claimsOf(autofilled);
    expect(byAutofill.amr).to.deep.equal(['pop', 'user', 'mfa']);

    // A browser whose autofill offers no passkeys: the button.
    await context.addInitScript('PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);');
    await signOut(page, 'Nora');
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await atHome(page, 'Nora');
    const buttoned = (await storedSignIn(page)).id_token;
    expect(buttoned, 'a new sign-in').to.not.equal(autofilled);
    expect(claimsOf(buttoned).amr).to.deep.equal(['pop', 'user', 'mfa']);

    await openSecurity(page);
    await passkeys.getByRole('button', { name: 'Remove Work laptop' }).click();
    await page.getByRole('dialog', { name: /Remove the passkey/ }).getByRole('button', { name: 'Remove' }).click();
    await passkeys.getByText('You have no passkey yet.').waitFor();

    // The authenticator still holds it, the product no longer knows it.
    await signOut(page, 'Nora');
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByText('This passkey could not be used to sign in.', { exact: false }).waitFor();
    expect(page.url()).to.match(/\/account\/login\?interaction=/);
    await shot(page, 'passkey-refused');
    await context.close();
  });

  it('sets up an authenticator app and recovery codes, and signs in with each at the second step; a recovery code works once', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await openSignIn(page);
    await signInWithPassword(page, 'omar@example.com');
    await atHome(page, 'Omar');
    await openSecurity(page);

    const app = section(page, 'Authenticator app');
    await app.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const enrol = page.getByRole('dialog', { name: 'Set up your authenticator app' });
    await enrol.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    const secret = (await enrol.locator('code.security-key').innerText()).replace(/\s+/g, '');
    expect(secret).to.match(/^[A-Z2-7]{16,}$/);
    await shot(page, 'totp-enrolment');
    await enrol.getByLabel('Code shown by the app').fill(totpCode(secret));
    await enrol.getByRole('button', { name: 'Confirm' }).click();
    await app.getByText(/You set up an authenticator app on/).waitFor();

    const recovery = section(page, 'Recovery codes');
    await recovery.getByRole('button', { name: 'Generate recovery codes' }).click();
    const shown = page.getByRole('dialog', { name: 'Your recovery codes' });
    await shown.locator('ol.security-codes code').first().waitFor();
    const codes = (await shown.locator('ol.security-codes code').allInnerTexts()).map((code) => code.trim());
    expect(codes).to.have.length(10);
    for (const code of codes) expect(code).to.match(/^[0-9a-z]{5}-[0-9a-z]{5}$/i);
    await shot(page, 'recovery-codes');
    await shown.getByRole('button', { name: 'I have saved them' }).click();
    await recovery.getByText('10 codes left', { exact: false }).waitFor();
    await shot(page, 'overview');
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
      await page.waitForTimeout(300);
      const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
      expect(overflow, `My security at ${width} px scrolls sideways`).to.be.at.most(1);
      if (width === 390) await shot(page, 'overview-390');
    }

    /** Signs out, then in with the password, up to the second step (the authenticator app's code). */
    const toSecondStep = async () => {
      await signOut(page, 'Omar');
      await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
      await signInWithPassword(page, 'omar@example.com');
      await page.getByText('Enter the 6-digit code shown by your authenticator app.').waitFor({ timeout: 30_000 });
    };
    const useRecoveryCode = async (code: string) => {
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill(code);
      await page.getByRole('button', { name: 'Submit' }).click();
    };

    await toSecondStep();
    await shot(page, 'second-step');
    await useRecoveryCode(codes[0]!);
    await atHome(page, 'Omar');
    expect(claimsOf((await storedSignIn(page)).id_token).amr).to.deep.equal(['pwd', 'otp']);

    await toSecondStep();
    await useRecoveryCode(codes[0]!);
    await page.getByRole('alert').filter({ hasText: /code/i }).first().waitFor();
    expect(page.url(), 'a used recovery code is refused').to.match(/\/account\/login/);
    // The next time step's code: the one the enrolment used is spent.
    await page.getByRole('button', { name: 'Use your authenticator app' }).click();
    await page.getByLabel('Verification code').fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Submit' }).click();
    await atHome(page, 'Omar');
    expect(claimsOf((await storedSignIn(page)).id_token).amr).to.deep.equal(['pwd', 'otp']);

    await openSecurity(page);
    await recovery.getByText('9 codes left', { exact: false }).waitFor();
    await context.close();
  });

  it('ends another browser’s session from the list: its refresh token stops working and it must sign in again', async () => {
    const contexts: BrowserContext[] = [await newContext(), await newContext()];
    const [here, there] = await Promise.all(contexts.map((context) => context.newPage()));
    for (const page of [here!, there!]) {
      await openSignIn(page);
      await signInWithPassword(page, 'lea@example.com');
      await atHome(page, 'Lea');
    }
    const theirs = await storedSignIn(there!);
    expect(theirs.refresh_token, 'the portal holds a refresh token').to.be.a('string');

    await openSecurity(here!);
    const sessions = section(here!, 'Sessions and devices');
    await sessions.getByText('This device').waitFor();
    const others = sessions.getByRole('button', { name: /^Sign out .*, last seen/ });
    await others.first().waitFor();
    expect(await others.count(), 'one other session').to.equal(1);
    await shot(here!, 'sessions');
    // Its tokens are bound to the other browser's key: proofs it signs now, before the other
    // browser could notice the end of its session and forget its key, go with the calls below.
    const refreshProof = await proofFromPage(there!, 'portal', 'POST', `${base}/oidc/token`);
    const profileProof = await proofFromPage(there!, 'portal', 'GET', `${base}/api/v1/profile`, theirs.access_token);
    await others.first().click();
    await here!.getByText('The session has been signed out.').waitFor();
    await sessions.getByRole('button', { name: /^Sign out .*, last seen/ }).waitFor({ state: 'detached' });

    const refreshed = await fetch(`${base}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: refreshProof },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: theirs.refresh_token!, client_id: 'portal' }),
    });
    expect(refreshed.status).to.equal(400);
    expect(((await refreshed.json()) as { error: string }).error).to.equal('invalid_grant');
    const profile = await fetch(`${base}/api/v1/profile`, {
      headers: { authorization: `DPoP ${theirs.access_token}`, dpop: profileProof },
    });
    expect(profile.status, 'its access token too').to.equal(401);

    // The other browser, reloaded, is asked to sign in again; this one is still signed in.
    await there!.goto(`${base}/`, { waitUntil: 'commit' });
    await there!.waitForURL(/\/account\/login\?interaction=/, { timeout: 60_000 });
    await here!.goto(`${base}/`);
    await atHome(here!, 'Lea');
    for (const context of contexts) await context.close();
  });
});
