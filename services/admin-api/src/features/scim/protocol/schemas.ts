/** The attribute definitions of the SCIM core schemas (RFC 7643 §2.2, §3.1, §4, §7, §8.7.1). */

export const USER_SCHEMA_ID = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_USER_SCHEMA_ID = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP_SCHEMA_ID = 'urn:ietf:params:scim:schemas:core:2.0:Group';
/** The schema of a schema representation, as served by `/Schemas` (RFC 7643 §7). */
export const SCHEMA_SCHEMA_ID = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export type AttributeType = 'string' | 'boolean' | 'decimal' | 'integer' | 'dateTime' | 'binary' | 'reference' | 'complex';
export type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
export type Returned = 'always' | 'never' | 'default' | 'request';
export type Uniqueness = 'none' | 'server' | 'global';

/** An attribute's characteristics (RFC 7643 §2.2, §7). */
export interface AttributeDefinition {
  name: string;
  type: AttributeType;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: Mutability;
  returned: Returned;
  uniqueness: Uniqueness;
  subAttributes?: AttributeDefinition[];
  canonicalValues?: string[];
  referenceTypes?: string[];
}

/** A schema as `/Schemas` describes it: its URN, name, description and attributes. */
export interface SchemaDefinition {
  id: string;
  name: string;
  description: string;
  attributes: AttributeDefinition[];
}

export type ResourceTypeName = 'User' | 'Group';

/** A resource type (RFC 7643 §6): its core schema and its extensions. */
export interface ResourceTypeDefinition {
  id: ResourceTypeName;
  name: ResourceTypeName;
  endpoint: string;
  description: string;
  schema: string;
  schemaExtensions: { schema: string; required: boolean }[];
}

/** A SCIM resource as JSON. */
export type ScimResource = Record<string, unknown>;

/** An attribute path as written: `[uri ":"] attribute ["." subAttribute]` (RFC 7644 §3.10). */
export interface AttributePath {
  uri?: string;
  attribute: string;
  subAttribute?: string;
}

type Characteristics = Partial<Omit<AttributeDefinition, 'name' | 'type' | 'description' | 'subAttributes'>>;

/** An attribute with the defaults of RFC 7643 §2.2 for what `options` leaves out. */
function attr(name: string, type: AttributeType, description: string, options: Characteristics = {}): AttributeDefinition {
  return {
    name,
    type,
    multiValued: false,
    description,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...options,
  };
}

function complex(name: string, description: string, subAttributes: AttributeDefinition[], options: Characteristics = {}): AttributeDefinition {
  return { ...attr(name, 'complex', description, options), subAttributes };
}

/** The sub-attributes shared by the multi-valued attributes of RFC 7643 §2.4. */
function multiValuedSubAttributes(what: string, canonicalTypes?: string[], value = attr('value', 'string', `The ${what}.`)): AttributeDefinition[] {
  return [
    value,
    attr('display', 'string', 'A human-readable name, primarily used for display purposes.'),
    attr('type', 'string', `A label indicating the ${what}'s function.`, canonicalTypes ? { canonicalValues: canonicalTypes } : {}),
    attr('primary', 'boolean', `Whether this is the primary or preferred ${what}.`),
  ];
}

function multiValued(name: string, what: string, subAttributes: AttributeDefinition[], options: Characteristics = {}): AttributeDefinition {
  return complex(name, `The user's ${what}s.`, subAttributes, { multiValued: true, ...options });
}

const READ_ONLY = { mutability: 'readOnly' } as const;

/** The attributes every resource has (RFC 7643 §3, §3.1); `/Schemas` lists them under no schema. */
export const COMMON_ATTRIBUTES: readonly AttributeDefinition[] = [
  attr('schemas', 'reference', 'The URIs of the schemas the resource follows.', {
    multiValued: true,
    required: true,
    referenceTypes: ['uri'],
    mutability: 'readOnly',
    returned: 'always',
  }),
  attr('id', 'string', 'The identifier of the resource, issued by the service provider.', {
    required: true,
    caseExact: true,
    mutability: 'readOnly',
    returned: 'always',
    uniqueness: 'server',
  }),
  attr('externalId', 'string', 'An identifier of the resource as defined by the provisioning client.', { caseExact: true }),
  complex(
    'meta',
    'Resource metadata.',
    [
      attr('resourceType', 'string', 'The name of the resource type of the resource.', { caseExact: true, ...READ_ONLY }),
      attr('created', 'dateTime', 'When the resource was added to the service provider.', READ_ONLY),
      attr('lastModified', 'dateTime', 'When the resource was last updated.', READ_ONLY),
      attr('location', 'reference', 'The URI of the resource.', { caseExact: true, referenceTypes: ['uri'], ...READ_ONLY }),
      attr('version', 'string', 'The version (entity tag) of the resource.', { caseExact: true, ...READ_ONLY }),
    ],
    READ_ONLY,
  ),
];

const ADDRESS_SUB_ATTRIBUTES = [
  attr('formatted', 'string', 'The full mailing address, formatted for display.'),
  attr('streetAddress', 'string', 'The street address.'),
  attr('locality', 'string', 'The city or locality.'),
  attr('region', 'string', 'The state or region.'),
  attr('postalCode', 'string', 'The zip code or postal code.'),
  attr('country', 'string', 'The country name (ISO 3166-1 alpha-2).'),
  attr('type', 'string', "A label indicating the address's function.", { canonicalValues: ['work', 'home', 'other'] }),
  attr('primary', 'boolean', 'Whether this is the primary or preferred address.'),
];

const GROUP_MEMBERSHIP_SUB_ATTRIBUTES = [
  attr('value', 'string', 'The identifier of the group.', READ_ONLY),
  attr('$ref', 'reference', 'The URI of the group.', { referenceTypes: ['User', 'Group'], ...READ_ONLY }),
  attr('display', 'string', 'A human-readable name, primarily used for display purposes.', READ_ONLY),
  attr('type', 'string', 'How the user is a member: directly or through another group.', { canonicalValues: ['direct', 'indirect'], ...READ_ONLY }),
];

const NAME_SUB_ATTRIBUTES = [
  attr('formatted', 'string', 'The full name, formatted for display.'),
  attr('familyName', 'string', 'The family name, or last name.'),
  attr('givenName', 'string', 'The given name, or first name.'),
  attr('middleName', 'string', 'The middle name(s).'),
  attr('honorificPrefix', 'string', 'The honorific prefix(es), or title.'),
  attr('honorificSuffix', 'string', 'The honorific suffix(es).'),
];

/** urn:ietf:params:scim:schemas:core:2.0:User (RFC 7643 §4.1, §8.7.1). */
export const USER_SCHEMA: SchemaDefinition = {
  id: USER_SCHEMA_ID,
  name: 'User',
  description: 'User Account',
  attributes: [
    attr('userName', 'string', 'The unique identifier the user signs in with.', { required: true, uniqueness: 'server' }),
    complex('name', "The components of the user's real name.", NAME_SUB_ATTRIBUTES),
    attr('displayName', 'string', 'The name of the user, suitable for display to end-users.'),
    attr('nickName', 'string', 'The casual way to address the user.'),
    attr('profileUrl', 'reference', "A URI of the user's online profile.", { referenceTypes: ['external'] }),
    attr('title', 'string', "The user's title, such as 'Vice President'."),
    attr('userType', 'string', "The relationship between the organization and the user, such as 'Employee'."),
    attr('preferredLanguage', 'string', "The user's preferred written or spoken language (RFC 7231 Accept-Language)."),
    attr('locale', 'string', "The user's default location for localizing, such as 'en-US'."),
    attr('timezone', 'string', "The user's time zone in the IANA Time Zone database format, such as 'America/Los_Angeles'."),
    attr('active', 'boolean', "The user's administrative status."),
    attr('password', 'string', "The user's cleartext password, only ever written.", { mutability: 'writeOnly', returned: 'never' }),
    multiValued('emails', 'email address', multiValuedSubAttributes('email address', ['work', 'home', 'other'])),
    multiValued('phoneNumbers', 'phone number', multiValuedSubAttributes('phone number', ['work', 'home', 'mobile', 'fax', 'pager', 'other'])),
    multiValued('ims', 'instant messaging address', multiValuedSubAttributes('instant messaging address', ['aim', 'gtalk', 'icq', 'xmpp', 'msn', 'skype', 'qq', 'yahoo'])),
    multiValued(
      'photos',
      'photo',
      multiValuedSubAttributes('photo', ['photo', 'thumbnail'], attr('value', 'reference', 'The URL of the photo.', { referenceTypes: ['external'] })),
    ),
    multiValued('addresses', 'address', ADDRESS_SUB_ATTRIBUTES),
    complex('groups', 'The groups the user belongs to, directly or indirectly.', GROUP_MEMBERSHIP_SUB_ATTRIBUTES, { multiValued: true, ...READ_ONLY }),
    multiValued('entitlements', 'entitlement', multiValuedSubAttributes('entitlement')),
    multiValued('roles', 'role', multiValuedSubAttributes('role')),
    multiValued(
      'x509Certificates',
      'X.509 certificate',
      multiValuedSubAttributes('X.509 certificate', undefined, attr('value', 'binary', 'The DER encoding of the certificate, base64.', { caseExact: true })),
    ),
  ],
};

/** urn:ietf:params:scim:schemas:extension:enterprise:2.0:User (RFC 7643 §4.3, §8.7.1). */
export const ENTERPRISE_USER_SCHEMA: SchemaDefinition = {
  id: ENTERPRISE_USER_SCHEMA_ID,
  name: 'EnterpriseUser',
  description: 'Enterprise User',
  attributes: [
    attr('employeeNumber', 'string', 'The identifier the organization assigned to the user.'),
    attr('costCenter', 'string', 'The name of a cost center.'),
    attr('organization', 'string', 'The name of an organization.'),
    attr('division', 'string', 'The name of a division.'),
    attr('department', 'string', 'The name of a department.'),
    complex('manager', "The user's manager.", [
      attr('value', 'string', 'The id of the SCIM resource of the manager.'),
      attr('$ref', 'reference', 'The URI of the SCIM resource of the manager.', { referenceTypes: ['User'] }),
      attr('displayName', 'string', "The manager's display name.", READ_ONLY),
    ]),
  ],
};

/** urn:ietf:params:scim:schemas:core:2.0:Group (RFC 7643 §4.2, §8.7.1). */
export const GROUP_SCHEMA: SchemaDefinition = {
  id: GROUP_SCHEMA_ID,
  name: 'Group',
  description: 'Group',
  attributes: [
    attr('displayName', 'string', 'A human-readable name for the group.', { required: true }),
    complex(
      'members',
      'The members of the group.',
      [
        attr('value', 'string', 'The identifier of the member.', { mutability: 'immutable' }),
        attr('$ref', 'reference', 'The URI of the member.', { referenceTypes: ['User', 'Group'], mutability: 'immutable' }),
        attr('type', 'string', 'The kind of the member.', { canonicalValues: ['User', 'Group'], mutability: 'immutable' }),
        attr('display', 'string', 'A human-readable name of the member.'),
      ],
      { multiValued: true },
    ),
  ],
};

export const SCHEMAS: readonly SchemaDefinition[] = [USER_SCHEMA, ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA];

export const RESOURCE_TYPES: Readonly<Record<ResourceTypeName, ResourceTypeDefinition>> = {
  User: {
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'User Account',
    schema: USER_SCHEMA_ID,
    schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA_ID, required: false }],
  },
  Group: { id: 'Group', name: 'Group', endpoint: '/Groups', description: 'Group', schema: GROUP_SCHEMA_ID, schemaExtensions: [] },
};

/** A schema as served by `/Schemas/{id}`: `baseUrl` is the SCIM root, e.g. `https://example.com/v2`. */
export function schemaResource(schema: SchemaDefinition, baseUrl: string) {
  return {
    schemas: [SCHEMA_SCHEMA_ID],
    id: schema.id,
    name: schema.name,
    description: schema.description,
    attributes: schema.attributes,
    meta: { resourceType: 'Schema', location: `${baseUrl.replace(/\/+$/, '')}/Schemas/${schema.id}` },
  };
}

/** The schema `urn` names, if it is one of `resourceType`'s (URNs are case-insensitive, RFC 7644 §3.10). */
export function schemaOf(resourceType: ResourceTypeName, urn: string): SchemaDefinition | undefined {
  const wanted = urn.toLowerCase();
  return schemasOf(resourceType).find((schema) => schema.id.toLowerCase() === wanted);
}

/** The core schema of `resourceType` first, then its extensions. */
export function schemasOf(resourceType: ResourceTypeName): SchemaDefinition[] {
  const type = RESOURCE_TYPES[resourceType];
  const ids = [type.schema, ...type.schemaExtensions.map((extension) => extension.schema)];
  return ids.map((id) => SCHEMAS.find((schema) => schema.id === id)).filter((schema): schema is SchemaDefinition => schema !== undefined);
}

/** The attribute of `attributes` named `name`, case-insensitively. */
export function findAttribute(attributes: readonly AttributeDefinition[] | undefined, name: string): AttributeDefinition | undefined {
  const wanted = name.toLowerCase();
  return attributes?.find((attribute) => attribute.name.toLowerCase() === wanted);
}

const NAME = String.raw`\$?[A-Za-z][A-Za-z0-9_-]*`;
const ATTRIBUTE_PATH = new RegExp(String.raw`^(?:(urn:[A-Za-z0-9:._%-]+):)?(${NAME})(?:\.(${NAME}))?$`, 'i');

/** `text` split as an attribute path, or undefined when it is not one (RFC 7644 §3.10, Figure 1 `attrPath`). */
export function parseAttributePath(text: string): AttributePath | undefined {
  const match = ATTRIBUTE_PATH.exec(text);
  if (!match) return undefined;
  const [, uri, attribute, subAttribute] = match;
  return { ...(uri ? { uri } : {}), attribute, ...(subAttribute ? { subAttribute } : {}) };
}

/** Where an attribute path leads: the schema holding the attribute, the attribute, its sub-attribute. */
export interface ResolvedAttribute {
  /** The URN of the schema holding the attribute; the core schema's for the common attributes. */
  schema: string;
  /** Whether the attribute is an extension's, kept in the resource under the extension's URN. */
  extension: boolean;
  attribute: AttributeDefinition;
  subAttribute?: AttributeDefinition;
}

/**
 * The definition `path` names among `resourceType`'s attributes (case-insensitive, RFC 7644 §3.10):
 * `userName`, `name.givenName`, `emails.value`, `urn:…:core:2.0:User:userName`,
 * `urn:…:enterprise:2.0:User:manager.value`. A name without URN is looked for in the common and core
 * attributes, then in the extensions. Undefined when nothing matches or the URN is not one of the type's.
 */
export function resolveAttribute(resourceType: ResourceTypeName, path: string | AttributePath): ResolvedAttribute | undefined {
  const parts = typeof path === 'string' ? parseAttributePath(path) : path;
  if (!parts) return undefined;
  const [core, ...extensions] = schemasOf(resourceType);
  const schemas = parts.uri ? [schemaOf(resourceType, parts.uri)].filter((schema) => schema !== undefined) : [core, ...extensions];
  for (const schema of schemas) {
    const isCore = schema.id === core.id;
    const attribute = findAttribute(isCore ? [...COMMON_ATTRIBUTES, ...schema.attributes] : schema.attributes, parts.attribute);
    if (!attribute) continue;
    if (parts.subAttribute === undefined) return { schema: schema.id, extension: !isCore, attribute };
    const subAttribute = findAttribute(attribute.subAttributes, parts.subAttribute);
    return subAttribute ? { schema: schema.id, extension: !isCore, attribute, subAttribute } : undefined;
  }
  return undefined;
}
