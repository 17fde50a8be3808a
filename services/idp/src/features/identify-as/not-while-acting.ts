import { AppError } from '@gatehouse/core';
import type { Context } from 'koa';

/**
 * Wraps a self-service handler that a God user signed in as the account must not run (password,
 * second factor, data-protection requests): refused with 403 when the caller's token names an
 * actor (koaAccountAuth puts it on `ctx.state.actorId`).
 */
export function notWhileActing<Input extends { ctx: Context }, Result>(handler: (input: Input) => Promise<Result>): (input: Input) => Promise<Result> {
  return async (input) => {
    if (input.ctx.state.actorId) throw new AppError('identifyAs.not_while_impersonating', 403);
    return handler(input);
  };
}
