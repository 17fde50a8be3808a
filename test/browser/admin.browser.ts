// The admin console in Debian's Chromium against `npm start` on the embedded database: the bootstrap
// administrator signs in, creates a group and a user, finds the user, locks and unlocks them, adds
// them to the group and exports the list. Screenshots go to test-artifacts/screenshots/admin-*.png.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import type { Browser, Locator, Page } from 'playwright-core';
import { ADMIN_PASSWORD, launchChromium, SCREENSHOTS, settle, startProduct, type RunningProduct } from '../support/product.js';

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `admin-${name}.png`), fullPage: true });

/** Picks an option of an antd Select (they are not native selects). */
async function choose(page: Page, field: Locator, option: string) {
  await field.click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(option, { exact: true }).click();
}

describe('admin console in a real browser', function () {
  this.timeout(300_000);
  let product: RunningProduct;
  let browser: Browser;

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    product = await startProduct();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('signs in as the bootstrap administrator, creates a user, finds, locks and unlocks it, adds it to a group and exports the list', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    // Waits bound a hang, not a speed: beside CI's other lanes a table or a dialog may take long to settle.
    page.setDefaultTimeout(90_000);
    const stamp = Date.now().toString(36);
    const userName = `lea.${stamp}@example.com`;
    const groupName = `Support ${stamp}`;

    // Sign-in through the provider, back to the console, the splash then the dashboard.
    await page.goto(`${product.base}/admin/`);
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await page.getByLabel('User', { exact: true }).fill('admin@gatehouse.local');
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(new RegExp(`^${product.base}/admin/?$`), { timeout: 30_000 });
    await page.getByRole('heading', { name: /Welcome/ }).waitFor({ timeout: 30_000 });
    await shot(page, 'dashboard');
    await page.getByText('Users', { exact: true }).first().waitFor();

    // A group to add the user to.
    await page.goto(`${product.base}/admin/groups`);
    await page.getByRole('button', { name: 'New group' }).click();
    const groupDialog = page.getByRole('dialog');
    await groupDialog.getByLabel('Name', { exact: true }).fill(groupName);
    await choose(page, groupDialog.getByLabel('Area', { exact: true }), 'Default');
    await groupDialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('link', { name: groupName }).waitFor();

    // The new user, with the spec's validation first.
    await page.goto(`${product.base}/admin/users`);
    await page.getByRole('button', { name: 'New user' }).click();
    const userDialog = page.getByRole('dialog');
    // The dialog's form is there and its opening animation over before its button is pressed.
    await userDialog.getByLabel('User name', { exact: true }).waitFor();
    await settle(page);
    await userDialog.getByRole('button', { name: 'Create' }).click();
    await userDialog.getByText('Please input your username!').waitFor();
    await userDialog.getByText('Area required').waitFor();
    await shot(page, 'new-user-validation');
    await userDialog.getByLabel('User name', { exact: true }).fill(userName);
    await userDialog.getByLabel('Email', { exact: true }).fill(userName);
    await userDialog.getByLabel('First name', { exact: true }).fill('Léa');
    await userDialog.getByLabel('Last name', { exact: true }).fill(`Durand ${stamp}`);
    await choose(page, userDialog.getByLabel('Area', { exact: true }), 'Default');
    await choose(page, userDialog.getByLabel('Language', { exact: true }), 'Français');
    await userDialog.getByRole('button', { name: 'Create' }).click();
    await userDialog.waitFor({ state: 'hidden' });

    // Found by search (debounced, in SQL). The search's answer is awaited: a row found in the list
    // before it would be redrawn under the next click.
    const searched = page.waitForResponse((res) => res.url().includes('/api/v1/admin/users?') && res.url().includes(stamp), { timeout: 90_000 });
    await page.getByLabel('Search', { exact: true }).fill(stamp);
    expect((await searched).status()).to.equal(200);
    const row = page.getByRole('row').filter({ hasText: userName });
    await row.waitFor();
    expect(await page.getByRole('row').filter({ hasText: '@example.com' }).count()).to.equal(1);
    await shot(page, 'users-search');

    // Lock, confirmed; then unlock.
    await row.getByRole('button', { name: 'Lock', exact: true }).click();
    const lockDialog = page.getByRole('dialog').filter({ hasText: `Lock the user ${userName}?` });
    // The dialog closes once the API answered: its answer is awaited (and checked) rather than guessed.
    const locked = page.waitForResponse((res) => res.url().includes('/api/v1/account/lock/'), { timeout: 90_000 });
    await lockDialog.getByRole('button', { name: 'Lock', exact: true }).click();
    expect((await locked).status()).to.equal(200);
    await lockDialog.waitFor({ state: 'hidden' });
    await row.getByRole('button', { name: 'Unlock', exact: true }).waitFor();
    await shot(page, 'users-locked');
    await row.getByRole('button', { name: 'Unlock', exact: true }).click();
    const unlockDialog = page.getByRole('dialog').filter({ hasText: `Unlock the user ${userName}?` });
    const unlocked = page.waitForResponse((res) => res.url().includes('/api/v1/account/unlock/'), { timeout: 90_000 });
    await unlockDialog.getByRole('button', { name: 'Unlock', exact: true }).click();
    expect((await unlocked).status()).to.equal(200);
    await unlockDialog.waitFor({ state: 'hidden' });
    // Exact names: "Lock" is also part of "Unlock".
    await row.getByRole('button', { name: 'Lock', exact: true }).waitFor();

    // Into the group, from the user's detail page.
    await row.getByRole('link', { name: userName }).click();
    await page.waitForURL(/\/admin\/users\/[0-9a-f-]{36}$/);
    await page.getByRole('tab', { name: 'Member of' }).click();
    await page.getByRole('button', { name: 'Add to group' }).click();
    const addDialog = page.getByRole('dialog').filter({ hasText: 'Add user to group' });
    await addDialog.getByLabel('Group', { exact: true }).fill(stamp);
    const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(groupName, { exact: true });
    // The dropdown has opened, and closed again on the choice, before the dialog's button is pressed.
    await option.waitFor();
    await settle(page);
    await option.click();
    await settle(page);
    await addDialog.getByRole('button', { name: 'Add' }).click();
    await addDialog.waitFor({ state: 'hidden' });
    await page.getByRole('row').filter({ hasText: groupName }).waitFor();
    await shot(page, 'user-detail');

    // The list exported as it is filtered (the search is remembered), read back.
    await page.goto(`${product.base}/admin/users`);
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).to.equal(stamp);
    await page.getByRole('row').filter({ hasText: userName }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to Excel' }).click()]);
    expect(download.suggestedFilename()).to.equal('Users.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.actualRowCount, 'the header and the one user found').to.equal(2);
    const cells = sheet.getRow(2).values as unknown[];
    expect(cells).to.include(userName);
    expect(cells).to.include('Léa');
    await context.close();
  });
});
