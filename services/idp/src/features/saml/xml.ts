import { X509Certificate, createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';

export const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

export const ALGORITHMS = {
  rsaSha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
  excC14n: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  enveloped: 'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
} as const;

/** A SAML message the identity provider refuses: the status it answers and what it tells the browser. */
export class SamlRefusal extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = 'SamlRefusal';
  }
}

/** Text or attribute value, escaped for XML. */
export const xmlEscape = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** A fresh message or assertion id (an NCName: it starts with a letter or underscore). */
export const samlId = (): string => `_${randomBytes(20).toString('hex')}`;

/** Instants as SAML writes them (UTC, second precision). */
export const samlInstant = (date: Date): string => `${date.toISOString().slice(0, 19)}Z`;

/**
 * Parses a message from outside. A document type declaration (the way to internal and external
 * entities, and to entity expansion) is refused before any parser sees the text, as is anything
 * that is not well-formed.
 */
export function parseXml(xml: string): Document {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlRefusal('document type declarations (DTD) and entities are not accepted in SAML messages');
  const problems: string[] = [];
  const document = new DOMParser({
    locator: {},
    errorHandler: { warning: () => undefined, error: (message) => problems.push(message), fatalError: (message) => problems.push(message) },
  }).parseFromString(xml, 'text/xml');
  if (problems.length || !document?.documentElement) throw new SamlRefusal(`the SAML message is not well-formed XML${problems[0] ? `: ${problems[0].split('\n')[0]}` : ''}`);
  return document;
}

/** The element's children in a namespace with a local name. */
export function childrenOf(element: Element, namespace: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).namespaceURI === namespace && (node as Element).localName === localName) found.push(node as Element);
  }
  return found;
}

/** The one child of that name, or undefined (refused when there are several). */
export function childOf(element: Element, namespace: string, localName: string): Element | undefined {
  const found = childrenOf(element, namespace, localName);
  if (found.length > 1) throw new SamlRefusal(`the SAML message has ${found.length} ${localName} elements where one is expected`);
  return found[0];
}

/** A SAML 2.0 protocol message of this kind, parsed: its document and root; anything else is refused naming what it is. */
export function protocolMessage(xml: string, kind: 'AuthnRequest' | 'LogoutRequest' | 'LogoutResponse'): { document: Document; root: Element } {
  const document = parseXml(xml);
  const root = document.documentElement!;
  if (root.namespaceURI !== NS.protocol || root.localName !== kind) throw new SamlRefusal(`expected a SAML 2.0 ${kind}, not ${root.localName ?? root.nodeName}`);
  return { document, root };
}

/** What every request carries: SAML 2.0, its ID and its Issuer (the service provider's entity id), each refused when missing. */
export function requestIdentity(root: Element, kind: 'AuthnRequest' | 'LogoutRequest'): { id: string; issuer: string } {
  if (root.getAttribute('Version') !== '2.0') throw new SamlRefusal('only SAML 2.0 requests are accepted (Version="2.0")');
  const id = root.getAttribute('ID');
  if (!id || id.length > 256) throw new SamlRefusal(`the ${kind} has no ID`);
  const issuer = childOf(root, NS.assertion, 'Issuer')?.textContent?.trim();
  if (!issuer) throw new SamlRefusal(`the ${kind} names no Issuer (the service provider’s entity id)`);
  return { id, issuer };
}

/** Every element of the document carrying this ID attribute value (more than one is a wrapping attempt). */
function elementsWithId(document: Document, id: string): number {
  let count = 0;
  const visit = (node: Element) => {
    for (const name of ['ID', 'Id', 'id']) if (node.getAttribute(name) === id) count++;
    for (let child = node.firstChild; child; child = child.nextSibling) if (child.nodeType === 1) visit(child as Element);
  };
  visit(document.documentElement!);
  return count;
}

/** The PEM of a certificate given as PEM or as bare base64 DER. */
export function certificatePem(certificate: string): string {
  if (certificate.includes('-----BEGIN')) return new X509Certificate(certificate).toString();
  const body = certificate.replace(/\s+/g, '');
  return new X509Certificate(Buffer.from(body, 'base64')).toString();
}

/**
 * Signs the element with this ID (enveloped, exclusive canonicalization, RSA-SHA256), the
 * signature placed where the schema wants it (right after the Issuer of a message or assertion,
 * first in metadata); the key's certificate goes in KeyInfo.
 */
export function signElement(xml: string, id: string, key: { privateKey: KeyObject; certificatePem: string }, placement: 'after-issuer' | 'first' = 'after-issuer'): string {
  const signer = new SignedXml({
    privateKey: key.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    publicCert: key.certificatePem,
    signatureAlgorithm: ALGORITHMS.rsaSha256,
    canonicalizationAlgorithm: ALGORITHMS.excC14n,
  });
  signer.addReference({ xpath: `//*[@ID='${id}']`, transforms: [ALGORITHMS.enveloped, ALGORITHMS.excC14n], digestAlgorithm: ALGORITHMS.sha256 });
  const location =
    placement === 'first'
      ? ({ reference: `//*[@ID='${id}']`, action: 'prepend' } as const)
      : ({ reference: `//*[@ID='${id}']/*[local-name(.)='Issuer']`, action: 'after' } as const);
  signer.computeSignature(xml, { prefix: 'ds', location });
  return signer.getSignedXml();
}

/**
 * Whether the message's root element is signed by the key of `certificate`: one enveloped
 * signature, a direct child of the root, whose one reference is the root itself (by its ID, which
 * no other element of the document carries), in RSA-SHA256.
 */
export function hasValidRootSignature(xml: string, document: Document, certificate: string): boolean {
  const root = document.documentElement!;
  const signature = childOf(root, NS.dsig, 'Signature');
  const id = root.getAttribute('ID');
  if (!signature || !id || elementsWithId(document, id) !== 1) return false;
  const verifier = new SignedXml({ publicCert: certificatePem(certificate), getCertFromKeyInfo: () => null });
  verifier.loadSignature(signature);
  if (verifier.signatureAlgorithm !== ALGORITHMS.rsaSha256) return false;
  try {
    if (!verifier.checkSignature(xml)) return false;
  } catch {
    return false;
  }
  const references = verifier.getReferences();
  return references.length === 1 && references[0]!.uri === `#${id}`;
}

/**
 * Whether a message of the HTTP-Redirect binding is signed by the key of `certificate`: the
 * signature covers the query's own encoded SAMLRequest (or SAMLResponse), RelayState and SigAlg (SAML bindings §3.4.4.1).
 */
export function hasValidRedirectSignature(rawQuery: string, certificate: string): boolean {
  const parts = new Map<string, string>();
  for (const pair of rawQuery.split('&')) {
    const eq = pair.indexOf('=');
    if (eq > 0) parts.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  const signature = parts.get('Signature');
  const sigAlg = parts.get('SigAlg');
  if (!signature || !sigAlg || decodeURIComponent(sigAlg) !== ALGORITHMS.rsaSha256) return false;
  const signed = ['SAMLRequest', 'SAMLResponse', 'RelayState', 'SigAlg']
    .filter((name) => parts.has(name))
    .map((name) => `${name}=${parts.get(name)}`)
    .join('&');
  const publicKey = createPublicKey(certificatePem(certificate));
  return verify('sha256', Buffer.from(signed), publicKey, Buffer.from(decodeURIComponent(signature.replace(/\+/g, '%20')), 'base64'));
}
