import Router from '@koa/router';
import { AppError, type AppContext, type Language } from '@gatehouse/core';
import { type Mailer } from '@gatehouse/core/mail';
import { signInRoutes } from '@gatehouse/contracts';
import type { Context } from 'koa';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { notWhileActing } from '../identify-as/not-while-acting.js';
import { accountKit, type AccountKit } from './account-kit.js';
import { actorOfInteraction, answerConsent, consentShown, describeInteraction } from './consent.js';
import { homePath, safeReturnUrl, type Interaction, type InteractionAccess } from './interaction.js';
import { loginResponse, progressResponse } from './login-response.js';
import { PasswordReset } from './password-reset.js';
import { orRefuse } from './refusal.js';
import { PasswordSignIn } from './sign-in.js';
import { countSignIn } from './sign-in-metrics.js';

/** The login page's interaction: at the login prompt, and the one the page was opened for when it says. */
const atLogin = (opened: string | undefined) => (interaction: Interaction) =>
  interaction.prompt.name === 'login' && (!opened || opened === interaction.uid);

/**
 * `/api/v1/account/*`: the sign-in interaction API the portal's login page talks to. The provider
 * sends the browser to `/account/login?interaction=<uid>`; these calls finish the interaction and
 * answer `redirectTo`, where the browser continues the OpenID Connect flow.
 */
export function accountRoutes(context: AppContext, host: ProviderHost, mailer: Mailer, signIn = new PasswordSignIn(context, undefined, mailer)): Router {
  const router = new Router();
  const kit = accountKit(context, host);
  bindSignIn(router, kit, signIn);
  bindPasswordChange(router, kit, context, signIn, new PasswordReset(context, mailer));
  bindInteraction(router, kit, context, host);
  return router;
}

/** The password, then the steps that may follow it (second factor). */
function bindSignIn(router: Router, { bind }: AccountKit, signIn: PasswordSignIn): void {
  const { metrics } = signIn.deps.context;
  bind(router, signInRoutes.login, async ({ body, interaction, t }) => {
    const current = await interaction.require(atLogin(body.interaction), body.returnUrl);
    const source = await interaction.sourceOf(current, body.returnUrl);
    const attempt = { userName: body.userName, password: body.password, ...source };
    return progressResponse(await countSignIn(metrics, 'password', signIn.login(attempt, { uid: current.uid, remember: body.rememberLogin, resume: interaction.resume })), t);
  });

  /** The second factor: the e-mailed code, an authenticator app's code, or one of the user's recovery codes. */
  bind(router, signInRoutes.verifyCode, async ({ body, interaction, t }) => {
    const current = await interaction.require();
    const { token, code, recoveryCode } = body;
    const verified = signIn.verifyCode({ token, code, recoveryCode, interaction: current.uid, resume: interaction.resume });
    return progressResponse(await countSignIn(metrics, recoveryCode ? 'recovery_code' : 'one_time_code', verified), t);
  });

  /** "Resend Code": a new code by mail; the previous one stops working. */
  bind(router, signInRoutes.resendCode, async ({ body, interaction }) => {
    const current = await interaction.require();
    const { expiresAt } = orRefuse(await signIn.resendCode(body.token, current.uid));
    return { success: true, errors: [], codeExpiresAt: new Date(expiresAt).toISOString() };
  });
}

/** Expired passwords, and forgotten ones (a reset link by mail). */
function bindPasswordChange(router: Router, { bind }: AccountKit, context: AppContext, signIn: PasswordSignIn, reset: PasswordReset): void {
  /** With the token of the expired-password step (the sign-in goes on), or of a reset link (identityName given). */
  bind(router, signInRoutes.changePassword, async ({ ctx, body, interaction, t }) => {
    const { token, newPassword, confirmPassword } = body;
    const language = ctx.state.language as Language;
    if (body.identityName) {
      orRefuse(await reset.complete(body.identityName, token, newPassword, confirmPassword, language));
      return { success: true, errors: [], message: t('account.password_reset_done'), redirectTo: safeReturnUrl(context, body.returnUrl) ?? homePath(context) };
    }
    const current = await interaction.require();
    const changed = signIn.changeExpiredPassword({ token, interaction: current.uid, resume: interaction.resume, newPassword, confirmPassword, language });
    return progressResponse(await countSignIn(context.metrics, 'new_password', changed), t);
  });

  /** Forgot password: one answer, whether the account exists, is locked, pending or active (the mail says which). */
  bind(router, signInRoutes.resetPassword, async ({ ctx, body, t }) => {
    reset.request(body.username, body.language ?? ctx.state.language, safeReturnUrl(context, body.returnUrl));
    return { success: true, errors: [], message: t('account.reset_sent') };
  });

  bind(router, signInRoutes.validateToken, async ({ ctx, params }) => {
    ctx.set('Cache-Control', 'no-store');
    orRefuse(await reset.validate(params.identityName, params.token));
    return { success: true, errors: [] };
  });
}

/** Approving grants the application access in the user's name: never done by a God user signed in as them. */
const approveConsent = notWhileActing(async ({ interaction, current }: { ctx: Context; interaction: InteractionAccess; current: Interaction }) =>
  answerConsent(interaction, current, true),
);

/** The interaction itself: what it asks, consent, cancel; and signing out. */
function bindInteraction(router: Router, { bind }: AccountKit, context: AppContext, host: ProviderHost): void {
  bind(router, signInRoutes.interaction, async ({ ctx, interaction }) => {
    const current = await interaction.find();
    if (!current) throw new AppError('account.interaction_expired', 404);
    ctx.set('Cache-Control', 'no-store');
    return describeInteraction(host.registry, current);
  });

  /**
   * Consent for a third-party application (another interaction started in this browser meanwhile
   * is not approved unseen). Declining stays open to a God user signed in as the user: it grants nothing.
   */
  bind(router, signInRoutes.consent, async ({ ctx, body, interaction }) => {
    const current = await interaction.require(consentShown(body.approve, body.interaction));
    ctx.state.actorId = await actorOfInteraction(host.impersonations, current);
    const redirectTo = body.approve ? await approveConsent({ ctx, interaction, current }) : await answerConsent(interaction, current, false);
    return loginResponse({ success: body.approve, redirectTo });
  });

  /** "Cancel" on the sign-in page: the application receives access_denied. */
  bind(router, signInRoutes.abort, async ({ interaction }) => {
    await interaction.require();
    return loginResponse({ redirectTo: await interaction.deny('End-User aborted the sign-in') });
  });

  /** Sign-out link: ends the provider session (RP-initiated logout), passing on what the caller gave. */
  bind(router, signInRoutes.logout, async ({ ctx, query }) => {
    const target = new URL(`${context.config.oidc.issuer}/session/end`);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) target.searchParams.set(name, value);
    ctx.redirect(target.pathname + target.search);
  });
}
