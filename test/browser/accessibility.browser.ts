// An automated WCAG 2.1 A and AA scan (axe-core) of the sign-in page, the portal and the console in
// Debian's Chromium against `npm start`. A critical or serious violation fails; moderate and minor
// ones are listed. axe runs through the browser's developer protocol, as the test's own scripts
// do: the product's Content Security Policy is left as it is.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { PRODUCT_APPLICATIONS } from '../support/bootstrap.js';
import { ADMIN_PASSWORD, launchChromium, loaded, settle, startProduct, type RunningProduct } from '../support/product.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING = ['critical', 'serious'];

const BOOTSTRAP = `
areas: [{ name: Default, default: true }, { name: Customers }]
tenants:
  - { title: Acme, area: Customers }
  - { title: Acme North, area: Customers, parent: Acme }
applications:${PRODUCT_APPLICATIONS}
users:
  - userName: tess@example.com
    firstName: Tess
    lastName: Moreau
    area: Customers
    language: en
    password: 'Correct-Horse-42!'
    memberships:
      - { tenant: Acme, application: '1', roles: [User], inheritable: false }
`;

/** The part of axe's results read here. */
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/**
 * Scans the page as it is now (its animations over) for WCAG 2.1 A and AA violations. Answers the
 * critical and serious ones, one line per rule with the elements concerned, and prints the others.
 */
async function scan(page: Page, screen: string): Promise<string[]> {
  await settle(page);
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_21_AA)} }, resultTypes: ['violations'] }).then((results) => results.violations)`,
  )) as AxeViolation[];
  const described = (v: AxeViolation) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((node) => node.target.join(' ')).join('\n    ')}`;
  const others = violations.filter((v) => !FAILING.includes(v.impact ?? ''));
  if (others.length > 0) console.log(`      ${screen}, moderate and minor:\n      ${others.map(described).join('\n      ')}`);
  return violations.filter((v) => FAILING.includes(v.impact ?? '')).map(described);
}

describe('accessibility: WCAG 2.1 A and AA, no critical or serious violation', function () {
  this.timeout(180_000);
  let product: RunningProduct;
  let browser: Browser;
  let page: Page;

  before(async () => {
    product = await startProduct({ bootstrap: BOOTSTRAP });
    browser = await launchChromium();
    page = await (await browser.newContext({ locale: 'en-GB', viewport: { width: 1366, height: 900 } })).newPage();
    // Waits bound a hang, not a speed.
    page.setDefaultTimeout(30_000);
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('the sign-in page', async () => {
    await page.goto(`${product.base}/`);
    await page.waitForURL(/\/account\/login\?interaction=/);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await scan(page, 'sign-in page')).to.deep.equal([]);
  });

  it('the portal’s home', async () => {
    await page.getByLabel('User', { exact: true }).fill('admin@gatehouse.local');
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: /Welcome/ }).waitFor();
    await loaded(page);
    expect(await scan(page, 'portal home')).to.deep.equal([]);
  });

  it('the profile', async () => {
    await page.getByRole('navigation', { name: 'Portal menu' }).getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Your Profile' }).waitFor();
    await loaded(page);
    expect(await scan(page, 'profile')).to.deep.equal([]);
  });

  it('the exercise of one’s rights', async () => {
    await page.getByRole('navigation', { name: 'Portal menu' }).getByRole('link', { name: 'Exercise rights', exact: true }).click();
    await page.getByRole('button', { name: 'Send request' }).waitFor();
    expect(await scan(page, 'rights')).to.deep.equal([]);
  });

  it('the console’s dashboard', async () => {
    await page.goto(`${product.base}/admin/`);
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    await loaded(page);
    expect(await scan(page, 'console dashboard')).to.deep.equal([]);
  });

  it('the users list', async () => {
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('link', { name: 'tess@example.com' }).waitFor();
    await loaded(page);
    expect(await scan(page, 'users list')).to.deep.equal([]);
  });

  it('a tenant’s details', async () => {
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Tenants', exact: true }).click();
    await page.getByRole('link', { name: 'Acme', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme' }).waitFor();
    await page.getByRole('tree').getByText('Acme North').waitFor();
    await loaded(page);
    expect(await scan(page, 'tenant detail')).to.deep.equal([]);
  });
});
