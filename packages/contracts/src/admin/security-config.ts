import { z } from 'zod';
import { listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { timestampSchema } from './users.js';

const SECURITY_CONFIG = '/api/v1/admin/securityConfig';

/**
 * The security settings a God user edits at run time, each one configuration document. The name
 * is the configuration's id and title: the product looks each one up by it.
 */
export const SECURITY_SETTINGS = ['GroupDomains', 'Lockout', 'PasswordPolicy', 'TokenLifetimes'] as const;
export type SecuritySettingName = (typeof SECURITY_SETTINGS)[number];

const int = () => z.number().int();

const passwordPolicyShape = {
  minLength: int().min(8).max(128).default(12),
  requireUppercase: z.boolean().default(true),
  requireLowercase: z.boolean().default(true),
  requireDigit: z.boolean().default(true),
  requireSymbol: z.boolean().default(true),
  /** Previous passwords that may not be used again. */
  historySize: int().min(0).max(24).default(7),
  /** A password older than this must be changed at the next sign-in; 0 never expires. */
  maxAgeDays: int().min(0).max(3650).default(90),
  /**
   * The strength a password must reach, as zxcvbn scores how easily it is guessed (0 too guessable
   * to 4 very unguessable; 3: about 10⁸ guesses); 0 leaves the estimate out.
   */
  minStrength: int().min(0).max(4).default(3),
};

const lockoutShape = {
  /** Wrong passwords or codes in a row that lock the account. */
  maxFailedAttempts: int().min(1).max(100).default(5),
  /** How long a temporary lock lasts. */
  lockoutMinutes: int().min(1).max(1440).default(5),
  /** The temporary lock that becomes permanent (only an administrator lifts it). */
  permanentAfterLockouts: int().min(1).max(100).default(3),
};

const DAY = 86_400;

// Access and ID tokens live at most an hour: a retired signing key stays published that long
// (plus a margin) for the tokens it signed to be verified.
const tokenLifetimesShape = {
  /** Access tokens of applications (opaque). */
  accessTokenSeconds: int().min(60).max(3600).default(3600),
  idTokenSeconds: int().min(60).max(3600).default(3600),
  /** The console's JWT access tokens for the admin API, verified without a call back: kept short. */
  adminApiAccessTokenSeconds: int().min(60).max(3600).default(900),
  /** Tokens of applications acting for themselves. */
  clientCredentialsSeconds: int().min(60).max(3600).default(600),
  /** Refresh tokens of browser applications. */
  refreshTokenPublicSeconds: int().min(300).max(30 * DAY).default(DAY),
  /** Refresh tokens of server applications. */
  refreshTokenConfidentialSeconds: int().min(300).max(90 * DAY).default(14 * DAY),
  /** The provider's sign-in session, and the grants it holds. */
  sessionSeconds: int().min(300).max(90 * DAY).default(14 * DAY),
};

const DOMAIN = /^[a-z0-9.-]+\.[a-z]{2,}$/;

const groupDomainsShape = {
  /** E-mail domains of the group's staff: they sign in with Microsoft only. */
  domains: z.array(z.string().trim().toLowerCase().regex(DOMAIN)).max(100),
  /** A fragment that, found in a user name, also requires the Microsoft sign-in. */
  domainFragment: z.string().trim().min(3).max(100).nullable(),
};

/** The password policy in force: what `GET /api/v1/admin/policy` answers and the SPAs show. */
export const passwordPolicySchema = z.object(passwordPolicyShape);
export type PasswordPolicy = z.output<typeof passwordPolicySchema>;
export const lockoutSettingsSchema = z.object(lockoutShape);
export type LockoutSettings = z.output<typeof lockoutSettingsSchema>;
export const tokenLifetimesSchema = z.object(tokenLifetimesShape);
export type TokenLifetimes = z.output<typeof tokenLifetimesSchema>;
export const groupDomainsSchema = z.object(groupDomainsShape);
export type GroupDomainSettings = z.output<typeof groupDomainsSchema>;

/**
 * What a God user may write in each setting's document: every key known (an unknown one is
 * refused by name), each value in its range. Keys left out take the product's defaults.
 */
export const SECURITY_SETTING_SCHEMAS = {
  GroupDomains: z.strictObject(groupDomainsShape),
  Lockout: z.strictObject(lockoutShape),
  PasswordPolicy: z.strictObject(passwordPolicyShape),
  TokenLifetimes: z.strictObject(tokenLifetimesShape),
} as const satisfies Record<SecuritySettingName, z.ZodType>;

/** Each setting's value, by name. */
export interface SecuritySettingValues {
  GroupDomains: GroupDomainSettings;
  Lockout: LockoutSettings;
  PasswordPolicy: PasswordPolicy;
  TokenLifetimes: TokenLifetimes;
}

/** A configuration as the console lists it (spec: id, title, description, body, modified by and on). */
export const securityConfigSchema = z.object({
  /** The setting's name. */
  id: z.enum(SECURITY_SETTINGS),
  title: z.string(),
  /** What the setting governs, in English (the console shows its own translation). */
  description: z.string(),
  /** The values in force, as a JSON string (defaults included). */
  body: z.string(),
  /** The same values as the YAML the editor shows. */
  yaml: z.string(),
  /** Null while the product's defaults apply (never saved). */
  modifiedByDisplayName: z.string().nullable(),
  modifiedOn: timestampSchema.nullable(),
});
export type SecurityConfig = z.output<typeof securityConfigSchema>;

export const securityConfigListSchema = listPage(securityConfigSchema);
export type SecurityConfigList = z.output<typeof securityConfigListSchema>;

export const securityConfigParams = z.object({ id: z.string().max(100) });

/** A new document for one setting, written in YAML (JSON, being YAML, is accepted too). */
export const securityConfigUpdateSchema = z.object({ body: z.string().min(1).max(20_000) });
export type SecurityConfigUpdate = z.input<typeof securityConfigUpdateSchema>;

/** `/api/v1/admin/securityConfig` (God) and `/api/v1/admin/policy` (every signed-in user). */
export const securityConfigRoutes = {
  list: defineRoute({
    method: 'GET',
    path: SECURITY_CONFIG,
    endpoint: 'securityConfig.list',
    access: 'roles',
    summary: 'Lists the security configurations with the values in force; $search matches the title',
    query: listQuery({ sortable: ['title'], defaultOrder: 'title asc' }),
    response: securityConfigListSchema,
  }),
  get: defineRoute({
    method: 'GET',
    path: `${SECURITY_CONFIG}/:id`,
    endpoint: 'securityConfig.get',
    access: 'roles',
    summary: 'One security configuration, by its name (GroupDomains, Lockout, PasswordPolicy, TokenLifetimes)',
    params: securityConfigParams,
    response: securityConfigSchema,
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${SECURITY_CONFIG}/:id`,
    endpoint: 'securityConfig.update',
    access: 'roles',
    summary: 'Replaces a security configuration with a YAML document, applied at once on every node; the change is written to the system log',
    params: securityConfigParams,
    body: securityConfigUpdateSchema,
    required: { body: 'securityConfig.invalid_yaml' },
    response: securityConfigSchema,
  }),
  policy: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/policy',
    endpoint: 'policy.get',
    access: 'signed-in',
    summary: 'The password policy in force, for the password rules the console shows',
    response: passwordPolicySchema,
  }),
} satisfies Record<string, RouteContract>;
