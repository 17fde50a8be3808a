// Getting in, in Debian's Chromium against `npm start` (the product on its embedded database): from
// typing the console's address to a sign-in form that takes input, and from pressing Log in to the
// dashboard with its figures. One cold round (empty cache), then warm rounds; the targets apply to
// the warm rounds' median, on a machine with nothing else running. Loopback only; bounded; exits
// when done.
import { existsSync } from 'node:fs';
import { bounded, writeSection, type Figure } from './figures.js';
import { median, measureGettingIn, type GettingIn } from '../support/getting-in.js';
import { launchChromium, startProduct } from '../support/product.js';

const ROUNDS = Number(process.env.BENCH_SIGN_IN_ROUNDS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TARGET_FORM_MS = 1000;
const TARGET_DASHBOARD_MS = 1500;

function figures(result: GettingIn | undefined, note?: string): Figure[] {
  const warmForm = result ? median(result.warm.map((r) => r.signInFormMs)) : null;
  const warmDashboard = result ? median(result.warm.map((r) => r.dashboardMs)) : null;
  return [
    bounded('getting_in.sign_in_form_ms', `typing the console's address to a usable sign-in form (median of ${ROUNDS} warm rounds)`, 'ms', warmForm, { max: TARGET_FORM_MS }, note),
    bounded('getting_in.dashboard_ms', `pressing Log in to the console's dashboard with its figures (median of ${ROUNDS} warm rounds)`, 'ms', warmDashboard, { max: TARGET_DASHBOARD_MS }, note),
    bounded('getting_in.cold.sign_in_form_ms', 'the same sign-in form with an empty browser cache', 'ms', result?.cold.signInFormMs ?? null, undefined, note),
    bounded('getting_in.cold.dashboard_ms', 'the same dashboard with an empty browser cache', 'ms', result?.cold.dashboardMs ?? null, undefined, note),
  ];
}

async function main(): Promise<void> {
  const settings = { rounds: ROUNDS, browser: CHROMIUM, database: 'embedded PGlite (npm start without DATABASE_URL)' };
  const title = 'Getting in, in Chromium';
  if (!existsSync(CHROMIUM)) {
    writeSection('getting-in', { title, settings, figures: figures(undefined, `not measured (no Chromium at ${CHROMIUM})`) });
    console.log(`getting in: not measured, no Chromium at ${CHROMIUM}`);
    return;
  }
  console.log(`Getting in: npm start on the embedded database, Chromium, 1 cold and ${ROUNDS} warm rounds`);
  // No line per request: the figures are the product's, not its log's.
  const product = await startProduct({ env: { LOG_LEVEL: 'warn' } });
  // The pages as most users see them, motion included.
  const browser = await launchChromium({ reducedMotion: 'no-preference' });
  try {
    const result = await measureGettingIn(browser, product.base, ROUNDS);
    const rows = [{ round: 'cold', ...result.cold }, ...result.warm.map((r, i) => ({ round: `warm ${i + 1}`, ...r }))];
    for (const r of rows) console.log(`${r.round.padEnd(8)} sign-in form ${r.signInFormMs.toFixed(0).padStart(5)} ms   dashboard ${r.dashboardMs.toFixed(0).padStart(5)} ms`);
    writeSection('getting-in', { title, settings, figures: figures(result), details: { rounds: rows } });
  } finally {
    await browser.close();
    await product.stop();
  }
}

const watchdog = setTimeout(() => {
  console.error('getting-in benchmark: gave up after 5 minutes');
  process.exit(1);
}, 5 * 60_000);
watchdog.unref();

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
