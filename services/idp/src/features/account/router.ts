import Router from '@koa/router';
import { AppError, parseInput, sameOriginPath, type AppContext, type Mailer } from '@gatehouse/core';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { PasswordReset } from './password-reset.js';
import { changePasswordSchema, consentSchema, loginSchema, resendCodeSchema, resetPasswordSchema, verifyCodeSchema } from './schema.js';
import { PasswordSignIn, type SignInRefusal } from './sign-in.js';
import { SignInSteps, type NextStep, type StepContext } from './steps.js';

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
export function accountRoutes(context: AppContext, host: ProviderHost, mailer: Mailer, signIn = new PasswordSignIn(context)): Router {
  const router = new Router({ prefix: '/api/v1/account' });
  const steps = new SignInSteps(context, mailer, signIn);
  const reset = new PasswordReset(context, mailer);
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

  // Every call that checks a secret or sends a mail is throttled per address; a refusal (429, with
  // Retry-After) keeps the login response's shape, like every other refusal of these calls.
  const throttled = async (ctx: Context, next: () => Promise<unknown>) => {
    try {
      await context.throttle.request(ctx.ip);
      await next();
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 429) throw error;
      refuse(ctx, { ok: false, status: 429, code: error.code, params: error.params, retryAfter: error.params.retryAfter as number | undefined });
    }
  };
  for (const path of ['/login', '/verifyCode', '/resendCode', '/changePassword', '/resetPassword']) router.post(path, throttled);
  router.get('/validateToken/:identityName/:token', throttled);

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
    const request = {
      returnUrl: body.returnUrl ?? String(interaction.params.redirect_uri ?? ''),
      applicationName: client?.name,
      ip: ctx.ip,
      userAgent: ctx.get('user-agent'),
    };
    const result = await signIn.verify({ userName: body.userName, password: body.password, ...request });
    if (!result.ok) return refuse(ctx, result);
    const step: StepContext = { interaction: interaction.uid, remember: body.rememberLogin, ...request };
    const next = await steps.afterPassword(result.user.id, step);
    const refused = next.kind === 'done' ? await signIn.complete(result.user, request, 'Password verified') : undefined;
    if (refused) return refuse(ctx, refused);
    await answerStep(ctx, next, result.user.id, step, ['pwd']);
  });

  /** Answers where the sign-in stands: finished (redirectTo), or the next step with its token. */
  const answerStep = async (ctx: Context, next: NextStep, userId: string, step: StepContext, amr: string[]) => {
    if (next.kind === 'expired-password') {
      ctx.body = loginResponse({ changePassword: true, token: next.token, code: 'account.password_expired', errors: [t(ctx, 'account.password_expired')] });
      return;
    }
    if (next.kind === 'second-factor') {
      ctx.body = {
        ...loginResponse({ twoAuthentificationRequired: true, token: next.token }),
        twoFactorMethod: next.method,
        codeExpiresAt: next.expiresAt ? new Date(next.expiresAt).toISOString() : null,
      };
      return;
    }
    const redirectTo = await host.current.interactionResult(
      ctx.req,
      ctx.res,
      { login: { accountId: userId, remember: step.remember, amr } },
      { mergeWithLastSubmission: false },
    );
    ctx.body = loginResponse({ success: true, redirectTo });
  };

  /** The second factor: the e-mailed code or an authenticator app's code. */
  router.post('/verifyCode', async (ctx) => {
    const body = parseInput(verifyCodeSchema, ctx.request.body ?? {});
    const interaction = await currentInteraction(host.current, ctx);
    if (!interaction) return expired(ctx);
    const result = await steps.verifyCode(body.token, body.code, interaction.uid);
    if (!result.ok) return refuse(ctx, result);
    await answerStep(ctx, { kind: 'done' }, result.userId, result.step, ['pwd', 'otp']);
  });

  /** "Resend Code": a new code by mail; the previous one stops working. */
  router.post('/resendCode', async (ctx) => {
    const body = parseInput(resendCodeSchema, ctx.request.body ?? {});
    const interaction = await currentInteraction(host.current, ctx);
    if (!interaction) return expired(ctx);
    const result = await steps.resendCode(body.token, interaction.uid);
    if (!result.ok) return refuse(ctx, result);
    ctx.body = { success: true, errors: [], codeExpiresAt: new Date(result.expiresAt).toISOString() };
  });

  /**
   * A new password: with the token of the expired-password step (then the sign-in goes on), or with
   * the token of an e-mailed reset link (identityName required).
   */
  router.post('/changePassword', async (ctx) => {
    const body = parseInput(changePasswordSchema, ctx.request.body ?? {});
    if (body.identityName) {
      const result = await reset.complete(body.identityName, body.token, body.newPassword, body.confirmPassword);
      if (!result.ok) return refuse(ctx, result);
      ctx.body = {
        success: true,
        errors: [],
        message: t(ctx, 'account.password_reset_done'),
        redirectTo: safeReturnUrl(context, body.returnUrl) ?? '/',
      };
      return;
    }
    const interaction = await currentInteraction(host.current, ctx);
    if (!interaction) return expired(ctx);
    const result = await steps.changeExpiredPassword(body.token, interaction.uid, body.newPassword, body.confirmPassword);
    if (!result.ok) return refuse(ctx, result);
    await answerStep(ctx, result.next, result.userId, result.step, ['pwd']);
  });

  /** Forgot password: the same answer whether or not the account exists. */
  router.post('/resetPassword', async (ctx) => {
    const body = parseInput(resetPasswordSchema, ctx.request.body ?? {});
    const result = await reset.request(body.username, body.language ?? ctx.state.language, safeReturnUrl(context, body.returnUrl));
    if (!result.ok) return refuse(ctx, result);
    ctx.body = { success: true, errors: [], message: t(ctx, 'account.reset_sent') };
  });

  /** Checks a reset link's token when the page opens. */
  router.get('/validateToken/:identityName/:token', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const result = await reset.validate(ctx.params.identityName!, ctx.params.token!);
    if (!result.ok) return refuse(ctx, result);
    ctx.body = { success: true, errors: [] };
  });

  function refuse(ctx: Context, refusal: SignInRefusal) {
    ctx.status = refusal.status;
    if (refusal.retryAfter) ctx.set('Retry-After', String(refusal.retryAfter));
    ctx.body = loginResponse({
      code: refusal.code,
      errors: [t(ctx, refusal.code, refusal.params)],
      attemptsLeft: refusal.attemptsLeft,
      lockedUntil: refusal.lockedUntil?.toISOString(),
      externalLoginRequired: refusal.externalLoginRequired,
    });
  }

  /** What the page must show for the interaction in progress: sign-in or consent, and for which application. */
  router.get('/interaction', async (ctx) => {
    const interaction = await currentInteraction(host.current, ctx);
    if (!interaction) throw new AppError('account.interaction_expired', 404);
    const client = await host.registry.find(String(interaction.params.client_id));
    const asked = consentRequest(interaction.prompt.details);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      uid: interaction.uid,
      prompt: interaction.prompt.name,
      client: client ? { clientId: client.name, displayName: client.displayName, firstParty: client.isFirstParty } : null,
      scopes: String(interaction.params.scope ?? '').split(' ').filter(Boolean),
      missingScopes: asked.scopes,
      missingClaims: asked.claims,
      resourceScopes: asked.resourceScopes,
      loginHint: interaction.params.login_hint ?? null,
    };
  });

  /**
   * Consent for a third-party application: approve grants what `/interaction` showed for the
   * interaction the page names (another one started in this browser meanwhile is not approved
   * unseen); refuse ends with access_denied.
   */
  router.post('/consent', async (ctx) => {
    const { approve, interaction: shown } = parseInput(consentSchema, ctx.request.body ?? {});
    const provider = host.current;
    const interaction = await currentInteraction(provider, ctx);
    if (!interaction || interaction.prompt.name !== 'consent' || !interaction.session?.accountId) return expired(ctx);
    if (approve && shown !== interaction.uid) return expired(ctx);
    if (!approve) {
      const redirectTo = await provider.interactionResult(ctx.req, ctx.res, {
        error: 'access_denied',
        error_description: 'End-User refused the requested access',
      });
      ctx.body = loginResponse({ redirectTo });
      return;
    }
    const asked = consentRequest(interaction.prompt.details);
    const grant = interaction.grantId
      ? (await provider.Grant.find(interaction.grantId))!
      : new provider.Grant({ accountId: interaction.session.accountId, clientId: String(interaction.params.client_id) });
    if (asked.scopes.length) grant.addOIDCScope(asked.scopes.join(' '));
    if (asked.claims.length) grant.addOIDCClaims(asked.claims);
    for (const { resource, scopes } of asked.resourceScopes) grant.addResourceScope(resource, scopes.join(' '));
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
  return sameOriginPath(returnUrl, context.config.server.publicUrl);
}

/**
 * What a consent is asked for, read once from the prompt: the page lists exactly this and
 * "Allow" grants exactly this (OIDC scopes and claims, and every resource's scopes).
 */
function consentRequest(details: unknown) {
  const asked = details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  return {
    scopes: asked.missingOIDCScope ?? [],
    claims: asked.missingOIDCClaims ?? [],
    resourceScopes: Object.entries(asked.missingResourceScopes ?? {}).map(([resource, scopes]) => ({ resource, scopes })),
  };
}
