import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** A service provider's self-signed RSA certificate (CN=sp.example.com, valid until 2126), base64 DER as metadata carries it. */
export const SP_CERTIFICATE_BASE64 =
  'MIIDFTCCAf2gAwIBAgIUBvowToNkYMqlkZQdtRLIFBsmau4wDQYJKoZIhvcNAQELBQAwGTEXMBUGA1UEAwwOc3AuZXhhbXBsZS5jb20wIBcNMjYxMTMwMTYxODIzWhgPMjEyNjExMDYxNjE4MjNaMBkxFzAVBgNVBAMMDnNwLmV4YW1wbGUuY29tMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAsLkIYZiaeIfj+xwkIP1BGmykVABqwS8FsBG6SM+AwpO0YKHkE/w1APfR2+7SnhG48TK2gDco9+A2t8jwx15JSoS/rlhGSIT+LuysECsc5nlI/EtxR5+YtDLjekl6509S0irtj9kTfJKdcMGPz+xs9cMKnQfiixHO1czSul2lYGBhpb3a51wA7fk+MC6qzJmpQdeX/cc8FYpbD5nAvRCRyszQUBo3YEgvKMxG6mnhEROl50UzIHQV44X1RV2m7aTP6jAdHHoWoaJqQA07tKXdYg7IHP8uPhkiSjkyx+ki5QVBJZWElXQni15HmvfCFb63mUboT+yuFnlKLWhaA6b45QIDAQABo1MwUTAdBgNVHQ4EFgQUyhkmfdovGPA0aBeMFNi2J3fxfagwHwYDVR0jBBgwFoAUyhkmfdovGPA0aBeMFNi2J3fxfagwDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOCAQEAj2HjrcTzo2QIup0uGk7uDgft7iQdI9nUk/qDjk2t99F/4eLJAksyEvYmlRhQp80DNJTYJlo3R1sFC3dAZs6FCWvNIAG4WAEzL9Hpdy+H0MT6gEOCLAiAHFwfYHVGDYKCRwW6ombWqHdlW2pzJbnykXl1/ti1feZW6p3btgxditjisUmXJkRD88B2ZcwoAo/EbNLt4wUuJdOyqJBykTS2oFaHFNUIXb0EQLXORDOdrTpOJho8dU60tdHJ0hy0I+NE6bcO/vHReURR/BhUcGdZLySRI7ZeD2Q9lUnoRYSa/dYPLYYtMtWsuLO2YJcEC6yZalIqH9cMF60R9N5BvgZEyw==';

/** The same certificate as PEM. */
export const SP_CERTIFICATE_PEM = `-----BEGIN CERTIFICATE-----\n${SP_CERTIFICATE_BASE64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;

/** A self-signed certificate of an elliptic-curve key (CN=ec.example.com): it verifies signatures but cannot encrypt with RSA-OAEP. */
export const EC_CERTIFICATE_PEM = `-----BEGIN CERTIFICATE-----\n${'MIIBiTCCAS+gAwIBAgIUJgOwFmvLxZHQHJUWWk2rTV8qeBcwCgYIKoZIzj0EAwIwGTEXMBUGA1UEAwwOZWMuZXhhbXBsZS5jb20wIBcNMjYxMTMwMTYxODIzWhgPMjEyNjExMDYxNjE4MjNaMBkxFzAVBgNVBAMMDmVjLmV4YW1wbGUuY29tMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEMR3s4U8ulnrd3YatChx4eEBwAyjqeWE1nbIZq8R4HiHsukH3GaRnR34O68PfFZw9X37xLC0ULT+nF6M1HqqczqNTMFEwHQYDVR0OBBYEFM6AAt0owU2uAsTNyKAlW6WOfZT5MB8GA1UdIwQYMBaAFM6AAt0owU2uAsTNyKAlW6WOfZT5MA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIhALR4h6pyVYf9QGIRaI5KzteVKPIWwS5NFs2bcQHFCOQhAiBUklqgfABChxcYDhvMCXNzVdj+mkWUKOEBKcT8e/owow=='.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;

export interface SpMetadataOptions {
  entityId?: string;
  /** Text put before the root element (a document type declaration, for instance). */
  prolog?: string;
  signed?: boolean;
}

/**
 * A service provider's SAML 2.0 metadata as such software publishes it: a Redirect ACS (not taken),
 * two POST ones (the second the default), single logout over Redirect and POST, a signing and an
 * encryption key, and the NameID formats it accepts.
 */
export function spMetadata({ entityId = `https://sp-${randomBytes(4).toString('hex')}.example.com/saml/metadata`, prolog = '', signed = true }: SpMetadataOptions = {}): string {
  const base = new URL(entityId).origin;
  return `<?xml version="1.0" encoding="UTF-8"?>
${prolog}<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:SPSSODescriptor AuthnRequestsSigned="${signed}" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="encryption"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>not a certificate</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>
      ${SP_CERTIFICATE_BASE64.match(/.{1,76}/g)!.join('\n      ')}
    </ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${base}/saml/slo-post"/>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${base}/saml/slo"/>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${base}/saml/acs-redirect" index="0"/>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${base}/saml/acs-other" index="1"/>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${base}/saml/acs" index="2" isDefault="true"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>
`;
}

/** A SAML application with settings of its own (a fresh entity id); answers its id. */
export async function buildSamlApplication(dataSource: DataSource, name = `saml-${randomBytes(4).toString('hex')}`): Promise<{ id: string; entityId: string }> {
  const entityId = `https://${name}.example.com/saml/metadata`;
  await dataSource.query(`INSERT INTO applications (id, name, display_name, client_type, redirect_uris, protocol, private_url) VALUES ($1, $1, $2, 'public', '{}', 'saml', $3)`, [
    name,
    `SAML ${name}`,
    `https://${name}.example.com/`,
  ]);
  await dataSource.query(`INSERT INTO application_saml_settings (application_id, entity_id, assertion_consumer_services) VALUES ($1, $2, $3::jsonb)`, [
    name,
    entityId,
    JSON.stringify([{ url: `https://${name}.example.com/saml/acs`, binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST' }]),
  ]);
  return { id: name, entityId };
}
