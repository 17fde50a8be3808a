// What the browser tests' products and pages did lately, kept in bounded rings and printed when a
// test fails: a click that led nowhere is then explained by the requests still open, the page's
// errors and the product's own log, rather than by a timeout alone.
import type { BrowserContext, Request } from 'playwright-core';

const KEPT_LINES = 200;
const KEPT_EVENTS = 150;

/** The newest lines of each running product's output, by its base URL. */
const products = new Map<string, string[]>();
const events: string[] = [];
/** Requests sent and not yet answered or failed, with when they left and from which context. */
const open = new Map<Request, { sent: number; context: BrowserContext }>();
const started = Date.now();

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
export function recordContext(context: BrowserContext): void {
  const name = (request: Request) => `${request.method()} ${request.url().replace(/([?&](code|state|token|id_token_hint|refresh_token)=)[^&]+/g, '$1…')}`;
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
  context.on('close', () => {
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

/** Mocha's root hooks for the browser suite: a failed test prints what was recorded. */
export const mochaHooks = {
  afterEach(this: Mocha.Context) {
    if (this.currentTest?.state === 'failed') console.log(`\n[flight recorder] ${this.currentTest.fullTitle()}\n${recorded()}\n`);
  },
};
