import { PassThrough } from 'node:stream';
import Koa from 'koa';
import request from 'supertest';
import { expect } from 'chai';
import { createServerI18n } from '../i18n/index.js';
import { koaRequestContext } from '../http/koa-request-context.js';
import { createMetrics } from '../http/metrics.js';
import { createLogger, type LogFormat } from './logger.js';

/** A logger writing into memory, and what it wrote. */
function capture(level: string, format: LogFormat, tty = false) {
  const stream = Object.assign(new PassThrough(), { isTTY: tty });
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { logger: createLogger(level, stream, format), text: () => text };
}

/** An app answering every path, behind the request context that writes the access log. */
function answering(logger: ReturnType<typeof createLogger>) {
  const app = new Koa();
  app.use(koaRequestContext({ logger, metrics: createMetrics(), i18n: createServerI18n(), bodyLimit: '1mb' }));
  app.use((ctx) => {
    ctx.body = { ok: true };
  });
  return app.callback();
}

describe('logging: formats and levels', () => {
  it('writes one JSON object per line for a collector, and readable lines for a person', () => {
    const json = capture('info', 'json');
    json.logger.info({ requestId: 'r-1', method: 'GET', url: '/api/v1/users', status: 200, durationMs: 12 }, 'request');
    const entry = JSON.parse(json.text().trim()) as Record<string, unknown>;
    expect(entry).to.include({ level: 'info', msg: 'request', method: 'GET', status: 200, requestId: 'r-1' });

    const pretty = capture('info', 'pretty');
    pretty.logger.info({ requestId: 'r-1', method: 'GET', url: '/api/v1/users', status: 200, durationMs: 12 }, 'request');
    pretty.logger.warn('the mail server is slow');
    const lines = pretty.text().trim().split('\n');
    expect(lines[0]).to.match(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/v1\/users 200 12 ms \{"requestId":"r-1"\}$/);
    expect(lines[1]).to.match(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: the mail server is slow$/);
  });

  it('picks the readable form for a terminal and JSON otherwise when the format is auto', () => {
    const terminal = capture('info', 'auto', true);
    terminal.logger.info('started');
    expect(terminal.text()).to.match(/INFO.*started/);
    expect(() => JSON.parse(terminal.text()) as unknown).to.throw();
    const pipe = capture('info', 'auto', false);
    pipe.logger.info('started');
    expect(JSON.parse(pipe.text()) as unknown).to.include({ msg: 'started' });
  });

  it('never writes a password, token or secret, at the top level or one level down, in either form', () => {
    for (const format of ['json', 'pretty'] as const) {
      const { logger, text } = capture('info', format);
      logger.info({ password: 'Top-Secret-1', token: 'tok-123', body: { newPassword: 'Nested-Secret-2', secret: 's3' } }, 'attempt');
      for (const secret of ['Top-Secret-1', 'tok-123', 'Nested-Secret-2', 's3"']) expect(text(), format).not.to.include(secret);
      expect(text(), format).to.include('[redacted]');
    }
  });

  it('logs requests at info, and health and metrics probes at debug only', async () => {
    const { logger, text } = capture('info', 'json');
    const server = answering(logger);
    await request(server).get('/health/live');
    await request(server).get('/health/ready');
    await request(server).get('/metrics');
    await request(server).get('/api/v1/config');
    const urls = text()
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { url: string }).url);
    expect(urls).to.deep.equal(['/api/v1/config']);

    const verbose = capture('debug', 'json');
    await request(answering(verbose.logger)).get('/health/live');
    expect(JSON.parse(verbose.text().trim()) as unknown).to.include({ level: 'debug', url: '/health/live', status: 200 });
  });
});
