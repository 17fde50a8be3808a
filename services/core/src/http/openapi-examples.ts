import { createHash } from 'node:crypto';

type JsonSchema = Record<string, unknown>;

/** Finds the schema a `#/components/schemas/…` reference names. */
export type SchemaResolver = (ref: string) => JsonSchema | undefined;

/** The instant every generated date and time shows, so the document is the same at every build. */
const INSTANT = '2025-03-14T09:30:00.000Z';

/**
 * Values for a string, by the name of its property (first match wins). Each is tried against the
 * schema's pattern and lengths; one that does not fit gives way to the next source.
 */
const BY_NAME: ReadonlyArray<readonly [RegExp, string]> = [
  [/e-?mail|loginHint|helpdesk/i, 'ada@example.com'],
  [/^(userName|username|identityName)$/, 'ada.lovelace'],
  [/firstName/i, 'Ada'],
  [/lastName/i, 'Lovelace'],
  [/fullName|displayName$|actorName|createdByName|createByName|manager/i, 'Ada Lovelace'],
  [/^applicationDisplayName$|^displayAppName$/, 'Billing'],
  [/applicationName|appName|clientId|audience/i, 'billing'],
  [/areaName/i, 'Europe'],
  [/groupName|groupAlias/i, 'Accountants'],
  [/roleName|^role$/i, 'Reader'],
  [/tenantName|parentTitle|^title$/i, 'Finance'],
  [/(url|uri)$|^url|redirectTo|authority|termsOfUse|cookiePolicy|^support$|^portal$|^admin$/i, 'https://app.example.com'],
  [/phone/i, '+33612345678'],
  [/password|secret/i, 'correct-horse-battery-staple'],
  [/language|locale/i, 'en'],
  [/^ip$|address$/i, '192.0.2.10'],
  [/userAgent/i, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/128.0'],
  [/browser/i, 'Firefox 128'],
  [/jobTitle/i, 'Accountant'],
  [/taxNumber|viesNumber/i, 'FR40303265045'],
  [/fileName/i, 'users.xlsx'],
  [/contentType/i, 'application/pdf'],
  [/^alg$/, 'RS256'],
  [/^use$/, 'sig'],
  [/^kid$/, 'k-2025-03'],
  [/scopes?$/i, 'openid profile email'],
  [/(At|On|Date|Until)$|^date$/, INSTANT],
  [/(^id|Id|Ids|^uid)$/, ''],
  [/cursor|^next$/, 'eyJhZnRlciI6MjV9'],
  [/search/i, 'ada'],
  [/code$/i, '123456'],
  [/token/i, 'k3J9xQ2mW8vN5pL7rT4yB6cD'],
  [/description|reason|details|hint|message|text|body|error/i, 'Done as asked'],
  [/name$/i, 'Finance'],
];

/** Values for a string by its format, when its name says nothing that fits. */
const BY_FORMAT: Readonly<Record<string, string>> = {
  'date-time': INSTANT,
  date: INSTANT.slice(0, 10),
  time: '09:30:00',
  email: 'ada@example.com',
  uri: 'https://app.example.com',
  url: 'https://app.example.com',
  hostname: 'app.example.com',
  ipv4: '192.0.2.10',
  ipv6: '2001:db8::10',
  duration: 'P1D',
};

/** Booleans that are true in the usual case; any other shows false (not locked, not a draft). */
const FLAGS_USUALLY_SET = /^(is|has|can)[A-Z]|enabled|active|verified|allowed|valid|success|^ok$/i;

/** Last resorts for a string with a pattern nothing above fits (a sort order, a one-time code, a token). */
const FALLBACKS = ['example', 'name asc', '123456', 'ABCD-EFGH', 'a'];

/** A fixed uuid (version 4 layout) of its own for each name, so related ids do not all look the same. */
function uuidFor(name: string): string {
  const hex = createHash('sha256').update(name || 'id').digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const fits = (value: string, schema: JsonSchema): boolean =>
  value.length >= Number(schema.minLength ?? 0) &&
  value.length <= Number(schema.maxLength ?? Infinity) &&
  (typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(value));

function stringFor(schema: JsonSchema, name: string): string {
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const candidates: string[] = [];
  if (format === 'uuid') candidates.push(uuidFor(name));
  for (const [test, value] of BY_NAME) if (test.test(name)) candidates.push(value === '' ? uuidFor(name) : value);
  if (format && BY_FORMAT[format]) candidates.push(BY_FORMAT[format]);
  candidates.push(...FALLBACKS);
  const found = candidates.find((candidate) => fits(candidate, schema));
  if (found !== undefined) return found;
  // Only lengths stand in the way: pad or cut the first candidate to fit them.
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Infinity);
  return candidates[0]!.padEnd(min, 'x').slice(0, max);
}

function numberFor(schema: JsonSchema, integer: boolean): number {
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const exclusiveMinimum = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const exclusiveMaximum = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  // One where the bounds allow it: a count of the one item a generated list shows, a first page.
  let value = Math.max(1, minimum ?? -Infinity, exclusiveMinimum === undefined ? -Infinity : exclusiveMinimum + 1);
  if (maximum !== undefined && value > maximum) value = maximum;
  if (exclusiveMaximum !== undefined && value >= exclusiveMaximum) value = exclusiveMaximum - 1;
  if (typeof schema.multipleOf === 'number') value = Math.ceil(value / schema.multipleOf) * schema.multipleOf;
  return integer ? Math.ceil(value) : value;
}

/** The first type a schema allows, null last: an example shows a value where one may be. */
function typeOf(schema: JsonSchema): string | undefined {
  const { type } = schema;
  if (Array.isArray(type)) return (type.find((t) => t !== 'null') ?? type[0]) as string | undefined;
  if (typeof type === 'string') return type;
  if (schema.properties || schema.additionalProperties) return 'object';
  if (schema.items || schema.prefixItems) return 'array';
  return undefined;
}

const isNullOnly = (schema: JsonSchema) => schema.type === 'null';

const allowsNull = (schema: JsonSchema): boolean =>
  isNullOnly(schema) ||
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined)?.some(isNullOnly) === true;

interface Walk {
  resolve: SchemaResolver;
  /** References being expanded: one met again is a recursion, cut at its smallest valid form. */
  expanding: string[];
}

function instanceOf(schema: JsonSchema, name: string, walk: Walk): unknown {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null) ?? schema.enum[0];
  if (typeof schema.$ref === 'string') {
    const target = walk.resolve(schema.$ref);
    if (!target) throw new Error(`The API document refers to ${schema.$ref}, which it does not define`);
    const recursing = walk.expanding.includes(schema.$ref);
    walk.expanding.push(schema.$ref);
    try {
      return recursing ? smallest(target, name, walk) : instanceOf(target, name, walk);
    } finally {
      walk.expanding.pop();
    }
  }
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (choices) return instanceOf(choices.find((choice) => !isNullOnly(choice)) ?? choices[0]!, name, walk);
  if (Array.isArray(schema.allOf)) {
    // Intersections in this product are of objects: their examples merge.
    return Object.assign({}, ...(schema.allOf as JsonSchema[]).map((part) => instanceOf(part, name, walk)));
  }
  switch (typeOf(schema)) {
    case 'object':
      return objectOf(schema, walk, false);
    case 'array':
      return arrayOf(schema, name, walk, false);
    case 'string':
      return stringFor(schema, name);
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return FLAGS_USUALLY_SET.test(name);
    case 'null':
      return null;
    default:
      // A schema that allows anything: an empty object is a value of it.
      return {};
  }
}

/** A recursive schema met again: its required fields only, and its lists as short as they may be. */
function smallest(schema: JsonSchema, name: string, walk: Walk): unknown {
  const type = typeOf(schema);
  if (type === 'object') return objectOf(schema, walk, true);
  if (type === 'array') return arrayOf(schema, name, walk, true);
  return instanceOf(schema, name, walk);
}

function objectOf(schema: JsonSchema, walk: Walk, minimal: boolean): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const example: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (minimal && !required.has(key)) continue;
    example[key] = minimal ? smallestProperty(property, key, walk) : instanceOf(property, key, walk);
  }
  // A map (a record) shows one entry, under a key its key schema allows.
  const values = schema.additionalProperties;
  if (!minimal && Object.keys(properties).length === 0 && values && typeof values === 'object') {
    const keySchema = (schema.propertyNames ?? { type: 'string' }) as JsonSchema;
    const key = String(instanceOf({ type: 'string', ...keySchema }, 'key', walk));
    example[key] = instanceOf(values as JsonSchema, key, walk);
  }
  return example;
}

/** Inside a recursion cut, a list property becomes as short as it may be rather than recursing again. */
function smallestProperty(property: JsonSchema, key: string, walk: Walk): unknown {
  if (allowsNull(property)) return null;
  return typeOf(property) === 'array' && !property.$ref ? arrayOf(property, key, walk, true) : instanceOf(property, key, walk);
}

function arrayOf(schema: JsonSchema, name: string, walk: Walk, minimal: boolean): unknown[] {
  const minItems = Number(schema.minItems ?? 0);
  const maxItems = Number(schema.maxItems ?? Infinity);
  if (Array.isArray(schema.prefixItems)) return (schema.prefixItems as JsonSchema[]).map((item) => instanceOf(item, name, walk));
  const items = (schema.items ?? {}) as JsonSchema;
  const count = Math.min(Math.max(minItems, minimal ? 0 : 1), maxItems);
  if (count === 0) return [];
  // Distinct enum values when the list must hold unique items.
  if (schema.uniqueItems && Array.isArray(items.enum)) return items.enum.slice(0, count);
  const first = instanceOf(items, singular(name), walk);
  return Array.from({ length: count }, () => first);
}

const singular = (name: string) => name.replace(/ies$/, 'y').replace(/s$/, '');

/**
 * A realistic instance of a JSON schema, for the API document's examples: the schema's own example,
 * const, default or first enum value where it has one, otherwise a value built from its type,
 * format and the property's name (an e-mail address for `email`, a fixed uuid for an id, a fixed
 * instant for a date), within its lengths, bounds and pattern. References are followed; a recursive
 * schema stops at its smallest valid form. Generated from the schema on every build, so an example
 * cannot drift from what it illustrates.
 */
export function exampleFromSchema(schema: JsonSchema, resolve: SchemaResolver, name = ''): unknown {
  return instanceOf(schema, name, { resolve, expanding: [] });
}
