import Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { AppError, type AppContext } from '@gatehouse/core';
import { routeKit } from '@gatehouse/core/http';
import { EXTERNAL_LOGIN_PATH, externalLoginRoutes as routes } from '@gatehouse/contracts';
import type { Context, Middleware } from 'koa';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { InteractionAccess, type Interaction } from '../account/interaction.js';
import type { Resume } from '../account/sign-in-state.js';
import { countSignIn } from '../account/sign-in-metrics.js';
import { ExternalLogin, type Caller, type FinishOutcome, type PageOutcome, type PendingSignIn } from './external-login.js';
import { STATE_TTL_SECONDS } from './login-state.js';
import { msalClientFactory, type MicrosoftClientFactory } from './microsoft-client.js';
import { outcomePage } from './pages.js';

/** Binds a state to the browser that started the sign-in; sent back only to these routes. */
const STATE_COOKIE = 'gh_ext_state';

/** What each handler of the Microsoft sign-in is given besides its query. */
interface ExternalCall {
  /** The interaction bound to this browser by its cookie, if any. */
  pending: () => Promise<PendingSignIn | undefined>;
  resume: Resume;
  caller: Caller;
  /** Ends the navigation on a page that says why the sign-in cannot go on. */
  present: (outcome: PageOutcome) => void;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

function pendingOf(interaction: Interaction | undefined): PendingSignIn | undefined {
  if (!interaction) return undefined;
  return { uid: interaction.uid, prompt: interaction.prompt.name, clientId: text(interaction.params.client_id), redirectUri: text(interaction.params.redirect_uri) };
}

const cookieOptions = (ctx: Context) => ({ httpOnly: true, sameSite: 'lax' as const, path: EXTERNAL_LOGIN_PATH, signed: true, secure: ctx.secure, overwrite: true });

function present(context: AppContext, ctx: Context, outcome: PageOutcome): void {
  const t = (key: string, params: Record<string, unknown> = {}) => context.i18n.t(key, { lng: ctx.state.language, ...params }) as string;
  ctx.status = outcome.status;
  ctx.type = 'html';
  // The callback's URL carries the code and the state: no link of its page may pass them on.
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = outcomePage({
    language: ctx.state.language,
    title: t('externalLogin.title'),
    message: t(outcome.code, outcome.params),
    detail: outcome.detail ? t(outcome.detail, outcome.params) : undefined,
    retry: outcome.retryUrl ? { url: outcome.retryUrl, label: t('externalLogin.try_again') } : undefined,
    home: { url: outcome.homeUrl, label: t('externalLogin.back_home') },
  });
}

/** A Microsoft sign-in's end as a sign-in step: signed in, or the page's message code. */
const asStepResult = (outcome: FinishOutcome) => (outcome.kind === 'page' ? { ok: false as const, code: outcome.code } : { ok: true as const, kind: outcome.kind });

/** These routes are browser navigations: even an unexpected failure ends on a page, not JSON. */
function pageOnFailure(context: AppContext): Middleware {
  return async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    try {
      await next();
    } catch (error) {
      // A refusal of the request (a malformed query) is said on the page with its own status.
      if (error instanceof AppError && error.expose) {
        present(context, ctx, { kind: 'page', status: error.status, code: error.code, params: error.params, homeUrl: '/' });
        return;
      }
      context.logger.error({ err: error, requestId: ctx.state.requestId }, 'Microsoft sign-in failed unexpectedly');
      present(context, ctx, { kind: 'page', status: 500, code: 'errors.internal', params: { requestId: ctx.state.requestId }, homeUrl: '/' });
    }
  };
}

function externalCall(context: AppContext, host: ProviderHost, ctx: RouterContext): ExternalCall {
  const interaction = new InteractionAccess(context, host, ctx);
  return {
    pending: async () => pendingOf(await interaction.find()),
    resume: interaction.resume,
    caller: { ip: ctx.ip, userAgent: ctx.get('user-agent'), language: ctx.state.language },
    present: (outcome) => present(context, ctx, outcome),
  };
}

/**
 * `GET /api/v1/account/externalLogin?provider=mslive&returnUrl=…` sends the browser of a pending
 * sign-in to Microsoft; `GET …/externalLogin/callback` takes Microsoft's answer and resumes the
 * OpenID Connect flow (303 to the provider), or ends on a page that says why not.
 */
export function externalLoginRoutes(context: AppContext, host: ProviderHost, createClient: MicrosoftClientFactory = msalClientFactory): Router {
  const router = new Router();
  // Built at start-up, so an unreadable certificate key stops the start rather than a user's sign-in.
  const client = context.config.microsoft.enabled ? createClient(context) : undefined;
  const login = new ExternalLogin(context, client, async (clientId) => (await host.registry.find(clientId))?.name);
  const { bind } = routeKit<ExternalCall>({ guard: () => pageOnFailure(context), extra: (ctx) => externalCall(context, host, ctx) });

  bind(router, routes.start, async ({ ctx, query, pending, caller, present: show }) => {
    const remember = ['true', '1'].includes(query.rememberLogin ?? '');
    const outcome = await login.start({ provider: query.provider, returnUrl: query.returnUrl, interactionId: query.interaction, remember, pending: await pending(), caller });
    if (outcome.kind === 'page') return show(outcome);
    ctx.cookies.set(STATE_COOKIE, outcome.state, { ...cookieOptions(ctx), maxAge: STATE_TTL_SECONDS * 1000 });
    ctx.redirect(outcome.location);
  });

  bind(router, routes.callback, async ({ ctx, query, pending, caller, resume, present: show }) => {
    const boundState = ctx.cookies.get(STATE_COOKIE, { signed: true });
    // One answer per state: whatever happens next, this browser's state is spent.
    ctx.cookies.set(STATE_COOKIE, null, cookieOptions(ctx));
    const { state, code, error, error_description: errorDescription } = query;
    const finished = login.finish({ query: { state, code, error, errorDescription }, boundState, pending: await pending(), caller, resume });
    const outcome = await countSignIn(context.metrics, 'microsoft', finished, asStepResult);
    if (outcome.kind === 'page') return show(outcome);
    // 303: the browser must GET the provider's resume URL.
    ctx.status = 303;
    ctx.redirect(outcome.redirectTo);
  });

  return router;
}
