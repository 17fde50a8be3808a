import Router from '@koa/router';
import { samlRoutes as routes } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import { cspNonce, pageContentSecurityPolicy } from '@gatehouse/core/http';
import type { Context } from 'koa';
import { bind } from '../../http/route.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { errorPage } from '../../oidc/pages.js';
import { postFormPage } from './pages.js';
import { PENDING_TTL_SECONDS } from './pending.js';
import { SamlService, type IncomingRequest } from './service.js';
import { SamlRefusal } from './xml.js';

/** The cookie tying a pending request to the browser that brought it: only that browser may receive its assertion. */
const PENDING_COOKIE = 'gh_saml';

/** A refused message is answered with a page saying why; anything else goes to the error handler. */
async function refusals(ctx: Context, next: () => Promise<unknown>): Promise<void> {
  try {
    await next();
  } catch (error) {
    if (!(error instanceof SamlRefusal)) throw error;
    ctx.status = error.status;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = errorPage({ title: 'Connexion SAML refusée / SAML sign-in refused', message: error.message });
  }
}

/**
 * `/saml`: the identity provider's metadata, single sign-on (HTTP-Redirect and HTTP-POST bindings)
 * and the return from the product's sign-in, which answers with the HTTP-POST binding.
 */
export function samlRoutes(context: AppContext, host: ProviderHost, service = new SamlService(context, host)): Router & { service: SamlService } {
  const router = new Router();
  router.use(refusals);

  bind(router, routes.metadata, async ({ ctx }) => {
    ctx.type = 'application/samlmetadata+xml';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = await service.metadata();
  });

  const start = async (ctx: Context, incoming: Partial<IncomingRequest> & Pick<IncomingRequest, 'binding'>) => {
    if (!incoming.samlRequest) throw new SamlRefusal('SAMLRequest is missing');
    const { pendingId, signInUrl } = await service.startSignIn({ ...incoming, samlRequest: incoming.samlRequest });
    ctx.cookies.set(PENDING_COOKIE, pendingId, { httpOnly: true, sameSite: 'lax', signed: true, path: '/', maxAge: PENDING_TTL_SECONDS * 1000, overwrite: true });
    ctx.redirect(signInUrl);
    // After a POST, the browser goes on with a GET.
    ctx.status = 303;
  };

  bind(router, routes.ssoRedirect, ({ ctx, query }) => start(ctx, { binding: 'redirect', samlRequest: query.SAMLRequest, relayState: query.RelayState, rawQuery: ctx.querystring }));
  bind(router, routes.ssoPost, ({ ctx, body }) => start(ctx, { binding: 'post', samlRequest: body.SAMLRequest, relayState: body.RelayState }));

  bind(router, routes.continue, async ({ ctx, query }) => {
    const state = query.state;
    if (!state || ctx.cookies.get(PENDING_COOKIE, { signed: true }) !== state) {
      throw new SamlRefusal('this sign-in was not started in this browser: go back to the application and sign in again');
    }
    ctx.cookies.set(PENDING_COOKIE, null, { path: '/' });
    const response = await service.finishSignIn(state, { code: query.code, error: query.error });
    const nonce = cspNonce();
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    // The page may post its form to the service provider, and nowhere else.
    ctx.set('Content-Security-Policy', `${pageContentSecurityPolicy({ scriptNonce: nonce, formAction: false })}; form-action ${new URL(response.acsUrl).origin}`);
    ctx.body = postFormPage(response, nonce);
  });

  return Object.assign(router, { service });
}
