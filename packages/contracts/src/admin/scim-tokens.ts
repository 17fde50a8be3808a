import { z } from 'zod';
import { idSchema, listPage } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { applicationPathParams } from './applications.js';
import { timestampSchema } from './users.js';

export const SCIM_TOKEN_LIMITS = { name: 200 } as const;

/** Body of `POST /applications/{id}/scimTokens`: a token for one area, for at most a year unless an expiry is given. */
export const newScimTokenSchema = z.strictObject({
  name: z.string().trim().min(1).max(SCIM_TOKEN_LIMITS.name),
  /** The area whose users and groups the token provisions. */
  areaId: idSchema,
  /** An ISO 8601 date-time in the future, at most two years ahead; absent: a year from now. */
  expiresAt: z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value))
    .nullish(),
});
export type NewScimToken = z.input<typeof newScimTokenSchema>;

/** A SCIM token as the console lists it: never its value. */
export const scimTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  areaId: z.string(),
  areaName: z.string(),
  /** The token's last characters, to tell tokens apart. */
  hint: z.string(),
  createdBy: z.string(),
  createdByName: z.string().nullable(),
  createdAt: timestampSchema,
  expiresAt: timestampSchema.nullable(),
  lastUsedAt: timestampSchema.nullable(),
});
export type ScimTokenItem = z.output<typeof scimTokenSchema>;

/** What an issue answers: the token and, this once, its value. */
export const issuedScimTokenSchema = scimTokenSchema.extend({ token: z.string(), scimUrl: z.string() });

const TOKENS = '/api/v1/admin/applications/:id/scimTokens';

/** Administrators issue an application SCIM tokens, one area each, and revoke them. */
export const scimTokensRoutes = {
  list: defineRoute({
    method: 'GET',
    path: TOKENS,
    endpoint: 'scimTokens.list',
    access: 'roles',
    summary: "An application's SCIM provisioning tokens (never their values)",
    params: applicationPathParams,
    response: listPage(scimTokenSchema),
  }),
  create: defineRoute({
    method: 'POST',
    path: TOKENS,
    endpoint: 'scimTokens.create',
    access: 'roles',
    summary: 'Issues the application a SCIM token for one area; answers its value once, with the SCIM base URL',
    params: applicationPathParams,
    body: newScimTokenSchema,
    status: 201,
    response: issuedScimTokenSchema,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: `${TOKENS}/:tokenId`,
    endpoint: 'scimTokens.delete',
    access: 'roles',
    summary: 'Revokes a SCIM token at once',
    params: applicationPathParams.extend({ tokenId: idSchema }),
    status: 204,
  }),
} satisfies Record<string, RouteContract>;
