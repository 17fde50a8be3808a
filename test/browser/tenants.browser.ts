// Moving a tenant in the console changes what an application is told at once, in Debian's Chromium
// against `npm start`: Tess works for the Shop tenant, where she is a CRM Agent; she is also a CRM
// Viewer in North, inheritably. The administrator drags Shop onto North in the hierarchy tree and
// confirms; Tess's next sign-in to the CRM carries Viewer among her roles in her current company.
// Screenshots go to test-artifacts/screenshots/tenants-*.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ADMIN_PASSWORD, launchChromium, SCREENSHOTS, settle, startProduct, type RunningProduct } from '../support/product.js';
import { RelyingParty } from '../support/relying-party.js';

const ADMIN = 'admin@gatehouse.local';
const PASSWORD = 'Correct-Horse-42!';

const bootstrap = (crmUrl: string) => `
areas: [{ name: Default, default: true }]
tenants:
  - { title: Holding, area: Default }
  - { title: North, area: Default, parent: Holding }
  - { title: Shop, area: Default, parent: Holding }
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, privateUrl: '\${publicUrl}/admin', roles: [{ name: God }, { name: Administrator }, { name: Manager }, { name: User }] }
  - { id: portal, name: portal, displayName: Portal, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${publicUrl}/auth/callback'], postLogoutRedirectUris: ['\${publicUrl}/'] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${publicUrl}/admin/auth/callback'], postLogoutRedirectUris: ['\${publicUrl}/admin/'] }
  - { id: crm, name: crm, displayName: CRM, type: public, firstParty: true, privateUrl: '${crmUrl}/', redirectUris: ['${crmUrl}/callback'], roles: [{ name: Agent }, { name: Viewer }] }
users:
  - userName: tess@example.com
    firstName: Tess
    lastName: Moreau
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: North, application: crm, roles: [Viewer], inheritable: true }
      - { tenant: Shop, application: crm, roles: [Agent], inheritable: false }
`;

async function shot(page: Page, name: string): Promise<void> {
  await settle(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, `tenants-${name}.png`), fullPage: true });
}

async function logIn(page: Page, userName: string, password: string): Promise<void> {
  await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
  await page.getByLabel('User', { exact: true }).fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * Drags the tree node titled `source` into the one titled `target` with real mouse moves (the tree
 * listens to HTML5 drag events, which Chromium raises from them). The tree reads a drop on the lower
 * part of a node, about two indents to the right of where the drag started, as "inside it"; level
 * with it, as "beside it".
 */
async function dragInto(tree: Locator, source: string, target: string): Promise<void> {
  const title = tree.getByText(source, { exact: true });
  const row = tree.locator('.ant-tree-treenode').filter({ hasText: new RegExp(`^${target}$`) });
  const from = (await title.boundingBox())!;
  const to = (await row.boundingBox())!;
  await title.dragTo(row, {
    sourcePosition: { x: 2, y: from.height / 2 },
    targetPosition: { x: from.x + 2 + 48 - to.x, y: to.height * 0.75 },
  });
}

describe('tenants: a tenant dragged under another passes that tenant’s inheritable roles down at once', function () {
  this.timeout(300_000);
  let product: RunningProduct;
  let browser: Browser;
  let tess: BrowserContext;
  let admin: BrowserContext;
  const crm = new RelyingParty('openid profile company roles');

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await crm.start();
    product = await startProduct({ bootstrap: bootstrap(crm.url) });
    await crm.configure(`${product.base}/oidc`, 'crm');
    browser = await launchChromium();
    tess = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    admin = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
    await crm.stop();
  });

  /** Tess signs in to the CRM (her provider session is reused) and the claims of that sign-in are answered. */
  async function tessSignsInToCrm(): Promise<Record<string, unknown>> {
    const page = await tess.newPage();
    const before = crm.signIns.length;
    await page.goto(`${crm.url}/login`);
    if (page.url().includes('/account/login')) await logIn(page, 'tess@example.com', PASSWORD);
    await page.waitForURL(`${crm.url}/callback?**`, { timeout: 30_000 });
    await page.close();
    expect(crm.signIns).to.have.length(before + 1);
    return crm.signIns.at(-1) as Record<string, unknown>;
  }

  it('Tess picks Shop as her company in the portal: the CRM hears Agent, her only role there', async () => {
    const page = await tess.newPage();
    await page.goto(`${product.base}/profile`);
    await logIn(page, 'tess@example.com', PASSWORD);
    await page.getByRole('heading', { name: 'Your Profile', level: 1 }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Change company' }).first().click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Change company' });
    await dialog.getByRole('radio', { name: 'Shop' }).check();
    await dialog.getByRole('button', { name: 'Select' }).click();
    await page.getByText('You are now working for Shop.').waitFor();
    await page.close();

    const claims = await tessSignsInToCrm();
    expect(claims.current_company).to.deep.include({ title: 'Shop', roles: ['Agent'] });
  });

  it('the administrator drags Shop onto North and confirms; the tree shows Shop under North', async () => {
    const page = await admin.newPage();
    await page.goto(`${product.base}/admin/tenants`);
    await logIn(page, ADMIN, ADMIN_PASSWORD);
    await page.waitForURL(new RegExp(`^${product.base}/admin/tenants$`), { timeout: 30_000 });
    await page.getByRole('link', { name: 'Shop', exact: true }).click();
    await page.waitForURL(/\/admin\/tenants\/[0-9a-f-]{36}$/);
    const tree = page.getByRole('tree');
    await tree.getByText('North', { exact: true }).waitFor({ timeout: 30_000 });
    await shot(page, 'detail-before');

    // Cancel first: nothing moves.
    await dragInto(tree, 'Shop', 'North');
    const confirm = page.getByRole('dialog').filter({ hasText: 'Are you sure you want to change the parent of this tenant?' });
    await confirm.getByText('This action can affect users permissions').waitFor();
    await shot(page, 'confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await tessSignsInToCrm()).to.have.nested.property('current_company.roles').that.deep.equals(['Agent']);

    // Then for real.
    await dragInto(tree, 'Shop', 'North');
    await confirm.getByRole('button', { name: 'OK' }).click();
    await confirm.waitFor({ state: 'detached' });
    // Shop is now a child of North: North's node shows it one level deeper.
    const shopNode = tree.getByRole('treeitem').filter({ hasText: /^Shop$/ });
    await page.waitForFunction(
      `(() => {
        const items = [...document.querySelectorAll('[role="tree"] .ant-tree-treenode')];
        const indent = (title) => items.find((item) => item.textContent === title)?.querySelectorAll('.ant-tree-indent-unit').length ?? -1;
        return indent('Shop') === indent('North') + 1;
      })()`,
      undefined,
      { timeout: 30_000 },
    );
    expect(await shopNode.count()).to.be.at.most(1);
    await shot(page, 'detail-after');
  });

  it('Tess’s next sign-in to the CRM carries Viewer, inherited from North, among her roles in Shop', async () => {
    const claims = await tessSignsInToCrm();
    expect(claims.current_company).to.deep.include({ title: 'Shop', roles: ['Agent', 'Viewer'] });
  });
});
