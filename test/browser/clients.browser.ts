// An operation request from creation to the token, in Debian's Chromium against `npm start`: Cora,
// a consultant of the Acme tenant, creates a user for Acme in My Clients and asks for the CRM's
// Agent role for her; Paul, a project manager consulting for Acme, approves it in Access Requests.
// The user, invited by mail, chooses her password and signs in to the CRM: her ID token carries
// Agent. Screenshots go to test-artifacts/screenshots/clients-*.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, SCREENSHOTS, settle, startProduct, type RunningProduct } from '../support/product.js';
import { PRODUCT_APPLICATIONS } from '../support/bootstrap.js';
import { RelyingParty } from '../support/relying-party.js';
import { MailCatcher } from '../support/smtp.js';

const PASSWORD = 'Correct-Horse-42!';
const NEW_PASSWORD = 'Fresh-Meadow-87?';
const NEWBIE = 'nora.lind@acme-industries.example';

const bootstrap = (crmUrl: string) => `
areas: [{ name: Default, default: true }, { name: Customers }]
tenants:
  - { title: Acme, area: Customers }
  - { title: Globex, area: Customers }
applications:${PRODUCT_APPLICATIONS}
  - id: crm
    name: crm
    displayName: CRM
    type: public
    firstParty: true
    privateUrl: '${crmUrl}/'
    redirectUris: ['${crmUrl}/callback']
    roles:
      - { name: Agent, operationRequestVisibility: true }
      - { name: Viewer, operationRequestVisibility: true }
users:
  - userName: cora@consulting.example
    firstName: Cora
    lastName: Vance
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: Acme, application: '1', roles: [IdentityConsultant], inheritable: false }
  - userName: paul@consulting.example
    firstName: Paul
    lastName: Okafor
    area: Default
    language: en
    internalCategory: Project Manager
    password: '${PASSWORD}'
    memberships:
      - { tenant: Acme, application: '1', roles: [IdentityConsultant], inheritable: false }
`;

async function shot(page: Page, name: string): Promise<void> {
  await settle(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, `clients-${name}.png`), fullPage: true });
}

async function logIn(page: Page, userName: string, password: string): Promise<void> {
  await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
  await page.getByLabel('User', { exact: true }).fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Picks `option` in the antd select labelled `label` (they are not native selects). */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(option, { exact: true }).click();
}

/** My Clients with Acme chosen in the tenant selector. */
async function openClients(page: Page, base: string, userName: string): Promise<void> {
  await page.goto(`${base}/clients`);
  await logIn(page, userName, PASSWORD);
  await page.getByLabel('Tenant', { exact: true }).waitFor({ timeout: 30_000 });
  await choose(page, 'Tenant', 'Acme');
}

describe('My Clients: a consultant’s request, approved by another, reaches the new user’s ID token', function () {
  this.timeout(300_000);
  let product: RunningProduct;
  let browser: Browser;
  let cora: BrowserContext;
  let paul: BrowserContext;
  let nora: BrowserContext;
  const crm = new RelyingParty('openid profile email roles company');
  const smtp = new MailCatcher();

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await Promise.all([crm.start(), smtp.start()]);
    product = await startProduct({ bootstrap: bootstrap(crm.url), env: { SMTP_URL: smtp.url } });
    await crm.configure(`${product.base}/oidc`, 'crm');
    browser = await launchChromium();
    const open = () => browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    [cora, paul, nora] = await Promise.all([open(), open(), open()]);
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
    await crm.stop();
    await smtp.stop();
  });

  it('Cora creates Nora for Acme and asks for the CRM’s Agent role: the request waits, Nora is pending approval', async () => {
    const page = await cora.newPage();
    await openClients(page, product.base, 'cora@consulting.example');
    await page.getByRole('button', { name: 'New' }).click();
    const wizard = page.getByRole('dialog').filter({ hasText: 'Create Operation Request' });
    await wizard.getByRole('textbox', { name: 'User name' }).fill(NEWBIE);
    await choose(page, 'Area', 'Customers');
    await wizard.getByRole('textbox', { name: 'First name' }).fill('Nora');
    await wizard.getByRole('textbox', { name: 'Last name' }).fill('Lind');
    await choose(page, 'Preferred language', 'English');
    await wizard.getByRole('textbox', { name: 'E-mail' }).fill(NEWBIE);
    await shot(page, 'wizard-user');
    await wizard.getByRole('button', { name: 'Next' }).click();

    // Step 1: Cora may not approve, so no Approve switch is offered.
    await wizard.getByRole('button', { name: 'Add role' }).click();
    await choose(page, 'Application', 'CRM');
    await choose(page, 'Role', 'Agent');
    await wizard.getByRole('button', { name: 'Add', exact: true }).click();
    await wizard.getByRole('region', { name: 'Roles' }).getByText('CRM: Agent', { exact: true }).waitFor();
    expect(await wizard.getByRole('switch').count()).to.equal(0);
    await shot(page, 'wizard-permissions');
    await wizard.getByRole('button', { name: 'Done' }).click();
    await wizard.waitFor({ state: 'detached' });

    const row = page.getByRole('row').filter({ hasText: NEWBIE });
    await row.getByText('Waiting', { exact: true }).waitFor({ timeout: 30_000 });
    await row.getByLabel('User pending approval.').first().waitFor();
    await shot(page, 'table-waiting');
    // The bulk-upload options sit beside New.
    await page.getByRole('button', { name: 'Bulk upload' }).click();
    await page.getByText('New users with their access requests').waitFor();
    await shot(page, 'bulk-menu');
    await page.keyboard.press('Escape');

    await page.getByText('Access Requests', { exact: true }).click();
    const request = page.getByRole('row').filter({ hasText: 'Nora Lind' });
    await request.getByText('Waiting for approver').waitFor({ timeout: 30_000 });
    // Her own request: she may cancel it, not approve it.
    expect(await request.getByRole('button', { name: 'Approve' }).count()).to.equal(0);
    await page.close();
  });

  it('Paul, a project manager consulting for Acme, approves it after the warning about external users', async () => {
    const page = await paul.newPage();
    await openClients(page, product.base, 'paul@consulting.example');
    // He was told: the bell counts one unread notification, naming the request.
    await page.getByRole('button', { name: 'Notifications: 1 unread notification' }).click();
    const drawer = page.getByRole('dialog').filter({ hasText: 'Nora Lind' });
    await drawer.getByText(/Cora Vance/).first().waitFor({ timeout: 30_000 });
    await shot(page, 'approver-notified');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await page.getByText('Access Requests', { exact: true }).click();
    const request = page.getByRole('row').filter({ hasText: 'Nora Lind' });
    await request.getByText('Waiting for approver').waitFor({ timeout: 30_000 });
    await request.getByRole('button', { name: 'Approve' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Approve access?' });
    await confirm.getByText('Make sure that external users are meant to access these applications.').waitFor();
    await shot(page, 'approve-confirm');
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await confirm.waitFor({ state: 'detached' });
    // It leaves the waiting list, and shows among the applied ones.
    await request.waitFor({ state: 'detached', timeout: 30_000 });
    await choose(page, 'Status', 'Applied');
    await request.getByText('Applied', { exact: true }).waitFor({ timeout: 30_000 });
    await shot(page, 'requests-applied');

    // Nora is no longer pending: she can be invited.
    await page.getByText('Clients', { exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: NEWBIE });
    await row.getByText('Applied', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await row.getByLabel('User pending approval.').count()).to.equal(0);
    await row.getByRole('button', { name: 'Send an e-mail invite to Nora Lind' }).click();
    await page.getByText('Invitation mail sent successfully.').waitFor();
    await page.close();
  });

  it('Nora follows the invitation, chooses her password and signs in to the CRM: her ID token carries Agent', async () => {
    const mail = await smtp.next(NEWBIE, 0, (m) => /changePassword/.test(m.html || m.text || ''));
    // The plain-text part: its link is as sent, with no HTML escaping.
    const link = /https?:\/\/\S+\/account\/changePassword\?\S+/.exec(mail.text ?? '')?.[0];
    expect(link, 'the invitation carries its link').to.be.a('string');
    const page = await nora.newPage();
    await page.goto(link!);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText(/^Your password has been reset/).waitFor({ timeout: 30_000 });
    await shot(page, 'password-chosen');

    const before = crm.signIns.length;
    await page.goto(`${crm.url}/login`);
    await logIn(page, NEWBIE, NEW_PASSWORD);
    await page.waitForURL(`${crm.url}/callback?**`, { timeout: 30_000 });
    expect(crm.signIns).to.have.length(before + 1);
    const claims = crm.signIns.at(-1) as Record<string, unknown>;
    expect(claims.email).to.equal(NEWBIE);
    expect(claims.roles).to.deep.equal(['Agent']);
    expect(claims.current_company).to.deep.include({ title: 'Acme', roles: ['Agent'] });
  });
});
