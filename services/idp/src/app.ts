import path from 'node:path';
import { securitySettings, type AppContext } from '@gatehouse/core';
import { createBaseApp, koaJsonBody, koaSpa, koaXsrf } from '@gatehouse/core/http';
import { Mailer } from '@gatehouse/core/mail';
import type Koa from 'koa';
import { accountAnswers } from './features/account/account-answers.js';
import { accountRoutes } from './features/account/router.js';
import { applicationRoutes } from './features/applications/router.js';
import { avatarRoutes } from './features/avatar/router.js';
import { configRoutes } from './features/config/router.js';
import { disclaimerRoutes } from './features/disclaimers/router.js';
import { apiDocsRoutes } from './features/docs/router.js';
import { externalLoginRoutes } from './features/external-login/router.js';
import { identifyAsRoutes } from './features/identify-as/router.js';
import { myDataRoutes } from './features/my-data/router.js';
import { myPasskeyRoutes, passkeySignInRoutes } from './features/passkeys/router.js';
import { profileRoutes } from './features/profile/router.js';
import { samlRoutes } from './features/saml/router.js';
import { exerciseRightsRoutes } from './features/rights/router.js';
import { securityRoutes } from './features/security/router.js';
import { ProviderHost } from './oidc/provider-host.js';
import { cookieKeys, type ProviderOptions } from './oidc/provider.js';

/** Top-level routes of the portal SPA; any other path is answered 404 with the not-found page. */
const PORTAL_ROUTES = /^\/(|account(\/.*)?|profile(\/.*)?|auth\/callback|rights|rigths|disclaimers|clients|service-manager|home\/companies\/select)$/;

export interface IdpOptions {
  /** Sends the mails of sign-in codes, reset links and notices (one is made from the context by default). */
  mailer?: Mailer;
  /** The portal's build folder; defaults to frontends/portal/dist under the project root. */
  portalDist?: string;
  /** Storage of the provider's models (the database by default). */
  adapterFactory?: ProviderOptions['adapterFactory'];
}

export type IdpApp = Koa & { host: ProviderHost; mailer: Mailer; close(): Promise<void> };

/** The identity provider: OpenID Connect at /oidc, sign-in and account APIs, and the portal. */
export async function createApp(context: AppContext, options: IdpOptions = {}): Promise<IdpApp> {
  // The provider reads the security settings (token lifetimes) synchronously: they are read before it serves anything.
  await securitySettings(context).get();
  const host = await ProviderHost.start(context, { adapterFactory: options.adapterFactory });
  const mailer = options.mailer ?? new Mailer(context);
  mailer.start();
  const app = createBaseApp(context);
  // Mounted, the provider sets its signed cookies through this app's context.
  app.keys = cookieKeys(context);
  // The account calls answer the spec's login response, whatever refuses them (XSRF and body parser included).
  app.use(accountAnswers(context));
  const saml = samlRoutes(context, host);
  // The portal's sign-out, at the provider's end-session, also tells the session's SAML applications.
  app.use(saml.service.logout.koaEndSession);
  // Before the body parser: the provider reads its own request bodies.
  app.use(host.middleware());
  app.use(koaJsonBody(context));
  // Every API call sets the XSRF cookie if missing; state-changing ones must echo it.
  const xsrf = koaXsrf();
  app.use((ctx, next) => (ctx.path.startsWith('/api/') ? xsrf(ctx, next) : next()));
  for (const router of [saml, configRoutes(context), accountRoutes(context, host, mailer), passkeySignInRoutes(context, host, mailer), externalLoginRoutes(context, host), identifyAsRoutes(context, host), profileRoutes(context, host, mailer), myPasskeyRoutes(context, host, mailer), securityRoutes(context, host, mailer), exerciseRightsRoutes(context, host, mailer), applicationRoutes(context, host), disclaimerRoutes(context, host), avatarRoutes(context, host), myDataRoutes(context, host), apiDocsRoutes()]) {
    app.use(router.routes()).use(router.allowedMethods());
  }
  app.use(
    koaSpa({
      root: options.portalDist ?? path.join(context.config.rootDir, 'frontends/portal/dist'),
      basePath: '',
      isKnownRoute: (p) => PORTAL_ROUTES.test(p.replace(/\/$/, '') || '/'),
      // A silent sign-in (prompt=none) comes back to the callback in a hidden frame of the portal.
      framedBySelf: (p) => p === '/auth/callback',
      // The reset page's URL carries the token: it must never leak through a Referer header.
      headersFor: (p): Record<string, string> => (p.startsWith('/account/changePassword') ? { 'Referrer-Policy': 'no-referrer' } : {}),
    }),
  );
  return Object.assign(app, {
    host,
    mailer,
    close: async () => {
      await mailer.stop();
      saml.service.close();
      await host.close();
    },
  });
}
