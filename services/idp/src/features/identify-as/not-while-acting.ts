import { AppError } from '@gatehouse/core';
import type { Context } from 'koa';

/**
 * Wraps a self-service handler that a God user signed in as the account must not run: what only
 * the user decides (password, second factor, data-protection requests, accepting terms, their
 * picture, a consent). Refused with 403 when the caller acts for someone else: koaAccountAuth and
 * the disclaimer gate put the actor of the caller's token on `ctx.state.actorId`, the consent that
 * of the interaction's session.
 */
export function notWhileActing<Input extends { ctx: Context }, Result>(handler: (input: Input) => Promise<Result>): (input: Input) => Promise<Result> {
  return async (input) => {
    if (input.ctx.state.actorId) throw new AppError('identifyAs.not_while_impersonating', 403);
    return handler(input);
  };
}
