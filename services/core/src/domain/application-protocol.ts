import { createPublicKey } from 'node:crypto';
import { isApplicationUrl } from '@gatehouse/contracts';
import type { FieldError } from '../errors/app-error.js';
import type { ClientAuthentication, ClientType } from './constants.js';

/** JWK members only a private or a symmetric key has (RFC 7518 §6). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
/** The curves of the elliptic-curve keys accepted, as Node names them (P-256, P-384, P-521). */
const EC_CURVES = new Set(['prime256v1', 'secp384r1', 'secp521r1']);

/** An application's protocol settings as they will be once a change is stored. */
export interface ProtocolSettings {
  clientType: ClientType;
  clientAuthentication: ClientAuthentication;
  requireSignedRequestObject: boolean;
  jwks: { keys: Record<string, unknown>[] } | null;
  jwksUri: string | null;
  fapi2: boolean;
  exchangeAudiences: string[];
}

/** What the checks know of the application and of the applications it names. */
export interface ProtocolFacts {
  /** The application's id (absent while it is being created: it has none yet). */
  id?: string;
  /** One of the product's own applications. */
  isProductOwn: boolean;
  /** Whether the body chose the authentication itself (a public application may not choose private_key_jwt). */
  authenticationSent: boolean;
  /** The named audiences that exist. */
  knownAudiences: ReadonlySet<string>;
  /** Which of them are the product's own. */
  productOwnAudiences: ReadonlySet<string>;
}

/**
 * Whether a public key can verify an application's signatures: RSA of 2048 bits or more, EC on
 * P-256, P-384 or P-521, or Ed25519; undefined when it can, else the message code.
 */
function keyProblem(jwk: Record<string, unknown>): FieldError['code'] | undefined {
  if (PRIVATE_MEMBERS.some((member) => member in jwk)) return 'applications.private_key_in_jwks';
  try {
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    const details = key.asymmetricKeyDetails ?? {};
    if (key.asymmetricKeyType === 'rsa' && (details.modulusLength ?? 0) >= 2048) return undefined;
    if (key.asymmetricKeyType === 'ec' && EC_CURVES.has(details.namedCurve ?? '')) return undefined;
    if (key.asymmetricKeyType === 'ed25519') return undefined;
  } catch {
    // Not a key at all: the same answer as a key of the wrong kind.
  }
  return 'applications.invalid_jwks';
}

/**
 * The protocol rules of an application (PAR, JAR, private_key_jwt, FAPI 2.0, token exchange) that
 * the schema cannot say, on the settings as they will be once the change is stored.
 */
export function protocolErrors(settings: ProtocolSettings, facts: ProtocolFacts): FieldError[] {
  const errors: FieldError[] = [];
  const confidential = settings.clientType === 'confidential';
  const privateKeyJwt = confidential && settings.clientAuthentication === 'private_key_jwt';
  if (!confidential && facts.authenticationSent && settings.clientAuthentication === 'private_key_jwt') {
    errors.push({ field: 'clientAuthentication', code: 'applications.public_client_authentication' });
  }
  if (settings.jwks && settings.jwksUri) errors.push({ field: 'jwksUri', code: 'applications.keys_twice' });
  if ((privateKeyJwt || settings.requireSignedRequestObject) && !settings.jwks && !settings.jwksUri) {
    errors.push({ field: 'jwks', code: 'applications.keys_required' });
  }
  settings.jwks?.keys.forEach((jwk, index) => {
    const code = keyProblem(jwk);
    if (code) errors.push({ field: `jwks.keys.${index}`, code, params: { index: index + 1 } });
  });
  if (settings.jwksUri !== null && !isApplicationUrl(settings.jwksUri)) errors.push({ field: 'jwksUri', code: 'applications.invalid_jwks_uri' });
  if (settings.fapi2 && !privateKeyJwt) errors.push({ field: 'fapi2', code: 'applications.fapi2_requires_private_key_jwt' });
  errors.push(...exchangeErrors(settings, facts));
  return errors;
}

function exchangeErrors(settings: ProtocolSettings, facts: ProtocolFacts): FieldError[] {
  if (!settings.exchangeAudiences.length) return [];
  if (facts.isProductOwn) return [{ field: 'tokenExchangeAudiences', code: 'applications.exchange_product_own' }];
  if (settings.clientType !== 'confidential') return [{ field: 'tokenExchangeAudiences', code: 'applications.exchange_requires_confidential' }];
  const errors: FieldError[] = [];
  settings.exchangeAudiences.forEach((id, index) => {
    const field = `tokenExchangeAudiences.${index}`;
    if (id === facts.id) errors.push({ field, code: 'applications.exchange_audience_self' });
    else if (!facts.knownAudiences.has(id)) errors.push({ field, code: 'applications.exchange_audience_unknown', params: { id } });
    else if (facts.productOwnAudiences.has(id)) errors.push({ field, code: 'applications.exchange_audience_product_own', params: { id } });
  });
  return errors;
}
