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

export const consentSchema = z.strictObject({ approve: z.boolean() });
