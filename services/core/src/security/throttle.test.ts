import net from 'node:net';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { AppError } from '../errors/app-error.js';
import { SignInThrottle } from './throttle.js';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `promise`, or a failure naming `what` when it has not settled after 10 s (it waits on Redis). */
function settles<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} is waiting for Redis`)), 10_000);
  });
  return Promise.race([promise, stuck]).finally(() => clearTimeout(timer));
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof AppError ? `${error.status} ${error.code}` : String(error)),
  );

describe('sign-in throttle while Redis is down', function () {
  this.timeout(60_000);
  let redis: Redis;

  beforeEach(async () => {
    // A client whose commands would wait for Redis for ever: no command bound, no retry limit.
    redis = new Redis(`redis://127.0.0.1:${await closedPort()}`, { lazyConnect: true, maxRetriesPerRequest: null, retryStrategy: () => 100 });
    redis.on('error', () => undefined);
    await redis.connect().catch(() => undefined);
  });
  afterEach(() => redis.disconnect());

  it('counts in memory at once, so the limits still apply and no sign-in waits for Redis', async () => {
    const limits = { signInRequestsPerMinute: 2, failuresPerAddressPerHour: 100, failuresPerAccountAndAddressPerDay: 2, mailsPerAccountPerHour: 5 };
    const throttle = new SignInThrottle(limits, redis);
    expect(redis.status).to.not.equal('ready');

    await settles('the request count', throttle.request('203.0.113.7'));
    await settles('the request count', throttle.request('203.0.113.7'));
    expect(await settles('the request count', refusal(throttle.request('203.0.113.7')))).to.equal('429 errors.too_many_requests');

    await settles('the failure count', throttle.failed('203.0.113.7', 'ann@example.com'));
    await settles('the failure count', throttle.failed('203.0.113.7', 'ann@example.com'));
    expect(await settles('the check', refusal(throttle.assertMayAttempt('203.0.113.7', 'ann@example.com')))).to.equal('429 account.too_many_attempts');

    // A success forgives the address's failures on the account, in memory too.
    await settles('the success', throttle.succeeded('203.0.113.7', 'ann@example.com'));
    expect(await settles('the check', refusal(throttle.assertMayAttempt('203.0.113.7', 'ann@example.com')))).to.equal(undefined);

    expect(await settles('the mail count', throttle.mayMail('user-1'))).to.equal(true);
    expect(await settles('the mail count', throttle.mayMail('user-1')), 'one mail a minute').to.equal(false);
    await settles('the mail reset', throttle.mailUsed('user-1'));
    expect(await settles('the mail count', throttle.mayMail('user-1')), 'counts start again once a link is used').to.equal(true);
  });
});
