import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DataSource } from 'typeorm';
import { sqlClient } from '../db/sql-client.js';
import { JOB_TYPES } from '../domain/constants.js';
import type { Logger } from '../logging/logger.js';
import { STATEMENT_OPERATIONS, measureStatements, poolOf, type StatementOperation } from './database.js';
import { ScrapeSource } from './scrape-source.js';

export { STATEMENT_OPERATIONS, measureClient, statementOperation, type StatementOperation } from './database.js';
export { ScrapeSource } from './scrape-source.js';

/**
 * The product's metrics, one registry per process context (tests build several side by side).
 * Names follow Prometheus' conventions: `gatehouse_` for the product's own, `_total` counters,
 * seconds and bytes; every label value comes from a closed set (never a user, an address or a
 * raw path; `client` is the client id of a registered application).
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  httpErrors: Counter<'code'>;
  /** One step of a sign-in by the credential it checked, and how it ended (see the README's metrics list). */
  signIns: Counter<'method' | 'outcome'>;
  /** Accounts locked: `cause` failed_attempts, administrator, provisioning or application; `kind` temporary or permanent. */
  lockouts: Counter<'cause' | 'kind'>;
  /** Token endpoint answers: `outcome` success or the OAuth error code. */
  tokenGrants: Counter<'grant_type' | 'client' | 'outcome'>;
  /** A rotated (used) refresh token presented again: its grant is revoked. */
  refreshTokenReuse: Counter;
  /** Admin API calls by the endpoint group of their contract (`users` of `users.list`). */
  adminCalls: Counter<'group' | 'status_class'>;
  statementDuration: Histogram<'operation'>;
  /** Background jobs that ended: `outcome` succeeded or failed. */
  jobsFinished: Counter<'type' | 'outcome'>;
  /** Mail delivery attempts: `outcome` sent, retrying (failed, tried again later) or failed (given up). */
  mailDeliveries: Counter<'outcome'>;
  /** Webhook delivery attempts: `outcome` succeeded, retrying or failed (given up). */
  webhookDeliveries: Counter<'outcome'>;
  scimRequests: Counter<'resource' | 'status_class'>;
  /** Counts the open connections of a notification hub at each scrape until the answered function is called. */
  watchHub(connections: () => number): () => void;
}

export interface CreateMetricsOptions {
  /** Its pool's gauges, its statements' durations and the backlogs stored in it (jobs, mails, webhooks). */
  dataSource?: DataSource;
  logger?: Logger;
  /** The longest a scrape waits for a storage reading. */
  scrapeTimeoutMs?: number;
}

const DEFAULT_SCRAPE_TIMEOUT_MS = 1000;

/** `2xx`, `4xx`, …: the class of an HTTP status, a label with five values. */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

export function createMetrics(options: CreateMetricsOptions = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client's totals of these are gauges named like counters (`_total`), which Prometheus'
  // linter refuses; the same numbers are the sum of the per-type gauges it keeps.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name);
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new Counter<L>({ name, help, labelNames, registers });

  const statementDuration = new Histogram<'operation'>({
    name: 'gatehouse_db_statement_duration_seconds',
    help: 'Time from sending a statement on a pooled connection to its answer, by operation',
    labelNames: ['operation'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });

  const hubs = new Set<() => number>();
  new Gauge({
    name: 'gatehouse_notification_hub_connections',
    help: 'Open websocket connections of the notification hub on this node',
    registers,
    collect() {
      let open = 0;
      for (const read of hubs) open += read();
      this.set(open);
    },
  });

  const metrics: Metrics = {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, matched route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    httpErrors: counter('http_errors_total', 'Error responses by error code', ['code']),
    signIns: counter('gatehouse_sign_ins_total', 'Sign-in steps by the credential checked and how they ended', ['method', 'outcome']),
    lockouts: counter('gatehouse_account_lockouts_total', 'Accounts locked, by cause and kind (temporary or permanent)', ['cause', 'kind']),
    tokenGrants: counter('gatehouse_token_grants_total', 'Token endpoint answers by grant type, client and outcome', ['grant_type', 'client', 'outcome']),
    refreshTokenReuse: counter('gatehouse_refresh_token_reuse_total', 'Used refresh tokens presented again, each ending its grant', []),
    adminCalls: counter('gatehouse_admin_api_requests_total', 'Admin API calls by endpoint group and status class', ['group', 'status_class']),
    statementDuration,
    jobsFinished: counter('gatehouse_jobs_finished_total', 'Background jobs ended, by type and outcome', ['type', 'outcome']),
    mailDeliveries: counter('gatehouse_mail_deliveries_total', 'Mail delivery attempts by outcome', ['outcome']),
    webhookDeliveries: counter('gatehouse_webhook_deliveries_total', 'Webhook delivery attempts by outcome', ['outcome']),
    scimRequests: counter('gatehouse_scim_requests_total', 'SCIM requests by resource type and status class', ['resource', 'status_class']),
    watchHub(connections) {
      hubs.add(connections);
      return () => void hubs.delete(connections);
    },
  };
  if (options.dataSource) watchDatabase(metrics, options.dataSource, options);
  return metrics;
}

/** The pool's connections (read from memory) and every statement's duration. */
function watchDatabase(metrics: Metrics, dataSource: DataSource, options: CreateMetricsOptions): void {
  const { registry } = metrics;
  const registers = [registry];
  const pool = poolOf(dataSource);
  if (pool) {
    // One child per operation, made once: the statement hook then costs no label lookup.
    const byOperation = new Map(STATEMENT_OPERATIONS.map((op) => [op, metrics.statementDuration.labels({ operation: op })]));
    measureStatements(pool, (operation: StatementOperation, seconds) => byOperation.get(operation)!.observe(seconds));
    new Gauge({
      name: 'gatehouse_db_pool_connections',
      help: 'Connections of the database pool: in_use (taken by a statement or transaction) or idle',
      labelNames: ['state'],
      registers,
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'gatehouse_db_pool_waiting_requests',
      help: 'Requests waiting for a connection of the database pool',
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
    new Gauge({
      name: 'gatehouse_db_pool_max_connections',
      help: 'The most connections the database pool opens',
      registers,
      collect() {
        this.set((pool as unknown as { options: { max: number } }).options.max);
      },
    });
  }
  watchBacklogs(registry, dataSource, options);
}

interface BacklogRow {
  kind: 'job' | 'mail' | 'webhook';
  type: string;
  waiting: number;
  oldest: number | null;
}

/**
 * The backlogs stored in the database, in one round trip through the status indexes: jobs queued
 * (their rows, whichever queue carries them: BullMQ or pg-boss), mails and webhook deliveries
 * waiting to be sent.
 */
const BACKLOGS = `
  SELECT 'job' AS kind, type, count(*)::int AS waiting, extract(epoch FROM now() - min(created_at))::float8 AS oldest
    FROM background_jobs WHERE status = 'Queued' GROUP BY type
  UNION ALL
  SELECT 'mail', '', count(*)::int, extract(epoch FROM now() - min(created_at))::float8 FROM mail_outbox WHERE status = 'Pending'
  UNION ALL
  SELECT 'webhook', '', count(*)::int, extract(epoch FROM now() - min(created_at))::float8 FROM webhook_deliveries WHERE status = 'Pending'`;

function watchBacklogs(registry: Registry, dataSource: DataSource, options: CreateMetricsOptions): void {
  const registers = [registry];
  const sql = sqlClient(dataSource, { prepare: false });
  const source = new ScrapeSource('database', async () => (await sql.query<BacklogRow & Record<string, unknown>>(BACKLOGS)).rows, {
    timeoutMs: options.scrapeTimeoutMs ?? DEFAULT_SCRAPE_TIMEOUT_MS,
    logger: options.logger,
  });
  const knownTypes = new Set<string>(JOB_TYPES);
  /**
   * A gauge set from this scrape's reading. Without one (the database did not answer in time) it
   * has no sample at all: a gauge without labels would otherwise say 0, which is not known.
   */
  const backlogGauge = (name: string, help: string, labelNames: string[], fill: (gauge: Gauge<string>, rows: BacklogRow[]) => void) => {
    let answered = false;
    const gauge = new Gauge({
      name,
      help,
      labelNames,
      registers,
      async collect() {
        const rows = await source.get();
        answered = rows !== undefined;
        this.reset();
        if (rows) fill(this, rows);
      },
    });
    const read = gauge.get.bind(gauge);
    gauge.get = async () => {
      const metric = await read();
      return answered ? metric : { ...metric, values: [] };
    };
  };
  const perJobType = (gauge: Gauge<string>, rows: BacklogRow[], value: (row: BacklogRow) => number) => {
    for (const type of JOB_TYPES) gauge.set({ type }, 0);
    for (const row of rows) if (row.kind === 'job' && knownTypes.has(row.type)) gauge.set({ type: row.type }, value(row));
  };
  const single = (gauge: Gauge<string>, rows: BacklogRow[], kind: BacklogRow['kind'], value: (row: BacklogRow) => number) => {
    const row = rows.find((r) => r.kind === kind);
    gauge.set(row ? value(row) : 0);
  };
  backlogGauge('gatehouse_job_queue_waiting_jobs', 'Background jobs queued and not yet running, by type', ['type'], (g, rows) => perJobType(g, rows, (r) => r.waiting));
  backlogGauge('gatehouse_job_queue_oldest_waiting_age_seconds', 'Age of the oldest queued background job, by type (0: none waiting)', ['type'], (g, rows) =>
    perJobType(g, rows, (r) => r.oldest ?? 0),
  );
  backlogGauge('gatehouse_mail_outbox_pending_messages', 'Mails in the outbox waiting to be delivered (first attempt or retry)', [], (g, rows) => single(g, rows, 'mail', (r) => r.waiting));
  backlogGauge('gatehouse_mail_outbox_oldest_pending_age_seconds', 'Age of the oldest mail waiting to be delivered (0: none)', [], (g, rows) => single(g, rows, 'mail', (r) => r.oldest ?? 0));
  backlogGauge('gatehouse_webhook_deliveries_pending', 'Webhook deliveries waiting for their first attempt or a retry', [], (g, rows) => single(g, rows, 'webhook', (r) => r.waiting));
  new Gauge({
    name: 'gatehouse_metrics_source_up',
    help: 'Whether a source read at scrape time answered within its bound (1) or not (0: its gauges are left out)',
    labelNames: ['source'],
    registers,
    async collect() {
      await source.get();
      this.set({ source: source.name }, source.up ? 1 : 0);
    },
  });
}
