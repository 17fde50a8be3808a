// How long getting into the console takes in Chromium, as a person does it: type the console's
// address and wait for a sign-in form that takes input, then press Log in and wait for the
// dashboard with its figures. Shared by the browser suite (which reports the figures) and
// `npm run bench` (which sets them against their targets); never a timed assertion.
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD } from './product.js';

export interface GettingInRound {
  /** From typing the address of /admin to a sign-in form that takes the user name and password. */
  signInFormMs: number;
  /** From pressing Log in to the console's dashboard with its figures. */
  dashboardMs: number;
}

export interface GettingIn {
  /** The first round: nothing of the product in the browser's cache. */
  cold: GettingInRound;
  /** The rounds after it, signed out but with the browser's cache of the first. */
  warm: GettingInRound[];
}

/** The page's document, in the functions run in the page (each whole in itself: only its text goes to the page). */
interface PageDocument {
  querySelector(selector: string): { disabled?: boolean } | null;
  querySelectorAll(selector: string): ArrayLike<{ disabled?: boolean; textContent: string | null }>;
}

/** Run in the page: the sign-in form's user-name field and its Log in button are there and enabled. */
function signInFormUsable(): boolean {
  const doc = (globalThis as unknown as { document: PageDocument }).document;
  // `username webauthn`: the field also offers the site's passkeys.
  const field = doc.querySelector('input[autocomplete~="username"]');
  const button = Array.from(doc.querySelectorAll('button[type="submit"]')).find((b) => b.textContent?.trim() === 'Log in');
  return !!field && !field.disabled && !!button && !button.disabled;
}

/** Run in the page: the dashboard's welcome is shown and no tile of it waits for its count any more. */
function dashboardWithFigures(): boolean {
  const doc = (globalThis as unknown as { document: PageDocument }).document;
  const welcome = Array.from(doc.querySelectorAll('h1')).some((h) => h.textContent?.trim().startsWith('Welcome'));
  return welcome && doc.querySelector('.admin-tile') !== null && doc.querySelector('.admin-tile__skeleton') === null;
}

const elapsed = (since: number) => Math.round((performance.now() - since) * 10) / 10;

async function round(page: Page, base: string): Promise<GettingInRound> {
  let started = performance.now();
  await page.goto(`${base}/admin/`, { waitUntil: 'commit' });
  const user = page.getByLabel('User', { exact: true });
  const password = page.getByLabel('Password', { exact: true });
  const logIn = page.getByRole('button', { name: 'Log in' });
  // Usable: the user-name field and the button are on the page and enabled (checked at every frame).
  await page.waitForFunction(signInFormUsable, undefined, { timeout: 60_000, polling: 'raf' });
  const signInFormMs = elapsed(started);

  await user.fill('admin@gatehouse.local');
  await password.fill(ADMIN_PASSWORD);
  started = performance.now();
  await logIn.click();
  // The welcome and the figures, checked at every frame (a locator's wait checks at growing
  // intervals, up to half a second apart: it would measure its own rhythm).
  await page.waitForFunction(dashboardWithFigures, undefined, { timeout: 60_000, polling: 'raf' });
  const dashboardMs = elapsed(started);
  // Signed out for the next round: the console's session lives in this origin's storage and the
  // provider's in its cookies.
  await page.evaluate('sessionStorage.clear(); localStorage.clear()');
  await page.context().clearCookies();
  return { signInFormMs, dashboardMs };
}

/** One cold round, then `warmRounds` more in the same browser context (its cache kept), each after signing out. */
export async function measureGettingIn(browser: Browser, base: string, warmRounds = 3): Promise<GettingIn> {
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1366, height: 900 } });
  try {
    const page = await context.newPage();
    const cold = await round(page, base);
    const warm: GettingInRound[] = [];
    for (let i = 0; i < warmRounds; i++) {
      await page.goto('about:blank');
      warm.push(await round(page, base));
    }
    return { cold, warm };
  } finally {
    await context.close();
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
