import { AppError, type IdentityRole } from '@gatehouse/core';
import type { Context, Middleware, Next } from 'koa';
import { callerOf } from './koa-admin-auth.js';

/** Any signed-in user, with any kind of token (the home launcher). */
export const SIGNED_IN = 'signed-in';

/**
 * The one place where each admin endpoint's allowed roles are written: endpoint name → the global
 * roles (of the Identity application) of which the caller must hold at least one. Every admin
 * route names its entry through `requireRole`, so a test can walk the whole table.
 */
export const ENDPOINT_ROLES = {
  'applications.homeInfo': SIGNED_IN,
  'applications.icon': SIGNED_IN,
  'areas.list': ['Administrator', 'God'],
  'tenants.twoModeAuth': ['Administrator', 'God'],
} as const satisfies Record<string, readonly IdentityRole[] | typeof SIGNED_IN>;

/** The name of an admin endpoint in ENDPOINT_ROLES. */
export type EndpointName = keyof typeof ENDPOINT_ROLES;

/** Middleware returned by requireRole, carrying the endpoint it guards for tests that walk the routes. */
export type RoleGuard = Middleware & { readonly endpoint: EndpointName };

/** Answers 403 (errors.forbidden) unless the caller holds one of the endpoint's roles. */
export function requireRole(endpoint: EndpointName): RoleGuard {
  const allowed = ENDPOINT_ROLES[endpoint] as readonly string[] | typeof SIGNED_IN;
  const guard = async (ctx: Context, next: Next) => {
    const caller = callerOf(ctx);
    if (allowed !== SIGNED_IN) {
      // Administration needs the admin console's token: a portal session token never qualifies.
      if (caller.kind === 'session_token' || !caller.roles.some((role) => allowed.includes(role))) {
        throw new AppError('errors.forbidden', 403);
      }
    }
    await next();
  };
  return Object.assign(guard, { endpoint });
}
