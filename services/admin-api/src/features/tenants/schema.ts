import { z } from 'zod';

/** A tenant id in the path. Any 8-4-4-4-12 hex string: the Global tenant's all-zero id is not an RFC 9562 UUID. */
export const tenantIdSchema = z.guid();

/** Body of `POST /tenants/twoModeAuth/{id}`. */
export const twoModeAuthBodySchema = z.strictObject({ enable: z.boolean() });

/** What the MFA switch answers: the tenant as it now stands. */
export const twoModeAuthResponseSchema = z.object({
  id: z.string(),
  title: z.string(),
  requiredTwoModeAuthentification: z.boolean(),
});
export type TwoModeAuthResponse = z.infer<typeof twoModeAuthResponseSchema>;
