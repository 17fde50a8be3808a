import { X509Certificate } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { DOMParser } from '@xmldom/xmldom';
import { SAML_LIMITS, SAML_POST_BINDING, type ErrorCode, type SamlMetadata } from '@gatehouse/contracts';
import { AppError, ForbiddenAddressError, guardedLookup, isSpecialAddress, webhookAddressProblem } from '@gatehouse/core';

const NS = {
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
} as const;

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** The NameID formats the product gives, by the URI a service provider asks for them with. */
const NAME_ID_FORMATS: Record<string, SamlMetadata['nameIdFormat']> = {
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress': 'email',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent': 'persistent',
};

/** How long a service provider's address has to answer with its metadata. */
export const METADATA_TIMEOUT_MS = 10_000;

/** The metadata is unusable: a 422 naming what is wrong, on the field it came from. */
const unusable = (field: 'xml' | 'url', code: ErrorCode, params: Record<string, unknown> = {}, status = 422) =>
  new AppError(code, status, params, [{ field, code, params }]);

/**
 * Reads a service provider's SAML 2.0 metadata: its entity id, its assertion consumer services over
 * HTTP-POST (the default one first), its single logout address, its signing certificate, whether
 * it signs its requests and the NameID format it asks for. A document type declaration (the way to
 * entities and their expansion) is refused before any parser sees the text.
 */
export function readSpMetadata(xml: string, field: 'xml' | 'url' = 'xml'): SamlMetadata {
  if (Buffer.byteLength(xml) > SAML_LIMITS.metadataBytes) throw unusable(field, 'samlApplications.metadata_too_large', { limit: SAML_LIMITS.metadataBytes / 1024 });
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw unusable(field, 'samlApplications.metadata_dtd', {}, 400);
  const problems: string[] = [];
  const document = new DOMParser({
    locator: {},
    // The parser only warns of an unclosed element: metadata that is not well-formed is refused all the same.
    errorHandler: { warning: (message) => problems.push(message), error: (message) => problems.push(message), fatalError: (message) => problems.push(message) },
  }).parseFromString(xml, 'text/xml');
  const root = document?.documentElement;
  if (problems.length || !root) throw unusable(field, 'samlApplications.metadata_not_xml');

  const providers = entityDescriptors(root).filter((entity) => spDescriptor(entity));
  if (providers.length === 0) throw unusable(field, 'samlApplications.metadata_no_sp');
  if (providers.length > 1) throw unusable(field, 'samlApplications.metadata_several_sp');
  const entity = providers[0]!;
  const sp = spDescriptor(entity)!;

  const assertionConsumerServices = children(sp, NS.metadata, 'AssertionConsumerService')
    .filter((service) => service.getAttribute('Binding') === SAML_POST_BINDING && service.getAttribute('Location'))
    .map((service, position) => ({ service, position, index: Number(service.getAttribute('index') ?? Number.NaN) }))
    // The default one first (isDefault, else the lowest index), then in the document's order.
    .sort((a, b) => rank(b.service) - rank(a.service) || (Number.isFinite(a.index) && Number.isFinite(b.index) ? a.index - b.index : 0) || a.position - b.position)
    .map(({ service }): SamlMetadata['assertionConsumerServices'][number] => ({ url: service.getAttribute('Location')!.trim(), binding: SAML_POST_BINDING }));
  if (assertionConsumerServices.length === 0) throw unusable(field, 'samlApplications.metadata_no_post_acs');

  const logouts = children(sp, NS.metadata, 'SingleLogoutService').filter((service) => service.getAttribute('Location'));
  const logout = logouts.find((service) => service.getAttribute('Binding') === REDIRECT_BINDING) ?? logouts.find((service) => service.getAttribute('Binding') === SAML_POST_BINDING);

  const formats = children(sp, NS.metadata, 'NameIDFormat').map((format) => NAME_ID_FORMATS[textOf(format)] ?? null);

  return {
    entityId: (entity.getAttribute('entityID') ?? '').trim(),
    assertionConsumerServices: unique(assertionConsumerServices),
    singleLogoutUrl: logout?.getAttribute('Location')?.trim() || null,
    certificate: signingCertificate(sp),
    wantAuthnRequestsSigned: ['true', '1'].includes(sp.getAttribute('AuthnRequestsSigned') ?? ''),
    nameIdFormat: formats.find((format) => format !== null) ?? null,
  };
}

/**
 * Downloads a service provider's metadata from its address, under the rule of webhooks and
 * back-channel logout: https (http on this computer only), no private or loopback address unless
 * the deployment allows private networks (checked on the address connected to), no redirect, at
 * most {@link SAML_LIMITS.metadataBytes} within {@link METADATA_TIMEOUT_MS}.
 */
export async function downloadSpMetadata(address: string, allowPrivate: boolean, timeoutMs = METADATA_TIMEOUT_MS): Promise<string> {
  const problem = webhookAddressProblem(address, allowPrivate);
  if (problem === 'invalid') throw unusable('url', 'samlApplications.invalid_url', {}, 400);
  if (problem === 'private') throw unusable('url', 'samlApplications.private_address', {}, 400);
  const url = new URL(address);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) && isSpecialAddress(host)) throw unusable('url', 'samlApplications.private_address', {}, 400);
  try {
    return await fetchText(url, allowPrivate, timeoutMs);
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof ForbiddenAddressError) throw unusable('url', 'samlApplications.private_address', {}, 400);
    throw unusable('url', 'samlApplications.metadata_unreachable');
  }
}

function fetchText(url: URL, allowPrivate: boolean, timeoutMs: number): Promise<string> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      { headers: { accept: 'application/samlmetadata+xml, application/xml;q=0.9, text/xml;q=0.8' }, lookup: guardedLookup(allowPrivate) as never },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          response.resume();
          return reject(unusable('url', 'samlApplications.metadata_http_status', { status }));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > SAML_LIMITS.metadataBytes) {
            request.destroy(unusable('url', 'samlApplications.metadata_too_large', { limit: SAML_LIMITS.metadataBytes / 1024 }));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', reject);
      },
    );
    const deadline = setTimeout(() => request.destroy(unusable('url', 'samlApplications.metadata_timeout', { seconds: Math.round(timeoutMs / 1000) })), timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('error', reject);
  });
}

/** The EntityDescriptor at the root, or those of an EntitiesDescriptor (nested ones included). */
function entityDescriptors(element: Element): Element[] {
  if (element.namespaceURI !== NS.metadata) return [];
  if (element.localName === 'EntityDescriptor') return [element];
  if (element.localName !== 'EntitiesDescriptor') return [];
  return [...children(element, NS.metadata, 'EntityDescriptor'), ...children(element, NS.metadata, 'EntitiesDescriptor').flatMap(entityDescriptors)];
}

/** The entity's SAML 2.0 service provider role, if it has one. */
function spDescriptor(entity: Element): Element | undefined {
  return children(entity, NS.metadata, 'SPSSODescriptor').find((sp) => (sp.getAttribute('protocolSupportEnumeration') ?? '').split(/\s+/).includes(NS.protocol));
}

/** The certificate of a KeyDescriptor for signing (or for any use), as PEM; null when none parses. */
function signingCertificate(sp: Element): string | null {
  const descriptors = children(sp, NS.metadata, 'KeyDescriptor').filter((key) => (key.getAttribute('use') ?? 'signing') === 'signing');
  for (const descriptor of descriptors) {
    for (const keyInfo of children(descriptor, NS.dsig, 'KeyInfo')) {
      for (const data of children(keyInfo, NS.dsig, 'X509Data')) {
        for (const certificate of children(data, NS.dsig, 'X509Certificate')) {
          const pem = toPem(textOf(certificate));
          if (pem) return pem;
        }
      }
    }
  }
  return null;
}

function toPem(base64: string): string | null {
  const body = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return null;
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return null;
  }
}

const rank = (service: Element) => (service.getAttribute('isDefault') === 'true' ? 1 : 0);

function unique<T extends { url: string }>(list: T[]): T[] {
  return list.filter((item, index) => list.findIndex((other) => other.url === item.url) === index);
}

function textOf(element: Element): string {
  return (element.textContent ?? '').trim();
}

function children(element: Element, namespace: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).namespaceURI === namespace && (node as Element).localName === localName) found.push(node as Element);
  }
  return found;
}
