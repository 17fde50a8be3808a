import { z } from 'zod';
import { defineRoute, type RouteContract } from '../route.js';

/** The self-service calls' answer when all went well. */
export const profileSuccessSchema = z.object({ success: z.boolean(), errors: z.array(z.string()) });
export type ProfileSuccess = z.output<typeof profileSuccessSchema>;

/** "Change password": the reset link went out, with the text to show. */
export const passwordResetSentSchema = profileSuccessSchema.extend({ message: z.string() });
export type PasswordResetSent = z.output<typeof passwordResetSentSchema>;

/** Adding an authenticator: the current password, needed only long after signing in. */
export const totpEnrolmentBodySchema = z.object({ password: z.string().min(1).max(1024).optional() }).strict();
export type TotpEnrolmentBody = z.input<typeof totpEnrolmentBodySchema>;

/** A new authenticator's secret and the otpauth URI its QR code shows. */
export const totpEnrolmentSchema = z.object({ secret: z.string(), otpauthUri: z.string() });
export type TotpEnrolment = z.output<typeof totpEnrolmentSchema>;

/** A six-digit code of the authenticator app. */
export const totpCodeBodySchema = z.object({ code: z.string().trim().regex(/^\d{6}$/) });
export type TotpCodeBody = z.input<typeof totpCodeBodySchema>;

/** `/api/v1/profile/*`: what a signed-in user does for themself, with a token issued to the portal. */
export const profileRoutes = {
  resetPassword: defineRoute({
    method: 'GET',
    path: '/api/v1/profile/resetPassword/:name',
    endpoint: 'profile.resetPassword',
    access: 'signed-in',
    summary: 'Mails the signed-in user (who must be `name`) a password reset link',
    params: z.object({ name: z.string() }),
    response: passwordResetSentSchema,
  }),
  enrolTotp: defineRoute({
    method: 'POST',
    path: '/api/v1/profile/totp',
    endpoint: 'profile.enrolTotp',
    access: 'signed-in',
    summary: 'Starts adding an authenticator app: within ten minutes of signing in, or with the password',
    body: totpEnrolmentBodySchema,
    response: totpEnrolmentSchema,
  }),
  confirmTotp: defineRoute({
    method: 'POST',
    path: '/api/v1/profile/totp/confirm',
    endpoint: 'profile.confirmTotp',
    access: 'signed-in',
    summary: "Confirms the authenticator app with a first code; it is then the second factor",
    body: totpCodeBodySchema,
    response: profileSuccessSchema,
  }),
  disableTotp: defineRoute({
    method: 'POST',
    path: '/api/v1/profile/totp/disable',
    endpoint: 'profile.disableTotp',
    access: 'signed-in',
    summary: 'Removes the authenticator app, proven with one of its codes',
    body: totpCodeBodySchema,
    response: profileSuccessSchema,
  }),
} satisfies Record<string, RouteContract>;
