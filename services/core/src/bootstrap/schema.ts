import { z } from 'zod';
import {
  APPLICATION_STATUSES,
  CLIENT_TYPES,
  GRANT_TYPES,
  ID_TOKEN_ALGORITHMS,
  LANGUAGES,
  TENANT_CREATION_TYPES,
} from '../domain/constants.js';

const name200 = z.string().trim().min(1).max(200);
const uri = z.string().min(1).max(2000);

export const bootstrapSchema = z
  .object({
    areas: z
      .array(z.strictObject({ name: name200, default: z.boolean().default(false), system: z.boolean().default(false) }))
      .default([]),
    tenants: z
      .array(
        z.strictObject({
          title: name200,
          area: name200,
          /** Title of the parent tenant (declared earlier in the file, or already existing). */
          parent: name200.optional(),
          taxNumber: z.string().max(50).optional(),
          viesNumber: z.string().max(50).optional(),
          creation: z.enum(TENANT_CREATION_TYPES).default('Manual'),
          requiredTwoModeAuthentification: z.boolean().default(false),
        }),
      )
      .default([]),
    applications: z
      .array(
        z.strictObject({
          id: z.string().trim().min(1).max(64),
          /** The OAuth client_id. */
          name: z.string().trim().min(1).max(200),
          displayName: name200,
          description: z.string().max(1000).optional(),
          type: z.enum(CLIENT_TYPES).default('confidential'),
          /** Client secret of a confidential client; stored encrypted. */
          secret: z.string().min(32, 'a client secret needs at least 32 characters').optional(),
          firstParty: z.boolean().default(false),
          redirectUris: z.array(uri).default([]),
          postLogoutRedirectUris: z.array(uri).default([]),
          backchannelLogoutUri: uri.optional(),
          grantTypes: z.array(z.enum(GRANT_TYPES)).min(1).default(['authorization_code', 'refresh_token']),
          idTokenAlgorithm: z.enum(ID_TOKEN_ALGORITHMS).default('RS256'),
          privateUrl: uri.optional(),
          publicUrl: uri.optional(),
          icon: uri.optional(),
          status: z.enum(APPLICATION_STATUSES).default('Running'),
          prerelease: z.boolean().default(false),
          hideInUserList: z.boolean().default(false),
          roles: z
            .array(
              z.strictObject({
                name: name200,
                description: z.string().max(1000).optional(),
                byHierarchy: z.boolean().default(false),
                scopes: z.array(z.string().regex(/^[a-z0-9./:_-]+$/)).default([]),
              }),
            )
            .default([]),
        }),
      )
      .default([]),
    users: z
      .array(
        z.strictObject({
          userName: z.email(),
          email: z.email().optional(),
          firstName: z.string().max(100).optional(),
          lastName: z.string().max(100).optional(),
          area: name200,
          language: z.enum(LANGUAGES).default('fr'),
          /** Set only when the user is created; never overwrites a password. */
          password: z.string().min(12).optional(),
          memberships: z
            .array(
              z.strictObject({
                /** Tenant title, or "Global". */
                tenant: name200,
                application: z.string().min(1).max(64),
                roles: z.array(name200).min(1),
                inheritable: z.boolean().default(true),
              }),
            )
            .default([]),
        }),
      )
      .default([]),
  })
  .strict()
  .superRefine((doc, ctx) => {
    for (const app of doc.applications) {
      if (app.type === 'confidential' && app.grantTypes.includes('authorization_code') && !app.secret && app.redirectUris.length > 0) {
        ctx.addIssue({ code: 'custom', path: ['applications', app.id, 'secret'], message: 'a confidential client needs a secret' });
      }
      if (app.type === 'public' && app.secret) {
        ctx.addIssue({ code: 'custom', path: ['applications', app.id, 'secret'], message: 'a public client has no secret' });
      }
      if (app.type === 'public' && app.grantTypes.includes('client_credentials')) {
        ctx.addIssue({ code: 'custom', path: ['applications', app.id, 'grantTypes'], message: 'a public client cannot use client_credentials' });
      }
    }
    if (doc.areas.filter((a) => a.default).length > 1) {
      ctx.addIssue({ code: 'custom', path: ['areas'], message: 'only one area can be the default' });
    }
  });

export type BootstrapDocument = z.infer<typeof bootstrapSchema>;
