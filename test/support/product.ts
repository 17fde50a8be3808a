// `npm start` as a newcomer runs it (embedded database, no Redis), in a child process, for the
// browser tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createDataSource, migrate, startEmbeddedPostgres } from '@gatehouse/core';
import { recordContext, recordProduct } from './flight-recorder.js';
import { freePort } from './server.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SCREENSHOTS = path.join(ROOT, 'test-artifacts/screenshots');
export const ADMIN_PASSWORD = 'Admin-password-123!';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface RunningProduct {
  base: string;
  stop(): Promise<void>;
}

/**
 * Starts the product on a free port with its own data folder and bootstrap file (the default one
 * when none is given); `env` adds settings (an SMTP server to catch its mails, say); `basePath`
 * puts it under that path of its host (PUBLIC_URL's path).
 */
export async function startProduct(options: { bootstrap?: string; env?: Record<string, string>; basePath?: string } = {}): Promise<RunningProduct> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-browser-'));
  // The embedded database's files, migrated once for the run: a start then opens a database
  // instead of creating and migrating one (what a first start does is the smoke run's to check).
  cpSync(await migratedDataFolder(), path.join(dir, 'data/pglite'), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: path.join(dir, 'data'),
    IDP_ADMIN_PASSWORD: ADMIN_PASSWORD,
    // Each request a line: a failed test prints the latest (see flight-recorder.ts).
    LOG_LEVEL: 'info',
    NODE_ENV: 'development',
    ...options.env,
  };
  if (options.bootstrap) {
    writeFileSync(path.join(dir, 'bootstrap.yaml'), options.bootstrap);
    env.IDP_BOOTSTRAP = path.join(dir, 'bootstrap.yaml');
  }
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const basePath = options.basePath ?? '';
  let started = await spawnOnFreePort(env, basePath);
  // The free port was taken by another process between the probe and the start: another port.
  for (let attempt = 1; !started.ready && attempt < 3 && started.output.includes('EADDRINUSE'); attempt++) started = await spawnOnFreePort(env, basePath);
  const { server, port, output } = started;
  if (!started.ready) {
    server.kill('SIGKILL');
    throw new Error(`the product did not start:\n${output}`);
  }
  const base = `http://localhost:${port}${basePath}`;
  const recorder = recordProduct(base);
  server.stdout!.on('data', (d) => recorder.write(String(d)));
  server.stderr!.on('data', (d) => recorder.write(String(d)));
  return {
    base,
    async stop() {
      recorder.forget();
      if (server.exitCode !== null) return;
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

let migratedFolder: Promise<string> | undefined;

/** An embedded database folder with every migration applied and nothing else, made once per run. */
function migratedDataFolder(): Promise<string> {
  migratedFolder ??= (async () => {
    const folder = path.join(mkdtempSync(path.join(tmpdir(), 'gatehouse-template-')), 'pglite');
    const embedded = await startEmbeddedPostgres({ dataDir: folder, maxConnections: 4 });
    try {
      const dataSource = createDataSource({ url: embedded.url, poolSize: 1 });
      await dataSource.initialize();
      try {
        await migrate(dataSource);
      } finally {
        await dataSource.destroy();
      }
    } finally {
      await embedded.stop();
    }
    return folder;
  })();
  return migratedFolder;
}

/**
 * Debian's Chromium, headless; never a browser downloaded by a test tool. Its pages ask for reduced
 * motion unless told otherwise, as a user may: dialogs and pop-ups then open at once, and a click
 * never lands on a button still zooming in (one that starts on it and ends beside it clicks nothing).
 */
export async function launchChromium(options: { reducedMotion?: 'reduce' | 'no-preference' } = {}): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  // Every context's requests and errors are recorded, for the report of a test that fails.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (contextOptions = {}) => {
    const context = await newContext({ reducedMotion: options.reducedMotion ?? 'reduce', ...contextOptions });
    recordContext(context);
    return context;
  };
  return browser;
}

async function spawnOnFreePort(base: NodeJS.ProcessEnv, basePath = ''): Promise<{ server: ChildProcess; port: number; output: string; ready: boolean }> {
  const port = await freePort();
  const env = { ...base, PORT: String(port), ...(basePath ? { PUBLIC_URL: `http://localhost:${port}${basePath}` } : {}) };
  const server: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (d: Buffer) => void (output += d);
  server.stdout!.on('data', collect);
  server.stderr!.on('data', collect);
  const deadline = Date.now() + 180_000;
  while (!output.includes('is running at')) {
    if (Date.now() > deadline || server.exitCode !== null) return { server, port, output, ready: false };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // From here on the output is the flight recorder's (a bounded ring).
  server.stdout!.off('data', collect);
  server.stderr!.off('data', collect);
  return { server, port, output, ready: true };
}

/** Lets the finite animations in progress (a dialog or a message coming in) end. */
export const settle = (page: Page) =>
  page.evaluate('Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => null)))');

/**
 * Waits until the page shows no spinner and no skeleton: the calls behind what it shows have
 * answered. A function, not a string: the pages' policy refuses the `eval` a string's polling needs.
 */
export const loaded = (page: Page) =>
  page.waitForFunction(() => !(globalThis as unknown as { document: { querySelector(selector: string): unknown } }).document.querySelector('.ant-spin-spinning, .ant-skeleton-active'));
