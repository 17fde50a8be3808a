import type { ErrorCode } from '@gatehouse/contracts';
import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';

export interface ThrottleLimits {
  signInRequestsPerMinute: number;
  failuresPerAddressPerHour: number;
  failuresPerAccountAndAddressPerDay: number;
  mailsPerAccountPerHour: number;
}

/** The address a limit counts by: IPv4 as it is, IPv6 by its /64 (one subscriber holds a whole /64). */
export function addressKey(ip: string | null | undefined): string {
  const address = (ip ?? '').replace(/^::ffff:(?=\d+\.)/, '');
  if (!isIPv6(address)) return address || 'unknown';
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** RFC 8628's polling interval: a device asks for its tokens at most this often. */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;

const tooMany = (res: RateLimiterRes, code: ErrorCode = 'errors.too_many_requests') =>
  new AppError(code, 429, { retryAfter: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) });

/**
 * Limits on what anonymous callers can try, counted in Redis when it is configured (so every node
 * shares them) and in this process otherwise:
 * - requests per address to the sign-in, code, password and reset calls;
 * - wrong passwords and codes per address, over all accounts (password spraying);
 * - wrong passwords and codes per address on one account, cleared by a success from there: with
 *   the default of 10, one address causes at most two five-minute lockouts of an account a day,
 *   so it cannot drive the account to the permanent lock (the third) within a day on its own;
 * - reset mails per account;
 * - device authorizations (RFC 8628) per client and address, and each device's polls.
 * A limit store that does not answer never blocks a sign-in: the account lockout, kept in the
 * database, still applies.
 */
export class SignInThrottle {
  private readonly requests: RateLimiterAbstract;
  private readonly failures: RateLimiterAbstract;
  private readonly accountFailures: RateLimiterAbstract;
  private readonly mailsPerMinute: RateLimiterAbstract;
  private readonly mailsPerHour: RateLimiterAbstract;
  private readonly deviceAuthorizations: RateLimiterAbstract;
  private readonly devicePolls: RateLimiterAbstract;
  /** The in-memory stand-in of each Redis limiter, used while Redis is not connected. */
  private readonly standIns = new Map<RateLimiterAbstract, RateLimiterAbstract>();

  constructor(
    private readonly limits: ThrottleLimits,
    private readonly redis?: Redis,
    private readonly logger?: Logger,
    /** Keeps apart, in one Redis, the counts of deployments with different public URLs. */
    private readonly namespace = 'gatehouse',
  ) {
    const limiter = (keyPrefix: string, points: number, duration: number): RateLimiterAbstract => {
      const memory = new RateLimiterMemory({ keyPrefix, points, duration });
      if (!redis) return memory;
      // While Redis is not connected, counts go to memory at once rather than wait for it.
      const shared = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${namespace}:${keyPrefix}`, points, duration, insuranceLimiter: memory, rejectIfRedisNotReady: true });
      this.standIns.set(shared, memory);
      return shared;
    };
    this.requests = limiter('sign-in-requests', limits.signInRequestsPerMinute, 60);
    this.failures = limiter('sign-in-failures', limits.failuresPerAddressPerHour, 60 * 60);
    this.accountFailures = limiter('account-failures', limits.failuresPerAccountAndAddressPerDay, 24 * 60 * 60);
    this.mailsPerMinute = limiter('reset-mail-minute', 1, 60);
    this.mailsPerHour = limiter('reset-mail-hour', limits.mailsPerAccountPerHour, 60 * 60);
    this.deviceAuthorizations = limiter('device-authorizations', limits.signInRequestsPerMinute, 60);
    this.devicePolls = limiter('device-polls', 1, DEVICE_POLL_INTERVAL_SECONDS);
  }

  /** One request from this address to a throttled call: 429 with Retry-After past the limit. */
  async request(ip: string | null | undefined): Promise<void> {
    const refusal = await this.take(this.requests, addressKey(ip));
    if (refusal) throw tooMany(refusal);
  }

  /** A device authorization request of a client from this address: 429 with Retry-After past the limit. */
  async deviceAuthorization(ip: string | null | undefined, clientId: string): Promise<void> {
    const refusal = await this.take(this.deviceAuthorizations, `${clientId}|${addressKey(ip)}`);
    if (refusal) throw tooMany(refusal);
  }

  /** A device asking for its tokens (`device`: a digest of its code): false when it asked less than the interval ago. */
  async devicePollOnTime(device: string): Promise<boolean> {
    return !(await this.take(this.devicePolls, device));
  }

  /** Before a password or code is checked: refused (429) when this address has used up its failures. */
  async assertMayAttempt(ip: string | null | undefined, account: string): Promise<void> {
    const address = addressKey(ip);
    const [overall, onAccount] = await Promise.all([
      this.peek(this.failures, address),
      this.peek(this.accountFailures, `${account}|${address}`),
    ]);
    for (const [res, limit] of [
      [overall, this.limits.failuresPerAddressPerHour],
      [onAccount, this.limits.failuresPerAccountAndAddressPerDay],
    ] as const) {
      if (res && res.consumedPoints >= limit) throw tooMany(res, 'account.too_many_attempts');
    }
  }

  /** A wrong password or code from this address. */
  async failed(ip: string | null | undefined, account: string): Promise<void> {
    const address = addressKey(ip);
    await Promise.all([this.take(this.failures, address), this.take(this.accountFailures, `${account}|${address}`)]);
  }

  /** A completed sign-in: this address's failures on the account are forgiven. */
  async succeeded(ip: string | null | undefined, account: string): Promise<void> {
    await this.forget(this.accountFailures, `${account}|${addressKey(ip)}`).catch((error: Error) => this.storeFailed(error));
  }

  /**
   * An operator's unlock: this account's failure counts from every address are forgotten. They are
   * shared through Redis; without it they live in each server's memory, until they expire (a day)
   * or a success from that address.
   */
  async forgetAccount(account: string): Promise<void> {
    if (this.redis) {
      const glob = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');
      const pattern = `${glob(this.namespace)}:account-failures:${glob(account)}|*`;
      try {
        for await (const keys of this.redis.scanStream({ match: pattern, count: 500 })) if ((keys as string[]).length) await this.redis.del(...(keys as string[]));
      } catch (error) {
        this.storeFailed(error as Error);
      }
    }
  }

  /** Whether a reset mail for this account may go now (one a minute, `mailsPerAccountPerHour` an hour). */
  async mayMail(account: string): Promise<boolean> {
    return !(await this.take(this.mailsPerMinute, account)) && !(await this.take(this.mailsPerHour, account));
  }

  /** A reset link was presented: whoever reads the mailbox acted, so the account's mail counts start again. */
  async mailUsed(account: string): Promise<void> {
    await Promise.all([this.forget(this.mailsPerMinute, account), this.forget(this.mailsPerHour, account)]).catch((error: Error) => this.storeFailed(error));
  }

  /** Deletes a count: in memory only while Redis is not connected (a command would wait for it). */
  private async forget(limiter: RateLimiterAbstract, key: string): Promise<void> {
    const connected = !this.redis || this.redis.status === 'ready';
    await (connected ? limiter : (this.standIns.get(limiter) ?? limiter)).delete(key);
  }

  /** Consumes a point; the refusal when the limit was already reached, undefined otherwise. */
  private async take(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | undefined> {
    try {
      await limiter.consume(key);
      return undefined;
    } catch (error) {
      if (error instanceof RateLimiterRes) return error;
      this.storeFailed(error as Error);
      return undefined;
    }
  }

  private async peek(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | null> {
    try {
      return await limiter.get(key);
    } catch (error) {
      this.storeFailed(error as Error);
      return null;
    }
  }

  private storeFailed(error: Error): void {
    this.logger?.warn({ err: error.message }, 'rate limit store unavailable');
  }
}
