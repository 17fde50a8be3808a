// Addresses that must hold on their own in Debian's Chromium against `npm start`: the portal's
// /home/companies/select (linked to by the other applications) through a fresh sign-in and a
// reload, and a console page's breadcrumbs after a reload. Screenshots go to
// test-artifacts/screenshots/routes-*.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PRODUCT_APPLICATIONS } from '../support/bootstrap.js';
import { ADMIN_PASSWORD, launchChromium, SCREENSHOTS, settle, startProduct, type RunningProduct } from '../support/product.js';

const PASSWORD = 'Correct-Horse-42!';

const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
tenants:
  - { title: Main office, area: Default }
  - { title: Lisbon branch, area: Default, parent: Main office }
applications:${PRODUCT_APPLICATIONS}
  - { id: crm, name: crm, displayName: CRM, description: Customers and sales, type: public, privateUrl: 'https://crm.example.com', roles: [{ name: Sales }] }
users:
  - userName: nora@example.com
    firstName: Nora
    lastName: Silva
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: Main office, application: crm, roles: [Sales] }
      - { tenant: Lisbon branch, application: crm, roles: [Sales] }
`;

async function shot(page: Page, name: string) {
  await settle(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, `routes-${name}.png`), fullPage: true });
}

/** The breadcrumb trail as its items read. */
async function trail(page: Page): Promise<string[]> {
  return (await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('listitem').allInnerTexts()).map((text) => text.trim());
}

async function signIn(page: Page, userName: string, password: string) {
  await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
  await page.getByLabel('User', { exact: true }).fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe('addresses that hold through a sign-in and a reload, in a real browser', function () {
  this.timeout(240_000);
  let product: RunningProduct;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    product = await startProduct({ bootstrap: BOOTSTRAP });
    base = product.base;
    browser = await launchChromium();
  });

  afterEach(async () => {
    await context?.close();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('opens /home/companies/select after a fresh sign-in and after a reload, then goes back to the address that linked to it', async () => {
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    const address = `${base}/home/companies/select?returnUrl=${encodeURIComponent('/profile')}`;
    await page.goto(address);
    await signIn(page, 'nora@example.com', PASSWORD);
    await page.waitForURL(address, { timeout: 30_000 });
    const dialog = page.getByRole('dialog', { name: 'Change company' });
    await dialog.getByRole('radio', { name: 'Lisbon branch' }).waitFor({ timeout: 30_000 });

    await page.reload();
    await dialog.getByRole('radio', { name: 'Lisbon branch' }).waitFor({ timeout: 30_000 });
    expect(page.url()).to.equal(address);
    await shot(page, 'companies-select');

    await dialog.getByRole('radio', { name: 'Lisbon branch' }).click();
    await dialog.getByRole('button', { name: 'Select' }).click();
    await page.waitForURL(`${base}/profile`, { timeout: 30_000 });
    await page.getByRole('heading', { name: 'Your Profile', level: 1 }).waitFor({ timeout: 30_000 });
    await page.getByText('Lisbon branch').first().waitFor();
  });

  it('keeps a console page’s breadcrumbs after a reload: Applications › CRM › the user reached from its Users tab', async () => {
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/admin/applications/crm/users`);
    await signIn(page, 'admin@gatehouse.local', ADMIN_PASSWORD);
    await page.waitForURL(`${base}/admin/applications/crm/users`, { timeout: 30_000 });
    await page.getByRole('link', { name: 'nora@example.com' }).click({ timeout: 30_000 });
    await page.waitForURL(/\/admin\/applications\/crm\/users\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await page.getByRole('heading', { name: 'nora@example.com', level: 1 }).waitFor({ timeout: 30_000 });
    const before = await trail(page);
    expect(before.slice(1)).to.deep.equal(['Applications', 'CRM', 'nora@example.com']);

    await page.reload();
    await page.getByRole('heading', { name: 'nora@example.com', level: 1 }).waitFor({ timeout: 30_000 });
    await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'CRM' }).waitFor();
    expect(await trail(page)).to.deep.equal(before);
    await shot(page, 'user-crumbs-after-reload');

    await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'CRM' }).click();
    await page.waitForURL(`${base}/admin/applications/crm/users`);
    await page.reload();
    await page.getByRole('heading', { name: 'CRM', level: 1 }).waitFor({ timeout: 30_000 });
    expect((await trail(page)).slice(1)).to.deep.equal(['Applications', 'CRM']);
  });
});
