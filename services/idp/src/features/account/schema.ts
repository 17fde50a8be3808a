import { z } from 'zod';

// Sign-in fields are checked by hand so that a missing one gets the spec's own message.
export const loginSchema = z.object({
  userName: z.string().max(256).optional().default(''),
  password: z.string().max(1024).optional().default(''),
  rememberLogin: z.boolean().optional().default(false),
  returnUrl: z.string().max(2000).optional().nullable(),
  /** The interaction the sign-in page was opened for (its cookie is authoritative). */
  interaction: z.string().max(200).optional(),
});

// `interaction`: the one whose details the page showed; required to approve.
export const consentSchema = z.strictObject({ approve: z.boolean(), interaction: z.string().max(200).optional() });

export const verifyCodeSchema = z.object({
  token: z.string().min(1).max(200),
  code: z.string().max(20).default(''),
  // Sent by the portal with the code; the step's token already identifies the sign-in.
  userName: z.string().max(256).optional(),
  password: z.string().max(1024).optional(),
  rememberPassword: z.boolean().optional(),
});

export const resendCodeSchema = z.object({ token: z.string().min(1).max(200) });

export const changePasswordSchema = z.object({
  identityName: z.string().max(256).optional(),
  token: z.string().min(1).max(200),
  newPassword: z.string().max(1024).default(''),
  confirmPassword: z.string().max(1024).optional(),
  returnUrl: z.string().max(2000).optional().nullable(),
});

export const resetPasswordSchema = z.object({
  username: z.string().trim().min(1).max(256),
  language: z.string().max(10).optional(),
  returnUrl: z.string().max(2000).optional(),
});
