/** Which attributes a response carries: `attributes`, `excludedAttributes` and `returned` (RFC 7644 §3.4.2.5, §3.9; RFC 7643 §2.2). */
import { ScimError } from './errors.js';
import { COMMON_ATTRIBUTES, resolveAttribute, schemaOf, schemasOf, type AttributeDefinition, type ResourceTypeName, type ScimResource } from './schemas.js';

export interface ProjectionOptions {
  /** Only these attributes (and those returned always); names as in `name.givenName`, `urn:…:User:manager`. */
  attributes?: readonly string[];
  /** The default set without these; attributes returned always stay. */
  excludedAttributes?: readonly string[];
}

/** A name of the list, resolved: the schema, and the lower-cased attribute and sub-attribute (none: the whole schema). */
interface Named {
  schema: string;
  attribute?: string;
  subAttribute?: string;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The names the resource type knows; unknown ones name nothing (and select nothing). */
function resolveNames(resourceType: ResourceTypeName, names: readonly string[]): Named[] {
  return names.flatMap((name): Named[] => {
    const schema = schemaOf(resourceType, name.trim());
    if (schema) return [{ schema: schema.id }];
    const resolved = resolveAttribute(resourceType, name.trim());
    if (!resolved) return [];
    const named: Named = { schema: resolved.schema, attribute: resolved.attribute.name.toLowerCase() };
    if (resolved.subAttribute) named.subAttribute = resolved.subAttribute.name.toLowerCase();
    return [named];
  });
}

/** How one attribute fares: dropped, or kept with the sub-attributes `include` accepts. */
type Verdict = { keep: 'none' } | { keep: 'some'; include: (sub: AttributeDefinition) => boolean };

const returnedByDefault = (definition: AttributeDefinition) => definition.returned === 'default' || definition.returned === 'always';

function verdict(schema: string, definition: AttributeDefinition, named: Named[], mode: 'attributes' | 'excluded'): Verdict {
  if (definition.returned === 'never') return { keep: 'none' };
  if (definition.returned === 'always') return { keep: 'some', include: (sub) => sub.returned !== 'never' };
  const name = definition.name.toLowerCase();
  const mine = named.filter((item) => item.schema === schema && (item.attribute === undefined || item.attribute === name));
  const whole = mine.some((item) => item.subAttribute === undefined);
  const subs = new Set(mine.flatMap((item) => (item.subAttribute ? [item.subAttribute] : [])));
  const subNamed = (sub: AttributeDefinition) => subs.has(sub.name.toLowerCase());
  if (mode === 'attributes') {
    if (whole) return { keep: 'some', include: (sub) => returnedByDefault(sub) || subNamed(sub) };
    if (subs.size === 0) return { keep: 'none' };
    return { keep: 'some', include: (sub) => sub.returned === 'always' || (sub.returned !== 'never' && subNamed(sub)) };
  }
  if (whole || definition.returned === 'request') return { keep: 'none' };
  return { keep: 'some', include: (sub) => sub.returned === 'always' || (returnedByDefault(sub) && !subNamed(sub)) };
}

/** The value with only the sub-attributes `include` keeps (of each of its values, when multi-valued). */
function pick(definition: AttributeDefinition, value: unknown, include: (sub: AttributeDefinition) => boolean): unknown {
  if (definition.type !== 'complex' || !definition.subAttributes) return value;
  const subAttributes = definition.subAttributes;
  const one = (item: unknown): Json | undefined => {
    if (!isObject(item)) return undefined;
    const kept = Object.entries(item).filter(([key]) => {
      const sub = subAttributes.find((candidate) => candidate.name.toLowerCase() === key.toLowerCase());
      return sub !== undefined && include(sub);
    });
    return kept.length ? Object.fromEntries(kept) : undefined;
  };
  if (!Array.isArray(value)) return one(value);
  const items = value.map(one).filter((item) => item !== undefined);
  return items.length ? items : undefined;
}

/** The attributes of one schema kept from `object` (the resource, or its extension's object). */
function projectObject(object: Json, schema: string, attributes: readonly AttributeDefinition[], named: Named[], mode: 'attributes' | 'excluded'): Json {
  const result: Json = {};
  for (const [key, value] of Object.entries(object)) {
    const definition = attributes.find((candidate) => candidate.name.toLowerCase() === key.toLowerCase());
    if (!definition) continue;
    const decision = verdict(schema, definition, named, mode);
    if (decision.keep === 'none') continue;
    const kept = pick(definition, value, decision.include);
    if (kept !== undefined) result[key] = kept;
  }
  return result;
}

/**
 * `resource` as a response carries it. `returned: never` (password) is never there, `always` (id,
 * schemas) always; with `attributes`, only the named attributes (and sub-attributes) are, with
 * `excludedAttributes` all the default ones but those named; `request` ones only when named in
 * `attributes`. Names are case-insensitive and may carry their schema URN; a schema URN names all
 * its attributes. Members the schemas do not define are left out.
 */
export function project(resource: ScimResource, resourceType: ResourceTypeName, options: ProjectionOptions = {}): ScimResource {
  if (options.attributes && options.excludedAttributes) {
    throw new ScimError(400, 'invalidValue', 'attributes and excludedAttributes cannot be given together');
  }
  const mode = options.attributes ? 'attributes' : 'excluded';
  const named = resolveNames(resourceType, options.attributes ?? options.excludedAttributes ?? []);
  const [core, ...extensions] = schemasOf(resourceType);
  const result = projectObject(resource, core.id, [...COMMON_ATTRIBUTES, ...core.attributes], named, mode);
  for (const extension of extensions) {
    const key = Object.keys(resource).find((candidate) => candidate.toLowerCase() === extension.id.toLowerCase());
    const value = key === undefined ? undefined : resource[key];
    if (!isObject(value)) continue;
    const projected = projectObject(value, extension.id, extension.attributes, named, mode);
    if (Object.keys(projected).length) result[key!] = projected;
  }
  return result;
}
