import path from 'node:path';
import Router from '@koa/router';
import { createBaseApp, koaJsonBody, koaSpa, type AppContext } from '@gatehouse/core';
import type Koa from 'koa';
import { adminAccessTokenVerifier } from './auth/access-token.js';
import { accessTokenBearer, koaAdminAuth, type BearerVerifier } from './auth/koa-admin-auth.js';
import { sessionTokenBearer } from './auth/session-token.js';
import { applicationRoutes } from './features/applications/router.js';
import { areaRoutes } from './features/areas/router.js';
import { tenantRoutes } from './features/tenants/router.js';

/** Every route of the administration API lives under this prefix, behind bearer authentication. */
export const ADMIN_API_PREFIX = '/api/v1/admin';

export interface AdminApiOptions {
  /** The admin console's build folder; defaults to frontends/admin/dist under the project root. */
  adminDist?: string;
  /**
   * Bearer token verifiers, tried in order; defaults to the provider's access tokens for the admin
   * API audience (personal access tokens will join them).
   */
  bearerVerifiers?: BearerVerifier[];
}

/** The administration API (`/api/v1/admin/*`, `/api/v1/keys`) and the admin console. */
export function createApp(context: AppContext, options: AdminApiOptions = {}): Koa {
  const app = createBaseApp(context);
  const verifiers = options.bearerVerifiers ?? [accessTokenBearer(adminAccessTokenVerifier(context)), sessionTokenBearer(context)];
  // Every admin API path is authenticated before anything else, bodies included: an anonymous
  // caller learns nothing, not even which routes exist.
  const auth = koaAdminAuth(verifiers);
  app.use((ctx, next) => (ctx.path === ADMIN_API_PREFIX || ctx.path.startsWith(`${ADMIN_API_PREFIX}/`) ? auth(ctx, next) : next()));
  app.use(koaJsonBody(context));
  const admin = adminRouter(context);
  app.use(admin.routes()).use(admin.allowedMethods());
  app.use(koaSpa({ root: options.adminDist ?? path.join(context.config.rootDir, 'frontends/admin/dist'), basePath: '/admin' }));
  return app;
}

/** Every feature's routes under ADMIN_API_PREFIX (authenticated by createApp before they run). */
export function adminRouter(context: AppContext): Router {
  const admin = new Router({ prefix: ADMIN_API_PREFIX });
  for (const router of [applicationRoutes(context, { clientPortalAppId: context.config.portal.clientPortalAppId }), areaRoutes(context), tenantRoutes(context)]) admin.use(router.routes(), router.allowedMethods());
  return admin;
}
