import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestListener } from 'node:http';
import Router from '@koa/router';
import type { Config } from '../config/loader.js';
import type { AppContext } from '../context.js';
import { pingDatabase } from '../db/data-source.js';
import { AppError } from '../errors/app-error.js';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]);
}

/** Readiness checks: the database always, Redis when it is configured. */
export async function runReadinessChecks(context: AppContext): Promise<{ ok: boolean; checks: Record<string, string> }> {
  const checks: Record<string, Promise<unknown>> = {
    database: withTimeout(pingDatabase(context.dataSource), CHECK_TIMEOUT_MS),
  };
  if (context.redis) checks.redis = withTimeout(context.redis.ping(), CHECK_TIMEOUT_MS);
  const names = Object.keys(checks);
  const results = await Promise.allSettled(Object.values(checks));
  const report: Record<string, string> = {};
  results.forEach((result, i) => {
    const reason = result.status === 'rejected' ? (result.reason as { code?: string; message?: string }) : undefined;
    report[names[i]!] = reason ? `unavailable: ${reason.code ?? reason.message ?? 'error'}` : 'ok';
  });
  return { ok: results.every((r) => r.status === 'fulfilled'), checks: report };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the Authorization header is `Bearer <token>`, compared in constant time. */
function carriesToken(authorization: string, token: string): boolean {
  const presented = /^Bearer (\S+)$/i.exec(authorization)?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/**
 * Who may read `/metrics` on the public port: the bearer of METRICS_TOKEN when one is set (any
 * other caller: 401). Without a token, anyone in development and test, and nobody in production
 * (404): there the metrics are served only with the token, or on the loopback METRICS_PORT.
 */
function assertMayReadMetrics(config: Config, authorization: string): void {
  const { token } = config.metrics;
  if (token === undefined) {
    if (config.nodeEnv === 'production') throw new AppError('errors.not_found', 404);
    return;
  }
  if (!carriesToken(authorization, token)) throw new AppError('errors.unauthorized', 401);
}

/** `/health/live`, `/health/ready`, and `/metrics` as assertMayReadMetrics allows. */
export function operationalRoutes(context: AppContext): Router {
  const router = new Router();
  router.get('/health/live', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
  router.get('/health/ready', async (ctx) => {
    const { ok, checks } = await runReadinessChecks(context);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = ok ? 200 : 503;
    ctx.body = { status: ok ? 'ok' : 'unavailable', checks };
  });
  router.get('/metrics', async (ctx) => {
    assertMayReadMetrics(context.config, ctx.get('authorization'));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = context.metrics.registry.contentType;
    ctx.body = await context.metrics.registry.metrics();
  });
  return router;
}

/**
 * The handler of the loopback metrics port (METRICS_PORT): `GET /metrics` without a token, for a
 * scraper or agent on the same machine, and nothing else (404).
 */
export function metricsPortListener(context: AppContext): RequestListener {
  return (req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    context.metrics.registry.metrics().then(
      (body) => res.writeHead(200, { 'Content-Type': context.metrics.registry.contentType, 'Cache-Control': 'no-store' }).end(body),
      (error: Error) => {
        context.logger.warn({ err: error.message }, 'metrics could not be collected');
        res.writeHead(500).end();
      },
    );
  };
}
