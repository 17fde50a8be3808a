import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { pingDatabase } from '../db/data-source.js';

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

/** `/health/live`, `/health/ready` and `/metrics` (bearer token when METRICS_TOKEN is set). */
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
    const token = context.config.metrics.token;
    if (token && ctx.get('authorization') !== `Bearer ${token}`) ctx.throw(401);
    ctx.type = context.metrics.registry.contentType;
    ctx.body = await context.metrics.registry.metrics();
  });
  return router;
}
