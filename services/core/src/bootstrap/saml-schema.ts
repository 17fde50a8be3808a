import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { SAML_ATTRIBUTE_SOURCES, SAML_BINDINGS, SAML_MAX_RELAY_STATE, SAML_NAME_ID_FORMATS, isEncryptionCertificate, isSamlEndpointUrl, isSamlEntityId } from '../domain/saml.js';

const endpoint = z.string().refine(isSamlEndpointUrl, 'expected an absolute https address (http only on a loopback address), without credentials or fragment');

/** A PEM certificate that parses. */
const certificate = z.string().refine((pem) => {
  try {
    new X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}, 'expected an X.509 certificate in PEM');

/** A SAML application's settings in the bootstrap file. */
export const samlSettingsSchema = z.strictObject({
  /** The service provider's entity id (an https address, or a URN). */
  entityId: z.string().refine(isSamlEntityId, 'expected an absolute https address (http only on a loopback address) or a URN'),
  /** Where assertions are posted (HTTP-POST), the first being the default one. */
  assertionConsumerServices: z
    .array(z.strictObject({ url: endpoint, binding: z.literal(SAML_BINDINGS.post).default(SAML_BINDINGS.post) }))
    .min(1, 'a SAML application needs an assertion consumer service'),
  singleLogoutUrl: endpoint.optional(),
  /** email (the user's address) or persistent (an opaque identifier of the user in this application). */
  nameIdFormat: z.enum(SAML_NAME_ID_FORMATS).default('email'),
  /** The attributes its assertions carry, each under the name the application expects. */
  attributes: z
    .array(z.strictObject({ source: z.enum(SAML_ATTRIBUTE_SOURCES), name: z.string().trim().min(1).max(500) }))
    .default([])
    .refine((list) => new Set(list.map((a) => a.name)).size === list.length, 'an attribute name is mapped twice'),
  /** The service provider's certificate (PEM), whose key signs its requests. */
  certificate: certificate.optional(),
  /** Its authentication requests must be signed (needs `certificate`). */
  wantAuthnRequestsSigned: z.boolean().default(false),
  /** Its assertions are encrypted for it, with the key of `certificate` (RSA). */
  encryptAssertions: z.boolean().default(false),
  /** The RelayState of a sign-in started from the portal (none: empty). */
  defaultRelayState: z.string().min(1).max(SAML_MAX_RELAY_STATE).optional(),
})
  .refine((saml) => !saml.wantAuthnRequestsSigned || saml.certificate, { path: ['certificate'], message: 'signed requests are checked with the certificate: declare it' })
  .refine((saml) => !saml.encryptAssertions || saml.certificate, { path: ['certificate'], message: 'assertions are encrypted for the key of the certificate: declare it' })
  .refine((saml) => !saml.encryptAssertions || !saml.certificate || isEncryptionCertificate(saml.certificate), {
    path: ['certificate'],
    message: 'assertions are encrypted with RSA-OAEP: the certificate must carry an RSA key',
  });

export type SamlSettingsDeclaration = z.infer<typeof samlSettingsSchema>;
