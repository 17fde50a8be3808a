import { routeKit, type RouteHandler } from '@gatehouse/core/http';
import type { RouteContract } from '@gatehouse/contracts';

/**
 * The provider's way to add a route: `bind(router, profileRoutes.get, handler)`. Its routes are
 * public or checked by their own middleware (the portal's session token, the sign-in interaction).
 */
export const { bind } = routeKit<Record<never, never>>({ extra: () => ({}) });

export type IdpHandler<C extends RouteContract> = RouteHandler<C, Record<never, never>>;
