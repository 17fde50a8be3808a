import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { AppContext } from '../context.js';
import { ForbiddenAddressError, guardedLookup, isSpecialAddress } from './addresses.js';
import { returnedRows } from './events.js';

/**
 * Waits before the 2nd, 3rd, … attempt of a delivery (each ±20 %): about a day in all, then the
 * delivery is given up (Failed).
 */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 8 * 3_600_000, 8 * 3_600_000];

export interface WebhookDelivererOptions {
  retryDelaysMs?: readonly number[];
  /** How often due deliveries are looked for. */
  pollIntervalMs?: number;
  /** How long a node holds a delivery it attempts; past it, another node takes it up (the first one stopped). */
  leaseMs?: number;
  /** The longest an endpoint has to answer. */
  timeoutMs?: number;
  /** Deliveries under way to one endpoint at once, on all nodes. */
  concurrencyPerEndpoint?: number;
  /** An endpoint that received nothing for this long is turned off and its owners told. */
  disableAfterMs?: number;
  /** How long events and their deliveries are kept for the delivery log. */
  retentionMs?: number;
  /** Told when an endpoint is turned off for failing (its owners are to be notified). */
  onEndpointDisabled?: (endpoint: DisabledEndpoint) => Promise<void>;
  /** Jitter factor source; tests pin it. */
  random?: () => number;
}

export interface DisabledEndpoint {
  id: string;
  url: string;
  applicationId: string | null;
  createdBy: string | null;
}

interface Claimed {
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  url: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Date | null;
  payload: unknown;
}

/** What one attempt got: the endpoint's status code, or why there was none. */
interface Outcome {
  status: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * Claims due deliveries for a lease: per enabled endpoint, its oldest due ones up to the
 * endpoint's free share of the concurrency limit (those leased on any node count against it), read
 * through the pending-deliveries indexes, so a round costs the same with a backlog of thousands as
 * with none. The claim is a compare-and-set on each row: a row another node claimed first no
 * longer matches and is left to it.
 */
const CLAIM = `
UPDATE webhook_deliveries d
   SET attempts = d.attempts + 1, last_attempt_at = now(), leased_until = now() + $1::double precision * interval '1 millisecond'
  FROM (
    SELECT due.id
      FROM webhook_endpoints e
     CROSS JOIN LATERAL (
       SELECT count(*)::int AS n FROM webhook_deliveries f
        WHERE f.endpoint_id = e.id AND f.status = 'Pending' AND f.leased_until IS NOT NULL AND f.leased_until > now()
     ) busy
     CROSS JOIN LATERAL (
       SELECT c.id FROM webhook_deliveries c
        WHERE c.endpoint_id = e.id AND c.status = 'Pending' AND c.next_attempt_at <= now()
          AND (c.leased_until IS NULL OR c.leased_until <= now())
        ORDER BY c.next_attempt_at
        LIMIT greatest($2::int - busy.n, 0)
     ) due
     WHERE e.enabled
     LIMIT $3
  ) picked, webhook_endpoints e, webhook_events ev
 WHERE d.id = picked.id AND e.id = d.endpoint_id AND ev.id = d.event_id
   AND d.status = 'Pending' AND (d.leased_until IS NULL OR d.leased_until <= now())
RETURNING d.id, d.endpoint_id, d.event_id, d.attempts, e.url, e.secret_encrypted, e.previous_secret_encrypted,
          e.previous_secret_expires_at, ev.payload`;

/**
 * Delivers the webhook events: each delivery is claimed by one node for a lease (FOR the whole
 * cluster: a claim is a compare-and-set on the row), posted signed as Standard Webhooks
 * (`webhook-id` the event's id, the same on every attempt; `webhook-timestamp`;
 * `webhook-signature` with the current secret, and the previous one while a rotation overlaps),
 * with a short timeout, no redirect followed and no private address unless allowed. A 2xx answer
 * ends it; anything else is tried again after a growing, jittered delay for about a day
 * (at-least-once: a node that stops mid-attempt leaves the delivery to be taken up again once its
 * lease ends). An endpoint that received nothing for a day is turned off, its owners told.
 */
export class WebhookDeliverer {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private lastSweep = 0;
  private readonly retryDelaysMs: readonly number[];
  private readonly options: Required<Omit<WebhookDelivererOptions, 'onEndpointDisabled' | 'retryDelaysMs'>> & Pick<WebhookDelivererOptions, 'onEndpointDisabled'>;

  constructor(
    private readonly context: AppContext,
    options: WebhookDelivererOptions = {},
  ) {
    this.retryDelaysMs = options.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
    this.options = {
      pollIntervalMs: options.pollIntervalMs ?? 1_000,
      leaseMs: options.leaseMs ?? 60_000,
      timeoutMs: options.timeoutMs ?? 10_000,
      concurrencyPerEndpoint: options.concurrencyPerEndpoint ?? 4,
      disableAfterMs: options.disableAfterMs ?? 24 * 3_600_000,
      retentionMs: options.retentionMs ?? 30 * 24 * 3_600_000,
      random: options.random ?? Math.random,
      onEndpointDisabled: options.onEndpointDisabled,
    };
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.options.pollIntervalMs);
    this.timer.unref();
  }

  /** Looks for due deliveries now (unless a round is under way). */
  wake(): void {
    if (this.running || this.stopped) return;
    this.running = this.drain()
      .then(() => undefined)
      .catch((error: Error) => this.context.logger.warn({ err: error.message }, 'webhook delivery round failed'))
      .finally(() => (this.running = undefined));
  }

  /** Resolves once the round under way, if any, has ended (a delivery sent again, say). */
  async idle(): Promise<void> {
    await this.running;
  }

  /** Stops looking; waits for the attempts under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Delivers every due delivery, round after round, until none is due. */
  async drain(): Promise<number> {
    let delivered = 0;
    for (;;) {
      if (this.stopped) return delivered;
      const claimed = returnedRows<Claimed>(await this.context.dataSource.query(CLAIM, [this.options.leaseMs, this.options.concurrencyPerEndpoint, 50]));
      if (!claimed.length) break;
      await Promise.all(claimed.map((row) => this.deliver(row)));
      delivered += claimed.length;
    }
    await this.sweep();
    return delivered;
  }

  private async deliver(row: Claimed): Promise<void> {
    const body = JSON.stringify(row.payload);
    const outcome = await this.post(row, body);
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    if (delivered) await this.succeeded(row, outcome);
    else await this.failed(row, outcome);
    const givenUp = this.retryDelaysMs[row.attempts - 1] === undefined;
    this.context.metrics.webhookDeliveries.inc({ outcome: delivered ? 'succeeded' : givenUp ? 'failed' : 'retrying' });
  }

  /** The secrets to sign with: the current one, and the previous one while the rotation overlaps. */
  private secretsOf(row: Claimed): string[] {
    const secrets = [this.context.secrets.decrypt(row.secret_encrypted)];
    if (row.previous_secret_encrypted && row.previous_secret_expires_at && row.previous_secret_expires_at.getTime() > Date.now()) {
      secrets.push(this.context.secrets.decrypt(row.previous_secret_encrypted));
    }
    return secrets;
  }

  private async post(row: Claimed, body: string): Promise<Outcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const timestamp = new Date();
      const signature = this.secretsOf(row)
        .map((secret) => new Webhook(secret).sign(row.event_id, timestamp, body))
        .join(' ');
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Gatehouse-Webhooks/1',
        'webhook-id': row.event_id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      };
      const status = await send(new URL(row.url), body, headers, this.options.timeoutMs, this.context.config.oidc.allowPrivateNetworkRequests);
      return { status, error: status >= 300 && status < 400 ? 'redirect not followed' : null, durationMs: elapsed() };
    } catch (error) {
      return { status: null, error: (error as Error).message.slice(0, 500), durationMs: elapsed() };
    }
  }

  private async succeeded(row: Claimed, outcome: Outcome): Promise<void> {
    await this.context.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'Succeeded', delivered_at = now(), leased_until = NULL,
              last_status_code = $2, last_duration_ms = $3, last_error = NULL
        WHERE id = $1`,
      [row.id, outcome.status, outcome.durationMs],
    );
    await this.context.dataSource.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', [row.endpoint_id]);
  }

  private async failed(row: Claimed, outcome: Outcome): Promise<void> {
    const delay = this.retryDelaysMs[row.attempts - 1];
    const jittered = delay === undefined ? null : Math.round(delay * (0.8 + 0.4 * this.options.random()));
    await this.context.dataSource.query(
      `UPDATE webhook_deliveries
          SET status = CASE WHEN $2::double precision IS NULL THEN 'Failed' ELSE 'Pending' END,
              next_attempt_at = CASE WHEN $2::double precision IS NULL THEN next_attempt_at ELSE now() + $2::double precision * interval '1 millisecond' END,
              leased_until = NULL, last_status_code = $3, last_duration_ms = $4, last_error = $5
        WHERE id = $1`,
      [row.id, jittered, outcome.status, outcome.durationMs, outcome.error ?? `answered ${outcome.status}`],
    );
    this.context.logger.info({ deliveryId: row.id, endpointId: row.endpoint_id, attempts: row.attempts, status: outcome.status, err: outcome.error }, 'webhook delivery failed');
    await this.checkHealth(row.endpoint_id);
  }

  /** Marks the endpoint failing since its first failure; one that has failed for a day is turned off and its owners told. */
  private async checkHealth(endpointId: string): Promise<void> {
    await this.context.dataSource.query('UPDATE webhook_endpoints SET failing_since = now() WHERE id = $1 AND failing_since IS NULL', [endpointId]);
    const disabled = returnedRows<{ id: string; url: string; application_id: string | null; created_by: string | null }>(await this.context.dataSource.query(
      `UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'failing', modified_on = now()
        WHERE id = $1 AND enabled AND failing_since <= now() - $2::double precision * interval '1 millisecond'
        RETURNING id, url, application_id, created_by`,
      [endpointId, this.options.disableAfterMs],
    ));
    const [endpoint] = disabled;
    if (!endpoint) return;
    this.context.logger.warn({ endpointId, url: endpoint.url }, 'webhook endpoint turned off: it received nothing for a day');
    await this.options
      .onEndpointDisabled?.({ id: endpoint.id, url: endpoint.url, applicationId: endpoint.application_id, createdBy: endpoint.created_by })
      .catch((error: Error) => this.context.logger.warn({ err: error.message }, 'webhook endpoint owners could not be told'));
  }

  /** Drops the events (and their deliveries) older than the retention, at most once an hour. */
  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < 3_600_000) return;
    this.lastSweep = Date.now();
    await this.context.dataSource.query(`DELETE FROM webhook_events WHERE created_at < now() - $1::double precision * interval '1 millisecond'`, [this.options.retentionMs]);
  }
}

/** Posts `body`; answers the status code. No redirect is followed; a special-use address is refused unless allowed. */
function send(url: URL, body: string, headers: Record<string, string>, timeoutMs: number, allowPrivate: boolean): Promise<number> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) && isSpecialAddress(host)) {
    return Promise.reject(new ForbiddenAddressError(`${host} is a private or reserved address`));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: guardedLookup(allowPrivate) as never },
      (response) => {
        // The answer's body is not read: drained and dropped.
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('error', reject);
    request.end(body);
  });
}
