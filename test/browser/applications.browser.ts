// An application created in the console signs a user in at once, in Debian's Chromium against
// `npm start`: the bootstrap administrator creates a confidential application whose redirect URI is
// a small relying party on 127.0.0.1, notes the secret from the dialog, and the relying party then
// signs the administrator in (authorization code + PKCE, by openid-client) and redeems the code with
// that secret. Screenshots go to test-artifacts/screenshots/applications-*.png.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, SCREENSHOTS, launchChromium, startProduct, type RunningProduct } from '../support/product.js';
import { RelyingParty } from '../support/relying-party.js';

const ADMIN = 'admin@gatehouse.local';

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `applications-${name}.png`), fullPage: true });

/** Whether the document is wider than the window (a page that scrolls sideways). */
const horizontalOverflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - window.innerWidth') as Promise<number>;

describe('applications: created in the console, signing users in at once', function () {
  this.timeout(300_000);
  let product: RunningProduct;
  let browser: Browser;
  const rp = new RelyingParty();

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await rp.start();
    product = await startProduct();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
    await rp.stop();
  });

  it('creates a confidential application whose relying party then signs the administrator in with the secret shown once', async () => {
    const console = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    const page = await console.newPage();
    const stamp = Date.now().toString(36);
    const clientId = `crm-${stamp}`;

    // The console, as the bootstrap administrator.
    await page.goto(`${product.base}/admin/applications`);
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await page.getByLabel('User', { exact: true }).fill(ADMIN);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(new RegExp(`^${product.base}/admin/applications$`), { timeout: 30_000 });
    await page.getByRole('link', { name: 'Identity Management' }).waitFor({ timeout: 30_000 });
    await shot(page, 'list');

    // The New application dialog: the spec's messages first, then the application.
    await page.getByRole('button', { name: 'New application' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'New application' });
    // The form is on screen and its opening animation over before the first click (a click during
    // the animation can land nowhere on a busy machine).
    await dialog.getByLabel('Name (client id)', { exact: true }).waitFor();
    await page.evaluate('Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => null)))');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Please input the application name!').waitFor();
    await dialog.getByText('Please input the application redirect URIs!').waitFor();
    await dialog.getByLabel('Name (client id)', { exact: true }).fill(clientId);
    await dialog.getByLabel('Display name', { exact: true }).fill(`CRM ${stamp}`);
    await dialog.getByLabel('Description', { exact: true }).fill('Customers and their contracts');
    await dialog.getByLabel('Private URL', { exact: true }).fill(`${rp.url}/`);
    await dialog.getByLabel('Redirect URIs 1', { exact: true }).fill(`${rp.url}/callback`);
    // The list is checked again as it is typed: its "required" message goes.
    await dialog.getByText('Please input the application redirect URIs!').waitFor({ state: 'detached', timeout: 5_000 });
    await shot(page, 'create-dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();

    // The secret, shown once.
    const secretDialog = page.getByRole('dialog').filter({ hasText: `Shared secret of CRM ${stamp}` });
    await secretDialog.waitFor();
    const secret = await secretDialog.getByLabel('Shared secret', { exact: true }).inputValue();
    expect(secret).to.have.length.of.at.least(43);
    await shot(page, 'secret-dialog');
    await secretDialog.getByRole('button', { name: 'Close' }).last().click();

    // Its page, at a laptop's width and a phone's.
    await page.waitForURL(new RegExp(`/admin/applications/${clientId}$`));
    await page.getByRole('heading', { level: 1, name: `CRM ${stamp}` }).waitFor();
    await page.getByRole('tab', { name: 'Roles' }).waitFor();
    expect(await page.getByText(secret).count(), 'the secret is never shown again').to.equal(0);
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
      await page.waitForTimeout(300);
      await shot(page, `detail-${width}`);
      expect(await horizontalOverflow(page), `the detail page at ${width} px scrolls sideways`).to.be.at.most(1);
    }

    // A business application: its relying party signs the administrator in, in a browser of its own.
    await rp.configure(`${product.base}/oidc`, clientId, secret);
    const visitor = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    const user = await visitor.newPage();
    await user.goto(`${rp.url}/login`);
    await user.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await user.getByLabel('User', { exact: true }).fill(ADMIN);
    await user.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await user.getByRole('button', { name: 'Log in' }).click();
    // A new application is not first-party: the user allows it once.
    await user.getByRole('button', { name: 'Allow' }).click({ timeout: 30_000 });
    await user.waitForURL(`${rp.url}/callback?**`, { timeout: 30_000 });
    await user.getByRole('heading', { name: `Signed in as ${ADMIN}` }).waitFor();
    await shot(user, 'relying-party');
    expect(rp.signIns).to.have.length(1);
    expect(rp.signIns[0]).to.include({ aud: clientId, email: ADMIN });

    await visitor.close();

    // Then hardened: its key instead of its secret, and the FAPI 2.0 profile.
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByText('Signed JWT with the application’s key (private_key_jwt)').click();
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwks = page.getByLabel('JWKS', { exact: true });
    await jwks.fill(JSON.stringify({ keys: [privateKey.export({ format: 'jwk' })] }));
    await jwks.blur();
    await page.getByText('Key 1 holds a private part (d): paste only the public keys').waitFor();
    await jwks.fill(JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'crm-1' }] }));
    await page.getByRole('switch', { name: 'FAPI 2.0 Security Profile' }).click();
    // The profile requires pushed requests and DPoP: both show on, and locked.
    for (const name of ['Require pushed authorization requests (PAR)', 'Require DPoP (sender-constrained tokens)']) {
      const required = page.getByRole('switch', { name });
      expect(await required.getAttribute('aria-checked'), name).to.equal('true');
      expect(await required.isDisabled(), name).to.equal(true);
    }
    await shot(page, 'fapi2');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/saved/i).first().waitFor({ timeout: 30_000 });
    await page.reload();
    await page.getByRole('switch', { name: 'FAPI 2.0 Security Profile' }).waitFor();
    expect(await page.getByRole('switch', { name: 'FAPI 2.0 Security Profile' }).getAttribute('aria-checked')).to.equal('true');
    // The provider now refuses the application's plain authorization requests.
    const plain = await fetch(`${product.base}/oidc/auth?${new URLSearchParams({ client_id: clientId, response_type: 'code', scope: 'openid', redirect_uri: `${rp.url}/callback` })}`, { redirect: 'manual' });
    expect(new URL(plain.headers.get('location') ?? 'http://x/').searchParams.get('error')).to.equal('invalid_request');

    // SCIM provisioning: a token for one area, shown once, that a SCIM client then uses.
    await page.getByRole('tab', { name: 'SCIM provisioning' }).click();
    await page.getByRole('button', { name: 'New token' }).click();
    const tokenForm = page.getByRole('dialog').filter({ hasText: 'New SCIM token' });
    await tokenForm.getByLabel('Name', { exact: true }).fill('Entra ID');
    await tokenForm.getByLabel('Area', { exact: true }).click();
    await page.locator('.ant-select-item-option').first().click();
    await shot(page, 'scim-new-token');
    await tokenForm.getByRole('button', { name: 'Create' }).click();
    const issued = page.getByRole('dialog').filter({ hasText: 'SCIM token Entra ID' });
    await issued.waitFor();
    const scimToken = await issued.getByLabel('SCIM token', { exact: true }).inputValue();
    const scimUrl = await issued.getByLabel('SCIM base URL', { exact: true }).inputValue();
    expect(scimToken).to.match(/^gscim_/);
    expect(scimUrl).to.equal(`${product.base}/scim/v2`);
    await shot(page, 'scim-token-dialog');
    await issued.getByRole('button', { name: 'Close' }).last().click();
    await page.getByRole('cell', { name: 'Entra ID', exact: true }).waitFor();
    expect(await page.getByText(scimToken).count(), 'the token is never shown again').to.equal(0);
    await shot(page, 'scim-tab');
    const listed = await fetch(`${scimUrl}/Users?count=1`, { headers: { Authorization: `Bearer ${scimToken}` } });
    expect(listed.status).to.equal(200);
    expect(((await listed.json()) as { schemas: string[] }).schemas).to.deep.equal(['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
    await console.close();
  });
});
