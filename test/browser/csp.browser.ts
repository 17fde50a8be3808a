// Both SPAs in Debian's Chromium against `npm start`, under their Content Security Policy (no
// unsafe-inline): the component library's run-time styles must apply through the page's nonce,
// and no screen of the sign-in, the portal or the console may trip the policy, log an error or
// throw. The God administrator walks every screen with content to show (a tenant, a group, an
// application with a role and a disclaimer, a user, a personal access token).
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PRODUCT_APPLICATIONS } from '../support/bootstrap.js';
import { callsAs } from '../support/dpop.js';
import { ADMIN_PASSWORD, launchChromium, loaded, settle, startProduct, type RunningProduct } from '../support/product.js';

const ADMIN = 'admin@gatehouse.local';

// The administrator is declared too: besides God and Administrator (given at start), a consultant
// and a service manager of Acme, so that My Clients and Service Manager have a tenant to show.
const BOOTSTRAP = `
areas: [{ name: Default, default: true }, { name: Customers }]
tenants:
  - { title: Acme, area: Customers }
  - { title: Acme North, area: Customers, parent: Acme }
applications:${PRODUCT_APPLICATIONS}
  - id: crm
    name: crm
    displayName: CRM
    type: public
    firstParty: true
    privateUrl: 'https://crm.example/'
    redirectUris: ['https://crm.example/callback']
    roles:
      - { name: Agent, operationRequestVisibility: true, serviceManagerVisibility: true, scopes: [crm.read] }
    disclaimer: { en: 'The CRM is for work only.' }
users:
  - userName: ${ADMIN}
    firstName: Ada
    lastName: Admin
    area: Default
    language: en
    password: '${ADMIN_PASSWORD}'
    memberships:
      - { tenant: Acme, application: '1', roles: [IdentityConsultant, ServiceManager], inheritable: false }
      - { tenant: Acme, application: crm, roles: [Agent], inheritable: false }
  - userName: tess@example.com
    firstName: Tess
    lastName: Moreau
    area: Customers
    language: en
    password: 'Correct-Horse-42!'
    memberships:
      - { tenant: Acme, application: crm, roles: [Agent], inheritable: false }
`;

/** Run in the page (this file is type-checked without the DOM's types). */
const backgroundOf = (element: unknown) =>
  (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(element).backgroundColor;
const bodyOverflow = () => {
  const page = globalThis as unknown as { document: { body: unknown }; getComputedStyle(e: unknown): { overflowY: string } };
  return page.getComputedStyle(page.document.body).overflowY;
};
const bodyScrolls = () => {
  const page = globalThis as unknown as { document: { body: unknown }; getComputedStyle(e: unknown): { overflowY: string } };
  return page.getComputedStyle(page.document.body).overflowY !== 'hidden';
};
const layoutOf = (element: unknown) => {
  const style = (globalThis as unknown as { getComputedStyle(e: unknown): { display: string; height: string } }).getComputedStyle(element);
  return { display: style.display, height: style.height };
};

/**
 * What goes wrong in any page of the context from now on: the policy's refusals (the
 * `securitypolicyviolation` event names the directive, the refused sample and its source), the
 * errors logged to the console, and the errors thrown and not caught. Each names the page's path.
 */
async function watch(context: BrowserContext): Promise<string[]> {
  const problems: string[] = [];
  const where = (url: string | undefined) => (url ? new URL(url).pathname : '?');
  await context.exposeBinding('reportPolicyViolation', ({ page }, v: { directive: string; sample: string; source: string }) => {
    problems.push(`${where(page.url())}: policy refused ${v.directive} "${v.sample}" from ${v.source}`);
  });
  // Runs in every page before its own scripts (the test's own scripts are not subject to the policy).
  await context.addInitScript(`
    document.addEventListener('securitypolicyviolation', (e) =>
      window.reportPolicyViolation({ directive: e.violatedDirective, sample: e.sample, source: (e.blockedURI || '') + ' ' + e.sourceFile + ':' + e.lineNumber + ':' + e.columnNumber }));
  `);
  context.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url, lineNumber } = message.location();
    problems.push(`${where(message.page()?.url())}: console error "${message.text()}" at ${url}:${lineNumber}`);
  });
  context.on('weberror', (error) => problems.push(`${where(error.page()?.url())}: uncaught ${error.error().stack ?? error.error().message}`));
  return problems;
}

/** Hrefs of the page's links that start with `prefix`, in page order. */
async function linksTo(page: Page, prefix: string): Promise<string[]> {
  return page.locator(`a[href^="${prefix}"]`).evaluateAll((links) => links.map((link) => (link as unknown as { getAttribute(name: string): string }).getAttribute('href')));
}

/** Opens `path` and waits until its heading shows, its calls have answered and its animations ended. */
async function visit(page: Page, base: string, path: string): Promise<void> {
  await page.goto(`${base}${path}`);
  await page.locator('h1').first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await loaded(page);
  await settle(page);
}

async function signIn(page: Page): Promise<void> {
  await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
  await page.getByLabel('User', { exact: true }).fill(ADMIN);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe('security: the SPAs run under a CSP without unsafe-inline', function () {
  this.timeout(240_000);
  let product: RunningProduct;
  let browser: Browser;

  before(async () => {
    product = await startProduct({ bootstrap: BOOTSTRAP });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('styles the sign-in page, the portal and the console through the nonce', async () => {
    const context = await browser.newContext({ locale: 'en-GB' });
    const problems = await watch(context);
    const page = await context.newPage();

    const login = await page.goto(`${product.base}/`);
    expect(login?.headers()['content-security-policy']).not.to.contain('unsafe-inline');
    const logIn = page.getByRole('button', { name: 'Log in' });
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await logIn.waitFor();
    // antd's primary colour comes from a style it inserts at run time: only the nonce lets it apply.
    expect(await logIn.evaluate(backgroundOf)).to.equal('rgb(29, 78, 216)');
    await signIn(page);
    await page.waitForURL(`${product.base}/`, { timeout: 30_000 });
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();

    await page.goto(`${product.base}/admin/users`);
    const newUser = page.getByRole('button', { name: 'New user' });
    await newUser.waitFor({ timeout: 30_000 });
    expect(await newUser.evaluate(backgroundOf)).to.equal('rgb(29, 78, 216)');
    // A dialog keeps the page behind it from scrolling (the library's scroll lock, through the nonce).
    await newUser.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await page.evaluate(bodyOverflow)).to.equal('hidden');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // A function, not a string: the page's policy refuses the `eval` a string's polling needs.
    await page.waitForFunction(bodyScrolls);
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it('walks every screen of the portal and the console: no refusal of the policy, no console error, nothing thrown', async function () {
    this.timeout(600_000);
    const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1366, height: 900 } });
    const problems = await watch(context);
    const page = await context.newPage();
    await page.goto(`${product.base}/admin/`);
    await signIn(page);
    await page.getByRole('heading', { name: /Welcome/ }).waitFor({ timeout: 30_000 });
    await loaded(page);

    // A group to open: the console's own call, with its token.
    const asConsole = callsAs(page, 'admin-console');
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await asConsole(`${product.base}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status, `${method} ${path}`).to.be.below(300);
      return (await res.json()) as { items?: Array<{ id: string; name: string }>; id?: string };
    };
    const areas = await call('GET', '/api/v1/admin/areas');
    const defaultArea = areas.items!.find((area) => area.name === 'Default')!;
    const group = await call('POST', '/api/v1/admin/groups', { name: 'Field engineers', description: 'On the road', areaId: defaultArea.id });

    const visited: string[] = [];
    const open = async (path: string) => {
      await visit(page, product.base, path);
      visited.push(path);
    };
    // The console: every page of the menu, then a detail of each kind with its tabs.
    for (const path of ['/admin/', '/admin/users', '/admin/groups', '/admin/applications', '/admin/logs', '/admin/areas', '/admin/tenants', '/admin/permissions', '/admin/pats', '/admin/control-pats', '/admin/inspector', '/admin/twomodeauth', '/admin/rightsRequests', '/admin/securityConfig', '/admin/permissions/users/check']) {
      await open(path);
    }
    await open('/admin/users');
    const users = await linksTo(page, '/admin/users/');
    expect(users, 'the users list links its users').to.not.be.empty;
    await open(users[0]!);
    await open(`/admin/groups/${group.id}`);
    await open(`/admin/permissions/${group.id}`);
    await open('/admin/tenants');
    const tenants = await linksTo(page, '/admin/tenants/');
    expect(tenants, 'the tenants list links its tenants').to.not.be.empty;
    await open(tenants[0]!);
    await open('/admin/applications/crm');
    await open('/admin/applications/crm/roles');
    const roles = (await linksTo(page, '/admin/applications/crm/roles/')).filter((href) => !href.endsWith('/roles/'));
    expect(roles, 'the roles tab links its roles').to.not.be.empty;
    await open(roles[0]!);
    await open('/admin/applications/crm/users');
    // The portal: every page of a user who is also a consultant and a service manager.
    for (const path of ['/', '/profile', '/rights', '/disclaimers', '/clients', '/service-manager', '/home/companies/select']) {
      await open(path);
    }

    console.log(`      ${visited.length} screens walked, ${problems.length} problems`);
    expect(problems, problems.join('\n')).to.deep.equal([]);
    await context.close();
  });

  it('shows a dashboard chart’s tooltip under the policy, the marker in the point’s colour', async () => {
    const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1366, height: 900 } });
    const problems = await watch(context);
    const page = await context.newPage();
    await page.goto(`${product.base}/admin/`);
    await signIn(page);
    // The sign-in just made is a point of the sign-ins chart.
    const chart = page.locator('.report__chart canvas').first();
    await chart.waitFor({ timeout: 60_000 });
    const box = (await chart.boundingBox())!;
    const tooltip = page.locator('.g2-tooltip');
    // Across the plot from left to right until the chart answers with its tooltip.
    for (let x = 0.1; x < 1 && !(await tooltip.isVisible()); x += 0.1) {
      await page.mouse.move(box.x + box.width * x, box.y + box.height * 0.5);
      await page.waitForTimeout(150);
    }
    await tooltip.waitFor({ state: 'visible', timeout: 5_000 });
    expect(await tooltip.locator('.g2-tooltip-list-item-name-label').first().textContent()).to.match(/Sign-ins|Administrators|Users/);
    const marker = tooltip.locator('.g2-tooltip-list-item-marker').first();
    expect(await marker.evaluate((element) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(element).backgroundColor)).to.match(/^rgb/);
    expect(problems, problems.join('\n')).to.deep.equal([]);
    await context.close();
  });

  it('styles the security configuration’s YAML editor through the nonce', async () => {
    const context = await browser.newContext({ locale: 'en-GB' });
    const problems = await watch(context);
    const page = await context.newPage();
    // The bootstrap administrator holds God: straight to the page after the sign-in.
    await page.goto(`${product.base}/admin/securityConfig`);
    await signIn(page);
    await page.getByRole('button', { name: 'Edit Lockout' }).click({ timeout: 30_000 });
    const editor = page.getByRole('dialog').locator('.cm-editor');
    await editor.waitFor();
    await page.getByRole('dialog').getByText('maxFailedAttempts').first().waitFor();
    // The editor's layout and its 300-pixel height are styles it inserts itself: only the nonce lets them apply.
    expect(await editor.evaluate(layoutOf)).to.deep.equal({ display: 'flex', height: '300px' });
    expect(problems).to.deep.equal([]);
    await context.close();
  });
});
