import { inflateRawSync } from 'node:zlib';
import { NS, SamlRefusal, childOf, protocolMessage, requestIdentity } from './xml.js';

/** The longest inflated message accepted (a request is a few kilobytes at most). */
const MAX_MESSAGE_BYTES = 64 * 1024;

/** What the identity provider reads of a service provider's AuthnRequest. */
export interface AuthnRequest {
  id: string;
  issuer: string;
  destination?: string;
  /** Where the SP wants the response (one of its registered assertion consumer services). */
  acsUrl?: string;
  acsIndex?: number;
  protocolBinding?: string;
  forceAuthn: boolean;
  isPassive: boolean;
  /** The NameID format its NameIDPolicy asks for, if any. */
  nameIdFormat?: string;
}

const base64 = (value: string, name: string): Buffer => {
  const text = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) throw new SamlRefusal(`${name} is not base64`);
  return Buffer.from(text, 'base64');
};

/** The XML of a message of the HTTP-Redirect binding (base64 of raw DEFLATE); `name` is its parameter's. */
export function decodeRedirectMessage(message: string, name = 'SAMLRequest'): string {
  try {
    return inflateRawSync(base64(message, name), { maxOutputLength: MAX_MESSAGE_BYTES }).toString('utf8');
  } catch (error) {
    if (error instanceof SamlRefusal) throw error;
    throw new SamlRefusal(`${name} is not a DEFLATE-compressed message (HTTP-Redirect binding)`);
  }
}

/** The XML of a message of the HTTP-POST binding (base64); `name` is its parameter's. */
export function decodePostMessage(message: string, name = 'SAMLRequest'): string {
  const bytes = base64(message, name);
  if (bytes.length > MAX_MESSAGE_BYTES) throw new SamlRefusal(`${name} is too large`);
  return bytes.toString('utf8');
}

const flag = (value: string | null): boolean => value === 'true' || value === '1';

/** Reads an AuthnRequest: its document (for its signature) and what it asks. */
export function readAuthnRequest(xml: string): { document: Document; request: AuthnRequest } {
  const { document, root } = protocolMessage(xml, 'AuthnRequest');
  const { id, issuer } = requestIdentity(root, 'AuthnRequest');
  const index = root.getAttribute('AssertionConsumerServiceIndex');
  if (index !== null && index !== '' && !/^\d{1,4}$/.test(index)) throw new SamlRefusal('AssertionConsumerServiceIndex is not a number');
  return {
    document,
    request: {
      id,
      issuer,
      destination: root.getAttribute('Destination') || undefined,
      acsUrl: root.getAttribute('AssertionConsumerServiceURL') || undefined,
      acsIndex: index ? Number(index) : undefined,
      protocolBinding: root.getAttribute('ProtocolBinding') || undefined,
      forceAuthn: flag(root.getAttribute('ForceAuthn')),
      isPassive: flag(root.getAttribute('IsPassive')),
      nameIdFormat: childOf(root, NS.protocol, 'NameIDPolicy')?.getAttribute('Format') || undefined,
    },
  };
}
