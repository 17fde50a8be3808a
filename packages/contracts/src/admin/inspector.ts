import { z } from 'zod';
import { HIERARCHY_TYPES } from '../domain.js';
import { defineRoute, type RouteContract } from '../route.js';
import { roleOriginSchema } from './role-origins.js';
import { timestampSchema } from './users.js';

/** What a pasted token turned out to be. */
export const INSPECTED_TOKEN_KINDS = ['idToken', 'accessToken', 'opaqueAccessToken', 'personalAccessToken', 'unknown'] as const;
export type InspectedTokenKind = (typeof INSPECTED_TOKEN_KINDS)[number];

/**
 * The signature of a JWT against the provider's published keys: valid, made with a key the
 * provider does not publish (or no longer), or not matching (a changed token). Opaque tokens have none.
 */
export const SIGNATURE_STATES = ['valid', 'invalid', 'unknownKey', 'notApplicable'] as const;
export type SignatureState = (typeof SIGNATURE_STATES)[number];

/** Whether the token may be used now, by its dates (or the provider's store for an opaque one). */
export const TOKEN_STATES = ['active', 'expired', 'notYetValid', 'unknown'] as const;
export type TokenState = (typeof TOKEN_STATES)[number];

export const inspectedSubjectSchema = z.object({
  id: z.string(),
  /** False when no account has this id (deleted, or a forged token). */
  found: z.boolean(),
  userName: z.string().nullable(),
  displayName: z.string().nullable(),
  locked: z.boolean(),
  draft: z.boolean(),
});
export type InspectedSubject = z.output<typeof inspectedSubjectSchema>;

/** The subject's effective roles in one application and tenant, right now. */
export const inspectedRoleGroupSchema = z.object({
  applicationId: z.string(),
  applicationName: z.string(),
  /** What the console shows of the application, before each role's name. */
  applicationDisplayName: z.string(),
  tenantId: z.string(),
  tenantName: z.string(),
  /** Each role with how the subject holds it there: in their own name, through a group, by hierarchy. */
  roles: z.array(z.object({ roleId: z.string(), roleName: z.string(), hierarchyType: z.enum(HIERARCHY_TYPES), origins: z.array(roleOriginSchema) })),
});
export type InspectedRoleGroup = z.output<typeof inspectedRoleGroupSchema>;

export const tokenInspectionSchema = z.object({
  kind: z.enum(INSPECTED_TOKEN_KINDS),
  /** The JOSE header of a JWT; null for an opaque token. */
  header: z.record(z.string(), z.unknown()).nullable(),
  /** The decoded claims of a JWT (even when its signature fails: they are what the token says); null otherwise. */
  claims: z.record(z.string(), z.unknown()).nullable(),
  signature: z.enum(SIGNATURE_STATES),
  /** A JWT issued by this provider (its `iss`); null for an opaque token. */
  issuedByThisProvider: z.boolean().nullable(),
  state: z.enum(TOKEN_STATES),
  issuedAt: timestampSchema.nullable(),
  expiresAt: timestampSchema.nullable(),
  /** Whose token it is: only for a token the provider vouches for (a valid signature, or found in its store). */
  subject: inspectedSubjectSchema.nullable(),
  effectiveRoles: z.array(inspectedRoleGroupSchema),
});
export type TokenInspection = z.output<typeof tokenInspectionSchema>;

export const inspectTokenSchema = z.object({ token: z.string().trim().min(1).max(16_000) });
export type InspectTokenBody = z.input<typeof inspectTokenSchema>;

/** `POST /api/v1/admin/inspector`: what a pasted token is, whether it holds, and what its subject may do now. */
export const inspectorRoutes = {
  inspect: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/inspector',
    endpoint: 'inspector.inspect',
    access: 'roles',
    summary:
      'Decodes a pasted token (ID token, JWT or opaque access token, personal access token), checks its signature against the provider’s keys and its dates, and lists its subject’s effective roles now; the token is never logged',
    body: inspectTokenSchema,
    required: { token: 'inspector.token_required' },
    response: tokenInspectionSchema,
  }),
} satisfies Record<string, RouteContract>;
