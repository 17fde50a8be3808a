import { APPLICATION_LIMITS, type ClientAuthentication } from '@gatehouse/contracts';
import { fieldErrorsOf } from '../directory/components/errors';
import type { FormInstance } from 'antd/es/form';
import type { ApplicationChanges, ApplicationDetail, NewApplication } from './applications-api';

/** What the application forms hold: texts as typed, URI lists with their blank rows. */
export interface ApplicationFormValues {
  /** Typed for a new application; an existing one's own (not sent: it cannot change). */
  id?: string;
  name?: string;
  /** OpenID Connect or SAML 2.0: chosen at creation, fixed afterwards. */
  protocol?: 'oidc' | 'saml';
  displayName?: string;
  description?: string;
  type: 'confidential' | 'public';
  privateUrl?: string;
  publicUrl?: string;
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  prerelease?: boolean;
  hideInUserList?: boolean;
  /** Off: the application signs nobody in. */
  enabled?: boolean;
  /** Users may sign in to it on devices without a browser (device code). */
  deviceFlow?: boolean;
  /** Its tokens must be sender-constrained (DPoP): token requests without a proof are refused. */
  requireDpop?: boolean;
  /** Its authorization requests must be pushed first (PAR). */
  requirePar?: boolean;
  /** Its authorization requests must be signed request objects (JAR). */
  requireSignedRequestObject?: boolean;
  /** The FAPI 2.0 Security Profile: it also requires PAR and DPoP. */
  fapi2?: boolean;
  /** How a confidential application authenticates (a public one: not at all). */
  clientAuthentication?: ClientAuthentication;
  /** Where its public keys are given: pasted (`jwks`) or at an address (`jwksUri`). Not sent. */
  keysSource?: KeysSource;
  /** The pasted JWKS, as typed (JSON). */
  jwks?: string;
  /** The address of its JWKS. */
  jwksUri?: string;
  /** The applications (ids) it may exchange users' tokens for. */
  tokenExchangeAudiences?: string[];
  icon?: string;
  /** A new image (data URL), null to remove the uploaded one, undefined to keep it. */
  iconImage?: string | null;
}

export type KeysSource = 'jwks' | 'jwksUri';

/** The fields whose server errors the forms show in place (a list's items as `redirectUris.0`). */
export const APPLICATION_FIELDS = [
  'id',
  'name',
  'protocol',
  'displayName',
  'description',
  'type',
  'privateUrl',
  'publicUrl',
  'redirectUris',
  'postLogoutRedirectUris',
  'enabled',
  'deviceFlow',
  'requireDpop',
  'requirePar',
  'requireSignedRequestObject',
  'fapi2',
  'clientAuthentication',
  'jwks',
  'jwksUri',
  'tokenExchangeAudiences',
  'icon',
  'iconImage',
] as const;

/** A new application's form before anything is typed: confidential, one redirect URI to fill in. */
export const NEW_APPLICATION_VALUES: ApplicationFormValues = {
  protocol: 'oidc',
  type: 'confidential',
  redirectUris: [''],
  postLogoutRedirectUris: [],
  prerelease: false,
  hideInUserList: false,
  enabled: true,
  deviceFlow: false,
  requireDpop: false,
  requirePar: false,
  requireSignedRequestObject: false,
  fapi2: false,
  clientAuthentication: 'client_secret_basic',
  keysSource: 'jwks',
  jwks: '',
  jwksUri: '',
  tokenExchangeAudiences: [],
};

/** An application as its General properties form shows it. */
export function formValuesOf(application: ApplicationDetail): ApplicationFormValues {
  return {
    id: application.id,
    protocol: application.protocol,
    displayName: application.displayName,
    description: application.description ?? '',
    type: application.type,
    privateUrl: application.privateUrl ?? '',
    publicUrl: application.publicUrl ?? '',
    redirectUris: application.redirectUris,
    postLogoutRedirectUris: application.postLogoutRedirectUris,
    prerelease: application.prerelease,
    hideInUserList: application.hideInUserList,
    enabled: application.enabled,
    deviceFlow: application.deviceFlow,
    requireDpop: application.requireDpop,
    requirePar: application.requirePar,
    requireSignedRequestObject: application.requireSignedRequestObject,
    fapi2: application.fapi2,
    clientAuthentication: application.clientAuthentication === 'none' ? 'client_secret_basic' : application.clientAuthentication,
    keysSource: application.jwksUri && !application.jwks ? 'jwksUri' : 'jwks',
    jwks: application.jwks ? JSON.stringify(application.jwks, null, 2) : '',
    jwksUri: application.jwksUri ?? '',
    tokenExchangeAudiences: application.tokenExchangeAudiences,
    icon: application.icon ?? '',
    iconImage: undefined,
  };
}

const text = (value: string | undefined) => value?.trim() ?? '';
const uris = (values: string[] | undefined) => (values ?? []).map((uri) => uri.trim()).filter(Boolean);

/** Members that only a private or a symmetric key has (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;
const PUBLIC_KEY_TYPES: readonly unknown[] = ['RSA', 'EC', 'OKP'];

/** A public key as the JWKS holds it. */
export type PublicJwk = { kty: 'RSA' | 'EC' | 'OKP'; [member: string]: unknown };

/** What is wrong with a pasted JWKS, keys numbered from 1. */
export type JwksProblem =
  | { problem: 'empty' | 'notJson' | 'notKeySet' }
  | { problem: 'tooManyKeys'; max: number }
  | { problem: 'keyNotPublic' | 'keyNotForSigning'; index: number }
  | { problem: 'privateKey'; index: number; member: string };

/**
 * Reads a pasted JWKS: a JSON object with a non-empty `keys` array of RSA, EC or OKP public keys
 * for signing. A key with a private member is never accepted, whatever else it holds.
 */
export function parseJwks(value: string | undefined): { keys: PublicJwk[] } | JwksProblem {
  const source = text(value);
  if (!source) return { problem: 'empty' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch {
    return { problem: 'notJson' };
  }
  const keys = isObject(parsed) ? parsed.keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0) return { problem: 'notKeySet' };
  if (keys.length > APPLICATION_LIMITS.jwksKeys) return { problem: 'tooManyKeys', max: APPLICATION_LIMITS.jwksKeys };
  for (const [position, key] of keys.entries()) {
    const index = position + 1;
    if (!isObject(key)) return { problem: 'keyNotPublic', index };
    const member = PRIVATE_MEMBERS.find((name) => name in key);
    if (member) return { problem: 'privateKey', index, member };
    if (!PUBLIC_KEY_TYPES.includes(key.kty)) return { problem: 'keyNotPublic', index };
    if (key.use !== undefined && key.use !== 'sig') return { problem: 'keyNotForSigning', index };
  }
  return { keys: keys as PublicJwk[] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The application needs public keys: it authenticates with private_key_jwt (a confidential one
 * only) or signs its authorization requests.
 */
export function needsKeys(values: Pick<ApplicationFormValues, 'type' | 'clientAuthentication' | 'requireSignedRequestObject'>): boolean {
  return (values.type === 'confidential' && values.clientAuthentication === 'private_key_jwt') || values.requireSignedRequestObject === true;
}

/** The protocol settings to send: what the form shows (FAPI 2.0 turns PAR and DPoP on), the keys only where they are used. */
function protocolOf(values: ApplicationFormValues) {
  const confidential = values.type === 'confidential';
  const fapi2 = values.fapi2 ?? false;
  const requireSignedRequestObject = values.requireSignedRequestObject ?? false;
  const clientAuthentication: ClientAuthentication = confidential ? (values.clientAuthentication ?? 'client_secret_basic') : 'client_secret_basic';
  const keys = needsKeys({ type: values.type, clientAuthentication, requireSignedRequestObject });
  const source = values.keysSource ?? 'jwks';
  const jwks = keys && source === 'jwks' ? parseJwks(values.jwks) : undefined;
  return {
    requireDpop: fapi2 || (values.requireDpop ?? false),
    requirePar: fapi2 || (values.requirePar ?? false),
    requireSignedRequestObject,
    fapi2,
    clientAuthentication,
    jwks: jwks && 'keys' in jwks ? { keys: jwks.keys } : null,
    jwksUri: keys && source === 'jwksUri' ? text(values.jwksUri) || null : null,
    tokenExchangeAudiences: confidential ? (values.tokenExchangeAudiences ?? []) : [],
  };
}

/**
 * The General properties to send: texts trimmed (an empty optional one is none), blank URI rows left
 * out. A SAML application has no redirect URIs, no secret and none of the OpenID Connect settings.
 */
export function changesOf(values: ApplicationFormValues): ApplicationChanges {
  if (values.protocol === 'saml') {
    return {
      displayName: text(values.displayName),
      description: text(values.description) || null,
      type: 'public',
      privateUrl: text(values.privateUrl) || null,
      publicUrl: text(values.publicUrl) || null,
      redirectUris: [],
      postLogoutRedirectUris: [],
      prerelease: values.prerelease ?? false,
      hideInUserList: values.hideInUserList ?? false,
      enabled: values.enabled ?? true,
      icon: text(values.icon) || null,
      ...(values.iconImage === undefined ? {} : { iconImage: values.iconImage }),
    };
  }
  return {
    displayName: text(values.displayName),
    description: text(values.description) || null,
    type: values.type,
    privateUrl: text(values.privateUrl),
    publicUrl: text(values.publicUrl) || null,
    redirectUris: uris(values.redirectUris),
    postLogoutRedirectUris: uris(values.postLogoutRedirectUris),
    prerelease: values.prerelease ?? false,
    hideInUserList: values.hideInUserList ?? false,
    enabled: values.enabled ?? true,
    deviceFlow: values.deviceFlow ?? false,
    ...protocolOf(values),
    icon: text(values.icon) || null,
    ...(values.iconImage === undefined ? {} : { iconImage: values.iconImage }),
  };
}

/** A new application to send: its id (none when left empty), its name and its General properties. */
export function newApplicationOf(values: ApplicationFormValues): NewApplication {
  return { ...changesOf(values), id: text(values.id) || null, name: text(values.name), ...(values.protocol === 'saml' ? { protocol: 'saml' as const } : {}) };
}

/**
 * Drops the blank rows of the URI lists from the form itself, so that the rows shown are the ones
 * sent and a server error on `redirectUris.1` lands on the second row.
 */
export function dropBlankUris(form: FormInstance<ApplicationFormValues>): void {
  for (const field of ['redirectUris', 'postLogoutRedirectUris'] as const) {
    const current: string[] = form.getFieldValue(field) ?? [];
    if (current.some((uri) => !uri?.trim())) form.setFieldValue(field, uris(current));
  }
}

/**
 * Puts the server's field errors under the form's fields (`redirectUris.1` under the list's second
 * row). Returns whether every one found its field, in which case the form alone says what to fix.
 */
export function showApplicationErrors(form: FormInstance, error: unknown): boolean {
  const errors = fieldErrorsOf(error);
  const placed = errors.filter((item) => (APPLICATION_FIELDS as readonly string[]).includes(item.field.split('.')[0]!));
  const byField = new Map<string, string[]>();
  for (const item of placed) {
    const field = fieldOf(item.field, form);
    byField.set(field, [...(byField.get(field) ?? []), item.message]);
  }
  if (byField.size) {
    form.setFields(
      [...byField].map(([field, messages]) => ({ name: field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), errors: messages })),
    );
  }
  return errors.length > 0 && placed.length === errors.length;
}

/**
 * The form field under which a server error on `field` shows: one on the keys (`jwks.keys.1`)
 * under the one of the pasted JWKS and its address that the form shows, one on an audience
 * (`tokenExchangeAudiences.2`) under the picker.
 */
function fieldOf(field: string, form: FormInstance): string {
  const root = field.split('.')[0]!;
  if (root === 'jwks' || root === 'jwksUri') return (form.getFieldValue('keysSource') as KeysSource | undefined) ?? 'jwks';
  return root === 'tokenExchangeAudiences' ? root : field;
}
