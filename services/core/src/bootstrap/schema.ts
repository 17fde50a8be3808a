import { SECURITY_SETTING_SCHEMAS, WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS, applicationJwksSchema, en as messages } from '@gatehouse/contracts';
import { z } from 'zod';
import { protocolErrors, type ProtocolSettings } from '../domain/application-protocol.js';
import { samlSettingsSchema } from './saml-schema.js';
import type { FieldError } from '../errors/app-error.js';
import {
  APPLICATION_STATUSES,
  CLIENT_AUTHENTICATIONS,
  CLIENT_TYPES,
  GRANT_TYPES,
  ID_TOKEN_ALGORITHMS,
  LANGUAGES,
  TENANT_CREATION_TYPES,
} from '../domain/constants.js';

const name200 = z.string().trim().min(1).max(200);
const uri = z.string().min(1).max(2000);

// A field the file leaves out stays undefined here: an existing row keeps its own value for it
// (administrators may have changed it since), and a new row takes CREATE_DEFAULTS.

const areaSchema = z.strictObject({ name: name200, default: z.boolean().optional(), system: z.boolean().optional() });

const tenantSchema = z.strictObject({
  /**
   * The tenant's id, kept from the deployment it was exported from (applications may know tenants
   * by id). Given, the tenant is found by it; left out, by its title in its area.
   */
  id: z.uuid().optional(),
  title: name200,
  area: name200,
  /** Title (or id, when titles repeat) of the parent tenant: declared earlier in the file, or already existing. */
  parent: name200.optional(),
  taxNumber: z.string().max(50).optional(),
  viesNumber: z.string().max(50).optional(),
  groupAlias: z.string().trim().max(200).optional(),
  creation: z.enum(TENANT_CREATION_TYPES).optional(),
  /** MFA: the tenant's users must give a second factor. */
  requiredTwoModeAuthentification: z.boolean().optional(),
  /** MFA: only a phishing-resistant second factor counts (a passkey, or signing in with Microsoft). */
  phishingResistantOnly: z.boolean().optional(),
});

const roleSchema = z.strictObject({
  name: name200,
  description: z.string().max(1000).optional(),
  byHierarchy: z.boolean().optional(),
  /** Consultants may ask for the role in operation requests. */
  operationRequestVisibility: z.boolean().optional(),
  /** Service managers may give the role directly. */
  serviceManagerVisibility: z.boolean().optional(),
  scopes: z.array(z.string().regex(/^[a-z0-9./:_-]+$/)).default([]),
});

/** The longest disclaimer text, in any one language. */
export const DISCLAIMER_MAX_LENGTH = 20_000;

/** An application's disclaimer: its text per language (`{ en: '…', fr: '…' }`), one at least. */
const disclaimerSchema = z
  .partialRecord(z.enum(LANGUAGES), z.string().trim().min(1).max(DISCLAIMER_MAX_LENGTH))
  .refine((texts) => Object.keys(texts).length > 0, 'a disclaimer needs its text in one language at least');

const applicationSchema = z.strictObject({
  id: z.string().trim().min(1).max(64),
  /** The OAuth client_id. */
  name: z.string().trim().min(1).max(200),
  displayName: name200,
  description: z.string().max(1000).optional(),
  type: z.enum(CLIENT_TYPES).optional(),
  /** Client secret of a confidential client; stored encrypted. */
  secret: z.string().min(32, 'a client secret needs at least 32 characters').optional(),
  firstParty: z.boolean().optional(),
  redirectUris: z.array(uri).optional(),
  postLogoutRedirectUris: z.array(uri).optional(),
  backchannelLogoutUri: uri.optional(),
  grantTypes: z.array(z.enum(GRANT_TYPES)).min(1).optional(),
  /** It may also sign users in on devices without a browser (RFC 8628 device code), public or confidential. */
  deviceFlow: z.boolean().optional(),
  /** Its tokens must be bound to a key it holds (DPoP, RFC 9449): token requests without a proof are refused. */
  requireDpop: z.boolean().optional(),
  /** Its authorization requests must be pushed first (PAR, RFC 9126). */
  requirePar: z.boolean().optional(),
  /** Its authorization requests must be request objects signed with one of its keys (JAR, RFC 9101). */
  requireSignedRequestObject: z.boolean().optional(),
  /** client_secret_basic (its secret) or private_key_jwt (a JWT signed with one of its keys, RFC 7523). */
  clientAuthentication: z.enum(CLIENT_AUTHENTICATIONS).optional(),
  /** Its public keys by value (a JWK Set). */
  jwks: applicationJwksSchema.optional(),
  /** Where its public keys are read, instead of `jwks`. */
  jwksUri: uri.optional(),
  /** The FAPI 2.0 Security Profile: PAR, PKCE S256, DPoP, 60-second codes, private_key_jwt. */
  fapi2: z.boolean().optional(),
  /** Ids of the applications (declared in this file) whose API it may call for a user by token exchange (RFC 8693). */
  tokenExchangeAudiences: z.array(z.string().trim().min(1).max(64)).optional(),
  idTokenAlgorithm: z.enum(ID_TOKEN_ALGORITHMS).optional(),
  privateUrl: uri.optional(),
  publicUrl: uri.optional(),
  icon: uri.optional(),
  status: z.enum(APPLICATION_STATUSES).optional(),
  prerelease: z.boolean().optional(),
  hideInUserList: z.boolean().optional(),
  /** Off: nobody signs in to it. */
  enabled: z.boolean().optional(),
  roles: z.array(roleSchema).default([]),
  /**
   * Terms users accept before using the application: version 1 when first declared, a new version
   * (to accept again) whenever the declared text differs from the latest one.
   */
  disclaimer: disclaimerSchema.optional(),
  /** `saml`: a SAML 2.0 service provider, described by `saml` (which may come later); OpenID Connect otherwise. */
  protocol: z.enum(['oidc', 'saml']).optional(),
  saml: samlSettingsSchema.optional(),
});

const membershipSchema = z.strictObject({
  /** Tenant title, or "Global". */
  tenant: name200,
  application: z.string().min(1).max(64),
  roles: z.array(name200).min(1),
  inheritable: z.boolean().optional(),
});

const userSchema = z.strictObject({
  userName: z.email(),
  email: z.email().optional(),
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  area: name200,
  language: z.enum(LANGUAGES).optional(),
  /** Profile category (the InternalCategory claim), e.g. "Project Manager": some categories approve operation requests. */
  internalCategory: z.string().trim().min(1).max(100).optional(),
  /** Set only when the user is created; never overwrites a password. */
  password: z.string().min(12).optional(),
  memberships: z.array(membershipSchema).default([]),
});

/** A group and the roles it holds in tenants. Its members are users: data, not configuration, never in the file. */
const groupSchema = z.strictObject({
  name: name200,
  area: name200,
  description: z.string().trim().max(1000).optional(),
  memberships: z.array(membershipSchema).default([]),
});

/** Standard Webhooks' form: `whsec_` and the key in base64, 24 bytes at least. */
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;

const webhookSchema = z.strictObject({
  /** The endpoint's id, kept from the deployment it was exported from. Left out, the endpoint is found by its url and application. */
  id: z.uuid().optional(),
  url: z.string().trim().min(1).max(WEBHOOK_LIMITS.url),
  description: z.string().trim().max(WEBHOOK_LIMITS.description).optional(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1),
  /** Id of the application whose events it hears besides the global ones; left out, a global endpoint. */
  application: z.string().trim().min(1).max(64).optional(),
  enabled: z.boolean().optional(),
  /** Its signing secret; left out, a new endpoint gets one of its own and an existing one keeps its own. */
  secret: z.string().regex(WEBHOOK_SECRET, 'a signing secret is whsec_ followed by at least 24 bytes in base64').optional(),
});

/** The security settings (the console's Security configuration), each as the console edits it: keys left out take the product's defaults. */
const securitySchema = z.strictObject({
  GroupDomains: SECURITY_SETTING_SCHEMAS.GroupDomains.optional(),
  Lockout: SECURITY_SETTING_SCHEMAS.Lockout.optional(),
  PasswordPolicy: SECURITY_SETTING_SCHEMAS.PasswordPolicy.optional(),
  TokenLifetimes: SECURITY_SETTING_SCHEMAS.TokenLifetimes.optional(),
});

type Defaults<T, K extends keyof T> = Required<Pick<T, K>>;
type ApplicationDeclaration = z.infer<typeof applicationSchema>;

/** What a row the bootstrap creates gets for a field the file leaves out. */
export const CREATE_DEFAULTS: {
  area: Defaults<z.infer<typeof areaSchema>, 'default' | 'system'>;
  tenant: Defaults<z.infer<typeof tenantSchema>, 'creation' | 'requiredTwoModeAuthentification'>;
  application: Defaults<
    ApplicationDeclaration,
    'type' | 'firstParty' | 'redirectUris' | 'postLogoutRedirectUris' | 'grantTypes' | 'deviceFlow' | 'requireDpop' | 'requirePar' | 'requireSignedRequestObject' | 'clientAuthentication' | 'fapi2' | 'tokenExchangeAudiences' | 'idTokenAlgorithm' | 'status' | 'prerelease' | 'hideInUserList' | 'enabled'
  >;
  role: Defaults<z.infer<typeof roleSchema>, 'byHierarchy' | 'operationRequestVisibility' | 'serviceManagerVisibility'>;
  user: Defaults<z.infer<typeof userSchema>, 'language'>;
  membership: Defaults<z.infer<typeof membershipSchema>, 'inheritable'>;
} = {
  area: { default: false, system: false },
  tenant: { creation: 'Manual', requiredTwoModeAuthentification: false },
  application: {
    type: 'confidential',
    firstParty: false,
    redirectUris: [],
    postLogoutRedirectUris: [],
    grantTypes: ['authorization_code', 'refresh_token'],
    deviceFlow: false,
    requireDpop: false,
    requirePar: false,
    requireSignedRequestObject: false,
    clientAuthentication: 'client_secret_basic',
    fapi2: false,
    tokenExchangeAudiences: [],
    idTokenAlgorithm: 'RS256',
    status: 'Running',
    prerelease: false,
    hideInUserList: false,
    enabled: true,
  },
  role: { byHierarchy: false, operationRequestVisibility: false, serviceManagerVisibility: false },
  user: { language: 'fr' },
  membership: { inheritable: true },
};

/** The fields of a declaration the file sets: those it leaves out are dropped. */
function definedFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/** A declaration's protocol settings, a field left out taking its default. */
function protocolSettingsOf(app: ApplicationDeclaration): ProtocolSettings {
  const settings = { ...CREATE_DEFAULTS.application, ...definedFields(app) };
  return {
    clientType: settings.type,
    clientAuthentication: settings.clientAuthentication,
    requireSignedRequestObject: settings.requireSignedRequestObject,
    jwks: app.jwks ?? null,
    jwksUri: app.jwksUri ?? null,
    fapi2: settings.fapi2,
    exchangeAudiences: settings.tokenExchangeAudiences,
  };
}

/** A protocol rule broken in the file, in the words the console shows (the file is read by operators, in English). */
function englishMessage(problem: FieldError): string {
  const text = (messages.applications as Record<string, string>)[problem.code.replace(/^applications\./, '')] ?? problem.code;
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(problem.params?.[key] ?? ''));
}

export const bootstrapSchema = z
  .object({
    areas: z.array(areaSchema).default([]),
    tenants: z.array(tenantSchema).default([]),
    applications: z.array(applicationSchema).default([]),
    users: z.array(userSchema).default([]),
    groups: z.array(groupSchema).default([]),
    security: securitySchema.optional(),
    webhooks: z.array(webhookSchema).default([]),
  })
  .strict()
  .superRefine((doc, ctx) => {
    for (const app of doc.applications) {
      // Judged as the application would be created: a field left out takes its default.
      const { type, grantTypes, redirectUris, clientAuthentication } = { ...CREATE_DEFAULTS.application, ...definedFields(app) };
      // A SAML application may come without its settings (added later, as in the console); settings need the protocol.
      if (app.saml !== undefined && app.protocol !== 'saml') {
        ctx.addIssue({ code: 'custom', path: ['applications', app.id, 'saml'], message: 'saml settings describe a SAML application only: add protocol: saml' });
      }
      // One that authenticates with its key (private_key_jwt) has no use for a secret.
      const needsSecret = type === 'confidential' && clientAuthentication === 'client_secret_basic';
      if (needsSecret && grantTypes.includes('authorization_code') && !app.secret && redirectUris.length > 0) {
        ctx.addIssue({ code: 'custom', path: ['applications', app.id, 'secret'], message: 'a confidential client needs a secret' });
      }
      if (type === 'public' && app.secret) {
        ctx.addIssue({ code: 'custom', path: ['applications', app.id, 'secret'], message: 'a public client has no secret' });
      }
      if (type === 'public' && grantTypes.includes('client_credentials')) {
        ctx.addIssue({ code: 'custom', path: ['applications', app.id, 'grantTypes'], message: 'a public client cannot use client_credentials' });
      }
      for (const problem of protocolErrors(protocolSettingsOf(app), {
        id: app.id,
        isProductOwn: false,
        authenticationSent: app.clientAuthentication !== undefined,
        knownAudiences: new Set(doc.applications.map((declared) => declared.id)),
        productOwnAudiences: new Set(),
      })) {
        ctx.addIssue({ code: 'custom', path: ['applications', app.id, ...problem.field.split('.')], message: englishMessage(problem) });
      }
    }
    doc.tenants.forEach((tenant, index) => {
      // As the console's MFA switch: phishing-resistant only is a kind of required second factor.
      if (tenant.phishingResistantOnly && tenant.requiredTwoModeAuthentification !== true) {
        ctx.addIssue({ code: 'custom', path: ['tenants', index, 'phishingResistantOnly'], message: `${messages.tenants.phishing_resistant_needs_mfa} (declare requiredTwoModeAuthentification: true)` });
      }
    });
    const webhookIds = doc.webhooks.map((webhook) => webhook.id).filter(Boolean);
    if (new Set(webhookIds).size !== webhookIds.length) ctx.addIssue({ code: 'custom', path: ['webhooks'], message: 'a webhook id is declared twice' });
    if (doc.areas.filter((a) => a.default).length > 1) {
      ctx.addIssue({ code: 'custom', path: ['areas'], message: 'only one area can be the default' });
    }
  });

export type BootstrapDocument = z.infer<typeof bootstrapSchema>;
