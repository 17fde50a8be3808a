import { z } from 'zod';

/** How users sign in to an application: OpenID Connect, or SAML 2.0 (a service provider). */
export const APPLICATION_PROTOCOL_VALUES = ['oidc', 'saml'] as const;
export type ApplicationProtocolValue = (typeof APPLICATION_PROTOCOL_VALUES)[number];

/** The binding the identity provider posts assertions with, the only one an assertion consumer service is registered for. */
export const SAML_POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** email: the user's address; persistent: an opaque identifier of the user, of its own in each application. */
export const SAML_APPLICATION_NAME_ID_FORMATS = ['email', 'persistent'] as const;
export type SamlApplicationNameIdFormat = (typeof SAML_APPLICATION_NAME_ID_FORMATS)[number];

/** What an assertion may say about the user, each under the name the application chooses. */
export const SAML_APPLICATION_ATTRIBUTE_SOURCES = ['email', 'firstName', 'lastName', 'displayName', 'userName', 'roles', 'company'] as const;
export type SamlApplicationAttributeSource = (typeof SAML_APPLICATION_ATTRIBUTE_SOURCES)[number];

export const SAML_LIMITS = {
  entityId: 1000,
  url: 2000,
  assertionConsumerServices: 20,
  attributes: 50,
  attributeName: 500,
  certificate: 20_000,
  relayState: 2000,
  /** An uploaded or downloaded SP metadata document. */
  metadataBytes: 512 * 1024,
} as const;

// An empty optional text is no text.
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);

/**
 * A SAML application's settings as the console and the API send them. The addresses, the entity id
 * and the certificate are checked by the service, with the rules of the bootstrap file.
 */
export const samlSettingsBodySchema = z.strictObject({
  /** The service provider's entity id: an https address (http only on a loopback address), or a URN. */
  entityId: z.string().trim().min(1).max(SAML_LIMITS.entityId),
  /** Where assertions are posted (HTTP-POST), the first being the default one. */
  assertionConsumerServices: z
    .array(z.strictObject({ url: z.string().trim().max(SAML_LIMITS.url), binding: z.literal(SAML_POST_BINDING).default(SAML_POST_BINDING) }))
    .min(1)
    .max(SAML_LIMITS.assertionConsumerServices),
  /** Where the signed-out browser is sent (single logout); null: none. */
  singleLogoutUrl: optionalText(SAML_LIMITS.url),
  nameIdFormat: z.enum(SAML_APPLICATION_NAME_ID_FORMATS).default('email'),
  /** The attributes assertions carry, each under the application's own name. */
  attributes: z
    .array(z.strictObject({ source: z.enum(SAML_APPLICATION_ATTRIBUTE_SOURCES), name: z.string().trim().min(1).max(SAML_LIMITS.attributeName) }))
    .max(SAML_LIMITS.attributes)
    .default([]),
  /** The service provider's certificate (PEM), whose key signs its requests; null: none. */
  certificate: optionalText(SAML_LIMITS.certificate),
  /** Its authentication requests must be signed (needs `certificate`). */
  wantAuthnRequestsSigned: z.boolean().default(false),
  /** Its assertions are encrypted for it, with the key of `certificate` (RSA). */
  encryptAssertions: z.boolean().default(false),
  /** The RelayState of a sign-in started from the portal (where the application lands the user); null: none. */
  defaultRelayState: optionalText(SAML_LIMITS.relayState),
});
export type SamlSettingsBody = z.input<typeof samlSettingsBodySchema>;

/** The spec-style message of each missing SAML field. */
export const SAML_REQUIRED = {
  entityId: 'samlApplications.entity_id_required',
  assertionConsumerServices: 'samlApplications.acs_required',
} as const;
