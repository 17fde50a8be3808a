import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { routeKit } from '@gatehouse/core/http';
import type { Mailer } from '@gatehouse/core/mail';
import { securityRoutes, signInRoutes } from '@gatehouse/contracts';
import type { Context } from 'koa';
import { bind } from '../../http/route.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { translator } from '../account/account-answers.js';
import type { AccountCall } from '../account/account-kit.js';
import { InteractionAccess, type Interaction } from '../account/interaction.js';
import { progressResponse } from '../account/login-response.js';
import { orRefuse } from '../account/refusal.js';
import { PasswordSignIn } from '../account/sign-in.js';
import { countSignIn } from '../account/sign-in-metrics.js';
import { notWhileActing } from '../identify-as/not-while-acting.js';
import { koaAccountAuth } from '../profile/koa-account-auth.js';
import { requestOf } from '../profile/secret-proof.js';
import { PasskeyEnrolment } from './enrolment.js';
import { MyPasskeys } from './my-passkeys.js';
import { PasskeySignIn } from './sign-in.js';

/** The sign-in page's interaction, at the login prompt, and the one the page was opened for when it says. */
const atLogin = (opened: string | undefined) => (interaction: Interaction) => interaction.prompt.name === 'login' && (!opened || opened === interaction.uid);

/** The account calls' way to bind a route (the interaction at hand, the caller's language), each call throttled per address. */
function passkeyKit(context: AppContext, host: ProviderHost) {
  return routeKit<AccountCall>({
    guard: () => async (ctx, next) => {
      await context.throttle.request(ctx.ip);
      await next();
    },
    extra: (ctx) => ({ interaction: new InteractionAccess(context, host, ctx), t: translator(context, ctx) }),
  });
}

/**
 * `/api/v1/account/passkey/*`: signing in with a passkey, alone or as the second factor after the
 * password, and the passkey a phishing-resistant tenant asks for during a sign-in. Every call
 * creates or checks a challenge: throttled per address; refusals are answered as the login response.
 */
export function passkeySignInRoutes(context: AppContext, host: ProviderHost, mailer: Mailer, signIn = new PasswordSignIn(context, undefined, mailer)): Router {
  const router = new Router();
  const { bind: bindAccount } = passkeyKit(context, host);
  const passkeys = new PasskeySignIn(context, signIn.deps);
  const enrolment = new PasskeyEnrolment(context, signIn.deps, mailer);

  /** Without a token: any passkey of this browser (the sign-in page); with the second-factor step's token: that user's. */
  bindAccount(router, signInRoutes.passkeyOptions, async ({ ctx, body, interaction }) => {
    const current = await interaction.require(body.token ? undefined : atLogin(body.interaction));
    ctx.set('Cache-Control', 'no-store');
    const options = body.token ? orRefuse(await passkeys.stepOptions(body.token, current.uid)).options : await passkeys.options(current.uid);
    return { options: { ...options } };
  });

  bindAccount(router, signInRoutes.passkeyVerify, async ({ body, interaction, t }) => {
    const current = await interaction.require(body.token ? undefined : atLogin(body.interaction), body.returnUrl);
    const { resume } = interaction;
    if (body.token) {
      const secondStep = passkeys.secondStep({ token: body.token, response: body.response, interaction: current.uid, resume });
      return progressResponse(await countSignIn(context.metrics, 'passkey_second_factor', secondStep), t);
    }
    const source = await interaction.sourceOf(current, body.returnUrl);
    const signedIn = passkeys.signIn({ response: body.response, source, interaction: { uid: current.uid, remember: body.rememberLogin, resume } });
    return progressResponse(await countSignIn(context.metrics, 'passkey', signedIn), t);
  });

  bindAccount(router, signInRoutes.passkeyRegisterOptions, async ({ ctx, body, interaction }) => {
    const current = await interaction.require();
    ctx.set('Cache-Control', 'no-store');
    return { options: { ...orRefuse(await enrolment.options(body.token, current.uid)).options } };
  });

  bindAccount(router, signInRoutes.passkeyRegister, async ({ body, interaction, t }) => {
    const current = await interaction.require();
    return progressResponse(await countSignIn(context.metrics, 'passkey_enrolment', enrolment.register({ ...body, interaction: current.uid, resume: interaction.resume })), t);
  });

  return router;
}


/**
 * `/api/v1/profile/passkeys*`: the signed-in user's passkeys ("My security"), with a token issued
 * to the portal. They are the user's own: a God user signed in as them changes none.
 */
export function myPasskeyRoutes(context: AppContext, host: ProviderHost, mailer: Mailer, passkeys = new MyPasskeys(context, host, mailer)): Router {
  const router = new Router();
  router.use(koaAccountAuth(context, host));

  bind(
    router,
    securityRoutes.passkeyOptions,
    notWhileActing(async ({ ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      return { options: { ...(await passkeys.options(requestOf(ctx))) } };
    }),
  );

  bind(router, securityRoutes.addPasskey, notWhileActing(async ({ ctx, body }) => passkeys.add(requestOf(ctx), body)));

  bind(router, securityRoutes.renamePasskey, notWhileActing(async ({ ctx, params, body }) => passkeys.rename(ctx.state.accountId as string, params.id, body.name)));

  bind(router, securityRoutes.removePasskey, notWhileActing(async ({ ctx, params }) => passkeys.remove(requestOf(ctx), params.id)));

  return router;
}
