import path from 'node:path';
import { createBaseApp, koaJsonBody, koaSpa, type AppContext } from '@gatehouse/core';
import type Koa from 'koa';

export interface AdminApiOptions {
  /** The admin console's build folder; defaults to frontends/admin/dist under the project root. */
  adminDist?: string;
}

/** The administration API (`/api/v1/admin/*`, `/api/v1/keys`) and the admin console. */
export function createApp(context: AppContext, options: AdminApiOptions = {}): Koa {
  const app = createBaseApp(context);
  app.use(koaJsonBody(context));
  app.use(koaSpa({ root: options.adminDist ?? path.join(context.config.rootDir, 'frontends/admin/dist'), basePath: '/admin' }));
  return app;
}
