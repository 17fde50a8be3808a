import nodemailer, { type Transporter } from 'nodemailer';
import type { AppContext } from '../context.js';
import { sqlClient, type SqlClient } from '../db/sql-client.js';
import type { Language, MAIL_STATUSES } from '../domain/constants.js';
import { renderMail, type MailParams, type MailTemplate, type RenderedMail } from './templates.js';

export type MailStatus = (typeof MAIL_STATUSES)[number];

/** A mail to send: the template fills in the subject and both bodies. */
export interface SendMailRequest<T extends MailTemplate = MailTemplate> {
  to: string;
  template: T;
  /** Any language tag; unsupported ones get English. */
  language: string;
  params: MailParams[T];
}

export interface MailerOptions {
  /** Used instead of one built from `config.mail.smtpUrl` (tests, other transports). */
  transport?: Transporter;
  /** Waits after the 1st, 2nd, … failed attempt; when they run out the mail is Failed. */
  retryDelaysMs?: number[];
  /** How often the retry worker looks for due mails. */
  pollIntervalMs?: number;
}

/** A mail kept in the outbox because no SMTP server is configured, decrypted. */
export interface KeptMail extends RenderedMail {
  id: string;
  to: string;
  template: string;
  createdAt: Date;
}

const DEFAULT_RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000];
const DEFAULT_POLL_INTERVAL_MS = 5_000;
/**
 * How long a claimed mail stays invisible to other nodes while one tries to deliver it. Longer
 * than the SMTP timeouts below, so a mail is only claimed again once its sender has given up or died.
 */
const CLAIM_LEASE_MS = 5 * 60_000;
/** Connection defaults (ms) unless the SMTP URL sets them: nodemailer's own allow a 1-hour stall. */
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };
/** Mails one worker run delivers before it lets `stop()` and other nodes have their turn. */
const MAX_PER_RUN = 100;
/**
 * The plain-text subject is cut to this many bytes so that, once encrypted and base64-encoded, it
 * fits the 500-character column.
 */
const MAX_SUBJECT_BYTES = 300;

const COLUMNS = 'id, to_address, subject, html, text, template, language, attempts, created_at';

interface OutboxRow {
  id: string;
  to_address: string;
  subject: string;
  html: string;
  text: string;
  template: string;
  language: string;
  attempts: number;
  created_at: Date;
}

/**
 * Sends the product's mails through an outbox table. Every mail is stored first, its subject and
 * bodies encrypted (they carry reset links and sign-in codes), then delivered at once when SMTP is
 * configured and retried with backoff by a worker otherwise. A delivered mail keeps no content.
 * Without SMTP a mail is kept, for an operator to read with `readKept`.
 */
export class Mailer {
  private readonly transport?: Transporter;
  private readonly retryDelaysMs: number[];
  private readonly pollIntervalMs: number;
  private readonly sql: SqlClient;
  private readonly messageIdDomain: string;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly context: AppContext,
    options: MailerOptions = {},
  ) {
    const smtpUrl = context.config.mail.smtpUrl;
    this.transport = options.transport ?? (smtpUrl ? nodemailer.createTransport(withDefaultTimeouts(smtpUrl)) : undefined);
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    if (this.retryDelaysMs.some((ms) => !Number.isFinite(ms) || ms < 0)) throw new Error('retryDelaysMs must be non-negative numbers');
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.sql = sqlClient(context.dataSource, { prepare: false });
    this.messageIdDomain = new URL(context.config.server.publicUrl).hostname;
  }

  /**
   * Runs `work`, whose outcome is mails, without the caller waiting for it (a request answered
   * before the account is even looked up); a failure is logged. Answers the work's end, for
   * whoever needs to know (tests waiting until nothing is left to write).
   */
  later(work: () => Promise<void>, what: string): Promise<void> {
    return work().catch((error: Error) => this.context.logger.warn({ err: error.message }, `${what} failed`));
  }

  /**
   * Renders and stores the mail, then delivers it at once when SMTP is configured. A failed
   * attempt leaves it Pending for the retry worker; without SMTP it is Kept.
   */
  async send<T extends MailTemplate>(request: SendMailRequest<T>): Promise<{ id: string; status: MailStatus }> {
    const mail = renderMail(request.template, request.language, request.params);
    const deliverNow = this.transport !== undefined;
    const { secrets } = this.context;
    // A mail about to be delivered is inserted already claimed (one attempt, leased), so no
    // worker on another node picks it up while this one sends it.
    const { rows } = await this.sql.query<OutboxRow>(
      `INSERT INTO mail_outbox (to_address, subject, html, text, template, language, status, attempts, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + $9::double precision * interval '1 millisecond')
       RETURNING ${COLUMNS}`,
      [
        request.to,
        secrets.encrypt(truncateBytes(mail.subject, MAX_SUBJECT_BYTES)),
        secrets.encrypt(mail.html),
        secrets.encrypt(mail.text),
        request.template,
        mail.language,
        deliverNow ? 'Pending' : 'Kept',
        deliverNow ? 1 : 0,
        deliverNow ? CLAIM_LEASE_MS : 0,
      ],
    );
    const row = rows[0]!;
    if (!deliverNow) {
      this.keep(row, mail);
      return { id: row.id, status: 'Kept' };
    }
    return { id: row.id, status: await this.attempt(row) };
  }

  /** Delivers the mails that are due, once; resolves with how many it tried. */
  flush(): Promise<number> {
    return this.drain(() => false);
  }

  /** Starts the retry worker. It does nothing without SMTP: kept mails are never sent. */
  start(): void {
    if (this.timer || !this.transport) return;
    this.stopping = false;
    this.timer = setInterval(() => this.tick(), this.pollIntervalMs);
    // A pending mail must not keep the process alive on shutdown; it is retried after restart.
    this.timer.unref();
  }

  /** Stops the retry worker after the mail it is sending, if any. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopping = true;
    await this.running;
  }

  /** The decrypted content of a Kept mail, or undefined when there is no such Kept mail. */
  async readKept(id: string): Promise<KeptMail | undefined> {
    const { rows } = await this.sql.query<OutboxRow>(
      `SELECT ${COLUMNS} FROM mail_outbox WHERE id = $1 AND status = 'Kept'`,
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    const { secrets } = this.context;
    return {
      id: row.id,
      to: row.to_address,
      template: row.template,
      language: row.language as Language,
      createdAt: row.created_at,
      subject: secrets.decrypt(row.subject),
      html: secrets.decrypt(row.html),
      text: secrets.decrypt(row.text),
    };
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.drain(() => this.stopping)
      .then(
        () => undefined,
        (error: Error) => this.context.logger.warn({ err: error.message }, 'mail retry run failed'),
      )
      .finally(() => {
        this.running = undefined;
      });
  }

  private async drain(shouldStop: () => boolean): Promise<number> {
    if (!this.transport) return 0;
    let tried = 0;
    while (tried < MAX_PER_RUN && !shouldStop()) {
      const row = await this.claim();
      if (!row) break;
      await this.attempt(row);
      tried += 1;
    }
    return tried;
  }

  /**
   * Takes one due mail and leases it, in a single statement: SKIP LOCKED makes concurrent workers
   * (other nodes, or two runs here) pass over a row one of them is claiming, and the lease keeps it
   * away from them once claimed. Nothing is held open while the SMTP server is talking, which
   * matters doubly on the embedded database, where every connection shares one session.
   */
  private async claim(): Promise<OutboxRow | undefined> {
    const { rows } = await this.sql.query<OutboxRow>(
      `UPDATE mail_outbox
          SET attempts = attempts + 1, next_attempt_at = now() + $1::double precision * interval '1 millisecond'
        WHERE id = (
          SELECT id FROM mail_outbox
           WHERE status = 'Pending' AND next_attempt_at <= now()
           ORDER BY next_attempt_at
           LIMIT 1
           FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [CLAIM_LEASE_MS],
    );
    return rows[0];
  }

  /** One delivery attempt of a claimed mail: the only place mails are sent from. */
  private async attempt(row: OutboxRow): Promise<MailStatus> {
    const { secrets, logger, config } = this.context;
    try {
      await this.transport!.sendMail({
        from: config.mail.from,
        to: row.to_address,
        subject: secrets.decrypt(row.subject),
        html: secrets.decrypt(row.html),
        text: secrets.decrypt(row.text),
        // The same id on every attempt lets a mail client fold the duplicate left by a node that
        // died between delivering and recording it.
        messageId: `<${row.id}@${this.messageIdDomain}>`,
        // Asks vacation responders and mailing lists not to answer a no-reply address.
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    } catch (error) {
      return this.recordFailure(row, error as Error);
    }
    // Once delivered, the link or code has no reason to stay in the database, even encrypted.
    await this.sql.query(
      `UPDATE mail_outbox
          SET status = 'Sent', sent_at = now(), last_error = NULL, subject = '', html = '', text = ''
        WHERE id = $1`,
      [row.id],
    );
    logger.info({ mailId: row.id, template: row.template, attempts: row.attempts }, 'mail sent');
    this.context.metrics.mailDeliveries.inc({ outcome: 'sent' });
    return 'Sent';
  }

  private async recordFailure(row: OutboxRow, error: Error): Promise<MailStatus> {
    const reason = error.message.slice(0, 2000);
    const delayMs = this.retryDelaysMs[row.attempts - 1];
    const log = { mailId: row.id, to: row.to_address, template: row.template, attempts: row.attempts, err: reason };
    if (delayMs === undefined) {
      // Nobody will send it now, so the content goes as after a delivery.
      await this.sql.query(
        `UPDATE mail_outbox SET status = 'Failed', last_error = $2, subject = '', html = '', text = '' WHERE id = $1`,
        [row.id, reason],
      );
      this.context.logger.error(log, 'mail delivery failed for good');
      this.context.metrics.mailDeliveries.inc({ outcome: 'failed' });
      return 'Failed';
    }
    await this.sql.query(
      `UPDATE mail_outbox SET last_error = $2, next_attempt_at = now() + $3::double precision * interval '1 millisecond' WHERE id = $1`,
      [row.id, reason, delayMs],
    );
    this.context.logger.warn({ ...log, retryInMs: delayMs }, 'mail delivery failed, will retry');
    this.context.metrics.mailDeliveries.inc({ outcome: 'retrying' });
    return 'Pending';
  }

  private keep(row: OutboxRow, mail: RenderedMail): void {
    // Metadata only: the subject and bodies carry the link or code, which must never reach a log.
    this.context.logger.info(
      { mailId: row.id, to: row.to_address, template: row.template, language: row.language },
      'mail kept in the outbox: no SMTP server configured',
    );
    // A newcomer running locally has no SMTP server, yet needs to follow the reset link or type
    // the sign-in code: in development only, the plain-text body goes to the terminal. Never
    // elsewhere, since production stdout ends up in log storage.
    if (this.context.config.nodeEnv === 'development') {
      process.stdout.write(
        `\n----- mail ${row.id} to ${row.to_address}: ${mail.subject} -----\n${mail.text}----- end of mail -----\n\n`,
      );
    }
  }
}

function withDefaultTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [key, value] of Object.entries(SMTP_TIMEOUTS)) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, String(value));
  }
  return url.toString();
}

function truncateBytes(value: string, maxBytes: number): string {
  if (Buffer.byteLength(value) <= maxBytes) return value;
  // By code point, so an emoji is never cut in half.
  const chars = Array.from(value);
  while (Buffer.byteLength(`${chars.join('')}…`) > maxBytes) chars.pop();
  return `${chars.join('')}…`;
}
