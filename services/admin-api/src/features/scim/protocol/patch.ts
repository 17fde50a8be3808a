/** SCIM PATCH (RFC 7644 §3.5.2): add, replace and remove operations applied to a resource's JSON. */
import { ScimError } from './errors.js';
import { dateTimeValue, formatPath, isEmptyValue, matchesValue, memberOf, parsePath, validateFilter, type Filter } from './filter.js';
import {
  RESOURCE_TYPES,
  findAttribute,
  parseAttributePath,
  resolveAttribute,
  schemaOf,
  type AttributeDefinition,
  type ResolvedAttribute,
  type ResourceTypeName,
  type ScimResource,
} from './schemas.js';

export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export type PatchOperationName = 'add' | 'remove' | 'replace';

export interface PatchOperation {
  op: PatchOperationName;
  path?: string;
  value?: unknown;
}

type Json = Record<string, unknown>;

const invalidSyntax = (detail: string) => new ScimError(400, 'invalidSyntax', detail);
const invalidValue = (detail: string) => new ScimError(400, 'invalidValue', detail);
const mutability = (detail: string) => new ScimError(400, 'mutability', detail);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// The request

function parseOperation(raw: unknown, index: number): PatchOperation {
  const at = `Operations[${index}]`;
  if (!isObject(raw)) throw invalidSyntax(`${at} is not an object`);
  const op = memberOf(raw, 'op');
  const name = typeof op === 'string' ? op.toLowerCase() : undefined;
  if (name !== 'add' && name !== 'remove' && name !== 'replace') throw invalidSyntax(`${at}.op must be "add", "remove" or "replace", not ${JSON.stringify(op)}`);
  const path = memberOf(raw, 'path');
  if (path !== undefined && typeof path !== 'string') throw invalidSyntax(`${at}.path is not a string`);
  const value = memberOf(raw, 'value');
  if (name !== 'remove' && value === undefined) throw invalidSyntax(`${at} (${name}) has no value`);
  return { op: name, ...(path === undefined ? {} : { path }), ...(value === undefined ? {} : { value }) };
}

/** The operations of a PATCH body, or ScimError(400, 'invalidSyntax'). `op` is case-insensitive. */
export function parsePatchRequest(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw invalidSyntax('the PATCH body is not a JSON object');
  const schemas = memberOf(body, 'schemas');
  if (!Array.isArray(schemas) || !schemas.some((schema) => typeof schema === 'string' && schema.toLowerCase() === PATCH_OP_SCHEMA.toLowerCase())) {
    throw invalidSyntax(`the PATCH body's schemas must be ["${PATCH_OP_SCHEMA}"]`);
  }
  const operations = memberOf(body, 'Operations');
  if (!Array.isArray(operations) || operations.length === 0) throw invalidSyntax('the PATCH body needs Operations, an array of one or more operations');
  return operations.map(parseOperation);
}

// ---------------------------------------------------------------------------------------------
// Targets

/** Where an operation with a path applies. */
interface Target extends ResolvedAttribute {
  filter?: Filter;
  text: string;
}

function resolveTarget(resourceType: ResourceTypeName, text: string): Target {
  const path = parsePath(text);
  const invalidPath = (why: string) => new ScimError(400, 'invalidPath', `invalid path ${JSON.stringify(text)}: ${why}`);
  if (path.filter && path.attribute.subAttribute) throw invalidPath('a filter applies to an attribute, not to a sub-attribute');
  if (path.attribute.uri && !schemaOf(resourceType, path.attribute.uri)) throw invalidPath(`unknown schema "${path.attribute.uri}"`);
  const subAttribute = path.subAttribute ?? path.attribute.subAttribute;
  const resolved = resolveAttribute(resourceType, { ...path.attribute, ...(subAttribute ? { subAttribute } : {}) });
  if (!resolved) throw invalidPath(`${resourceType} has no attribute ${formatPath({ ...path.attribute, subAttribute })}`);
  if (path.filter) {
    if (!resolved.attribute.multiValued || resolved.attribute.type !== 'complex') throw invalidPath(`${resolved.attribute.name} is not a multi-valued complex attribute`);
    validateFilter(path.filter, resourceType, resolved.attribute);
  }
  return { ...resolved, ...(path.filter ? { filter: path.filter } : {}), text };
}

/** The object holding the target's attribute: the resource, or its extension's object. */
function containerOf(resource: Json, target: ResolvedAttribute, create: boolean): Json | undefined {
  if (!target.extension) return resource;
  const existing = memberOf(resource, target.schema);
  if (isObject(existing)) return existing;
  if (!create) return undefined;
  setMember(resource, target.schema, undefined);
  const container: Json = {};
  resource[target.schema] = container;
  return container;
}

/** Sets `name` in `object` under its canonical spelling, dropping other spellings; an empty value unassigns it. */
function setMember(object: Json, name: string, value: unknown): void {
  for (const key of Object.keys(object)) if (key.toLowerCase() === name.toLowerCase()) delete object[key];
  if (!isEmptyValue(value)) object[name] = value;
}

function recordsOf(container: Json | undefined, attribute: AttributeDefinition): Json[] {
  const value = memberOf(container, attribute.name);
  return (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]).filter(isObject);
}

// ---------------------------------------------------------------------------------------------
// Values

/** One value of `definition`, checked against its type; "True"/"False" are taken for booleans. */
function coerce(definition: AttributeDefinition, value: unknown, where: string): unknown {
  const wrong = () => invalidValue(`${where} must be ${article(definition)}, not ${JSON.stringify(value)}`);
  switch (definition.type) {
    case 'complex':
      return coerceComplex(definition, value, where);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
      throw wrong();
    case 'integer':
      if (typeof value === 'number' && Number.isInteger(value)) return value;
      throw wrong();
    case 'decimal':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      throw wrong();
    case 'dateTime':
      if (dateTimeValue(value) !== undefined) return value;
      throw wrong();
    default:
      if (typeof value === 'string') return value;
      throw wrong();
  }
}

function article(definition: AttributeDefinition): string {
  if (definition.type === 'complex') return 'an object of sub-attributes';
  if (definition.type === 'dateTime') return 'a dateTime string';
  return definition.type === 'integer' ? 'an integer' : `a ${definition.type === 'decimal' ? 'number' : definition.type === 'boolean' ? 'boolean' : 'string'}`;
}

/**
 * A complex value with its sub-attributes checked and named canonically; readOnly and null ones are
 * dropped. A bare value stands for `{ value }` where the attribute has a `value` (as Entra sends a manager).
 */
function coerceComplex(definition: AttributeDefinition, value: unknown, where: string): Json {
  if (!isObject(value)) {
    const valueDefinition = findAttribute(definition.subAttributes, 'value');
    if (valueDefinition && !Array.isArray(value) && value !== null) return { value: coerce(valueDefinition, value, `${where}.value`) };
    throw invalidValue(`${where} must be an object of sub-attributes, not ${JSON.stringify(value)}`);
  }
  const result: Json = {};
  for (const [key, item] of Object.entries(value)) {
    const sub = findAttribute(definition.subAttributes, key);
    if (!sub) throw invalidValue(`${where} has no sub-attribute "${key}"`);
    if (sub.mutability === 'readOnly' || item === null || item === undefined) continue;
    result[sub.name] = coerce(sub, item, `${where}.${sub.name}`);
  }
  return result;
}

/** The values of a multi-valued attribute (a single value is taken as a list of one). */
function coerceList(definition: AttributeDefinition, value: unknown, where: string): unknown[] {
  const items = Array.isArray(value) ? value : [value];
  return items.filter((item) => item !== null).map((item, index) => coerce(definition, item, `${where}[${index}]`));
}

function coerceAttribute(definition: AttributeDefinition, value: unknown, where: string): unknown {
  if (definition.multiValued) return coerceList(definition, value, where);
  if (Array.isArray(value)) throw invalidValue(`${where} is single-valued: it takes no array`);
  return coerce(definition, value, where);
}

function sameString(definition: AttributeDefinition | undefined, left: unknown, right: unknown): boolean {
  if (typeof left !== 'string' || typeof right !== 'string') return left === right;
  return definition?.caseExact ? left === right : left.toLowerCase() === right.toLowerCase();
}

function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    return Array.isArray(left) && Array.isArray(right) && left.length === right.length && left.every((item, index) => deepEqual(item, right[index]));
  }
  if (!isObject(left) || !isObject(right)) return false;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => deepEqual(left[key], memberOf(right, key)));
}

/**
 * Whether two values of a multi-valued attribute are the same value: equal `value` (and `type`,
 * when both have one) for complex values with a `value`, deep equality for other complex values.
 */
function sameValue(definition: AttributeDefinition, left: unknown, right: unknown): boolean {
  if (definition.type !== 'complex') return sameString(definition, left, right);
  const valueDefinition = findAttribute(definition.subAttributes, 'value');
  if (!valueDefinition) return deepEqual(left, right);
  if (!sameString(valueDefinition, memberOf(left, 'value'), memberOf(right, 'value'))) return false;
  const [leftType, rightType] = [memberOf(left, 'type'), memberOf(right, 'type')];
  return leftType === undefined || rightType === undefined || sameString(undefined, leftType, rightType);
}

/** When a value written was made primary, the others stop being so (RFC 7644 §3.5.2). */
function settlePrimary(definition: AttributeDefinition, records: unknown[], written: unknown[]): void {
  if (!findAttribute(definition.subAttributes, 'primary')) return;
  const primary = written.find((record) => memberOf(record, 'primary') === true);
  if (!primary) return;
  for (const record of records) if (record !== primary && isObject(record) && memberOf(record, 'primary') === true) setMember(record, 'primary', false);
}

// ---------------------------------------------------------------------------------------------
// Mutability (RFC 7643 §2.2, RFC 7644 §3.5.2)

function refuseReadOnly(target: ResolvedAttribute, text: string): void {
  if (target.attribute.mutability === 'readOnly' || target.subAttribute?.mutability === 'readOnly') throw mutability(`${text} is read-only`);
}

/** An immutable attribute takes a value only when it has none. */
function refuseImmutableChange(definition: AttributeDefinition, before: unknown, after: unknown, text: string): void {
  if (definition.mutability === 'immutable' && !isEmptyValue(before) && !deepEqual(before, after)) throw mutability(`${text} is immutable: it keeps its value`);
}

/** A complex value keeps the values of its immutable sub-attributes. */
function refuseImmutableRecord(attribute: AttributeDefinition, before: unknown, after: unknown, text: string): void {
  for (const sub of attribute.subAttributes ?? []) refuseImmutableChange(sub, memberOf(before, sub.name), memberOf(after, sub.name), `${text} (${sub.name})`);
}

function refuseUnassigning(definition: AttributeDefinition, before: unknown, text: string): void {
  if (isEmptyValue(before)) return;
  if (definition.required) throw mutability(`${text} is required: it cannot be removed`);
  refuseImmutableChange(definition, before, undefined, text);
}

// ---------------------------------------------------------------------------------------------
// add and replace

type WriteMode = 'add' | 'replace';

function write(resource: Json, target: Target, value: unknown, mode: WriteMode): void {
  refuseReadOnly(target, target.text);
  if (target.filter) return writeFiltered(resource, target, target.filter, value, mode);
  if (target.subAttribute) return writeSubAttribute(resource, target, target.subAttribute, value);
  const { attribute } = target;
  const container = containerOf(resource, target, true)!;
  const before = memberOf(container, attribute.name);
  const coerced = coerceAttribute(attribute, value, target.text);
  let after: unknown = coerced;
  if (attribute.multiValued) {
    const records: unknown[] = mode === 'add' ? [...(Array.isArray(before) ? before : [])] : [];
    const added = (coerced as unknown[]).filter((item) => !records.some((record) => sameValue(attribute, record, item)));
    records.push(...added);
    settlePrimary(attribute, records, added);
    after = records;
  } else if (attribute.type === 'complex') {
    after = { ...(isObject(before) ? before : {}), ...(coerced as Json) };
    refuseImmutableRecord(attribute, before, after, target.text);
  }
  if (isEmptyValue(after)) refuseUnassigning(attribute, before, target.text);
  refuseImmutableChange(attribute, before, after, target.text);
  setMember(container, attribute.name, after);
}

/** `name.givenName`, `emails.value`: the sub-attribute of the complex value, or of each of its values. */
function writeSubAttribute(resource: Json, target: Target, sub: AttributeDefinition, value: unknown): void {
  const { attribute } = target;
  const container = containerOf(resource, target, true)!;
  const coerced = coerce(sub, value, target.text);
  if (!attribute.multiValued) {
    const before = memberOf(container, attribute.name);
    const record = { ...(isObject(before) ? before : {}) };
    refuseImmutableChange(sub, memberOf(record, sub.name), coerced, target.text);
    if (isEmptyValue(coerced)) refuseUnassigning(sub, memberOf(record, sub.name), target.text);
    setMember(record, sub.name, coerced);
    return setMember(container, attribute.name, record);
  }
  const records = recordsOf(container, attribute);
  if (records.length === 0) records.push({});
  for (const record of records) {
    refuseImmutableChange(sub, memberOf(record, sub.name), coerced, target.text);
    setMember(record, sub.name, coerced);
  }
  settlePrimary(attribute, records, records);
  setMember(container, attribute.name, records);
}

/** The value a filter such as `type eq "work"` (or an `and` of such) describes, for a value to create. */
function seedOf(filter: Filter, attribute: AttributeDefinition): Json | undefined {
  if (filter.type === 'and') {
    const [left, right] = [seedOf(filter.left, attribute), seedOf(filter.right, attribute)];
    return left && right ? { ...left, ...right } : undefined;
  }
  if (filter.type !== 'compare' || filter.operator !== 'eq' || filter.value === null) return undefined;
  const sub = findAttribute(attribute.subAttributes, filter.path.attribute);
  return sub && sub.mutability !== 'readOnly' ? { [sub.name]: filter.value } : undefined;
}

/**
 * `emails[type eq "work"]`, `addresses[type eq "work"].streetAddress`: replace writes the matching
 * values (or their sub-attribute) and is noTarget when none matches (RFC 7644 §3.5.2.3); add does
 * the same, and when none matches adds a value made of the filter's `eq` terms and the value.
 */
function writeFiltered(resource: Json, target: Target, filter: Filter, value: unknown, mode: WriteMode): void {
  const { attribute, subAttribute } = target;
  const container = containerOf(resource, target, true)!;
  const records = recordsOf(container, attribute);
  const matched = records.filter((record) => matchesValue(filter, record, attribute));
  const written: Json[] = [];
  const coerced = subAttribute ? coerce(subAttribute, value, target.text) : coerceComplex(attribute, value, target.text);
  if (matched.length === 0) {
    const seed = mode === 'add' ? seedOf(filter, attribute) : undefined;
    if (!seed) throw new ScimError(400, 'noTarget', `no value of ${attribute.name} matches ${target.text}`);
    const added = subAttribute ? { ...seed, [subAttribute.name]: coerced } : { ...seed, ...(coerced as Json) };
    records.push(added);
    written.push(added);
  }
  for (const record of matched) {
    const index = records.indexOf(record);
    if (subAttribute) {
      refuseImmutableChange(subAttribute, memberOf(record, subAttribute.name), coerced, target.text);
      setMember(record, subAttribute.name, coerced);
      written.push(record);
    } else {
      records[index] = mode === 'add' ? { ...record, ...(coerced as Json) } : { ...(coerced as Json) };
      refuseImmutableRecord(attribute, record, records[index], target.text);
      written.push(records[index]);
    }
  }
  settlePrimary(attribute, records, written);
  setMember(container, attribute.name, records);
}

// ---------------------------------------------------------------------------------------------
// remove (RFC 7644 §3.5.2.2)

function remove(resource: Json, target: Target, value: unknown): void {
  refuseReadOnly(target, target.text);
  const { attribute, subAttribute, filter } = target;
  const container = containerOf(resource, target, false);
  if (!container) return;
  const before = memberOf(container, attribute.name);
  if (!filter && !subAttribute && (!attribute.multiValued || value === undefined)) {
    refuseUnassigning(attribute, before, target.text);
    return setMember(container, attribute.name, undefined);
  }
  let after: unknown;
  if (attribute.multiValued) {
    const records = attribute.type === 'complex' ? recordsOf(container, attribute) : Array.isArray(before) ? [...before] : [];
    const selected = (record: unknown) => (filter ? matchesValue(filter, record, attribute) : value === undefined || listed(attribute, value, record, target));
    after = records.flatMap((record) => (!selected(record) ? [record] : subAttribute ? withoutSubAttribute(record as Json, subAttribute, target.text) : []));
  } else {
    after = isObject(before) ? withoutSubAttribute(before, subAttribute!, target.text)[0] : before;
  }
  if (isEmptyValue(after)) refuseUnassigning(attribute, before, target.text);
  setMember(container, attribute.name, after);
}

/** Entra removes chosen values of a multi-valued attribute by giving them as the value of a remove without filter. */
function listed(attribute: AttributeDefinition, value: unknown, record: unknown, target: Target): boolean {
  return coerceList(attribute, value, target.text).some((item) => sameValue(attribute, record, item));
}

/** The value without the sub-attribute; nothing when nothing else is left. */
function withoutSubAttribute(record: Json, sub: AttributeDefinition, text: string): Json[] {
  const before = memberOf(record, sub.name);
  refuseUnassigning(sub, before, text);
  const copy = { ...record };
  setMember(copy, sub.name, undefined);
  return isEmptyValue(copy) ? [] : [copy];
}

// ---------------------------------------------------------------------------------------------
// Applying

function applyOperation(resource: Json, operation: PatchOperation, resourceType: ResourceTypeName): void {
  if (operation.path === undefined) {
    if (operation.op === 'remove') throw new ScimError(400, 'noTarget', 'remove needs a path');
    return applyWithoutPath(resource, operation, resourceType);
  }
  const target = resolveTarget(resourceType, operation.path);
  if (operation.op === 'remove') return remove(resource, target, operation.value);
  if (operation.value === null || (Array.isArray(operation.value) && operation.value.length === 0 && target.attribute.multiValued && !target.filter)) {
    if (operation.op === 'add') throw invalidValue(`add to ${operation.path} needs a value`);
    return remove(resource, target, undefined);
  }
  write(resource, target, operation.value, operation.op);
}

/**
 * add or replace without a path: each member of the value is an attribute path (`nickName`,
 * `name.givenName`, `urn:…:enterprise:2.0:User:department`) or a schema URN whose object holds
 * the extension's attributes (RFC 7644 §3.5.2.1, §3.5.2.3).
 */
function applyWithoutPath(resource: Json, operation: PatchOperation, resourceType: ResourceTypeName): void {
  if (!isObject(operation.value)) throw invalidValue(`${operation.op} without a path needs an object of attributes as its value`);
  for (const [key, value] of Object.entries(operation.value)) {
    const schema = schemaOf(resourceType, key);
    if (schema) {
      if (!isObject(value)) throw invalidValue(`the value of ${key} must be an object of its attributes`);
      for (const [name, item] of Object.entries(value)) applyMember(resource, operation, `${schema.id}:${name}`, item, resourceType);
    } else {
      applyMember(resource, operation, key, value, resourceType);
    }
  }
}

function applyMember(resource: Json, operation: PatchOperation, path: string, value: unknown, resourceType: ResourceTypeName): void {
  if (!parseAttributePath(path)) throw new ScimError(400, 'invalidPath', `${JSON.stringify(path)} is not an attribute name`);
  applyOperation(resource, { op: operation.op, path, value }, resourceType);
}

/** Drops emptied extensions and keeps `schemas` naming the core schema and each extension present. */
function settleSchemas(resource: Json, resourceType: ResourceTypeName): void {
  const type = RESOURCE_TYPES[resourceType];
  const listed = memberOf(resource, 'schemas');
  let schemas = Array.isArray(listed) ? listed.filter((schema): schema is string => typeof schema === 'string') : [];
  const has = (urn: string) => schemas.some((schema) => schema.toLowerCase() === urn.toLowerCase());
  if (!has(type.schema)) schemas = [type.schema, ...schemas];
  for (const { schema } of type.schemaExtensions) {
    const present = !isEmptyValue(memberOf(resource, schema));
    if (!present) setMember(resource, schema, undefined);
    if (present && !has(schema)) schemas.push(schema);
    if (!present) schemas = schemas.filter((item) => item.toLowerCase() !== schema.toLowerCase());
  }
  setMember(resource, 'schemas', schemas);
}

/**
 * `resource` with the operations of the PATCH `body` applied in order (RFC 7644 §3.5.2), as a new
 * object: a failing operation throws its ScimError and leaves `resource` as it was. The answer's
 * `schemas` names the extensions it has; `meta` is left to the caller.
 */
export function applyPatch(resource: ScimResource, body: unknown, resourceType: ResourceTypeName): ScimResource {
  const operations = parsePatchRequest(body);
  const result = structuredClone(resource) as Json;
  for (const operation of operations) applyOperation(result, operation, resourceType);
  settleSchemas(result, resourceType);
  return result;
}
