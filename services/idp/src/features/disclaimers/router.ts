import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { routeKit } from '@gatehouse/core/http';
import { disclaimersRoutes as routes, type RouteContract } from '@gatehouse/contracts';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { notWhileActing } from '../identify-as/not-while-acting.js';
import { koaAccountAuth } from '../profile/koa-account-auth.js';
import { koaGateAuth, type GateCaller } from './koa-gate-auth.js';
import { DisclaimersService } from './service.js';

/** What every handler here is given: the signed-in caller and the language of the answer. */
interface DisclaimerExtra {
  caller: GateCaller;
  language: string;
}

const GATE_ROUTES = new Set<RouteContract>([routes.gate, routes.acceptGate]);

/**
 * `/api/v1/profile/disclaimer(s)`. The list and its "Accept" take the portal's token, like the
 * rest of the profile; the gate also takes the token of the application it is asked about (or of
 * the console). Each route is authenticated by its own middleware: the two paths share a prefix.
 */
export function disclaimerRoutes(context: AppContext, host: ProviderHost, service = new DisclaimersService(context, host.registry)): Router {
  const router = new Router();
  const portalAuth = koaAccountAuth(context, host);
  const gateAuth = koaGateAuth(context, host);
  const { portalClientId } = context.config.oidc;
  const { bind } = routeKit<DisclaimerExtra>({
    guard: (contract) => (GATE_ROUTES.has(contract) ? gateAuth : portalAuth),
    extra: (ctx) => ({
      caller: { accountId: ctx.state.accountId as string, clientId: (ctx.state.clientId as string | undefined) ?? portalClientId },
      language: ctx.state.language as string,
    }),
  });

  bind(router, routes.list, async ({ caller, language, query }) => service.list(caller.accountId, language, query));

  // Accepting terms is the user's own consent: never given by a God user signed in as them (reading them is).
  bind(router, routes.accept, notWhileActing(async ({ caller, language, params, body }) => service.accept(caller.accountId, params.id, language, body.version)));

  bind(router, routes.gate, async ({ caller, language, params }) => service.gate(caller, params, language));

  bind(router, routes.acceptGate, notWhileActing(async ({ caller, language, params }) => service.acceptGate(caller, params, language)));

  return router;
}
