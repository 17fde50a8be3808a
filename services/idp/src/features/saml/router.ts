import Router from '@koa/router';
import { samlRoutes as routes } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import { cspNonce, pageContentSecurityPolicy } from '@gatehouse/core/http';
import type { Context } from 'koa';
import { bind } from '../../http/route.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { errorPage } from '../../oidc/pages.js';
import { disclaimerPage } from './disclaimer.js';
import { postFormPage } from './pages.js';
import type { IncomingLogout } from './logout.js';
import { PENDING_TTL_SECONDS } from './pending.js';
import { SamlService, type IncomingRequest, type SignInOutcome } from './service.js';
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
    const title = ctx.path.startsWith('/saml/slo') ? 'Déconnexion SAML refusée / SAML sign-out refused' : 'Connexion SAML refusée / SAML sign-in refused';
    ctx.body = errorPage({ title, message: error.message });
  }
}

/** Single logout (`/saml/slo`, HTTP-Redirect and HTTP-POST): every message sends the browser on. */
function bindSingleLogout(router: Router, service: SamlService): void {
  const logout = async (ctx: Context, incoming: IncomingLogout) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(await service.logout.receive(ctx, incoming));
    ctx.status = 303;
  };
  bind(router, routes.sloRedirect, ({ ctx, query }) =>
    logout(ctx, { binding: 'redirect', samlRequest: query.SAMLRequest, samlResponse: query.SAMLResponse, relayState: query.RelayState, rawQuery: ctx.querystring, resume: query.resume }),
  );
  bind(router, routes.sloPost, ({ ctx, body }) => logout(ctx, { binding: 'post', samlRequest: body.SAMLRequest, samlResponse: body.SAMLResponse, relayState: body.RelayState }));
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

  /** The pending sign-in is tied to this browser (SameSite=Lax: no other site's form carries it back here). */
  const holdPending = (ctx: Context, pendingId: string) =>
    ctx.cookies.set(PENDING_COOKIE, pendingId, { httpOnly: true, sameSite: 'lax', signed: true, path: '/', maxAge: PENDING_TTL_SECONDS * 1000, overwrite: true });

  /** Takes the pending sign-in this browser holds, or refuses one it does not. */
  const takePending = (ctx: Context, state: string | undefined): string => {
    if (!state || ctx.cookies.get(PENDING_COOKIE, { signed: true }) !== state) {
      throw new SamlRefusal('this sign-in was not started in this browser: go back to the application and sign in again');
    }
    ctx.cookies.set(PENDING_COOKIE, null, { path: '/' });
    return state;
  };

  const toSignIn = (ctx: Context, started: { pendingId: string; signInUrl: string }) => {
    holdPending(ctx, started.pendingId);
    ctx.redirect(started.signInUrl);
    // After a POST, the browser goes on with a GET.
    ctx.status = 303;
  };

  /** The end of a sign-in: the page posting the response to the service provider, or the application's terms to answer first. */
  const respond = (ctx: Context, outcome: SignInOutcome) => {
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    if ('disclaimer' in outcome) {
      holdPending(ctx, outcome.disclaimer.pendingId);
      // Its form answers here, and nowhere else.
      ctx.set('Content-Security-Policy', pageContentSecurityPolicy());
      ctx.body = disclaimerPage(outcome.disclaimer, service.urls.disclaimer);
      return;
    }
    const response = outcome.post;
    const nonce = cspNonce();
    // The page may post its form to the service provider, and nowhere else.
    ctx.set('Content-Security-Policy', `${pageContentSecurityPolicy({ scriptNonce: nonce, formAction: false })}; form-action ${new URL(response.acsUrl).origin}`);
    ctx.body = postFormPage(response, nonce);
  };

  const start = async (ctx: Context, incoming: Partial<IncomingRequest> & Pick<IncomingRequest, 'binding'>) => {
    if (!incoming.samlRequest) throw new SamlRefusal('SAMLRequest is missing');
    const started = await service.startSignIn({ ...incoming, samlRequest: incoming.samlRequest });
    if ('post' in started) respond(ctx, started);
    else toSignIn(ctx, started);
  };

  bind(router, routes.ssoRedirect, ({ ctx, query }) => start(ctx, { binding: 'redirect', samlRequest: query.SAMLRequest, relayState: query.RelayState, rawQuery: ctx.querystring }));
  bind(router, routes.ssoPost, ({ ctx, body }) => start(ctx, { binding: 'post', samlRequest: body.SAMLRequest, relayState: body.RelayState }));

  bindSingleLogout(router, service);

  bind(router, routes.continue, async ({ ctx, query }) => {
    const state = takePending(ctx, query.state);
    respond(ctx, await service.finishSignIn(state, { code: query.code, error: query.error }));
  });

  bind(router, routes.launch, async ({ ctx, params }) => toSignIn(ctx, await service.startLaunch(params.application)));

  bind(router, routes.disclaimer, async ({ ctx, body }) => {
    if (!body.decision) throw new SamlRefusal('decision is missing: accept or decline the terms');
    const state = takePending(ctx, body.state);
    respond(ctx, await service.answerDisclaimer(state, { accept: body.decision === 'accept', version: body.version }));
  });

  return Object.assign(router, { service });
}
