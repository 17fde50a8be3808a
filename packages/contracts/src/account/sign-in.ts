import { z } from 'zod';
import { defineRoute, type RouteContract } from '../route.js';

const ACCOUNT = '/api/v1/account';

/** The second factors a sign-in may ask for. */
export const TWO_FACTOR_METHODS = ['email', 'totp', 'passkey'] as const;
export type TwoFactorMethod = (typeof TWO_FACTOR_METHODS)[number];

/**
 * The spec's login response: the answer of login, verifyCode, the expired-password change, consent
 * and abort, and the body of every refusal or failure of any `/api/v1/account/*` call (with `code`
 * and the refusal's details).
 */
export const loginResponseSchema = z.object({
  success: z.boolean(),
  errors: z.array(z.string()),
  redirectTo: z.string().nullable(),
  changePassword: z.boolean(),
  twoAuthentificationRequired: z.boolean(),
  token: z.string().nullable(),
  /** The i18n key of the first message, on a refusal or a step to take. */
  code: z.string().optional(),
  attemptsLeft: z.number().int().optional(),
  /** ISO date-time the temporary lock ends. */
  lockedUntil: z.string().optional(),
  /** The failures in a row that locked the account, as the lockout setting says. */
  lockedAfter: z.number().int().optional(),
  /** The user must sign in with Microsoft (a group account). */
  externalLoginRequired: z.boolean().optional(),
  /** The second factor asked for first: an e-mailed code, an authenticator app's code, or a passkey. */
  twoFactorMethod: z.enum(TWO_FACTOR_METHODS).optional(),
  /**
   * Every way the user may give the second factor at this step, the first one asked for included:
   * a recovery code is offered while the user has one left.
   */
  twoFactorMethods: z.array(z.enum([...TWO_FACTOR_METHODS, 'recovery'])).optional(),
  /**
   * A tenant of the user accepts only phishing-resistant second factors and the user has no passkey:
   * the sign-in goes on once one is added, with `token` (the register calls of this API).
   */
  passkeyEnrolmentRequired: z.boolean().optional(),
  /** When the e-mailed code stops working (ISO date-time); null for an authenticator app. */
  codeExpiresAt: z.string().nullable().optional(),
  /**
   * On a refusal of the request's fields (a password the policy refuses, say): which field each
   * message of `errors` is about, with its code.
   */
  fieldErrors: z.array(z.object({ field: z.string(), code: z.string(), message: z.string() })).optional(),
  /** On a refusal or a failure: the request's id, for the support. */
  requestId: z.string().optional(),
});
export type LoginResponse = z.output<typeof loginResponseSchema>;

export const loginBodySchema = z.object({
  userName: z.string().trim().min(1).max(256),
  password: z.string().min(1).max(1024),
  rememberLogin: z.boolean().optional().default(false),
  returnUrl: z.string().max(2000).optional().nullable(),
  /** The interaction the sign-in page was opened for (its cookie is authoritative). */
  interaction: z.string().max(200).optional(),
});
export type LoginBody = z.input<typeof loginBodySchema>;

export const verifyCodeBodySchema = z.object({
  token: z.string().min(1).max(200),
  code: z.string().max(20).default(''),
  /** One of the user's recovery codes, in place of `code` (spaces and dashes ignored). */
  recoveryCode: z.string().trim().max(40).optional(),
  // Sent by the portal with the code; the step's token already identifies the sign-in.
  userName: z.string().max(256).optional(),
  password: z.string().max(1024).optional(),
  rememberPassword: z.boolean().optional(),
});
export type VerifyCodeBody = z.input<typeof verifyCodeBodySchema>;

export const resendCodeBodySchema = z.object({ token: z.string().min(1).max(200) });

export const resendCodeResponseSchema = z.object({
  success: z.boolean(),
  errors: z.array(z.string()),
  codeExpiresAt: z.string().nullable(),
});
export type ResendCodeResponse = z.output<typeof resendCodeResponseSchema>;

/** A new password: with the expired-password step's token, or with a reset link's (`identityName` set). */
export const accountChangePasswordBodySchema = z.object({
  identityName: z.string().max(256).optional(),
  token: z.string().min(1).max(200),
  newPassword: z.string().max(1024).default(''),
  confirmPassword: z.string().max(1024).optional(),
  returnUrl: z.string().max(2000).optional().nullable(),
});
export type AccountChangePasswordBody = z.input<typeof accountChangePasswordBodySchema>;

/** The password of a reset link is set: the page says so and goes on to `redirectTo`. */
export const passwordResetDoneSchema = z.object({
  success: z.boolean(),
  errors: z.array(z.string()),
  message: z.string(),
  redirectTo: z.string(),
});
export type PasswordResetDone = z.output<typeof passwordResetDoneSchema>;

export const accountResetPasswordBodySchema = z.object({
  username: z.string().trim().min(1).max(256),
  language: z.string().max(10).optional(),
  returnUrl: z.string().max(2000).optional(),
});

export const accountResetPasswordResponseSchema = z.object({ success: z.boolean(), errors: z.array(z.string()), message: z.string() });
export type AccountResetPasswordResponse = z.output<typeof accountResetPasswordResponseSchema>;

export const resetTokenCheckSchema = z.object({ success: z.boolean(), errors: z.array(z.string()) });

/** What the sign-in page shows for the interaction in progress: sign-in or consent, and for which application. */
export const interactionDetailsSchema = z.object({
  uid: z.string(),
  prompt: z.enum(['login', 'consent']),
  client: z.object({ clientId: z.string(), displayName: z.string().nullable(), firstParty: z.boolean() }).nullable(),
  scopes: z.array(z.string()),
  missingScopes: z.array(z.string()),
  /** Claims asked for one by one. */
  missingClaims: z.array(z.string()),
  /** The access asked for to other services (their scopes), shown and granted with the rest. */
  resourceScopes: z.array(z.object({ resource: z.string(), scopes: z.array(z.string()) })),
  loginHint: z.string().nullable(),
});
export type InteractionDetails = z.output<typeof interactionDetailsSchema>;

// `interaction`: the one whose details the page showed; required to approve.
export const consentBodySchema = z.strictObject({ approve: z.boolean(), interaction: z.string().max(200).optional() });

/** A query value the handler passes on only when it is a single string. */
const passedOn = z.string().optional().catch(undefined);

export const accountLogoutQuerySchema = z.object({
  id_token_hint: passedOn,
  post_logout_redirect_uri: passedOn,
  client_id: passedOn,
  state: passedOn,
  ui_locales: passedOn,
});

/**
 * A WebAuthn JSON object as `@simplewebauthn/browser` sends it or reads it: the server checks it
 * field by field, so only its size is bounded here.
 */
const webAuthnJson = z.record(z.string(), z.unknown()).refine((value) => JSON.stringify(value).length <= 64 * 1024, 'too large');

/**
 * Asks for a passkey assertion: with no `token`, any passkey of this browser (discoverable, the
 * "Sign in with a passkey" button and the user-name field's autofill); with the second-factor
 * step's `token`, one of that user's passkeys.
 */
export const passkeyOptionsBodySchema = z.strictObject({
  interaction: z.string().max(200).optional(),
  token: z.string().min(1).max(200).optional(),
});
export type PasskeyOptionsBody = z.input<typeof passkeyOptionsBodySchema>;

/** The options to hand to the browser's WebAuthn call (`PublicKeyCredentialRequestOptionsJSON` or `…CreationOptionsJSON`). */
export const passkeyOptionsSchema = z.object({ options: webAuthnJson });
export type PasskeyOptions = z.output<typeof passkeyOptionsSchema>;

/** The browser's assertion (`AuthenticationResponseJSON`) for the options of the same interaction or step. */
export const passkeyVerifyBodySchema = z.strictObject({
  interaction: z.string().max(200).optional(),
  token: z.string().min(1).max(200).optional(),
  response: webAuthnJson,
  rememberLogin: z.boolean().optional().default(false),
  returnUrl: z.string().max(2000).optional().nullable(),
});
export type PasskeyVerifyBody = z.input<typeof passkeyVerifyBodySchema>;

/** The passkey-enrolment step of a sign-in: options for its token. */
export const passkeyStepBodySchema = z.strictObject({ token: z.string().min(1).max(200) });

/** The passkey-enrolment step: the browser's new credential (`RegistrationResponseJSON`), and its name. */
export const passkeyStepRegisterBodySchema = z.strictObject({
  token: z.string().min(1).max(200),
  response: webAuthnJson,
  name: z.string().trim().min(1).max(100).optional(),
});

/** The sign-in interaction API of the portal's login pages (`/api/v1/account/*`). */
export const signInRoutes = {
  login: defineRoute({
    method: 'POST',
    path: `${ACCOUNT}/login`,
    endpoint: 'account.login',
    access: 'public',
    summary: 'Checks the user name and password of the sign-in in progress',
    body: loginBodySchema,
    required: { userName: 'account.user_name_required', password: 'account.password_required' },
    response: loginResponseSchema,
  }),
  verifyCode: defineRoute({
    method: 'POST',
    path: `${ACCOUNT}/verifyCode`,
    endpoint: 'account.verify_code',
    access: 'public',
    summary: 'Checks the second factor (an e-mailed code or an authenticator app code)',
    body: verifyCodeBodySchema,
    response: loginResponseSchema,
  }),
  resendCode: defineRoute({
    method: 'POST',
    path: `${ACCOUNT}/resendCode`,
    endpoint: 'account.resend_code',
    access: 'public',
    summary: 'Mails a new sign-in code; the previous one stops working',
    body: resendCodeBodySchema,
    response: resendCodeResponseSchema,
  }),
  passkeyOptions: defineRoute({
    method: 'POST',
    path: `${ACCOUNT}/passkey/options`,
    endpoint: 'account.passkey_options',
    access: 'public',
    summary: 'A single-use WebAuthn challenge for signing in with a passkey, bound to the sign-in in progress (or to its second-factor step)',
    body: passkeyOptionsBodySchema,
    response: passkeyOptionsSchema,
  }),
  passkeyVerify: defineRoute({
    method: 'POST',
    path: `${ACCOUNT}/passkey/verify`,
    endpoint: 'account.passkey_verify',
    access: 'public',
    summary: 'Checks a passkey assertion: a whole sign-in when the authenticator verified the user, or the second factor after a password',
    body: passkeyVerifyBodySchema,
    response: loginResponseSchema,
  }),
  passkeyRegisterOptions: defineRoute({
    method: 'POST',
    path: `${ACCOUNT}/passkey/register/options`,
    endpoint: 'account.passkey_register_options',
    access: 'public',
    summary: 'Options for adding a passkey during a sign-in whose tenant accepts only phishing-resistant factors',
    body: passkeyStepBodySchema,
    response: passkeyOptionsSchema,
  }),
  passkeyRegister: defineRoute({
    method: 'POST',
    path: `${ACCOUNT}/passkey/register`,
    endpoint: 'account.passkey_register',
    access: 'public',
    summary: 'Adds the passkey of the sign-in step that asked for one, then finishes the sign-in',
    body: passkeyStepRegisterBodySchema,
    response: loginResponseSchema,
  }),
  changePassword: defineRoute({
    method: 'POST',
    path: `${ACCOUNT}/changePassword`,
    endpoint: 'account.change_password',
    access: 'public',
    summary: 'Sets a new password: the expired-password step of a sign-in, or an e-mailed reset link',
    body: accountChangePasswordBodySchema,
    response: z.union([loginResponseSchema, passwordResetDoneSchema]),
  }),
  resetPassword: defineRoute({
    method: 'POST',
    path: `${ACCOUNT}/resetPassword`,
    endpoint: 'account.reset_password',
    access: 'public',
    summary: 'Mails a password reset link (the same answer whether or not the account exists)',
    body: accountResetPasswordBodySchema,
    response: accountResetPasswordResponseSchema,
  }),
  validateToken: defineRoute({
    method: 'GET',
    path: `${ACCOUNT}/validateToken/:identityName/:token`,
    endpoint: 'account.validate_token',
    access: 'public',
    summary: "Checks a reset link's token when its page opens",
    params: z.object({ identityName: z.string(), token: z.string() }),
    response: resetTokenCheckSchema,
  }),
  interaction: defineRoute({
    method: 'GET',
    path: `${ACCOUNT}/interaction`,
    endpoint: 'account.interaction',
    access: 'public',
    summary: 'The sign-in or consent in progress in this browser (404 when there is none)',
    response: interactionDetailsSchema,
  }),
  consent: defineRoute({
    method: 'POST',
    path: `${ACCOUNT}/consent`,
    endpoint: 'account.consent',
    access: 'public',
    summary: "Approves what the consent page showed, or refuses it (access_denied)",
    body: consentBodySchema,
    response: loginResponseSchema,
  }),
  abort: defineRoute({
    method: 'POST',
    path: `${ACCOUNT}/interaction/abort`,
    endpoint: 'account.abort',
    access: 'public',
    summary: 'Cancels the sign-in: the application receives access_denied',
    response: loginResponseSchema,
  }),
  logout: defineRoute({
    method: 'GET',
    path: `${ACCOUNT}/logout`,
    endpoint: 'account.logout',
    access: 'public',
    summary: "Ends the provider session (RP-initiated logout), passing on the caller's parameters",
    query: accountLogoutQuerySchema,
    produces: 'redirect',
  }),
} satisfies Record<string, RouteContract>;
