// Every screen a first user meets, at a laptop's 1366 px and a phone's 390 px, in English, French
// and German, in Debian's Chromium against `npm start`, with names as long as real ones get: no
// page scrolls sideways; the column that says which row it is (a user name, an e-mail, a title, a
// log's reason) is never cut in any list; no word of a menu or a tile is split across lines.
// Screenshots go to test-artifacts/screenshots/layout-<screen>-<width>-<language>.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { PRODUCT_APPLICATIONS } from '../support/bootstrap.js';
import { ADMIN_PASSWORD, SCREENSHOTS, launchChromium, settle, startProduct, type RunningProduct } from '../support/product.js';

const WIDTHS = [1366, 390] as const;
const LANGUAGES = ['en', 'fr', 'de'] as const;
type Language = (typeof LANGUAGES)[number];

const PASSWORD = 'Correct-Horse-42!';
// Long as names and addresses of a German administration are.
const MAXIMILIANE = 'maximiliane.schwarzenberger-obermeier@verwaltungsgesellschaft-nordrhein.example';
const MAXIMILIANE_MAIL = 'personalabteilung.schwarzenberger-obermeier@verwaltungsgesellschaft-nordrhein.example';
const JEAN_BAPTISTE = 'jean-baptiste.delacroix-montmorency@collectivite-territoriale-auvergne.example';
const TENANT = 'Verwaltungsgesellschaft Nordrhein-Westfalen Grundstücksverwaltung GmbH';
const GROUP = 'Sachbearbeitung Personalangelegenheiten und Gehaltsabrechnung';
const APPLICATION = 'Personalverwaltung Nordrhein-Westfalen';

const bootstrap = `
areas: [{ name: Default, default: true }, { name: Customers }]
tenants:
  - { title: '${TENANT}', area: Default }
applications:${PRODUCT_APPLICATIONS}
  - id: personal
    name: personalverwaltung
    displayName: '${APPLICATION}'
    description: Arbeitszeiterfassung, Urlaubsanträge und Gehaltsabrechnungen für alle Mitarbeiterinnen und Mitarbeiter der Verwaltungsgesellschaft
    type: public
    privateUrl: 'https://personalverwaltung.example/'
    publicUrl: 'https://personalverwaltung.example/'
    roles: [{ name: Sachbearbeiterin }]
users:
  - userName: ${MAXIMILIANE}
    email: ${MAXIMILIANE_MAIL}
    firstName: Maximiliane
    lastName: Schwarzenberger-Obermeier
    area: Default
    language: de
    password: '${PASSWORD}'
    memberships:
      - { tenant: '${TENANT}', application: personal, roles: [Sachbearbeiterin], inheritable: false }
  - userName: ${JEAN_BAPTISTE}
    firstName: Jean-Baptiste
    lastName: Delacroix-Montmorency
    area: Default
    language: fr
    password: '${PASSWORD}'
    memberships:
      - { tenant: '${TENANT}', application: personal, roles: [Sachbearbeiterin], inheritable: false }
`;

/** A screen: what shows once it is ready, and the texts its list must show whole. */
interface Screen {
  name: string;
  /** Opens it (the page is already there when left out). */
  open?: (page: Page) => Promise<unknown>;
  ready: (page: Page) => Locator;
  /** Texts of identifying columns, never cut; the first also in view without scrolling the table. */
  whole?: readonly string[];
  /** How many of `whole`, from the first, are in view without scrolling at a laptop's width (1). */
  inViewAtLaptop?: number;
}

/** Whether the document is wider than the window (a page that scrolls sideways). */
async function horizontalOverflow(page: Page): Promise<number> {
  return (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
}

// The checks below run in the page (this project type-checks its tests without the DOM's types).

/**
 * What keeps each of `texts` from being read whole in the table cells showing it: no cell shows
 * it; an element in its cell cuts it (a clip or an ellipsis: content wider than the element that
 * hides its overflow); a line of it runs out of its cell; a pinned column lies over a line of it.
 * The lines of the first `inView` texts must also be in view, within their table and the window,
 * without scrolling.
 */
const CUT_TEXTS = `({ texts, inView }) => {
  const problems = [];
  const describe = (element) => '<' + element.tagName.toLowerCase() + ' class="' + (element.getAttribute('class') || '') + '">';
  texts.forEach((text, index) => {
    const cells = [...document.querySelectorAll('.ant-table-tbody > tr > td')].filter((cell) => cell.textContent.includes(text));
    if (!cells.length) problems.push('"' + text + '": no table cell shows it whole');
    for (const cell of cells) {
      const box = cell.getBoundingClientRect();
      for (const element of [cell, ...cell.querySelectorAll('*')]) {
        if (getComputedStyle(element).overflowX !== 'visible' && element.scrollWidth > element.clientWidth + 1) problems.push('"' + text + '": cut by ' + describe(element));
      }
      const lines = [];
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const line of range.getClientRects()) {
          lines.push(line);
          if (line.left < box.left - 1 || line.right > box.right + 1) problems.push('"' + text + '": "' + node.textContent + '" runs out of its cell');
        }
      }
      const covers = (over, line) => over.left < line.right - 1 && over.right > line.left + 1 && over.top < line.bottom - 1 && over.bottom > line.top + 1;
      for (const pinned of cell.parentElement.querySelectorAll('td[class*="ant-table-cell-fix"]')) {
        if (pinned !== cell && lines.some((line) => covers(pinned.getBoundingClientRect(), line))) problems.push('"' + text + '": a pinned column lies over it');
      }
      const area = cell.closest('.ant-table-content, .ant-table-body')?.getBoundingClientRect();
      const outside = (line) => line.left < area.left - 1 || line.right > area.right + 1 || line.right > window.innerWidth;
      if (index < inView && area && lines.some(outside)) {
        problems.push('"' + text + '": out of view (' + Math.round(box.left) + '-' + Math.round(box.right) + ' px, its table ' + Math.round(area.left) + '-' + Math.round(area.right) + ' px)');
      }
    }
  });
  return problems;
}`;

async function cutTexts(page: Page, texts: readonly string[], inView: number): Promise<string[]> {
  return (await page.evaluate(`(${CUT_TEXTS})(${JSON.stringify({ texts, inView })})`)) as string[];
}

/** Words of the menus' labels and the tiles' titles, as shown, that the layout split across two lines or cut at the edge. */
const SPLIT_WORDS = `(() => {
  const split = [];
  for (const element of document.querySelectorAll('.admin-shell__menu-label, .side-menu__label, .admin-tile__title, .home-tile__title, .admin-page-header__title')) {
    const shown = element.getBoundingClientRect();
    // A page title may be one word wider than its whole row (a user's e-mail address on a phone): that one must break.
    const title = element.classList.contains('admin-page-header__title');
    const room = title ? element.parentElement.getBoundingClientRect().width : shown.width;
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) || shown.width < 1 || shown.right <= 0) continue;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // A word: what lies between spaces and hyphens (a compound may wrap after its hyphen).
      for (const word of node.textContent.matchAll(/[^\\s-]+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
        const wider = title && rects.reduce((width, rect) => width + rect.width, 0) > room;
        if (new Set(rects.map((rect) => Math.round(rect.top))).size > 1 && !wider) split.push(word[0]);
        // Nor cut at the edge of its menu entry or its tile.
        const frame = element.closest('.ant-menu-item, .admin-tile, .home-tile')?.getBoundingClientRect();
        if (frame && rects.some((rect) => rect.right > frame.right + 1)) split.push(word[0] + ' (cut)');
      }
    }
  }
  return split;
})()`;

async function splitWords(page: Page): Promise<string[]> {
  return (await page.evaluate(SPLIT_WORDS)) as string[];
}

/**
 * Lets the layout follow a resize: antd re-renders on its media queries, then the tables measure
 * themselves and their columns, and the dashboard's charts fit their cards again 300 ms after the
 * last resize (the charting library waits that long). Done once the page's size and its tables'
 * widths have held still for half a second, and the animations in progress have ended; at most 10 s.
 */
const LAYOUT_STILL = `new Promise((resolve) => {
  let last = '';
  let since = performance.now();
  const started = since;
  const tick = () => {
    const tables = [...document.querySelectorAll('.ant-table-content > table, .ant-table-body > table')].map((table) => table.offsetWidth);
    const now = [document.documentElement.scrollWidth, document.documentElement.scrollHeight, ...tables].join();
    const at = performance.now();
    if (now !== last) since = at;
    last = now;
    if (at - since >= 500 || at - started > 10000) resolve();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

async function afterLayout(page: Page): Promise<void> {
  await page.evaluate(LAYOUT_STILL);
  await settle(page);
}

/** Screenshots the screen at each width and checks it: no sideways scroll, no cut identifying text, no split word. */
async function atEachWidth(page: Page, screen: Screen, language: Language): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
    await screen.ready(page).first().waitFor({ timeout: 30_000 });
    await afterLayout(page);
    const where = `${screen.name} at ${width} px in ${language}`;
    await page.screenshot({ path: path.join(SCREENSHOTS, `layout-${screen.name}-${width}-${language}.png`), fullPage: true });
    expect(await horizontalOverflow(page), `${where} scrolls sideways`).to.be.at.most(1);
    if (screen.whole) expect(await cutTexts(page, screen.whole, width > 800 ? (screen.inViewAtLaptop ?? 1) : 1), where).to.deep.equal([]);
    expect(await splitWords(page), `${where}: words split across lines`).to.deep.equal([]);
  }
}

/** The interface language from now on, as a user's stored choice (the console's selector offers English and French only). */
async function useLanguage(page: Page, language: Language): Promise<void> {
  await page.evaluate(`localStorage.setItem('gatehouse.preferences', ${JSON.stringify(JSON.stringify({ currentLanguage: language }))})`);
}

/** The element lies inside the window, horizontally. */
async function expectOnScreen(page: Page, element: Locator, what: string) {
  const box = await element.boundingBox();
  expect(box, what).to.not.equal(null);
  const width = page.viewportSize()!.width;
  expect(box!.x, what).to.be.at.least(0);
  expect(box!.x + box!.width, `${what} ends off-screen at ${width} px`).to.be.at.most(width);
}

/** The side menu stays in place when the page scrolls: its first entry is where it was once the page is scrolled to its end. */
async function expectMenuStays(page: Page, menu: Locator): Promise<void> {
  // A short window, so that the page has somewhere to scroll.
  await page.setViewportSize({ width: 1366, height: 480 });
  await afterLayout(page);
  const entry = menu.getByRole('link').first();
  const before = (await entry.boundingBox())!;
  const scrolled = (await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight), window.scrollY')) as number;
  expect(scrolled, 'the page scrolls').to.be.greaterThan(0);
  await afterLayout(page);
  const after = (await entry.boundingBox())!;
  expect(after.y, 'the menu moved with the page').to.be.closeTo(before.y, 1);
  await page.evaluate('window.scrollTo(0, 0)');
}

/** Picks `option` in the antd select `select` (they are not native selects). */
async function choose(page: Page, select: Locator, typed: string, option: string): Promise<void> {
  await select.fill(typed);
  const choice = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(option, { exact: true });
  await choice.waitFor();
  await settle(page);
  await choice.click();
  await settle(page);
}

describe('screens at 1366 and 390 px, in English, French and German', function () {
  this.timeout(300_000);
  let product: RunningProduct;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let groupPath: string;
  let userPath: string;

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    product = await startProduct({ bootstrap });
    browser = await launchChromium();
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('the sign-in pages, the reset-link page and the not-found page', async () => {
    const visitor = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    const anonymous = await visitor.newPage();
    // A failed sign-in of Maximiliane's, for the authentication log.
    await anonymous.goto(`${product.base}/admin/`);
    await anonymous.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await anonymous.getByLabel('User', { exact: true }).fill(MAXIMILIANE);
    await anonymous.getByLabel('Password', { exact: true }).fill('Not-her-password-1!');
    const refused = anonymous.waitForResponse((res) => res.url().includes('/api/v1/account/login'));
    await anonymous.getByRole('button', { name: 'Log in' }).click();
    await refused;

    for (const language of LANGUAGES) {
      await useLanguage(anonymous, language);
      await anonymous.goto(`${product.base}/admin/`);
      await anonymous.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
      await atEachWidth(anonymous, { name: 'sign-in', ready: (p) => p.locator('input[type="password"]') }, language);
      await anonymous.goto(`${product.base}/account/changePassword?identityName=nobody%40example.com&token=not-a-token`);
      await atEachWidth(anonymous, { name: 'reset-link-refused', ready: (p) => p.getByRole('dialog') }, language);
      const answer = await anonymous.goto(`${product.base}/no/such/page`);
      expect(answer?.status()).to.equal(404);
      await atEachWidth(anonymous, { name: 'not-found', ready: (p) => p.getByRole('heading', { level: 1 }) }, language);
    }
    await visitor.close();
  });

  it('signs in to the console, makes a group with Maximiliane in it, and keeps the row actions of the users list in view', async () => {
    await page.goto(`${product.base}/admin/`);
    await page.waitForURL(/\/account\/login\?interaction=/, { timeout: 30_000 });
    await page.getByLabel('User', { exact: true }).fill('admin@gatehouse.local');
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(new RegExp(`^${product.base}/admin/?$`), { timeout: 30_000 });

    await page.goto(`${product.base}/admin/groups`);
    await page.getByRole('button', { name: 'New group' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill(GROUP);
    await dialog.getByLabel('Area', { exact: true }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Default', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('link', { name: GROUP }).click();
    await page.waitForURL(/\/admin\/groups\/[^/]+$/);
    groupPath = new URL(page.url()).pathname;
    await page.getByRole('button', { name: 'Add member' }).click();
    const add = page.getByRole('dialog').filter({ hasText: 'Add Member to Group' });
    await add.getByLabel('User', { exact: true }).waitFor();
    await settle(page);
    await choose(page, add.getByLabel('User', { exact: true }), 'maximiliane', `${MAXIMILIANE} (Maximiliane Schwarzenberger-Obermeier)`);
    await add.getByRole('button', { name: 'Add' }).click();
    await add.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: MAXIMILIANE }).waitFor();

    // At 1366 px the row actions (invitation and lock) stay in view, pinned at the table's right;
    // the columns between the names and them are reached by scrolling the table, not the page.
    await page.goto(`${product.base}/admin/users`);
    const row = page.getByRole('row').filter({ hasText: MAXIMILIANE });
    await row.waitFor();
    await afterLayout(page);
    await expectOnScreen(page, row.getByRole('button', { name: 'Lock', exact: true }), 'the row actions');
    await page.getByRole('columnheader', { name: /Modified on/ }).scrollIntoViewIfNeeded();
    await expectOnScreen(page, page.getByRole('columnheader', { name: /Modified on/ }), 'the "Modified on" column, once the table is scrolled');
    expect(await horizontalOverflow(page), 'the users list scrolls the page sideways').to.be.at.most(1);
    await row.getByRole('link', { name: MAXIMILIANE }).click();
    await page.waitForURL(/\/admin\/users\/[0-9a-f-]{36}$/);
    userPath = new URL(page.url()).pathname;
  });

  for (const language of LANGUAGES) {
    it(`the console in ${language}: dashboard, users, a user, groups, a group’s members, tenants, applications, the authentication log`, async () => {
      await useLanguage(page, language);
      const table = (p: Page) => p.locator('.ant-table-tbody tr.ant-table-row');
      const screens: Screen[] = [
        { name: 'admin-dashboard', open: (p) => p.goto(`${product.base}/admin/`), ready: (p) => p.locator('.admin-tile__count') },
        { name: 'admin-users', open: (p) => p.goto(`${product.base}/admin/users`), ready: table, whole: [MAXIMILIANE, MAXIMILIANE_MAIL, JEAN_BAPTISTE], inViewAtLaptop: 2 },
        { name: 'admin-user', open: (p) => p.goto(`${product.base}${userPath}`), ready: table, whole: [GROUP] },
        { name: 'admin-groups', open: (p) => p.goto(`${product.base}/admin/groups`), ready: table, whole: [GROUP] },
        { name: 'admin-group', open: (p) => p.goto(`${product.base}${groupPath}`), ready: table, whole: [MAXIMILIANE, MAXIMILIANE_MAIL] },
        { name: 'admin-tenants', open: (p) => p.goto(`${product.base}/admin/tenants`), ready: table, whole: [TENANT] },
        { name: 'admin-applications', open: (p) => p.goto(`${product.base}/admin/applications`), ready: table, whole: [APPLICATION] },
        {
          name: 'admin-authentication-log',
          open: (p) => p.goto(`${product.base}/admin/logs`),
          ready: (p) => table(p).filter({ hasText: MAXIMILIANE }),
          // Her failed sign-in: the log's reason is never cut either.
          whole: [MAXIMILIANE, 'Invalid password'],
          inViewAtLaptop: 2,
        },
      ];
      for (const screen of screens) {
        await page.setViewportSize({ width: 1366, height: 900 });
        await screen.open?.(page);
        await atEachWidth(page, screen, language);
        if (screen.name === 'admin-users') await expectMenuStays(page, page.locator('#admin-side-menu'));
      }
    });
  }

  for (const language of LANGUAGES) {
    it(`the portal in ${language}: home with its tiles, and My Clients`, async () => {
      await useLanguage(page, language);
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`${product.base}/`);
      await atEachWidth(page, { name: 'portal-home', ready: (p) => p.locator('.home-tile__title').filter({ hasText: APPLICATION }) }, language);
      await expectMenuStays(page, page.locator('#portal-side-menu'));

      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`${product.base}/clients`);
      await page.locator('.clients-tenant-select').click();
      const tenant = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(TENANT, { exact: true });
      await tenant.waitFor();
      await settle(page);
      await tenant.click();
      const rows = (p: Page) => p.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: JEAN_BAPTISTE });
      await atEachWidth(page, { name: 'portal-clients', ready: rows, whole: ['Maximiliane Schwarzenberger-Obermeier', MAXIMILIANE, MAXIMILIANE_MAIL], inViewAtLaptop: 3 }, language);
    });
  }
});
