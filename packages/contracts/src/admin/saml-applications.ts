import { z } from 'zod';
import { defineRoute, type RouteContract } from '../route.js';
import { applicationPathParams } from './applications.js';
import { SAML_APPLICATION_ATTRIBUTE_SOURCES, SAML_APPLICATION_NAME_ID_FORMATS, SAML_LIMITS, SAML_POST_BINDING, SAML_REQUIRED, samlSettingsBodySchema } from './saml-settings.js';

const assertionConsumerServiceSchema = z.object({ url: z.string(), binding: z.literal(SAML_POST_BINDING) });

/** A SAML application's stored settings. */
export const samlSettingsSchema = z.object({
  entityId: z.string(),
  assertionConsumerServices: z.array(assertionConsumerServiceSchema),
  singleLogoutUrl: z.string().nullable(),
  nameIdFormat: z.enum(SAML_APPLICATION_NAME_ID_FORMATS),
  attributes: z.array(z.object({ source: z.enum(SAML_APPLICATION_ATTRIBUTE_SOURCES), name: z.string() })),
  certificate: z.string().nullable(),
  wantAuthnRequestsSigned: z.boolean(),
  encryptAssertions: z.boolean(),
  defaultRelayState: z.string().nullable(),
});
export type SamlSettings = z.output<typeof samlSettingsSchema>;

/**
 * A SAML application as its SAML section shows it: its settings (null until they are set) and what
 * the service provider is given of the identity provider.
 */
export const samlApplicationSchema = z.object({
  applicationId: z.string(),
  settings: samlSettingsSchema.nullable(),
  /** The identity provider's entity id. */
  idpEntityId: z.string(),
  /** Where the service provider reads the identity provider's metadata (signed). */
  idpMetadataUrl: z.string(),
});
export type SamlApplication = z.output<typeof samlApplicationSchema>;

/** Body of the metadata import: the document itself (an uploaded file's text) or where to download it, one of them. */
export const samlMetadataSourceSchema = z.strictObject({
  xml: z.string().max(SAML_LIMITS.metadataBytes).optional(),
  url: z.string().trim().max(SAML_LIMITS.url).optional(),
});

/** What a service provider's metadata says, for the SAML form to be filled with (nothing is stored). */
export const samlMetadataSchema = z.object({
  entityId: z.string(),
  /** Its assertion consumer services over HTTP-POST, the default one first. */
  assertionConsumerServices: z.array(assertionConsumerServiceSchema),
  singleLogoutUrl: z.string().nullable(),
  /** The certificate its requests are signed with (PEM), or null. */
  certificate: z.string().nullable(),
  /** AuthnRequestsSigned of its SPSSODescriptor. */
  wantAuthnRequestsSigned: z.boolean(),
  /** The NameID format it asks for when it is one the product gives, else null. */
  nameIdFormat: z.enum(SAML_APPLICATION_NAME_ID_FORMATS).nullable(),
});
export type SamlMetadata = z.output<typeof samlMetadataSchema>;

const EXAMPLE_SETTINGS = {
  entityId: 'https://wiki.example.com/saml/metadata',
  assertionConsumerServices: [{ url: 'https://wiki.example.com/saml/acs', binding: SAML_POST_BINDING }],
  singleLogoutUrl: 'https://wiki.example.com/saml/logout',
  nameIdFormat: 'email',
  attributes: [
    { source: 'email', name: 'mail' },
    { source: 'roles', name: 'groups' },
  ],
  certificate: null,
  wantAuthnRequestsSigned: false,
  encryptAssertions: false,
  defaultRelayState: null,
} as const;

/** `/api/v1/admin/applications/{id}/saml` and the metadata import: SAML 2.0 applications (service providers). */
export const samlApplicationsRoutes = {
  getSaml: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/applications/:id/saml',
    endpoint: 'applications.getSaml',
    access: 'roles',
    summary: "A SAML application's settings (entity id, assertion consumer services, NameID, attributes, certificate) and the identity provider's metadata address",
    params: applicationPathParams,
    response: samlApplicationSchema,
    errors: { 404: 'No such application', 409: 'It signs in with OpenID Connect (samlApplications.not_saml), or it is one of the product’s own' },
    examples: { response: { applicationId: 'wiki', settings: EXAMPLE_SETTINGS, idpEntityId: 'https://id.example.com/saml', idpMetadataUrl: 'https://id.example.com/saml/metadata' } },
  }),
  setSaml: defineRoute({
    method: 'PUT',
    path: '/api/v1/admin/applications/:id/saml',
    endpoint: 'applications.setSaml',
    access: 'roles',
    summary: "Sets a SAML application's settings; its entity id may be no other application's",
    params: applicationPathParams,
    body: samlSettingsBodySchema,
    required: SAML_REQUIRED,
    response: samlApplicationSchema,
    errors: { 404: 'No such application', 409: 'It signs in with OpenID Connect, or another application has this entity id (samlApplications.entity_id_in_use)' },
    examples: { body: EXAMPLE_SETTINGS },
  }),
  readSamlMetadata: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/applications/samlMetadata',
    endpoint: 'applications.readSamlMetadata',
    access: 'roles',
    summary: "Reads a service provider's SAML 2.0 metadata, uploaded or downloaded from its address, and answers its settings for the form (nothing is stored)",
    body: samlMetadataSourceSchema,
    response: samlMetadataSchema,
    errors: { 422: 'Not the metadata of one service provider, or it could not be downloaded' },
    examples: {
      body: { url: 'https://wiki.example.com/saml/metadata' },
      response: {
        entityId: 'https://wiki.example.com/saml/metadata',
        assertionConsumerServices: [{ url: 'https://wiki.example.com/saml/acs', binding: SAML_POST_BINDING }],
        singleLogoutUrl: 'https://wiki.example.com/saml/logout',
        certificate: null,
        wantAuthnRequestsSigned: false,
        nameIdFormat: 'email',
      },
    },
  }),
} satisfies Record<string, RouteContract>;
