import { SAML_BINDINGS } from '@gatehouse/core';
import type { SamlKey } from './keys.js';
import { NAME_ID_FORMATS } from './response.js';
import { NS, samlId, samlInstant, signElement, xmlEscape } from './xml.js';

/** How long a service provider may keep the metadata before reading it again. */
const METADATA_VALIDITY_MS = 7 * 24 * 3600 * 1000;

/**
 * The identity provider's metadata: every published key (while keys rotate, the one signing and
 * the one retiring, so service providers reading it trust both), single logout and single sign-on
 * by HTTP-Redirect and HTTP-POST, the NameID formats. Signed by the key that signs now.
 */
export function idpMetadata(urls: { entityId: string; sso: string; slo: string }, keys: SamlKey[], now = new Date()): string {
  const id = samlId();
  const keyDescriptors = keys
    .map(
      (key) =>
        `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="${NS.dsig}"><ds:KeyName>${xmlEscape(key.kid)}</ds:KeyName><ds:X509Data><ds:X509Certificate>${key.certificateBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    )
    .join('');
  const xml =
    `<md:EntityDescriptor xmlns:md="${NS.metadata}" ID="${id}" entityID="${xmlEscape(urls.entityId)}" validUntil="${samlInstant(new Date(now.getTime() + METADATA_VALIDITY_MS))}">` +
    `<md:IDPSSODescriptor protocolSupportEnumeration="${NS.protocol}" WantAuthnRequestsSigned="false">` +
    keyDescriptors +
    `<md:SingleLogoutService Binding="${SAML_BINDINGS.redirect}" Location="${xmlEscape(urls.slo)}"/>` +
    `<md:SingleLogoutService Binding="${SAML_BINDINGS.post}" Location="${xmlEscape(urls.slo)}"/>` +
    Object.values(NAME_ID_FORMATS)
      .map((format) => `<md:NameIDFormat>${format}</md:NameIDFormat>`)
      .join('') +
    `<md:SingleSignOnService Binding="${SAML_BINDINGS.redirect}" Location="${xmlEscape(urls.sso)}"/>` +
    `<md:SingleSignOnService Binding="${SAML_BINDINGS.post}" Location="${xmlEscape(urls.sso)}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`;
  return signElement(xml, id, keys[0]!, 'first');
}
