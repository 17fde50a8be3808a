// The portal's self-service area in Debian's Chromium against `npm start` on the embedded database:
// one signed-in user edits their profile and language, uploads a picture, downloads "My data",
// sends a data-protection rights request and accepts an application's disclaimer. Each screen at a
// laptop's 1366 px and a phone's 390 px, none scrolling sideways. Screenshots go to
// test-artifacts/screenshots/profile-*.png.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { callsAs } from '../support/dpop.js';
import { ADMIN_PASSWORD, launchChromium, SCREENSHOTS, settle, startProduct, type RunningProduct } from '../support/product.js';

const PASSWORD = 'Correct-Horse-42!';
const DISCLAIMER_EN = 'Use the CRM for company business only.';
const DISCLAIMER_FR = 'Utilisez le CRM pour les affaires de la société uniquement.';

const BOOTSTRAP = `
areas: [{ name: Default, default: true }, { name: Customers }]
tenants:
  - { title: Main office, area: Default }
  - { title: Lisbon branch, area: Default, parent: Main office }
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, privateUrl: '\${publicUrl}/admin', roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: portal, name: portal, displayName: Portal, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${publicUrl}/auth/callback'], postLogoutRedirectUris: ['\${publicUrl}/'] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${publicUrl}/admin/auth/callback'], postLogoutRedirectUris: ['\${publicUrl}/admin/'] }
  - id: crm
    name: crm
    displayName: CRM
    description: Customers and sales
    type: public
    privateUrl: 'https://crm.example.com'
    roles: [{ name: Sales }]
    disclaimer:
      en: '${DISCLAIMER_EN}'
      fr: '${DISCLAIMER_FR}'
  - { id: wiki, name: wiki, displayName: Wiki, description: Company knowledge, type: public, privateUrl: 'https://wiki.example.com', roles: [{ name: Reader }] }
users:
  - userName: nora@example.com
    firstName: Nora
    lastName: Silva
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: Main office, application: crm, roles: [Sales] }
      - { tenant: Lisbon branch, application: wiki, roles: [Reader] }
`;

const WIDTHS = [1366, 390] as const;

/** The whole page, once still; `viewport: true` for only what the window shows. */
async function shot(page: Page, name: string, options: { viewport?: boolean } = {}) {
  await settle(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, `profile-${name}.png`), fullPage: !options.viewport });
}

/** Screenshots the page at each width (then back to the laptop's) and checks that none scrolls sideways. */
async function atEachWidth(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
    await page.waitForTimeout(300); // antd recomputes its responsive layout on resize
    await shot(page, `${name}-${width}`);
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    expect(overflow, `${name} at ${width} px scrolls sideways`).to.be.at.most(1);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** Picks an option of an antd Select (they are not native selects). */
async function choose(page: Page, field: Locator, option: string) {
  await field.click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(option, { exact: true }).click();
}

/** Clicks `button` and hands `file` to the file chooser it opens. */
async function pickFile(page: Page, button: Locator, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button.click()]);
  await chooser.setFiles(file);
}

/** The smallest valid PDF: one empty page, with its cross-reference table. */
function minimalPdf(): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>'];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The colour of the centre pixel of the picture at `url`. */
async function centrePixel(url: string): Promise<number[]> {
  const res = await fetch(url);
  expect(res.status, url).to.equal(200);
  const { data, info } = await sharp(Buffer.from(await res.arrayBuffer())).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  return [...data.subarray(at, at + 3)];
}

/** The profile picture as the browser holds it: its address and its decoded width (0 until loaded). */
const AVATAR = `(() => { const img = document.querySelector('img.avatar-upload__picture'); return img && { src: img.getAttribute('src'), width: img.complete ? img.naturalWidth : 0 }; })()`;
type ShownPicture = { src: string; width: number } | null;

/**
 * Waits until the profile picture is one `accept` takes, polling from here: the page's CSP allows
 * no evaluated strings, which a `waitForFunction` polling in the page would need.
 */
async function pictureShown(page: Page, accept: (shown: NonNullable<ShownPicture>) => boolean): Promise<NonNullable<ShownPicture>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const shown = (await page.evaluate(AVATAR)) as ShownPicture;
    if (shown && accept(shown)) return shown;
    if (Date.now() > deadline) throw new Error(`the picture shown is still ${JSON.stringify(shown)}`);
    await page.waitForTimeout(100);
  }
}

/** The rows of a sheet, each as the text of its cells. */
function rowsOf(sheet: ExcelJS.Worksheet): string[][] {
  const rows: string[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((value) => (value === null || value === undefined ? '' : String(value)))));
  return rows;
}

/**
 * Signs in to the console as the bootstrap administrator in a context of its own and answers one
 * call of the admin API in its name (its token is bound to the page's key: the page signs the proof).
 */
async function asAdministrator(browser: Browser, base: string, path: string): Promise<Response> {
  const context = await browser.newContext({ locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.goto(`${base}/admin/`);
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await page.getByLabel('User', { exact: true }).fill('admin@gatehouse.local');
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor({ timeout: 30_000 });
    return await callsAs(page, 'admin-console')(`${base}${path}`);
  } finally {
    await context.close();
  }
}

describe('the portal’s self-service area in a real browser', function () {
  this.timeout(240_000);
  let product: RunningProduct;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const stamp = Date.now().toString(36);
  const firstName = `Leonor ${stamp}`;
  const lastName = 'Ferreira-Gonçalves';

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    product = await startProduct({ bootstrap: BOOTSTRAP });
    base = product.base;
    browser = await launchChromium();
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('signs in, changes the names (kept after a reload) and the language: the page is French at once', async () => {
    await page.goto(`${base}/profile`);
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await page.getByLabel('User', { exact: true }).fill('nora@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/profile`, { timeout: 30_000 });
    await page.getByRole('heading', { name: 'Your Profile', level: 1 }).waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('First name', { exact: true }).inputValue()).to.equal('Nora');
    expect(await page.getByLabel('User name', { exact: true }).inputValue()).to.equal('nora@example.com');

    await page.getByLabel('First name', { exact: true }).fill(firstName);
    await page.getByLabel('Last name', { exact: true }).fill(lastName);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Changes have been saved').waitFor();
    await shot(page, 'saved');

    await page.reload();
    await page.getByRole('heading', { name: 'Your Profile', level: 1 }).waitFor({ timeout: 30_000 });
    await expectValue(page.getByLabel('First name', { exact: true }), firstName);
    expect(await page.getByLabel('Last name', { exact: true }).inputValue()).to.equal(lastName);

    await choose(page, page.getByLabel('Preferred language', { exact: true }), 'Français');
    await page.getByRole('button', { name: 'Save' }).click();
    // The confirmation is worded in the language just chosen.
    await page.locator('.ant-message-success').filter({ hasText: 'Les modifications ont été enregistrées' }).waitFor();
    await page.getByRole('heading', { name: 'Votre profil', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Enregistrer' }).waitFor();
    expect(await page.getByLabel('Prénom', { exact: true }).inputValue()).to.equal(firstName);
    expect(await page.evaluate('document.documentElement.lang')).to.match(/^fr/);
    await shot(page, 'french');
  });

  it('uploads a picture: "Image envoyée avec succès" and the avatar shows the new picture', async () => {
    await page.getByRole('img', { name: 'Votre photo' }).waitFor();
    const before = await pictureShown(page, (shown) => shown.width > 0);
    const picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 220, g: 20, b: 60 } } }).png().toBuffer();

    await pickFile(page, page.getByRole('button', { name: 'Envoyer une photo' }), { name: 'me.png', mimeType: 'image/png', buffer: picture });
    await page.getByText('Image envoyée avec succès').waitFor();
    const after = await pictureShown(page, (shown) => shown.src !== before.src && shown.width > 0);
    expect(after.src).to.not.equal(before.src);
    expect(after.width).to.be.greaterThan(0);
    // The uploaded crimson square, not the default picture.
    const [r, g, b] = await centrePixel(new URL(after.src, base).toString());
    expect(r, 'red').to.be.above(180);
    expect(g, 'green').to.be.below(70);
    expect(b, 'blue').to.be.within(20, 110);
    await shot(page, 'avatar');
  });

  it('downloads "Mes données.xlsx" holding the new names', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Mes données' }).click()]);
    expect(download.suggestedFilename()).to.equal('Mes données.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.name).to.equal('Profil');
    const profile = rowsOf(workbook.worksheets[0]!);
    expect(profile[0]).to.deep.equal(['Champ', 'Valeur']);
    expect(profile).to.deep.include.members([
      ['Nom d’utilisateur', 'nora@example.com'],
      ['Prénom', firstName],
      ['Nom', lastName],
      ['Langue préférée', 'fr'],
    ]);
    await atEachWidth(page, 'profile');
  });

  it('sends a rights request with a PDF: the success message, the form empty again, and the request listed for administrators', async () => {
    await page.goto(`${base}/rights`);
    await page.getByRole('heading', { name: 'Exercer vos droits', level: 1 }).waitFor({ timeout: 30_000 });
    await atEachWidth(page, 'rights');

    const today = new Date();
    const date = [today.getDate(), today.getMonth() + 1].map((n) => String(n).padStart(2, '0')).join('/') + `/${today.getFullYear()}`;
    const requester = `Leonor Ferreira ${stamp}`;
    await page.getByLabel('Date de la demande', { exact: true }).fill(date);
    await page.getByLabel('Date de la demande', { exact: true }).press('Tab');
    expect(await page.getByLabel('Date de la demande', { exact: true }).inputValue()).to.equal(date);
    await page.getByLabel('Nom de la personne concernée', { exact: true }).fill(requester);
    await page.getByLabel('E-mail', { exact: true }).fill('nora@example.com');
    await page.getByLabel(/^Directe/).check();
    await page.getByLabel('Accès', { exact: true }).check();
    await page.getByLabel('Portabilité des données', { exact: true }).check();
    await pickFile(page, page.getByRole('button', { name: 'Ajouter des documents' }), { name: 'identity.pdf', mimeType: 'application/pdf', buffer: minimalPdf() });
    await page.getByText('identity.pdf').waitFor();
    await shot(page, 'rights-filled');
    expect(await page.locator('.ant-form-item-explain-error').count(), 'no field is refused before sending').to.equal(0);
    await page.getByRole('button', { name: 'Envoyer la demande' }).click();

    await page.getByText('Demande envoyée avec succès').waitFor();
    await shot(page, 'rights-sent', { viewport: true });
    await expectInSight(page, page.getByRole('status').filter({ hasText: 'Demande envoyée avec succès' }), 'the success message');
    expect(await page.getByLabel('Nom de la personne concernée', { exact: true }).inputValue()).to.equal('');
    expect(await page.getByText('identity.pdf').count()).to.equal(0);

    const res = await asAdministrator(browser, base, `/api/v1/admin/rightsRequests?$search=${encodeURIComponent(stamp)}`);
    expect(res.status).to.equal(200);
    const list = (await res.json()) as { items: Array<{ fullName: string; email: string; requestType: string; rights: string[]; userName: string; fileCount: number; requestDate: string }> };
    expect(list.items).to.have.length(1);
    const [sent] = list.items;
    expect(sent).to.deep.include({ fullName: requester, email: 'nora@example.com', requestType: 'Direct', userName: 'nora@example.com', fileCount: 1 });
    expect(sent!.rights).to.have.members(['Access', 'DataPortability']);
    expect(sent!.requestDate).to.equal(`${today.getFullYear()}-${date.slice(3, 5)}-${date.slice(0, 2)}`);
  });

  it('accepts the CRM’s disclaimer through the confirmation: a green check with the date', async () => {
    await page.goto(`${base}/disclaimers`);
    await page.getByRole('heading', { name: 'Avertissements', level: 1 }).waitFor({ timeout: 30_000 });
    const card = page.locator('li.disclaimer-card').filter({ has: page.getByRole('heading', { name: 'CRM', exact: true }) });
    await card.getByText(DISCLAIMER_FR).waitFor();
    expect(await page.locator('li.disclaimer-card').count(), 'only the CRM has a disclaimer').to.equal(1);
    await atEachWidth(page, 'disclaimers');

    await card.getByRole('button', { name: 'Accepter l’avertissement de CRM' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Accepter l’avertissement de CRM ?' });
    await dialog.waitFor();
    await shot(page, 'disclaimer-confirm');
    await dialog.getByRole('button', { name: 'Accepter', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    const accepted = card.locator('.disclaimer-card__accepted');
    await accepted.waitFor();
    expect(await accepted.locator('.disclaimer-card__check').isVisible()).to.equal(true);
    const colour = (await page.evaluate(`getComputedStyle(document.querySelector('.disclaimer-card__check')).color`)) as string;
    const [r, g, b] = colour.match(/\d+/g)!.map(Number);
    expect(g, `the check is green (${colour})`).to.be.greaterThan(r! + 40).and.greaterThan(b! + 20);
    const text = (await accepted.textContent()) ?? '';
    expect(text).to.match(/^Accepté le .*\d/);
    expect(text).to.contain(String(new Date().getFullYear()));
    expect(await card.getByRole('button', { name: /Accepter/ }).count()).to.equal(0);
    await atEachWidth(page, 'disclaimers-accepted');
  });

  it('the language she chose follows her: an English browser elsewhere signs in and the portal speaks French', async () => {
    const elsewhere = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
    try {
      const phone = await elsewhere.newPage();
      await phone.goto(`${base}/profile`);
      await phone.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
      // Before she is known, the browser's language.
      await phone.getByLabel('User', { exact: true }).fill('nora@example.com');
      await phone.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await phone.getByRole('button', { name: 'Log in' }).click();
      await phone.getByRole('heading', { name: 'Votre profil', level: 1 }).waitFor({ timeout: 30_000 });
      expect(await phone.evaluate('document.documentElement.lang')).to.match(/^fr/);
      await shot(phone, 'language-elsewhere', { viewport: true });
    } finally {
      await elsewhere.close();
    }
  });
});

/** The element lies inside the window, below the top bar that stays over the page. */
async function expectInSight(page: Page, element: Locator, what: string) {
  const box = await element.boundingBox();
  const bar = await page.locator('header.top-bar').boundingBox();
  expect(box, what).to.not.equal(null);
  expect(box!.y, `${what} is under the top bar`).to.be.at.least(bar ? bar.y + bar.height : 0);
  expect(box!.y + box!.height, `${what} is below the window`).to.be.at.most(page.viewportSize()!.height);
}

/** Waits until the input holds `value` (a form fills its fields once the profile has come). */
async function expectValue(input: Locator, value: string) {
  const deadline = Date.now() + 10_000;
  while ((await input.inputValue()) !== value) {
    if (Date.now() > deadline) expect(await input.inputValue()).to.equal(value);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
