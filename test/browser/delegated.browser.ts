// The admin console for each kind of administrator, in Debian's Chromium against `npm start`: every
// role signs in to /admin and sees exactly the menu its rights open, and a link to a page outside
// them shows why it does not open, with the way back; a role with no console right goes to the
// portal. Screenshots go to test-artifacts/screenshots/delegated-*.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { PRODUCT_APPLICATIONS } from '../support/bootstrap.js';
import { SCREENSHOTS, launchChromium, startProduct, type RunningProduct } from '../support/product.js';

const PASSWORD = 'Delegated-Console-42!';

const member = (userName: string, tenant: string, roles: string[]) => `
  - userName: ${userName}
    firstName: ${roles.join(' ')}
    lastName: Tester
    area: Customers
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: ${tenant}, application: '1', roles: [${roles.join(', ')}], inheritable: false }`;

const BOOTSTRAP = `
areas: [{ name: Default, default: true }, { name: Customers }]
tenants:
  - { title: Acme, area: Customers }
applications:${PRODUCT_APPLICATIONS}
users:${member('god@acme.example', 'Global', ['God'])}${member('admin@acme.example', 'Global', ['Administrator'])}${member('area@acme.example', 'Acme', ['AreaAdministrator'])}${member('tenant@acme.example', 'Acme', ['TenantAdministrator'])}${member('manager@acme.example', 'Acme', ['Manager'])}${member('both@acme.example', 'Acme', ['AreaAdministrator', 'Manager'])}${member('consultant@acme.example', 'Acme', ['IdentityConsultant', 'ServiceManager'])}
`;

const ADMINISTRATOR = ['Home', 'Users', 'Groups', 'Applications', 'Logs', 'Areas', 'Tenants', 'Permissions', 'Personal Access Tokens', 'MFA Configuration', 'Rights requests', 'Webhooks'];
const AREA = ['Home', 'Users', 'Groups', 'Logs', 'Areas', 'Tenants', 'Permissions'];

/** Each kind of administrator: the menu the API's table opens to them, and a page it does not. */
const CASES = [
  { role: 'God', userName: 'god@acme.example', menu: [...ADMINISTRATOR, 'Security Configuration'], closed: undefined },
  { role: 'Administrator', userName: 'admin@acme.example', menu: ADMINISTRATOR, closed: { path: 'securityConfig', name: 'Security Configuration' } },
  { role: 'AreaAdministrator', userName: 'area@acme.example', menu: AREA, closed: { path: 'applications', name: 'Applications' } },
  { role: 'TenantAdministrator', userName: 'tenant@acme.example', menu: ['Home', 'Users', 'Groups', 'Applications', 'Logs', 'Areas', 'Tenants', 'Permissions'], closed: { path: 'pats', name: 'Personal Access Tokens' } },
  { role: 'Manager', userName: 'manager@acme.example', menu: ['Home', 'Logs', 'Areas', 'Tenants', 'Permissions'], closed: { path: 'users', name: 'Users' } },
  { role: 'AreaAdministrator and Manager', userName: 'both@acme.example', menu: AREA, closed: { path: 'rightsRequests', name: 'Rights requests' } },
];

async function signIn(page: Page, userName: string): Promise<void> {
  await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
  await page.getByLabel('User', { exact: true }).fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe('the admin console for each kind of administrator', function () {
  this.timeout(300_000);
  let product: RunningProduct;
  let browser: Browser;

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    product = await startProduct({ bootstrap: BOOTSTRAP });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  for (const { role, userName, menu, closed } of CASES) {
    it(`shows ${role} exactly the menu its rights open${closed ? `, and says why ${closed.name} does not open` : ''}`, async () => {
      const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
      try {
        const page = await context.newPage();
        // Waits bound a hang, not a speed.
        page.setDefaultTimeout(60_000);
        await page.goto(`${product.base}/admin/`);
        await signIn(page, userName);
        await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
        const navigation = page.getByRole('navigation', { name: 'Main navigation' });
        await navigation.getByRole('link', { name: 'Home' }).waitFor();
        expect(await navigation.getByRole('link').allTextContents(), role).to.deep.equal(menu);
        const slug = role.replace(/\W+/g, '-').toLowerCase();
        await page.screenshot({ path: path.join(SCREENSHOTS, `delegated-${slug}-dashboard.png`), fullPage: true });
        // Every page the menu offers works for the role: no call of it is refused.
        for (const entry of menu.slice(1)) {
          await navigation.getByRole('link', { name: entry, exact: true }).click();
          await page.waitForLoadState('networkidle');
          expect(await page.locator('.ant-alert-error').allTextContents(), `${role} on ${entry}`).to.deep.equal([]);
          expect(await page.getByText('Not open to your roles').count(), `${role} on ${entry}`).to.equal(0);
        }
        if (!closed) return;

        await page.goto(`${product.base}/admin/${closed.path}`);
        await page.getByText('Not open to your roles').waitFor();
        await page.getByText(`Your roles do not open the ${closed.name} page.`, { exact: false }).waitFor();
        await page.screenshot({ path: path.join(SCREENSHOTS, `delegated-${slug}-closed.png`), fullPage: true });
        await page.getByRole('button', { name: 'Back to the dashboard' }).click();
        await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
        expect(new URL(page.url()).pathname).to.equal('/admin');
      } finally {
        await context.close();
      }
    });
  }

  it('sends a user whose roles open no console page to the portal', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      await page.goto(`${product.base}/admin/`);
      await signIn(page, 'consultant@acme.example');
      await page.waitForURL(`${product.base}/`);
      // The portal's menu offers the consultant's own screens.
      await page.getByRole('navigation', { name: 'Portal menu' }).getByRole('link', { name: 'My Clients' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
