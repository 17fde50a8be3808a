import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createTestContext } from '../testing/context.js';
import { BullMqJobQueue } from './bullmq-queue.js';
import { DEFAULT_TIMINGS } from './types.js';

/** A TCP relay in front of Redis that counts the connections open through it. */
async function countingRelay(targetUrl: string) {
  const target = new URL(targetUrl);
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) socket.on('error', () => socket.destroy());
    client.on('close', () => {
      open.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    open: () => open.size,
    stop: () => {
      for (const socket of open) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('background job queue on Redis (BullMQ): its connections', function () {
  this.timeout(60_000);
  if (!process.env.REDIS_URL) {
    it('is pending: it needs REDIS_URL');
    return;
  }

  it('closes every connection it opened when it stops, the worker’s too', async () => {
    const context = await createTestContext({ migrate: false, overrides: { 'redis.url': undefined } });
    const relay = await countingRelay(process.env.REDIS_URL!);
    try {
      const queue = new BullMqJobQueue({ dataSource: context.dataSource, logger: context.logger, timings: { ...DEFAULT_TIMINGS, expireSeconds: 60 }, redisUrl: relay.url, prefix: `gatehouse-test-${randomBytes(4).toString('hex')}`, stopTimeoutMs: 2000 });
      await queue.start();
      expect(relay.open(), 'the queue and its worker are connected').to.be.at.least(2);
      await queue.stop();
      for (const until = Date.now() + 5000; relay.open() > 0 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(relay.open(), 'connections left open after the stop').to.equal(0);
    } finally {
      await relay.stop();
    }
  });
});
