import path from 'node:path';
import { createBaseApp, koaJsonBody, koaSpa, type AppContext } from '@gatehouse/core';
import type Koa from 'koa';
import { configRoutes } from './features/config/router.js';

/** Top-level routes of the portal SPA; any other path is answered 404 with the not-found page. */
const PORTAL_ROUTES = /^\/(|account(\/.*)?|profile(\/.*)?|auth\/callback|home)$/;

export interface IdpOptions {
  /** The portal's build folder; defaults to frontends/portal/dist under the project root. */
  portalDist?: string;
}

/** The identity provider: sign-in, account and profile APIs, and the portal. */
export function createApp(context: AppContext, options: IdpOptions = {}): Koa {
  const app = createBaseApp(context);
  app.use(koaJsonBody(context));
  const config = configRoutes(context);
  app.use(config.routes()).use(config.allowedMethods());
  app.use(
    koaSpa({
      root: options.portalDist ?? path.join(context.config.rootDir, 'frontends/portal/dist'),
      basePath: '',
      isKnownRoute: (p) => PORTAL_ROUTES.test(p.replace(/\/$/, '') || '/'),
    }),
  );
  return app;
}
