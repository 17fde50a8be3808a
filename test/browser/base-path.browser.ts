// The product under a base path (PUBLIC_URL=http://localhost:<port>/identity) in Debian's Chromium:
// the console and the portal load, sign in and call their APIs, and the browser never asks for
// anything of the product outside /identity. Screenshots go to test-artifacts/screenshots/base-path-*.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, SCREENSHOTS, launchChromium, startProduct, type RunningProduct } from '../support/product.js';

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `base-path-${name}.png`), fullPage: true });

describe('the product under a base path in a real browser', function () {
  this.timeout(240_000);
  let product: RunningProduct;
  let browser: Browser;

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    product = await startProduct({ basePath: '/identity' });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('signs in to the console and opens the portal, every request of the product under /identity', async () => {
    const origin = new URL(product.base).origin;
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    const outside: string[] = [];
    const failed: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === origin && !url.pathname.startsWith('/identity/') && url.pathname !== '/identity') outside.push(url.pathname);
    });
    page.on('response', (response) => {
      if (response.url().startsWith(origin) && response.status() >= 400) failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });

    await page.goto(`${product.base}/admin/`);
    await page.waitForURL(/\/identity\/account\/login\?interaction=/, { timeout: 30_000 });
    await page.getByLabel('User', { exact: true }).fill('admin@gatehouse.local');
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(new RegExp(`^${product.base}/admin/?$`), { timeout: 30_000 });
    await page.getByRole('heading', { name: /Welcome/ }).waitFor({ timeout: 30_000 });
    await shot(page, 'console');

    // A screen of its own chunk, reached in the console, then loaded afresh at its deep address.
    await page.getByRole('link', { name: 'Users' }).first().click();
    await page.waitForURL(`${product.base}/admin/users`);
    await page.getByRole('row').filter({ hasText: 'admin@gatehouse.local' }).waitFor({ timeout: 30_000 });
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'admin@gatehouse.local' }).waitFor({ timeout: 30_000 });
    await shot(page, 'console-users');

    // The portal signs in silently with the provider session, under the same base path.
    await page.goto(`${product.base}/`);
    await page.waitForURL(new RegExp(`^${product.base}/?$`), { timeout: 30_000 });
    await page.getByRole('heading', { name: /Welcome/ }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: /My Apps/ }).click();
    await page.getByRole('dialog').waitFor();
    await shot(page, 'portal');

    expect(outside, 'requests of the product outside its base path').to.deep.equal([]);
    expect(failed, 'failed requests').to.deep.equal([]);
    await context.close();
  });
});
