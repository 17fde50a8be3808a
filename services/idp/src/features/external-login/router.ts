import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { CALLBACK_PATH, ExternalLogin, type Caller, type PageOutcome, type PendingSignIn } from './external-login.js';
import { STATE_TTL_SECONDS } from './login-state.js';
import { msalClientFactory, type MicrosoftClientFactory } from './microsoft-client.js';
import { outcomePage } from './pages.js';

const PREFIX = '/api/v1/account/externalLogin';
/** Binds a state to the browser that started the sign-in; sent back only to these routes. */
const STATE_COOKIE = 'gh_ext_state';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * `GET /api/v1/account/externalLogin?provider=mslive&returnUrl=…` sends the browser of a pending
 * sign-in to Microsoft; `GET …/externalLogin/callback` takes Microsoft's answer and resumes the
 * OpenID Connect flow (303 to the provider), or ends on a page that says why not.
 */
export function externalLoginRoutes(context: AppContext, host: ProviderHost, createClient: MicrosoftClientFactory = msalClientFactory): Router {
  const router = new Router({ prefix: PREFIX });
  // Built at start-up, so an unreadable certificate key stops the start rather than a user's sign-in.
  const client = context.config.microsoft.enabled ? createClient(context) : undefined;
  const login = new ExternalLogin(context, client, async (clientId) => (await host.registry.find(clientId))?.name);
  const t = (ctx: Context, key: string, params: Record<string, unknown> = {}) => context.i18n.t(key, { lng: ctx.state.language, ...params }) as string;

  /** The interaction bound to this browser by its cookie, if any. */
  const pending = async (ctx: Context): Promise<PendingSignIn | undefined> => {
    try {
      const interaction = await host.current.interactionDetails(ctx.req, ctx.res);
      return {
        uid: interaction.uid,
        prompt: interaction.prompt.name,
        clientId: text(interaction.params.client_id),
        redirectUri: text(interaction.params.redirect_uri),
      };
    } catch {
      return undefined;
    }
  };
  const caller = (ctx: Context): Caller => ({ ip: ctx.ip, userAgent: ctx.get('user-agent'), language: ctx.state.language });
  const cookieOptions = (ctx: Context) => ({ httpOnly: true, sameSite: 'lax' as const, path: PREFIX, signed: true, secure: ctx.secure, overwrite: true });

  const present = (ctx: Context, outcome: PageOutcome) => {
    ctx.status = outcome.status;
    ctx.type = 'html';
    // The callback's URL carries the code and the state: no link of its page may pass them on.
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.body = outcomePage({
      language: ctx.state.language,
      title: t(ctx, 'externalLogin.title'),
      message: t(ctx, outcome.code, outcome.params),
      retry: outcome.retryUrl ? { url: outcome.retryUrl, label: t(ctx, 'externalLogin.try_again') } : undefined,
      home: { url: outcome.homeUrl, label: t(ctx, 'externalLogin.back_home') },
    });
  };

  // These routes are browser navigations: even an unexpected failure ends on a page, not JSON.
  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    try {
      await next();
    } catch (error) {
      context.logger.error({ err: error, requestId: ctx.state.requestId }, 'Microsoft sign-in failed unexpectedly');
      present(ctx, { kind: 'page', status: 500, code: 'errors.internal', params: { requestId: ctx.state.requestId }, homeUrl: '/' });
    }
  });

  router.get('/', async (ctx) => {
    const outcome = await login.start({
      provider: text(ctx.query.provider),
      returnUrl: text(ctx.query.returnUrl),
      interactionId: text(ctx.query.interaction),
      remember: ['true', '1'].includes(text(ctx.query.rememberLogin) ?? ''),
      pending: await pending(ctx),
      caller: caller(ctx),
    });
    if (outcome.kind === 'page') return present(ctx, outcome);
    ctx.cookies.set(STATE_COOKIE, outcome.state, { ...cookieOptions(ctx), maxAge: STATE_TTL_SECONDS * 1000 });
    ctx.redirect(outcome.location);
  });

  router.get(CALLBACK_PATH.slice(PREFIX.length), async (ctx) => {
    const boundState = ctx.cookies.get(STATE_COOKIE, { signed: true });
    // One answer per state: whatever happens next, this browser's state is spent.
    ctx.cookies.set(STATE_COOKIE, null, cookieOptions(ctx));
    const outcome = await login.finish({
      query: {
        state: text(ctx.query.state),
        code: text(ctx.query.code),
        error: text(ctx.query.error),
        errorDescription: text(ctx.query.error_description),
      },
      boundState,
      pending: await pending(ctx),
      caller: caller(ctx),
    });
    if (outcome.kind === 'page') return present(ctx, outcome);
    const redirectTo = await host.current.interactionResult(
      ctx.req,
      ctx.res,
      // "fed", as Entra ID itself marks a sign-in another identity provider performed.
      { login: { accountId: outcome.userId, remember: outcome.remember, amr: ['fed'] } },
      { mergeWithLastSubmission: false },
    );
    // 303: the browser must GET the provider's resume URL.
    ctx.status = 303;
    ctx.redirect(redirectTo);
  });

  return router;
}
