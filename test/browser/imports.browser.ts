// An Excel import runs in the background, in Debian's Chromium against `npm start`: the
// administrator uploads a users file of three rows, one of them wrong; the dialog says the file will
// be processed in the background, a toast tells when the import has finished, and the
// notifications flyout opens its result with the wrong row and its reason. Screenshots go to
// test-artifacts/screenshots/imports-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, launchChromium, SCREENSHOTS, settle, startProduct, type RunningProduct } from '../support/product.js';

const ADMIN = 'admin@gatehouse.local';

async function shot(page: Page, name: string): Promise<void> {
  await settle(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, `imports-${name}.png`), fullPage: true });
}

/** The users template's columns with two good rows and one whose language does not exist. */
async function usersFile(): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Users');
  sheet.addRow(['UserName', 'Email', 'FirstName', 'LastName', 'Area', 'Language', 'SendEmailInvite']);
  sheet.addRow(['ada@example.com', 'ada@example.com', 'Ada', 'Lovelace', 'Default', 'en', 'No']);
  sheet.addRow(['alan@example.com', 'alan@example.com', 'Alan', 'Turing', 'Default', 'klingon', 'No']);
  sheet.addRow(['grace@example.com', 'grace@example.com', 'Grace', 'Hopper', 'Default', 'en', 'No']);
  const file = path.join(tmpdir(), `gatehouse-users-${process.pid}.xlsx`);
  writeFileSync(file, Buffer.from(await workbook.xlsx.writeBuffer()));
  return file;
}

describe('imports: a users file is imported in the background and its result opened from the notification', function () {
  this.timeout(300_000);
  let product: RunningProduct;
  let browser: Browser;
  let page: Page;
  let toastSeen: Promise<string | null>;

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    product = await startProduct();
    browser = await launchChromium();
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('the upload is accepted at once and said to be processed in the background', async () => {
    await page.goto(`${product.base}/admin/users`);
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await page.getByLabel('User', { exact: true }).fill(ADMIN);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(new RegExp(`^${product.base}/admin/users$`), { timeout: 30_000 });

    await page.getByRole('button', { name: /Bulk upload/ }).click();
    await page.getByRole('menuitem', { name: 'Upload users' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Upload users' });
    await dialog.locator('input[type="file"]').setInputFiles(await usersFile());
    // The import may finish while the dialog is still open: the toast is watched for from now on.
    toastSeen = page
      .locator('.ant-notification-notice')
      .filter({ hasText: 'Users import' })
      .filter({ hasText: 'rows applied' })
      .first()
      .textContent({ timeout: 90_000 });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.getByText('Upload Successful').waitFor({ timeout: 30_000 });
    await dialog.getByText('This file will be processed in the background.').waitFor();
    await shot(page, 'accepted');
    await dialog.getByRole('button', { name: /Close|Cancel/ }).first().click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('a toast says the import has finished, with two rows of three applied', async () => {
    expect(await toastSeen).to.contain('Users import finished: 2 of 3 rows applied');
    // The process's own toast, shown while it ran, goes once it has finished.
    await page.locator('.ant-notification-notice').filter({ hasText: 'Users import in progress' }).waitFor({ state: 'detached', timeout: 15_000 });
    await shot(page, 'toast');
  });

  it('the flyout counts the result and opens it: the wrong row with its reason', async () => {
    await page.getByRole('button', { name: /Notifications/ }).first().click();
    const drawer = page.getByRole('dialog').filter({ hasText: 'Notifications' });
    const item = drawer.locator('li, .ant-list-item').filter({ hasText: 'Users import finished' }).first();
    await item.getByText('Errors: 1').waitFor({ timeout: 30_000 });
    await item.getByText('Imported: 2').waitFor();
    await shot(page, 'flyout');
    await item.getByRole('button', { name: 'Open Result' }).click();
    const result = page.getByRole('dialog').filter({ hasText: 'Result' }).last();
    await result.getByRole('cell', { name: '3', exact: true }).waitFor();
    expect(await result.textContent()).to.match(/klingon/);
    await shot(page, 'result');

    // The two good rows are users now; the wrong one is not.
    await result.getByRole('button', { name: 'Close', exact: true }).last().click();
    await page.keyboard.press('Escape');
    await page.reload();
    await page.getByRole('link', { name: 'ada@example.com' }).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'grace@example.com' }).waitFor();
    expect(await page.getByRole('link', { name: 'alan@example.com' }).count()).to.equal(0);
  });
});
