import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';

/**
 * `GET /api/v1/online` and `GET /api/v1/config`: what the SPAs read before anything else, so
 * both are public and carry nothing secret.
 */
export function configRoutes(context: AppContext): Router {
  const { config } = context;
  const router = new Router({ prefix: '/api/v1' });
  router.get('/online', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { online: true };
  });
  router.get('/config', (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = {
      serviceUrl: config.server.publicUrl,
      identityServerUrl: config.server.publicUrl,
      authority: config.oidc.issuer,
      clientId: config.oidc.portalClientId,
      adminClientId: config.oidc.adminClientId,
      scopes: 'openid profile email roles offline_access',
      // The console also asks for the admin API's scope: its access token is then a JWT for that audience.
      adminScopes: 'openid profile email roles offline_access admin',
      environment: config.app.environment,
      // The login page shows the Microsoft button only when the sign-in is configured.
      microsoftSignIn: config.microsoft.enabled,
      links: {
        helpdesk: config.portal.helpdeskUrl,
        termsOfUse: config.portal.termsOfUseUrl,
        cookiePolicy: config.portal.cookiePolicyUrl,
      },
      apps: {
        portal: `${config.server.publicUrl}/`,
        admin: `${config.server.publicUrl}/admin`,
      },
    };
  });
  return router;
}
