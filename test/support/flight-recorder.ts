// What the browser tests' products and pages did lately, kept in bounded rings and printed when a
// test fails: a click that led nowhere is then explained by the requests still open, the page's
// errors and the product's own log, rather than by a timeout alone.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Request } from 'playwright-core';

const KEPT_LINES = 200;
const KEPT_EVENTS = 150;

/** The newest lines of each running product's output, by its base URL. */
const products = new Map<string, string[]>();
const events: string[] = [];
/** Requests sent and not yet answered or failed, with when they left and from which context. */
const open = new Map<Request, { sent: number; context: BrowserContext }>();
const started = Date.now();
/** The browser contexts open now: their pages are shown in a failed test's report. */
const contexts = new Set<BrowserContext>();
/** Where a failed test's pages are photographed (the suite's screenshots folder). */
const FAILURE_SHOTS = path.resolve(import.meta.dirname, '../../test-artifacts/screenshots');

/** A request log line of a script, style or image served well: left out of the product's ring. */
const SERVED_ASSET = /"url":"[^"]*(\/assets\/|favicon)[^"]*","status":[23]\d\d/;

/** Scripts, styles, images and fonts: noted only when they fail. */
const isAsset = (request: Request) => ['script', 'stylesheet', 'image', 'font'].includes(request.resourceType());

const at = () => `+${((Date.now() - started) / 1000).toFixed(1)}s`;

function keep(ring: string[], line: string, size: number): void {
  ring.push(line);
  if (ring.length > size) ring.splice(0, ring.length - size);
}

/** Follows a product's output (stdout and stderr) under `name`, until `forget`. */
export function recordProduct(name: string): { write(chunk: string): void; forget(): void } {
  const lines: string[] = [];
  products.set(name, lines);
  let partial = '';
  return {
    write(chunk) {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop()!;
      for (const line of parts) if (!SERVED_ASSET.test(line)) keep(lines, `${at()} ${line}`, KEPT_LINES);
    },
    forget: () => void products.delete(name),
  };
}

/** Notes a browser context's requests, answers, failures, console errors and page errors. */
/** An address with its one-time values (codes, tokens) left out. */
const withoutSecrets = (url: string) => url.replace(/([?&](code|state|token|id_token_hint|refresh_token)=)[^&]+/g, '$1…');

export function recordContext(context: BrowserContext): void {
  const name = (request: Request) => `${request.method()} ${withoutSecrets(request.url())}`;
  context.on('request', (request) => {
    open.set(request, { sent: Date.now(), context });
    if (!isAsset(request)) keep(events, `${at()} → ${name(request)}`, KEPT_EVENTS);
  });
  context.on('requestfinished', (request) => {
    const sent = open.get(request)?.sent;
    open.delete(request);
    void request
      .response()
      .then((response) => {
        const status = response?.status() ?? 0;
        if (!isAsset(request) || status >= 400) keep(events, `${at()} ← ${status || '?'} ${name(request)} (${sent ? Date.now() - sent : '?'} ms)`, KEPT_EVENTS);
      })
      .catch(() => undefined);
  });
  context.on('requestfailed', (request) => {
    open.delete(request);
    keep(events, `${at()} ✗ ${name(request)}: ${request.failure()?.errorText ?? 'failed'}`, KEPT_EVENTS);
  });
  context.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') keep(events, `${at()} console.${message.type()}: ${message.text()}`, KEPT_EVENTS);
  });
  context.on('weberror', (error) => keep(events, `${at()} page error: ${error.error().message}`, KEPT_EVENTS));
  contexts.add(context);
  context.on('close', () => {
    contexts.delete(context);
    for (const [request, entry] of [...open]) if (entry.context === context) open.delete(request);
  });
}

/** What was recorded, for the report of a failed test. */
export function recorded(): string {
  const now = Date.now();
  const sections = [
    `requests still open (${open.size}):`,
    ...[...open].map(([request, { sent }]) => `  ${request.method()} ${request.url()} for ${now - sent} ms`),
    `the browser's latest events (${events.length}):`,
    ...events.map((e) => `  ${e}`),
  ];
  for (const [base, lines] of products) sections.push(`the output of the product at ${base} (latest ${lines.length} lines):`, ...lines.map((l) => `  ${l}`));
  return sections.join('\n');
}

/** Gives up on `work` after `ms` (a page that hangs must not hold the report). */
const within = <T>(work: Promise<T>, ms: number): Promise<T | undefined> =>
  Promise.race([work.catch(() => undefined), new Promise<undefined>((resolve) => setTimeout(resolve, ms))]);

let failures = 0;

/**
 * What each open page shows at the failure: its address and visible text (bounded), and a
 * screenshot in the screenshots folder; a wait for a text that never came is then explained by
 * what was there instead.
 */
async function pagesShown(): Promise<string> {
  const lines: string[] = [];
  failures += 1;
  mkdirSync(FAILURE_SHOTS, { recursive: true });
  let index = 0;
  for (const context of contexts) {
    for (const page of context.pages()) {
      index += 1;
      const text = await within(page.evaluate(() => document.body?.innerText ?? ''), 5000);
      const file = path.join(FAILURE_SHOTS, `failure-${failures}-page-${index}.png`);
      const shot = await within(page.screenshot({ path: file, fullPage: true }), 5000);
      lines.push(`page ${index}: ${withoutSecrets(page.url())}${shot ? ` (screenshot ${path.basename(file)})` : ''}`);
      lines.push(...(text ?? '(no answer)').replace(/\n{2,}/g, '\n').slice(0, 1500).split('\n').map((line) => `  | ${line}`));
    }
  }
  return [`the pages open (${index}):`, ...lines].join('\n');
}

/** Mocha's root hooks for the browser suite: a failed test prints what was recorded, and what its pages show. */
export const mochaHooks = {
  async afterEach(this: Mocha.Context) {
    if (this.currentTest?.state !== 'failed') return;
    console.log(`\n[flight recorder] ${this.currentTest.fullTitle()}\n${recorded()}\n${await pagesShown()}\n`);
  },
};
