import { z } from 'zod';
import { APPLICATION_STATUSES, CLIENT_AUTHENTICATIONS, CLIENT_TYPES } from '../domain.js';
import { idSchema, listPage, listQuery } from '../list.js';
import { homeApplicationSchema } from '../portal/applications.js';
import { defineRoute, type RouteContract } from '../route.js';
import { APPLICATION_LIMITS } from './application-rules.js';
import { APPLICATION_PROTOCOL_VALUES, samlSettingsBodySchema } from './saml-settings.js';
import { timestampSchema } from './users.js';

/** The home launcher's answer: the caller's applications and where customers are sent. */
export const homeInfoSchema = z.object({
  applications: listPage(homeApplicationSchema),
  /** Where customers without the Identity application are sent. */
  clientPortalAppId: z.string().nullable(),
});
export type HomeInfo = z.output<typeof homeInfoSchema>;

/** A role of an application, for role pickers. */
export const applicationRoleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  byHierarchy: z.boolean(),
  applicationId: z.string(),
  applicationName: z.string(),
});
export type ApplicationRole = z.output<typeof applicationRoleSchema>;

/** Up to 10,000 roles at once (the spec's user role list limit), of every application or of one. */
export const applicationRolesQuerySchema = listQuery({
  sortable: ['name', 'applicationName'],
  defaultOrder: 'applicationName asc',
  maxTop: 10_000,
}).extend({ applicationId: z.string().min(1).max(64).optional() });

export const applicationRolesSchema = listPage(applicationRoleSchema);
export type ApplicationRoles = z.output<typeof applicationRolesSchema>;

const requiredText = (max: number) => z.string().trim().min(1).max(max);
// An empty optional text is no text.
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);
/**
 * A public key of an application (RFC 7517): RSA, elliptic-curve or Edwards-curve, never a
 * private or a symmetric one (the service refuses a key carrying a private member).
 */
const publicJwkSchema = z.looseObject({
  kty: z.enum(['RSA', 'EC', 'OKP']),
  kid: z.string().max(200).optional(),
  use: z.literal('sig').optional(),
  alg: z.string().max(20).optional(),
});

/** An application's public keys by value: a JWK Set of one to ten keys. */
export const applicationJwksSchema = z.strictObject({ keys: z.array(publicJwkSchema).min(1).max(APPLICATION_LIMITS.jwksKeys) });
export type ApplicationJwks = z.output<typeof applicationJwksSchema>;

const uriList = (min: number) => z.array(z.string().trim().max(APPLICATION_LIMITS.url)).min(min).max(APPLICATION_LIMITS.uris);

/** What the General properties form sets, at creation and later. URLs are checked by the service (isApplicationUrl). */
const applicationFields = {
  displayName: requiredText(APPLICATION_LIMITS.displayName),
  description: optionalText(APPLICATION_LIMITS.description),
  /** confidential: signs in with a shared secret (a server); public: without one (a browser or mobile app, PKCE). */
  type: z.enum(CLIENT_TYPES),
  /** Where its users open it (the portal's tile): required of an OpenID Connect application; a SAML one opens through the identity provider (checked by the service on a change). */
  privateUrl: optionalText(APPLICATION_LIMITS.url),
  publicUrl: optionalText(APPLICATION_LIMITS.url),
  /** At least one for an OpenID Connect application; a SAML one has none (checked by the service on a change). */
  redirectUris: uriList(0),
  postLogoutRedirectUris: uriList(0).default([]),
  prerelease: z.boolean().default(false),
  hideInUserList: z.boolean().default(false),
  /**
   * A disabled application signs nobody in, is missing from the launcher and may not call the
   * external API; absent from a change: unchanged.
   */
  enabled: z.boolean().optional(),
  /**
   * Users may also sign in to it on a device without a browser of its own (a TV, a command line,
   * a kiosk: the RFC 8628 device code); absent from a change: unchanged.
   */
  deviceFlow: z.boolean().optional(),
  /**
   * Its tokens must be sender-constrained (DPoP, RFC 9449): bound to a key the application holds,
   * and refused without a proof of it; absent from a change: unchanged.
   */
  requireDpop: z.boolean().optional(),
  /**
   * Its authorization requests must first be pushed to the provider (PAR, RFC 9126): a request
   * sent straight to the authorization endpoint is refused; absent from a change: unchanged.
   */
  requirePar: z.boolean().optional(),
  /**
   * Its authorization requests must be signed request objects (JAR, RFC 9101), signed with a key of
   * its JWKS; absent from a change: unchanged.
   */
  requireSignedRequestObject: z.boolean().optional(),
  /**
   * How a confidential application authenticates: its shared secret (HTTP Basic), or a JWT signed
   * with one of its keys (`private_key_jwt`, RFC 7523), which needs `jwks` or `jwksUri`; absent
   * from a change: unchanged. A public application authenticates not at all.
   */
  clientAuthentication: z.enum(CLIENT_AUTHENTICATIONS).optional(),
  /** Its public keys by value (for `private_key_jwt` and signed request objects); null: none; absent from a change: unchanged. */
  jwks: applicationJwksSchema.nullish(),
  /** Where the provider reads its public keys (https), instead of `jwks`; null or empty: none; absent from a change: unchanged. */
  jwksUri: z
    .string()
    .trim()
    .max(APPLICATION_LIMITS.url)
    .nullish()
    .transform((value) => (value === undefined ? undefined : value || null)),
  /**
   * The FAPI 2.0 Security Profile: pushed requests, PKCE with S256, DPoP-bound tokens, codes valid
   * 60 s, `iss` in the response, `private_key_jwt` authentication; absent from a change: unchanged.
   */
  fapi2: z.boolean().optional(),
  /**
   * The applications (ids) whose API this one may call for a signed-in user by exchanging the
   * user's token (RFC 8693 token exchange); absent from a change: unchanged.
   */
  tokenExchangeAudiences: z.array(z.string().trim().min(1).max(APPLICATION_LIMITS.id)).max(APPLICATION_LIMITS.exchangeAudiences).optional(),
  /** An icon name or an https URL; null: none. */
  icon: optionalText(APPLICATION_LIMITS.url),
  /** An uploaded image as a base64 data URL; null removes the uploaded one, absent keeps it. */
  iconImage: z
    .string()
    .max(Math.ceil((APPLICATION_LIMITS.iconBytes * 4) / 3) + 100)
    .nullish(),
};

/** A body (perhaps not yet valid) that creates a SAML application. */
const isSaml = (body: Partial<Record<string, unknown>> | null) => body?.protocol === 'saml';

/** Body of `POST /applications`. */
export const newApplicationSchema = z
  .strictObject({
    /** The application's id; absent: its name when that fits an id, else a generated one. */
    id: optionalText(APPLICATION_LIMITS.id),
    /** The OIDC client_id, read-only once created. */
    name: requiredText(APPLICATION_LIMITS.name),
    ...applicationFields,
    /**
     * oidc (the default) or saml: a SAML 2.0 service provider, which has no redirect URIs, no secret
     * and none of the OpenID Connect settings; its SAML settings come with it or later.
     */
    protocol: z.enum(APPLICATION_PROTOCOL_VALUES).default('oidc'),
    /** A SAML application's settings (`PUT /applications/{id}/saml` sets them later). */
    saml: samlSettingsBodySchema.optional(),
    redirectUris: applicationFields.redirectUris.default([]),
    type: applicationFields.type.default('confidential'),
    enabled: z.boolean().default(true),
    deviceFlow: z.boolean().default(false),
    requireDpop: z.boolean().default(false),
    requirePar: z.boolean().default(false),
    requireSignedRequestObject: z.boolean().default(false),
    clientAuthentication: z.enum(CLIENT_AUTHENTICATIONS).default('client_secret_basic'),
    fapi2: z.boolean().default(false),
    tokenExchangeAudiences: applicationFields.tokenExchangeAudiences.unwrap().default([]),
    /** Owners besides the creator, who always becomes one. */
    ownerIds: z.array(idSchema).max(100).default([]),
  })
  // Judged even when other fields are wrong, so that every missing field is named at once.
  .refine((body: Partial<Record<string, unknown>> | null) => isSaml(body) || (typeof body?.privateUrl === 'string' && body.privateUrl.trim() !== ''), {
    path: ['privateUrl'],
    params: { code: 'applications.private_url_required' },
    when: () => true,
  })
  .refine((body: Partial<Record<string, unknown>> | null) => isSaml(body) || (Array.isArray(body?.redirectUris) && body.redirectUris.length > 0), {
    path: ['redirectUris'],
    params: { code: 'applications.redirect_uris_required' },
    when: () => true,
  })
  .refine((body: Partial<Record<string, unknown>> | null) => isSaml(body) || body?.saml === undefined, {
    path: ['saml'],
    params: { code: 'samlApplications.settings_without_saml' },
    when: () => true,
  });
export type NewApplication = z.input<typeof newApplicationSchema>;

const readOnly = z.unknown().optional().describe('Read-only: a request that sends it is refused (applications.read_only_field)');

/** Body of `PUT /applications/{id}`: the General properties; the id and the name stay as created. */
export const updateApplicationSchema = z.strictObject({ ...applicationFields, id: readOnly, name: readOnly });
export type ApplicationChanges = z.input<typeof updateApplicationSchema>;

/** The spec's message for each missing field of the application forms. */
export const APPLICATION_REQUIRED = {
  name: 'applications.name_required',
  displayName: 'applications.display_name_required',
  privateUrl: 'applications.private_url_required',
  redirectUris: 'applications.redirect_uris_required',
} as const;

export const applicationStatusSchema = z.enum(APPLICATION_STATUSES);

/** An owner of an application: only owners may delete it. */
export const applicationOwnerSchema = z.object({
  id: z.string(),
  userName: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
});
export type ApplicationOwner = z.output<typeof applicationOwnerSchema>;

/** A row of the applications list. */
export const applicationSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  displayName: z.string(),
  description: z.string().nullable(),
  type: z.enum(CLIENT_TYPES),
  status: applicationStatusSchema,
  /** False: signs nobody in, whatever its status. */
  enabled: z.boolean(),
  prerelease: z.boolean(),
  hideInUserList: z.boolean(),
  privateUrl: z.string().nullable(),
  publicUrl: z.string().nullable(),
  /** How users sign in to it: OpenID Connect, or SAML 2.0 (its settings at `/applications/{id}/saml`). */
  protocol: z.enum(APPLICATION_PROTOCOL_VALUES),
  modifiedOn: timestampSchema,
  /** The caller owns it: only then may they delete it. */
  userIsOwner: z.boolean(),
  /** The Identity application, the portal or the console: part of the product, never deleted. */
  system: z.boolean(),
});
export type ApplicationSummary = z.output<typeof applicationSummarySchema>;

/** An application as its detail page shows it. Its secret is never part of it. */
export const applicationSchema = applicationSummarySchema.extend({
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  icon: z.string().nullable(),
  /** An image was uploaded as its icon (served at `/applications/icon/{id}`). */
  hasIconImage: z.boolean(),
  /** A confidential application has a shared secret; it was shown once, when generated. */
  hasSecret: z.boolean(),
  /** Users may sign in to it on devices without a browser (device code). */
  deviceFlow: z.boolean(),
  /** Its tokens are sender-constrained (DPoP): token requests without a proof are refused. */
  requireDpop: z.boolean(),
  /** Its authorization requests must be pushed first (PAR). */
  requirePar: z.boolean(),
  /** Its authorization requests must be signed request objects (JAR). */
  requireSignedRequestObject: z.boolean(),
  /** How it authenticates at the token endpoint; a public application: none. */
  clientAuthentication: z.enum([...CLIENT_AUTHENTICATIONS, 'none']),
  /** Its public keys by value, or null. */
  jwks: applicationJwksSchema.nullable(),
  /** Where its public keys are read, or null. */
  jwksUri: z.string().nullable(),
  /** The FAPI 2.0 Security Profile is on. */
  fapi2: z.boolean(),
  /** The applications (ids) it may exchange a user's token for (RFC 8693). */
  tokenExchangeAudiences: z.array(z.string()),
  owners: z.array(applicationOwnerSchema),
});
export type ApplicationDetail = z.output<typeof applicationSchema>;

/**
 * What a change that generated a shared secret answers: the application and, this once, the
 * secret in clear (null when none was generated). It is never readable again.
 */
export const savedApplicationSchema = applicationSchema.extend({ sharedSecret: z.string().nullable() });
export type SavedApplication = z.output<typeof savedApplicationSchema>;

/** A new shared secret, shown once. */
export const applicationSecretSchema = z.object({ sharedSecret: z.string() });
export type ApplicationSecret = z.output<typeof applicationSecretSchema>;

/** `{ id }` of `applications/{id}`: any text, so that an unknown id is the spec's "Application not found". */
export const applicationPathParams = z.object({ id: z.string().min(1).max(APPLICATION_LIMITS.name) });

export const APPLICATION_SORT_FIELDS = ['displayName', 'name', 'status', 'type', 'modifiedOn'] as const;

/** The applications list: the spec's query (lookups ask for up to 1,000,000 at once), optionally of one status. */
export const applicationListQuerySchema = listQuery({ sortable: APPLICATION_SORT_FIELDS, defaultOrder: 'displayName asc', maxTop: 1_000_000 }).extend({
  status: applicationStatusSchema.optional(),
});

/** `/api/v1/admin/applications/*`. */
export const applicationsRoutes = {
  homeInfo: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/applications/homeInfo',
    endpoint: 'applications.homeInfo',
    access: 'signed-in',
    summary: "The home launcher: the caller's applications with access and favourite flags",
    response: homeInfoSchema,
  }),
  roles: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/applications/approles',
    endpoint: 'applications.roles',
    access: 'roles',
    summary: 'The roles of every application (or of one), sorted by application then role name',
    query: applicationRolesQuerySchema,
    response: applicationRolesSchema,
  }),
  icon: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/applications/icon/:id',
    endpoint: 'applications.icon',
    access: 'signed-in',
    summary: "An application's icon, for the console (fetched with its token)",
    params: z.object({ id: z.string() }),
    produces: 'image/*',
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/applications',
    endpoint: 'applications.list',
    access: 'roles',
    summary: 'Lists the applications, sorted by display name, each with its status and whether the caller owns it',
    query: applicationListQuerySchema,
    response: listPage(applicationSummarySchema),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/applications',
    endpoint: 'applications.create',
    access: 'roles',
    summary: 'Creates an application owned by its creator; a confidential one gets a shared secret, answered this once',
    body: newApplicationSchema,
    required: APPLICATION_REQUIRED,
    examples: {
      body: {
        name: 'crm',
        displayName: 'CRM',
        type: 'confidential',
        privateUrl: 'https://crm.example.com/',
        redirectUris: ['https://crm.example.com/oidc/callback'],
      },
    },
    response: savedApplicationSchema,
    status: 201,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/applications/:id',
    endpoint: 'applications.get',
    access: 'roles',
    summary: 'Reads an application with its owners (never its secret)',
    params: applicationPathParams,
    response: applicationSchema,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/v1/admin/applications/:id',
    endpoint: 'applications.update',
    access: 'roles',
    summary: 'Changes the General properties; made confidential, the application gets a shared secret, answered this once',
    params: applicationPathParams,
    body: updateApplicationSchema,
    required: APPLICATION_REQUIRED,
    response: savedApplicationSchema,
  }),
  setStatus: defineRoute({
    method: 'PUT',
    path: '/api/v1/admin/applications/:id/:status',
    endpoint: 'applications.setStatus',
    access: 'roles',
    summary: 'Sets the status: Running, Maintenance (the application warns its users) or Stopped (no new sign-in)',
    params: applicationPathParams.extend({ status: applicationStatusSchema }),
    response: applicationSummarySchema,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/api/v1/admin/applications/:id',
    endpoint: 'applications.delete',
    access: 'roles',
    summary: 'Deletes an application with its roles, by one of its owners; the product’s own applications cannot be deleted',
    params: applicationPathParams,
  }),
  regenerateSecret: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/applications/:id/secret',
    endpoint: 'applications.regenerateSecret',
    access: 'roles',
    summary: 'Replaces the shared secret of a confidential application; the new one is answered this once',
    params: applicationPathParams,
    response: applicationSecretSchema,
  }),
  addOwner: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/applications/:id/owners',
    endpoint: 'applications.addOwner',
    access: 'roles',
    summary: 'Makes a user an owner of the application',
    params: applicationPathParams,
    body: z.strictObject({ userId: idSchema }),
    required: { userId: 'applications.owner_required' },
    response: z.array(applicationOwnerSchema),
  }),
  removeOwner: defineRoute({
    method: 'DELETE',
    path: '/api/v1/admin/applications/:id/owners/:userId',
    endpoint: 'applications.removeOwner',
    access: 'roles',
    summary: 'Removes an owner of the application',
    params: applicationPathParams.extend({ userId: idSchema }),
    response: z.array(applicationOwnerSchema),
  }),
} satisfies Record<string, RouteContract>;
