import Router from '@koa/router';
import { AppError, parseInput, type AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { consentSchema, loginSchema } from './schema.js';
import { PasswordSignIn, type SignInRefusal } from './sign-in.js';

/** The spec's login response. */
interface LoginResponse {
  success: boolean;
  errors: string[];
  redirectTo: string | null;
  changePassword: boolean;
  twoAuthentificationRequired: boolean;
  token: string | null;
  code?: string;
  attemptsLeft?: number;
  lockedUntil?: string;
  externalLoginRequired?: boolean;
}

const loginResponse = (fields: Partial<LoginResponse>): LoginResponse => ({
  success: false,
  errors: [],
  redirectTo: null,
  changePassword: false,
  twoAuthentificationRequired: false,
  token: null,
  ...fields,
});

/** The interaction bound to this browser (by its cookie), or undefined when there is none. */
async function currentInteraction(provider: Provider, ctx: Context) {
  try {
    return await provider.interactionDetails(ctx.req, ctx.res);
  } catch {
    return undefined;
  }
}

/**
 * `/api/v1/account/*`: the sign-in interaction API the portal's login page talks to. The provider
 * sends the browser to `/account/login?interaction=<uid>`; these calls finish the interaction and
 * answer `redirectTo`, where the browser continues the OpenID Connect flow.
 */
export function accountRoutes(context: AppContext, host: ProviderHost, signIn = new PasswordSignIn(context)): Router {
  const router = new Router({ prefix: '/api/v1/account' });
  const t = (ctx: Context, key: string, params: Record<string, unknown> = {}) =>
    context.i18n.t(key, { lng: ctx.state.language, ...params }) as string;

  const expired = (ctx: Context, returnUrl?: string | null) => {
    ctx.status = 400;
    ctx.body = loginResponse({
      code: 'account.interaction_expired',
      errors: [t(ctx, 'account.interaction_expired')],
      redirectTo: safeReturnUrl(context, returnUrl) ?? '/',
    });
  };

  router.post('/login', async (ctx) => {
    const body = parseInput(loginSchema, ctx.request.body ?? {});
    const missing = [
      !body.userName.trim() && 'account.user_name_required',
      !body.password && 'account.password_required',
    ].filter((c): c is string => Boolean(c));
    if (missing.length) {
      ctx.status = 400;
      ctx.body = loginResponse({ code: missing[0], errors: missing.map((c) => t(ctx, c)) });
      return;
    }
    const provider = host.current;
    const interaction = await currentInteraction(provider, ctx);
    if (!interaction || (body.interaction && body.interaction !== interaction.uid) || interaction.prompt.name !== 'login') {
      return expired(ctx, body.returnUrl);
    }
    const client = await host.registry.find(String(interaction.params.client_id));
    const result = await signIn.signIn({
      userName: body.userName,
      password: body.password,
      returnUrl: body.returnUrl ?? String(interaction.params.redirect_uri ?? ''),
      applicationName: client?.name,
      ip: ctx.ip,
      userAgent: ctx.get('user-agent'),
    });
    if (!result.ok) return refuse(ctx, result);

    const redirectTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { accountId: result.user.id, remember: body.rememberLogin, amr: ['pwd'] } },
      { mergeWithLastSubmission: false },
    );
    ctx.body = loginResponse({ success: true, redirectTo });
  });

  const refuse = (ctx: Context, refusal: SignInRefusal) => {
    ctx.status = refusal.status;
    ctx.body = loginResponse({
      code: refusal.code,
      errors: [t(ctx, refusal.code, refusal.params)],
      attemptsLeft: refusal.attemptsLeft,
      lockedUntil: refusal.lockedUntil?.toISOString(),
      externalLoginRequired: refusal.externalLoginRequired,
    });
  };

  /** What the page must show for the interaction in progress: sign-in or consent, and for which application. */
  router.get('/interaction', async (ctx) => {
    const interaction = await currentInteraction(host.current, ctx);
    if (!interaction) throw new AppError('account.interaction_expired', 404);
    const client = await host.registry.find(String(interaction.params.client_id));
    const details = interaction.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      uid: interaction.uid,
      prompt: interaction.prompt.name,
      client: client ? { clientId: client.name, displayName: client.displayName, firstParty: client.isFirstParty } : null,
      scopes: String(interaction.params.scope ?? '').split(' ').filter(Boolean),
      missingScopes: details.missingOIDCScope ?? [],
      loginHint: interaction.params.login_hint ?? null,
    };
  });

  /** Consent for a third-party application: approve grants what it asked for, refuse ends with access_denied. */
  router.post('/consent', async (ctx) => {
    const { approve } = parseInput(consentSchema, ctx.request.body ?? {});
    const provider = host.current;
    const interaction = await currentInteraction(provider, ctx);
    if (!interaction || interaction.prompt.name !== 'consent' || !interaction.session?.accountId) return expired(ctx);
    if (!approve) {
      const redirectTo = await provider.interactionResult(ctx.req, ctx.res, {
        error: 'access_denied',
        error_description: 'End-User refused the requested access',
      });
      ctx.body = loginResponse({ redirectTo });
      return;
    }
    const details = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const grant = interaction.grantId
      ? (await provider.Grant.find(interaction.grantId))!
      : new provider.Grant({ accountId: interaction.session.accountId, clientId: String(interaction.params.client_id) });
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
      grant.addResourceScope(resource, scopes.join(' '));
    }
    const grantId = await grant.save();
    const redirectTo = await provider.interactionResult(ctx.req, ctx.res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    ctx.body = loginResponse({ success: true, redirectTo });
  });

  /** "Cancel" on the sign-in page: the application receives access_denied. */
  router.post('/interaction/abort', async (ctx) => {
    const provider = host.current;
    if (!(await currentInteraction(provider, ctx))) return expired(ctx);
    const redirectTo = await provider.interactionResult(ctx.req, ctx.res, {
      error: 'access_denied',
      error_description: 'End-User aborted the sign-in',
    });
    ctx.body = loginResponse({ redirectTo });
  });

  /** Sign-out link: ends the provider session (RP-initiated logout), passing on what the caller gave. */
  router.get('/logout', (ctx) => {
    const target = new URL(`${context.config.oidc.issuer}/session/end`);
    for (const name of ['id_token_hint', 'post_logout_redirect_uri', 'client_id', 'state', 'ui_locales']) {
      const value = ctx.query[name];
      if (typeof value === 'string') target.searchParams.set(name, value);
    }
    ctx.redirect(target.pathname + target.search);
  });

  return router;
}

/** Only same-origin paths are followed after sign-in; anything else falls back to home. */
export function safeReturnUrl(context: AppContext, returnUrl: string | null | undefined): string | undefined {
  if (!returnUrl) return undefined;
  if (returnUrl.startsWith('/') && !returnUrl.startsWith('//') && !returnUrl.startsWith('/\\')) return returnUrl;
  try {
    const url = new URL(returnUrl);
    return url.origin === new URL(context.config.server.publicUrl).origin ? url.pathname + url.search + url.hash : undefined;
  } catch {
    return undefined;
  }
}
