import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { AppError } from '../errors/app-error.js';
import { RateLimit } from './rate-limit.js';

/** A Redis client that is not connected, noting every command sent to it anyway (each fails). */
function disconnectedRedis(): { redis: Redis; sent: string[] } {
  const sent: string[] = [];
  // What a limiter reads of any client when it is made: its class and its command definitions.
  const setUp = { status: 'reconnecting', constructor: Object, defineCommand: () => undefined, isReady: undefined };
  const redis = new Proxy(setUp as Record<string, unknown>, {
    get: (target, key) => {
      if (key in target || typeof key !== 'string' || key === 'then') return target[key as string];
      return () => {
        sent.push(key);
        return Promise.reject(new Error('not connected'));
      };
    },
  }) as unknown as Redis;
  return { redis, sent };
}

async function refusal(call: Promise<unknown>): Promise<AppError | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return error as AppError;
  }
}

describe('rate limit', () => {
  it('answers 429 with the seconds to wait once a caller passes the limit, and counts callers apart', async () => {
    const limit = new RateLimit({ name: 'test-limit', points: 2, durationSeconds: 60 });
    await limit.consume('a');
    await limit.consume('a');
    const refused = await refusal(limit.consume('a'));
    expect(refused).to.be.instanceOf(AppError);
    expect(refused).to.include({ code: 'errors.too_many_requests', status: 429 });
    expect(refused!.params.retryAfter).to.be.within(1, 60);
    expect(await refusal(limit.consume('b')), 'another caller has its own count').to.equal(undefined);
  });

  it('counts in memory at once while Redis is not connected, sending it nothing', async () => {
    const { redis, sent } = disconnectedRedis();
    const limit = new RateLimit({ name: 'test-limit-offline', points: 2, durationSeconds: 60, redis });
    await limit.consume('a');
    await limit.consume('a');
    expect(await refusal(limit.consume('a'))).to.include({ status: 429 });
    expect(sent, 'no command waited for Redis').to.deep.equal([]);
  });
});
