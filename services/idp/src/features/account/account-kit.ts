import { type AppContext } from '@gatehouse/core';
import { routeKit } from '@gatehouse/core/http';
import { signInRoutes, type RouteContract } from '@gatehouse/contracts';
import type { Middleware } from 'koa';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { translator } from './account-answers.js';
import { InteractionAccess } from './interaction.js';
import type { Translate } from './login-response.js';

/** What every account handler is given besides its input. */
export interface AccountCall {
  /** The provider interaction of this browser, loaded once, if the handler asks for it. */
  interaction: InteractionAccess;
  t: Translate;
}

// Every call that checks a secret or sends a mail is throttled per address.
const THROTTLED = new Set<RouteContract>([
  signInRoutes.login,
  signInRoutes.verifyCode,
  signInRoutes.resendCode,
  signInRoutes.changePassword,
  signInRoutes.resetPassword,
  signInRoutes.validateToken,
]);

/** Throttles the calls that check a secret or send a mail; their refusals are answered by `accountAnswers`. */
function throttled(context: AppContext, contract: RouteContract): Middleware {
  return async (ctx, next) => {
    if (THROTTLED.has(contract)) await context.throttle.request(ctx.ip);
    await next();
  };
}

/**
 * The sign-in pages' way to bind a route: throttled where it checks a secret or sends a mail, and
 * the interaction at hand (loaded once). Every refusal (a wrong password, a lock, an expired
 * interaction, a missing field, a refused password) is answered in one place, `accountAnswers`, as
 * the spec's login response.
 */
export function accountKit(context: AppContext, host: ProviderHost) {
  return routeKit<AccountCall>({
    guard: (contract) => throttled(context, contract),
    extra: (ctx) => ({ interaction: new InteractionAccess(context, host, ctx), t: translator(context, ctx) }),
  });
}

export type AccountKit = ReturnType<typeof accountKit>;
