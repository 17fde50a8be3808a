// Both SPAs in Debian's Chromium against `npm start`, under their Content Security Policy (no
// unsafe-inline): the component library's run-time styles must apply through the page's nonce,
// and no page of the sign-in or of the console may trip the policy.
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, launchChromium, startProduct, type RunningProduct } from '../support/product.js';

/**
 * Styles the component library inserts without a way to give them the nonce: a scrollbar
 * measurement (it falls back by itself) and its dialogs' scroll lock (base.css does that instead).
 */
const LIBRARY_STYLES = [/^\s*#rc-scrollbar-measure-/, /^\s*html body \{\s*overflow-y: hidden;/];

/** Run in the page (this file is type-checked without the DOM's types). */
const backgroundOf = (element: unknown) =>
  (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(element).backgroundColor;
const BODY_OVERFLOW = 'getComputedStyle(document.body).overflowY';
const layoutOf = (element: unknown) => {
  const style = (globalThis as unknown as { getComputedStyle(e: unknown): { display: string; height: string } }).getComputedStyle(element);
  return { display: style.display, height: style.height };
};

/** What the page reported through `securitypolicyviolation` since it loaded, but the library's known styles. */
async function violations(page: Page): Promise<string[]> {
  const seen = (await page.evaluate('window.cspViolations')) as Array<{ directive: string; sample: string; source: string }>;
  return seen.filter((v) => !(v.directive === 'style-src-elem' && LIBRARY_STYLES.some((known) => known.test(v.sample)))).map((v) => `${v.directive} ${v.sample} ${v.source}`);
}

describe('security: the SPAs run under a CSP without unsafe-inline', function () {
  this.timeout(240_000);
  let product: RunningProduct;
  let browser: Browser;

  before(async () => {
    product = await startProduct();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('styles the sign-in page, the portal and the console through the nonce, with no violation', async () => {
    const context = await browser.newContext({ locale: 'en-GB' });
    // Runs in the page before its own scripts (the test's own scripts are not subject to the policy).
    await context.addInitScript(`
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.cspViolations.push({ directive: e.violatedDirective, sample: e.sample, source: e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber }));
    `);
    const page = await context.newPage();

    const login = await page.goto(`${product.base}/`);
    expect(login?.headers()['content-security-policy']).not.to.contain('unsafe-inline');
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    const logIn = page.getByRole('button', { name: 'Log in' });
    await logIn.waitFor();
    // antd's primary colour comes from a style it inserts at run time: only the nonce lets it apply.
    expect(await logIn.evaluate(backgroundOf)).to.equal('rgb(29, 78, 216)');
    expect(await violations(page), 'sign-in page').to.deep.equal([]);

    await page.getByLabel('User', { exact: true }).fill('admin@gatehouse.local');
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await logIn.click();
    await page.waitForURL(`${product.base}/`, { timeout: 30_000 });
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    expect(await violations(page), 'portal home').to.deep.equal([]);

    await page.goto(`${product.base}/admin/users`);
    await page.getByRole('button', { name: 'New user' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'New user' }).evaluate(backgroundOf)).to.equal('rgb(29, 78, 216)');
    // A dialog still keeps the page behind it from scrolling.
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await page.evaluate(BODY_OVERFLOW)).to.equal('hidden');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(`${BODY_OVERFLOW} !== 'hidden'`);
    expect(await violations(page), 'admin console').to.deep.equal([]);
    await context.close();
  });

  it('styles the security configuration’s YAML editor through the nonce, with no violation', async () => {
    const context = await browser.newContext({ locale: 'en-GB' });
    await context.addInitScript(`
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.cspViolations.push({ directive: e.violatedDirective, sample: e.sample, source: e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber }));
    `);
    const page = await context.newPage();
    // The bootstrap administrator holds God: straight to the page after the sign-in.
    await page.goto(`${product.base}/admin/securityConfig`);
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await page.getByLabel('User', { exact: true }).fill('admin@gatehouse.local');
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Edit Lockout' }).click({ timeout: 30_000 });
    const editor = page.getByRole('dialog').locator('.cm-editor');
    await editor.waitFor();
    await page.getByRole('dialog').getByText('maxFailedAttempts').first().waitFor();
    // The editor's layout and its 300-pixel height are styles it inserts itself: only the nonce lets them apply.
    expect(await editor.evaluate(layoutOf)).to.deep.equal({ display: 'flex', height: '300px' });
    expect(await violations(page), 'security configuration editor').to.deep.equal([]);
    await context.close();
  });
});
