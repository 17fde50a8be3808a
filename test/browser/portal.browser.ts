// The portal in Debian's Chromium against `npm start` on the embedded database: the flows a person
// follows every morning. Screenshots go to test-artifacts/screenshots/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { SCREENSHOTS as shots, launchChromium, startProduct, type RunningProduct } from '../support/product.js';

const PASSWORD = 'Correct-Horse-42!';

const BOOTSTRAP = `
areas: [{ name: Default, default: true }, { name: Customers }]
tenants: [{ title: Main office, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, privateUrl: '\${publicUrl}/admin', roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: portal, name: portal, displayName: Portal, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${publicUrl}/auth/callback'], postLogoutRedirectUris: ['\${publicUrl}/'] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${publicUrl}/admin/auth/callback'], postLogoutRedirectUris: ['\${publicUrl}/admin/'] }
  - { id: crm, name: crm, displayName: CRM, description: Customers and sales, type: public, privateUrl: 'https://crm.example.com', roles: [{ name: Sales }] }
  - { id: wiki, name: wiki, displayName: Wiki, description: Company knowledge, type: public, privateUrl: 'https://wiki.example.com', roles: [{ name: Reader }] }
  - { id: reports, name: reports, displayName: Reports, description: Monthly figures, type: public, privateUrl: 'https://reports.example.com', publicUrl: 'https://www.example.com/reports' }
users:
  - userName: zoe@example.com
    firstName: Zoé
    lastName: Martin
    area: Default
    language: fr
    password: '${PASSWORD}'
    memberships:
      - { tenant: Main office, application: crm, roles: [Sales] }
      - { tenant: Main office, application: wiki, roles: [Reader] }
`;

describe('portal in a real browser', function () {
  this.timeout(240_000);
  let product: RunningProduct;
  let base: string;
  let browser: Browser;

  before(async () => {
    mkdirSync(shots, { recursive: true });
    product = await startProduct({ bootstrap: BOOTSTRAP });
    base = product.base;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  async function openSignIn(page: Page) {
    await page.goto(`${base}/`);
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    // Without Microsoft sign-in configured, the page opens on the local form directly.
    await page.getByLabel('Utilisateur', { exact: true }).waitFor();
  }

  async function signIn(page: Page, password: string) {
    await page.getByLabel('Utilisateur', { exact: true }).fill('zoe@example.com');
    await page.getByLabel('Mot de passe', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  }

  it('signs in through the portal, lands on the tiles, opens My Apps, switches language and signs out', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await openSignIn(page);
    await page.screenshot({ path: path.join(shots, 'login.png'), fullPage: true });
    // Switching language keeps what was typed.
    await page.getByLabel('Utilisateur', { exact: true }).fill('zoe@example.com');
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByLabel('User', { exact: true }).waitFor();
    expect(await page.getByLabel('User', { exact: true }).inputValue()).to.equal('zoe@example.com');
    await page.getByRole('button', { name: 'Français' }).click();
    await signIn(page, PASSWORD);

    await page.waitForURL(`${base}/`, { timeout: 30_000 });
    await page.getByRole('heading', { name: /Bienvenue, Zoé/ }).waitFor();
    await page.getByText('CRM', { exact: true }).first().waitFor();
    await page.getByText('Wiki', { exact: true }).first().waitFor();
    await page.getByText('Reports', { exact: true }).first().waitFor();
    await page.screenshot({ path: path.join(shots, 'home.png'), fullPage: true });

    await page.getByRole('button', { name: MY_APPS_FR }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByText('CRM', { exact: true }).waitFor();
    // Let the drawer finish sliding in before the picture.
    await page.locator('.ant-drawer-content-wrapper').evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a: { finished: Promise<unknown> }) => a.finished)));
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, 'drawer.png') });
    await page.keyboard.press('Escape');

    await switchLanguage(page, LANGUAGE_MENU_FR, 'English');
    await page.getByRole('button', { name: MY_APPS_EN }).waitFor();
    await switchLanguage(page, LANGUAGE_MENU_EN, 'Français');
    await page.getByRole('button', { name: MY_APPS_FR }).waitFor();

    await signOut(page);
    await context.close();
  });

  it('transfers at most 250 KB of JavaScript to show the sign-in page, compressed, and caches it for good', async () => {
    const context = await browser.newContext({ locale: 'fr-FR' });
    const page = await context.newPage();
    const scripts: Array<{ url: string; encoding: string | undefined; cacheControl: string | undefined; bytes: Promise<number> }> = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const headers = response.headers();
      // What crossed the network: the encoded body, as Chromium counted it.
      const bytes = response.finished().then(async () => (await response.request().sizes()).responseBodySize);
      scripts.push({ url: response.url(), encoding: headers['content-encoding'], cacheControl: headers['cache-control'], bytes });
    });
    await openSignIn(page);
    await page.waitForLoadState('networkidle');
    // A file served again from the memory cache reports no body (a negative size): nothing crossed the network.
    const sizes = (await Promise.all(scripts.map((s) => s.bytes))).map((n) => Math.max(0, n));
    const total = sizes.reduce((sum, n) => sum + n, 0);
    console.log(`      sign-in page JavaScript: ${scripts.length} files, ${(total / 1024).toFixed(1)} KB transferred`);
    expect(scripts.length).to.be.greaterThan(0);
    expect(total, 'JavaScript transferred for the sign-in page').to.be.at.most(250 * 1024);
    scripts.forEach((script, i) => {
      // Files under the build's 1 KB precompression threshold are not worth compressing.
      if (sizes[i]! >= 1024) expect(script.encoding, script.url).to.be.oneOf(['br', 'gzip']);
      expect(script.cacheControl, script.url).to.contain('immutable');
    });
    await context.close();
  });

  it('shows the lock message after five wrong passwords', async () => {
    const context = await browser.newContext({ locale: 'fr-FR' });
    const page = await context.newPage();
    await openSignIn(page);
    for (let i = 0; i < 5; i++) {
      await signIn(page, `Wrong-password-${i}!`);
      await page.getByRole('alert').first().waitFor();
    }
    await page.getByText(/Votre compte est bloqué après 5 tentatives échouées/).waitFor();
    await page.screenshot({ path: path.join(shots, 'locked.png') });
    await context.close();
  });
});

// Filled in from the shell's phrases.
const MY_APPS_FR = /Mes applications/;
const MY_APPS_EN = /My Apps/;
const LANGUAGE_MENU_FR = /Langue/;
const LANGUAGE_MENU_EN = /Language/;

async function switchLanguage(page: Page, menu: RegExp, choice: string) {
  await page.getByRole('button', { name: menu }).click();
  await page.getByRole('menuitem', { name: choice }).click();
}

async function signOut(page: Page) {
  const visited: string[] = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && visited.push(new URL(frame.url()).pathname));
  const said: string[] = [];
  page.on('console', (message) => said.push(`${message.type()}: ${message.text()}`));
  await page.getByRole('button', { name: /Compte de Zoé/ }).click();
  // The page asks for reduced motion (launchChromium): the pop-up opens in place, so the click
  // lands on the button.
  await page.getByRole('button', { name: 'Fermer la session' }).click();
  // Through the provider's end-session page, then back to the portal.
  // A bound on a hang, not a speed: beside CI's other lanes the round trip may take long.
  const deadline = Date.now() + 90_000;
  while (!(visited.some((p) => p.startsWith('/oidc/session/end')) && !visited.at(-1)!.startsWith('/oidc/'))) {
    if (Date.now() > deadline) {
      await page.screenshot({ path: path.join(shots, 'sign-out-stuck.png') }).catch(() => undefined);
      // What the page holds: whether the client removed its user and where the focus is.
      const state = await page
        .evaluate(
          `({ url: location.href, storage: Object.keys(localStorage), session: Object.keys(sessionStorage),
              dialogs: document.querySelectorAll('[role=dialog]').length, focused: document.activeElement?.outerHTML.slice(0, 200) })`,
        )
        .catch((error: Error) => error.message);
      throw new Error(`sign-out did not go through the provider: ${visited.join(' → ')}; page: ${JSON.stringify(state)}; console: ${said.join(' | ')}`);
    }
    await page.waitForTimeout(100);
  }
  // The provider session is over: opening the portal asks for a sign-in again. The portal sends the
  // browser on to the provider before its page has loaded, so the visit waits for its answer only.
  await page.goto(new URL('/', page.url()).toString(), { waitUntil: 'commit' });
  await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
  await page.getByLabel('Utilisateur', { exact: true }).waitFor();
}
