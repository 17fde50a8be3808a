import { IDEMPOTENCY_KEY_HEADER, externalApiEntryOf, type Language, type RouteContract } from '@gatehouse/contracts';
import { parseInput } from '@gatehouse/core';
import { routeKit, type RouteHandler } from '@gatehouse/core/http';
import type { Context, Next } from 'koa';
import type { AdminContext } from '../../admin-context.js';
import { logged, note } from './access-log.js';
import type { ExternalCaller } from './caller.js';
import { externalCallerOf, externalRefusalOf } from './koa-external-auth.js';

/** What every external API handler is given besides its input. */
export interface ExternalCall {
  caller: ExternalCaller;
  /** The call's Idempotency-Key, on the routes that take one. */
  idempotencyKey: string | undefined;
  /** The language of the call's messages (Accept-Language). */
  language: Language;
  /** Adds details to the call's access log row. */
  note: (details: Record<string, unknown>) => void;
}

export type ExternalHandler<C extends RouteContract> = RouteHandler<C, ExternalCall>;


/**
 * The external API's way to add a route. The caller was authenticated before the router ran
 * (koaExternalAuth); each route then counts the call against the caller's rate limit (429 past
 * it, not logged: a flood must not turn into as many writes) and logs it under its event whatever
 * its outcome: a refused token, invalid input, a refusal or a success.
 */
export function externalRoutes(context: AdminContext) {
  const limit = context.externalRateLimit;
  return routeKit<ExternalCall>({
    guard: (contract) => {
      const entry = externalApiEntryOf(contract);
      if (!entry) throw new Error(`${contract.method} ${contract.path} is not an external API route`);
      return async (ctx: Context, next: Next) => {
        const caller = externalCallerOf(ctx);
        await limit.consume(caller.key);
        await logged(context, ctx, entry, caller, async () => {
          const refusal = externalRefusalOf(ctx);
          if (refusal) throw refusal;
          await next();
        });
      };
    },
    extra: (ctx, contract) => {
      const headers = contract.headers ? (parseInput(contract.headers, ctx.headers) as Record<string, string | undefined>) : {};
      return {
        caller: externalCallerOf(ctx),
        idempotencyKey: headers[IDEMPOTENCY_KEY_HEADER],
        language: ctx.state.language as Language,
        note: (details) => note(ctx, details),
      };
    },
  });
}
