import { AppError, type IdentityRole } from '@gatehouse/core';
import type { Context, Middleware, Next } from 'koa';
import { callerOf } from './koa-admin-auth.js';

/**
 * The one place where each admin endpoint's allowed roles are written: endpoint name → the global
 * roles (of the Identity application) of which the caller must hold at least one. Every admin
 * route names its entry through `requireRole`, so a test can walk the whole table.
 */
export const ENDPOINT_ROLES = {
  'tenants.twoModeAuth': ['Administrator', 'God'],
} as const satisfies Record<string, readonly IdentityRole[]>;

/** The name of an admin endpoint in ENDPOINT_ROLES. */
export type EndpointName = keyof typeof ENDPOINT_ROLES;

/** Middleware returned by requireRole, carrying the endpoint it guards for tests that walk the routes. */
export type RoleGuard = Middleware & { readonly endpoint: EndpointName };

/** Answers 403 (errors.forbidden) unless the caller holds one of the endpoint's roles. */
export function requireRole(endpoint: EndpointName): RoleGuard {
  const allowed: readonly string[] = ENDPOINT_ROLES[endpoint];
  const guard = async (ctx: Context, next: Next) => {
    const { roles } = callerOf(ctx);
    if (!roles.some((role) => allowed.includes(role))) throw new AppError('errors.forbidden', 403);
    await next();
  };
  return Object.assign(guard, { endpoint });
}
