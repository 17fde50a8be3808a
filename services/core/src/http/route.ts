import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { RouteContract } from '@gatehouse/contracts';
import type { Middleware } from 'koa';
import type { z } from 'zod';
import { AppError } from '../errors/app-error.js';
import { nulFields, parseInput } from './validation.js';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: the validated input of its route, and what the kit adds (the caller). */
export type RouteInput<C extends RouteContract, Extra> = {
  ctx: RouterContext;
  params: Out<C['params']>;
  query: Out<C['query']>;
  body: Out<C['body']>;
} & Extra;

type Body<C extends RouteContract> = C['response'] extends z.ZodType ? z.input<C['response']> : void;

/** An answer whose status the handler chose: the contract's `status` or its `alternativeStatus`. */
export class StatusAnswer<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

/** Answers `body` with `status`, which the route's contract must declare. */
export function withStatus<T>(status: number, body: T): StatusAnswer<T> {
  return new StatusAnswer(status, body);
}

/** What a handler returns: the response before its schema strips it, or nothing (204, or a body it wrote). */
export type RouteResult<C extends RouteContract> = C['alternativeStatus'] extends number ? StatusAnswer<Body<C>> | Body<C> : Body<C>;

export type RouteHandler<C extends RouteContract, Extra> = (input: RouteInput<C, Extra>) => Promise<RouteResult<C>>;

export interface RouteKitOptions<Extra> {
  /** Runs before the input is read (the admin API's role check). */
  guard?: (contract: RouteContract) => Middleware | undefined;
  /** What every handler of this service is given besides its input (the caller and their scope). */
  extra: (ctx: RouterContext, contract: RouteContract) => Extra | Promise<Extra>;
}

/** Marks the middleware a route was bound with, so a test can prove every route is declared. */
const CONTRACT = Symbol.for('gatehouse.route-contract');

/** The contract a router layer was bound to, if it was bound through a route kit. */
export function contractOf(middleware: unknown): RouteContract | undefined {
  return (middleware as { [CONTRACT]?: RouteContract } | undefined)?.[CONTRACT];
}

/**
 * One way to add an endpoint: `bind(router, contract, handler)`. The kit checks the caller (the
 * guard), validates the path parameters (a malformed one is the same 404 as an unknown one), the
 * query and the body (a 400 naming each field), calls the handler, and answers its result through
 * the response schema, which also drops any field the contract does not declare.
 */
export function routeKit<Extra>(options: RouteKitOptions<Extra>) {
  return {
    bind<C extends RouteContract>(router: Router, contract: C, handler: RouteHandler<C, Extra>): void {
      const run = async (ctx: RouterContext) => {
        const input = {
          ctx,
          params: contract.params ? readParams(contract.params, ctx.params) : undefined,
          query: contract.query ? parseInput(contract.query, ctx.query) : undefined,
          body: contract.body ? parseInput(contract.body, ctx.request.body ?? {}, contract.required) : undefined,
          ...(await options.extra(ctx, contract)),
        } as RouteInput<C, Extra>;
        const result: unknown = await handler(input);
        respond(ctx, contract, result);
      };
      const guard = options.guard?.(contract);
      const middleware = Object.assign(run, { [CONTRACT]: contract });
      const method = contract.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      if (guard) router[method](contract.path, guard, middleware);
      else router[method](contract.path, middleware);
    },
  };
}

function readParams(schema: z.ZodType, params: Record<string, string>): unknown {
  const parsed = schema.safeParse(params);
  // A path that names nothing valid names nothing at all; nothing is named with a NUL.
  if (!parsed.success || nulFields(params).length) throw new AppError('errors.not_found', 404);
  return parsed.data;
}

function respond(ctx: RouterContext, contract: RouteContract, result: unknown): void {
  if (contract.produces) {
    // The handler wrote its own body (a file, an image) or redirected.
    if (contract.status && ctx.status !== 302) ctx.status = contract.status;
    return;
  }
  if (!contract.response) {
    ctx.status = contract.status ?? 204;
    return;
  }
  if (result instanceof StatusAnswer) {
    if (result.status !== (contract.status ?? 200) && result.status !== contract.alternativeStatus) {
      throw new Error(`${contract.method} ${contract.path} does not declare the status ${result.status}`);
    }
    ctx.status = result.status;
    ctx.body = contract.response.parse(result.body);
    return;
  }
  ctx.status = contract.status ?? 200;
  ctx.body = contract.response.parse(result);
}
