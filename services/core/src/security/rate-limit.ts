import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';

export interface RateLimitOptions {
  /** Names the counts (and keeps them apart from other limits' in Redis). */
  name: string;
  /** Calls allowed per key and window. */
  points: number;
  /** The window, in seconds. */
  durationSeconds: number;
  redis?: Redis;
  logger?: Logger;
  /** Keeps apart, in one Redis, the counts of deployments with different public URLs. */
  namespace?: string;
}

/**
 * A limit on calls per key (a caller) and window: counted in Redis when it is configured, so every
 * node shares the count, and in this process otherwise. A count store that does not answer lets
 * the call through (the in-process count stands in for it) rather than stop every caller.
 */
export class RateLimit {
  private readonly limiter: RateLimiterAbstract;

  constructor(private readonly options: RateLimitOptions) {
    const { name, points, durationSeconds: duration, redis } = options;
    const memory = new RateLimiterMemory({ keyPrefix: name, points, duration });
    this.limiter = redis
      ? // While Redis is not connected, counts go to memory at once rather than wait for it.
        new RateLimiterRedis({ storeClient: redis, keyPrefix: `${options.namespace ?? 'gatehouse'}:${name}`, points, duration, insuranceLimiter: memory, rejectIfRedisNotReady: true })
      : memory;
  }

  /** One call by `key`: past the limit, a 429 (errors.too_many_requests) with the seconds to wait as Retry-After. */
  async consume(key: string): Promise<void> {
    try {
      await this.limiter.consume(key);
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        throw new AppError('errors.too_many_requests', 429, { retryAfter: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) });
      }
      this.options.logger?.warn({ err: (error as Error).message, limit: this.options.name }, 'rate limit store unavailable');
    }
  }
}
