import { X509Certificate } from 'node:crypto';
import { isApplicationUrl } from '@gatehouse/contracts';

/** The protocols an application signs users in with. */
export const APPLICATION_PROTOCOLS = ['oidc', 'saml'] as const;
export type ApplicationProtocol = (typeof APPLICATION_PROTOCOLS)[number];

/** The SAML bindings an assertion consumer service may be reached by (the product answers with HTTP-POST). */
export const SAML_BINDINGS = { post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect' } as const;
export const SAML_ACS_BINDINGS = [SAML_BINDINGS.post] as const;

/**
 * How a SAML application knows its users: by e-mail address, or by an opaque identifier of its
 * own (persistent: the same user always gets the same one in this application, another in any other).
 */
export const SAML_NAME_ID_FORMATS = ['email', 'persistent'] as const;
export type SamlNameIdFormat = (typeof SAML_NAME_ID_FORMATS)[number];

/** What the product can tell a SAML application about a user, each under the name the application chooses. */
export const SAML_ATTRIBUTE_SOURCES = ['email', 'firstName', 'lastName', 'displayName', 'userName', 'roles', 'company'] as const;
export type SamlAttributeSource = (typeof SAML_ATTRIBUTE_SOURCES)[number];

export interface SamlAssertionConsumerService {
  url: string;
  binding: (typeof SAML_ACS_BINDINGS)[number];
}

export interface SamlAttributeMapping {
  source: SamlAttributeSource;
  /** The attribute's Name in the assertion (e.g. `mail`, or a URI such as `urn:oid:0.9.2342.19200300.100.1.3`). */
  name: string;
}

/**
 * Where a SAML application may be sent the user's assertion (an assertion consumer service) or
 * signed-out browser: as an OIDC redirect URI, an absolute https address, or http on this
 * computer (loopback) for development; never with credentials or a fragment.
 */
export function isSamlEndpointUrl(value: string): boolean {
  return isApplicationUrl(value, { redirect: true });
}

/**
 * A service provider's entity id: an address as its endpoints (most SPs name themselves by their
 * metadata's URL), or a URN (`urn:…`, as some well-known services name themselves).
 */
export function isSamlEntityId(value: string): boolean {
  if (value !== value.trim() || value.length === 0 || value.length > 1000) return false;
  if (/^urn:[a-z0-9][a-z0-9-]{0,31}:\S+$/i.test(value)) return true;
  return isSamlEndpointUrl(value);
}

/** The longest RelayState passed through or configured (the standard says 80 bytes; some service providers send their return address). */
export const SAML_MAX_RELAY_STATE = 2000;

/**
 * Whether assertions can be encrypted for the holder of this certificate (PEM): its key must be
 * RSA, since the assertion's own key is sent to the service provider with RSA-OAEP.
 */
export function isEncryptionCertificate(pem: string): boolean {
  try {
    return new X509Certificate(pem).publicKey.asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
}
