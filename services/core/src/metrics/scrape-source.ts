import type { Logger } from '../logging/logger.js';

/** Gauges of one source read it once per scrape: a reading this recent is shared. */
const SHARED_FOR_MS = 1000;

/**
 * A dependency read at scrape time (the database's backlogs, say), within `timeoutMs`. The gauges
 * of one source share one reading per scrape. A source that fails or answers late gives no reading
 * (its gauges stay empty, `up` false) instead of failing the scrape; it is logged once when it goes
 * down and once when it is back. A read still running from an earlier scrape is waited for again
 * rather than started twice, so a slow dependency never piles up readings.
 */
export class ScrapeSource<T> {
  /** Whether the last reading answered in time. */
  up = true;
  private running?: Promise<T>;
  private scraping?: Promise<T | undefined>;
  private last?: { at: number; value: T | undefined };

  constructor(
    readonly name: string,
    private readonly read: () => Promise<T>,
    private readonly options: { timeoutMs: number; logger?: Logger },
  ) {}

  /** This scrape's reading, or undefined when the source did not answer in time. */
  get(): Promise<T | undefined> {
    if (this.last && Date.now() - this.last.at < SHARED_FOR_MS) return Promise.resolve(this.last.value);
    this.scraping ??= this.attempt().finally(() => (this.scraping = undefined));
    return this.scraping;
  }

  private async attempt(): Promise<T | undefined> {
    if (!this.running) {
      const running = this.read();
      this.running = running;
      running.then(
        () => (this.running = undefined),
        () => (this.running = undefined),
      );
    }
    let value: T | undefined;
    try {
      value = await withinMs(this.running, this.options.timeoutMs);
      if (!this.up) this.options.logger?.info({ source: this.name }, 'metrics source answers again');
      this.up = true;
    } catch (error) {
      if (this.up) this.options.logger?.warn({ source: this.name, err: (error as Error).message }, 'metrics source unavailable: its gauges are left out of the scrape');
      this.up = false;
    }
    this.last = { at: Date.now(), value };
    return value;
  }
}

function withinMs<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
