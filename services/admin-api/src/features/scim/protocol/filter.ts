/**
 * SCIM filters (RFC 7644 §3.4.2.2, Figure 1) and PATCH paths (§3.5.2): a tokenizer, a
 * recursive-descent parser giving a typed AST, an in-memory evaluator and a compiler to a
 * parameterised PostgreSQL condition.
 */
import { ScimError } from './errors.js';
import {
  findAttribute,
  parseAttributePath,
  resolveAttribute,
  schemaOf,
  type AttributeDefinition,
  type AttributePath,
  type ResourceTypeName,
  type ScimResource,
} from './schemas.js';

export type { AttributePath } from './schemas.js';

export const COMPARE_OPERATORS = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le'] as const;
export type CompareOperator = (typeof COMPARE_OPERATORS)[number];
export type FilterValue = string | number | boolean | null;

/** A filter's AST. Attribute names are kept as written; operators are lower-cased. */
export type Filter =
  | { type: 'compare'; path: AttributePath; operator: CompareOperator; value: FilterValue }
  | { type: 'present'; path: AttributePath }
  | { type: 'and'; left: Filter; right: Filter }
  | { type: 'or'; left: Filter; right: Filter }
  | { type: 'not'; filter: Filter }
  | { type: 'valuePath'; path: AttributePath; filter: Filter };

/** A PATCH path: `attrPath`, or `valuePath [subAttr]` (RFC 7644 §3.5.2). */
export interface PatchPath {
  attribute: AttributePath;
  filter?: Filter;
  subAttribute?: string;
}

/** What a filter may cost: its length, its expressions, its nesting of parentheses and brackets. */
export const FILTER_LIMITS = { maxLength: 4096, maxNodes: 200, maxDepth: 32 } as const;

// ---------------------------------------------------------------------------------------------
// Tokenizer

type Token =
  | { kind: 'word'; text: string; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: '(' | ')' | '[' | ']'; at: number }
  | { kind: 'end'; at: number };

const WORD_CHAR = /[A-Za-z0-9:._$+-]/;
const PUNCTUATION = new Set(['(', ')', '[', ']']);

const invalidFilter = (detail: string) => new ScimError(400, 'invalidFilter', detail);
const where = (at: number) => `at character ${at + 1}`;

function readString(text: string, at: number): { token: Token; next: number } {
  let end = at + 1;
  while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
  if (end >= text.length) throw invalidFilter(`unterminated string ${where(at)}`);
  let value: unknown;
  try {
    value = JSON.parse(text.slice(at, end + 1));
  } catch {
    throw invalidFilter(`invalid string ${where(at)}: not a JSON string`);
  }
  return { token: { kind: 'string', value: value as string, at }, next: end + 1 };
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    if (/\s/.test(char)) {
      at += 1;
    } else if (PUNCTUATION.has(char)) {
      tokens.push({ kind: char as '(' | ')' | '[' | ']', at });
      at += 1;
    } else if (char === '"') {
      const { token, next } = readString(text, at);
      tokens.push(token);
      at = next;
    } else if (WORD_CHAR.test(char)) {
      let end = at;
      while (end < text.length && WORD_CHAR.test(text[end])) end += 1;
      tokens.push({ kind: 'word', text: text.slice(at, end), at });
      at = end;
    } else {
      throw invalidFilter(`unexpected character ${JSON.stringify(char)} ${where(at)}`);
    }
  }
  tokens.push({ kind: 'end', at: text.length });
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Parser

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function describe(token: Token): string {
  if (token.kind === 'end') return 'the end of the filter';
  if (token.kind === 'word') return `"${token.text}"`;
  if (token.kind === 'string') return `the string ${JSON.stringify(token.value)}`;
  return `"${token.kind}"`;
}

class Parser {
  private position = 0;
  private nodes = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  peek(): Token {
    return this.tokens[this.position];
  }

  next(): Token {
    const token = this.tokens[this.position];
    if (token.kind !== 'end') this.position += 1;
    return token;
  }

  isWord(word: string): boolean {
    const token = this.peek();
    return token.kind === 'word' && token.text.toLowerCase() === word;
  }

  expect(kind: Token['kind'], what: string, note = ''): Token {
    const token = this.next();
    if (token.kind !== kind) throw invalidFilter(`expected ${what} ${where(token.at)}${note}, found ${describe(token)}`);
    return token;
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.kind !== 'end') throw invalidFilter(`unexpected ${describe(token)} ${where(token.at)}: expected "and", "or" or the end`);
  }

  node<T extends Filter>(filter: T): T {
    this.nodes += 1;
    if (this.nodes > FILTER_LIMITS.maxNodes) throw invalidFilter(`the filter has more than ${FILTER_LIMITS.maxNodes} expressions`);
    return filter;
  }

  nested<T>(at: number, parse: () => T): T {
    this.depth += 1;
    if (this.depth > FILTER_LIMITS.maxDepth) throw invalidFilter(`the filter nests more than ${FILTER_LIMITS.maxDepth} levels deep ${where(at)}`);
    const result = parse();
    this.depth -= 1;
    return result;
  }

  /** FILTER: `or` binds loosest, then `and`, then `not` (RFC 7644 §3.4.2.2). */
  or(inValuePath: boolean): Filter {
    let left = this.and(inValuePath);
    while (this.isWord('or')) {
      this.next();
      left = this.node({ type: 'or', left, right: this.and(inValuePath) });
    }
    return left;
  }

  and(inValuePath: boolean): Filter {
    let left = this.unary(inValuePath);
    while (this.isWord('and')) {
      this.next();
      left = this.node({ type: 'and', left, right: this.unary(inValuePath) });
    }
    return left;
  }

  unary(inValuePath: boolean): Filter {
    const token = this.peek();
    if (this.isWord('not')) {
      this.next();
      const open = this.expect('(', '"(" after "not"');
      return this.node({ type: 'not', filter: this.group(open.at, inValuePath) });
    }
    if (token.kind === '(') return this.group(this.next().at, inValuePath);
    return this.expression(inValuePath);
  }

  group(at: number, inValuePath: boolean): Filter {
    const filter = this.nested(at, () => this.or(inValuePath));
    this.expect(')', '")"', ` to close the "(" ${where(at)}`);
    return filter;
  }

  /** attrExp, or valuePath outside brackets. */
  expression(inValuePath: boolean): Filter {
    const path = this.attributePath();
    const token = this.peek();
    if (token.kind === '[') {
      if (inValuePath) throw invalidFilter(`"[" ${where(token.at)} inside another "[...]"`);
      this.next();
      const filter = this.nested(token.at, () => this.or(true));
      this.expect(']', '"]"', ` to close the "[" ${where(token.at)}`);
      return this.node({ type: 'valuePath', path, filter });
    }
    const operatorToken = this.next();
    if (operatorToken.kind !== 'word') throw invalidFilter(`expected an operator ${where(operatorToken.at)}, found ${describe(operatorToken)}`);
    const operator = operatorToken.text.toLowerCase();
    if (operator === 'pr') return this.node({ type: 'present', path });
    if (!(COMPARE_OPERATORS as readonly string[]).includes(operator)) {
      throw invalidFilter(`unknown operator "${operatorToken.text}" ${where(operatorToken.at)}`);
    }
    return this.node({ type: 'compare', path, operator: operator as CompareOperator, value: this.value(operatorToken.text) });
  }

  attributePath(): AttributePath {
    const token = this.next();
    if (token.kind !== 'word') throw invalidFilter(`expected an attribute name ${where(token.at)}, found ${describe(token)}`);
    const path = parseAttributePath(token.text);
    if (!path) throw invalidFilter(`"${token.text}" ${where(token.at)} is not an attribute name`);
    return path;
  }

  value(operator: string): FilterValue {
    const token = this.next();
    if (token.kind === 'string') return token.value;
    if (token.kind === 'word') {
      const word = token.text.toLowerCase();
      if (word === 'true' || word === 'false') return word === 'true';
      if (word === 'null') return null;
      if (NUMBER.test(token.text)) return Number(token.text);
    }
    throw invalidFilter(`expected a value after "${operator}" ${where(token.at)}, found ${describe(token)}`);
  }
}

function checkLength(text: string): void {
  if (text.length > FILTER_LIMITS.maxLength) throw invalidFilter(`the filter is longer than ${FILTER_LIMITS.maxLength} characters`);
}

/** The AST of a filter, or ScimError(400, 'invalidFilter') saying what is wrong and where. */
export function parseFilter(text: string): Filter {
  checkLength(text);
  if (!text.trim()) throw invalidFilter('the filter is empty');
  const parser = new Parser(tokenize(text));
  const filter = parser.or(false);
  parser.expectEnd();
  return filter;
}

/** A PATCH path (`members`, `name.familyName`, `emails[type eq "work"].value`), or ScimError(400, 'invalidPath'). */
export function parsePath(text: string): PatchPath {
  try {
    checkLength(text);
    const parser = new Parser(tokenize(text));
    const attribute = parser.attributePath();
    const path: PatchPath = { attribute };
    const open = parser.peek();
    if (open.kind === '[') {
      parser.next();
      path.filter = parser.nested(open.at, () => parser.or(true));
      parser.expect(']', '"]"', ` to close the "[" ${where(open.at)}`);
      const sub = parser.peek();
      if (sub.kind === 'word' && sub.text.startsWith('.')) {
        parser.next();
        const name = parseAttributePath(sub.text.slice(1));
        if (!name || name.uri || name.subAttribute) throw invalidFilter(`"${sub.text}" ${where(sub.at)} is not a sub-attribute`);
        path.subAttribute = name.attribute;
      }
    }
    parser.expectEnd();
    return path;
  } catch (error) {
    if (error instanceof ScimError) throw new ScimError(400, 'invalidPath', `invalid path ${JSON.stringify(text.slice(0, 200))}: ${error.detail}`);
    throw error;
  }
}

/** An attribute path back as text, as written. */
export function formatPath(path: AttributePath): string {
  return `${path.uri ? `${path.uri}:` : ''}${path.attribute}${path.subAttribute ? `.${path.subAttribute}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Checking against the schema

/** Where a filter's names are looked up: the resource type, or the sub-attributes of `within`. */
type Scope = { resourceType: ResourceTypeName; within?: undefined } | { within: AttributeDefinition; resourceType?: undefined };

/** The definitions an attribute path leads to; undefined for an attribute the schema does not have. */
interface Target {
  /** The top-level attribute in a resource scope; the sub-attribute inside `[...]`. */
  attribute: AttributeDefinition;
  subAttribute?: AttributeDefinition;
  /** The URN under which an extension's attributes are kept. */
  extension?: string;
}

function resolveIn(scope: Scope, path: AttributePath): Target | undefined {
  if (scope.within) {
    if (path.uri || path.subAttribute) throw invalidFilter(`inside ${scope.within.name}[...], "${formatPath(path)}" must be a sub-attribute name`);
    const attribute = findAttribute(scope.within.subAttributes, path.attribute);
    return attribute && { attribute };
  }
  if (path.uri && !schemaOf(scope.resourceType, path.uri)) throw invalidFilter(`unknown schema "${path.uri}" in "${formatPath(path)}"`);
  const resolved = resolveAttribute(scope.resourceType, path);
  if (!resolved) return undefined;
  return { attribute: resolved.attribute, subAttribute: resolved.subAttribute, extension: resolved.extension ? resolved.schema : undefined };
}

/** The definition a comparison applies to: a complex attribute compares its `value` sub-attribute. */
function comparedDefinition(target: Target, path: AttributePath): { definition: AttributeDefinition; viaValue: boolean } {
  const definition = target.subAttribute ?? target.attribute;
  if (definition.type !== 'complex') return { definition, viaValue: false };
  const value = findAttribute(definition.subAttributes, 'value');
  if (!value) throw invalidFilter(`"${formatPath(path)}" is complex: compare one of its sub-attributes`);
  return { definition: value, viaValue: true };
}

const STRING_TYPES = new Set(['string', 'reference', 'binary']);
const ORDERING = new Set(['gt', 'ge', 'lt', 'le']);
const SUBSTRING = new Set(['co', 'sw', 'ew']);

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?$/i;

/** The instant of an xsd:dateTime, in milliseconds; one without a zone is taken as UTC. */
export function dateTimeValue(text: unknown): number | undefined {
  if (typeof text !== 'string' || !DATE_TIME.test(text)) return undefined;
  const zoned = /(?:Z|[+-]\d{2}:\d{2})$/i.test(text) ? text : `${text}Z`;
  const instant = Date.parse(zoned.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(instant) ? undefined : instant;
}

type ValueType = 'string' | 'boolean' | 'number' | 'dateTime' | 'binary';

function valueTypeOf(definition: AttributeDefinition): ValueType {
  if (definition.type === 'binary') return 'binary';
  if (STRING_TYPES.has(definition.type)) return 'string';
  if (definition.type === 'integer' || definition.type === 'decimal') return 'number';
  return definition.type === 'dateTime' ? 'dateTime' : 'boolean';
}

/** Refuses a comparison the attribute's type does not allow (RFC 7644 §3.4.2.2, table 3). */
function checkComparison(type: ValueType, operator: CompareOperator, value: FilterValue, name: string): void {
  if (value === null) {
    if (operator !== 'eq' && operator !== 'ne') throw invalidFilter(`"${name} ${operator} null": only eq and ne compare with null`);
    return;
  }
  if (SUBSTRING.has(operator) && type !== 'string' && type !== 'binary') throw invalidFilter(`${operator} applies to strings only, and "${name}" is not one`);
  if (type === 'boolean' && operator !== 'eq' && operator !== 'ne') throw invalidFilter(`"${name}" is a boolean: only eq and ne apply, not ${operator}`);
  if (type === 'binary' && ORDERING.has(operator)) throw invalidFilter(`"${name}" is binary: ${operator} does not apply`);
  const expected = { string: 'string', binary: 'string', boolean: 'boolean', number: 'number', dateTime: 'string' }[type];
  if (typeof value !== expected) throw invalidFilter(`"${name}" compares with a ${type === 'dateTime' ? 'dateTime string' : expected}, not ${JSON.stringify(value)}`);
  if (type === 'dateTime' && dateTimeValue(value) === undefined) throw invalidFilter(`${JSON.stringify(value)} is not a dateTime (as in "2011-05-13T04:42:34Z")`);
}

function check(filter: Filter, scope: Scope): void {
  switch (filter.type) {
    case 'and':
    case 'or':
      check(filter.left, scope);
      check(filter.right, scope);
      return;
    case 'not':
      check(filter.filter, scope);
      return;
    case 'present':
      resolveIn(scope, filter.path);
      return;
    case 'valuePath': {
      const target = resolveIn(scope, filter.path);
      if (!target) return;
      const definition = target.subAttribute ?? target.attribute;
      if (definition.type !== 'complex') throw invalidFilter(`"${formatPath(filter.path)}[...]": ${definition.name} has no sub-attributes to filter on`);
      check(filter.filter, { within: definition });
      return;
    }
    case 'compare': {
      const target = resolveIn(scope, filter.path);
      if (!target) return;
      const { definition } = comparedDefinition(target, filter.path);
      checkComparison(valueTypeOf(definition), filter.operator, filter.value, formatPath(filter.path));
    }
  }
}

/**
 * Refuses, with ScimError(400, 'invalidFilter'), a filter naming a schema `resourceType` does not
 * have or comparing an attribute in a way its type does not allow; `within` checks the filter of a
 * value path against that attribute's sub-attributes. Unknown attribute names pass: they are absent.
 */
export function validateFilter(filter: Filter, resourceType: ResourceTypeName, within?: AttributeDefinition): void {
  check(filter, within ? { within } : { resourceType });
}

// ---------------------------------------------------------------------------------------------
// Evaluation in memory

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The member of `object` named `name`, case-insensitively (RFC 7643 §2.1). */
export function memberOf(object: unknown, name: string): unknown {
  if (!isObject(object)) return undefined;
  if (name in object) return object[name];
  const wanted = name.toLowerCase();
  const key = Object.keys(object).find((candidate) => candidate.toLowerCase() === wanted);
  return key === undefined ? undefined : object[key];
}

function valuesOf(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.filter((item) => item !== undefined && item !== null) : [value];
}

/** Whether a value counts as unassigned: null, "", [] or an object of such (RFC 7643 §2.5). */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.every(isEmptyValue);
  if (isObject(value)) return Object.values(value).every(isEmptyValue);
  return false;
}

/** The values a path leads to in `node` (the resource, or one value of a multi-valued attribute). */
function lookup(node: unknown, target: Target, viaValue: boolean): unknown[] {
  const container = target.extension ? memberOf(node, target.extension) : node;
  let values = valuesOf(memberOf(container, target.attribute.name));
  if (target.subAttribute) values = values.flatMap((value) => valuesOf(memberOf(value, target.subAttribute!.name)));
  if (viaValue) values = values.flatMap((value) => valuesOf(memberOf(value, 'value')));
  return values;
}

function compareStrings(operator: CompareOperator, actual: string, expected: string): boolean {
  switch (operator) {
    case 'eq':
      return actual === expected;
    case 'ne':
      return actual !== expected;
    case 'co':
      return actual.includes(expected);
    case 'sw':
      return actual.startsWith(expected);
    case 'ew':
      return actual.endsWith(expected);
    default:
      return compareOrdered(operator, actual, expected);
  }
}

function compareOrdered<T extends string | number>(operator: CompareOperator, actual: T, expected: T): boolean {
  switch (operator) {
    case 'eq':
      return actual === expected;
    case 'ne':
      return actual !== expected;
    case 'gt':
      return actual > expected;
    case 'ge':
      return actual >= expected;
    case 'lt':
      return actual < expected;
    case 'le':
      return actual <= expected;
    default:
      return false;
  }
}

function compareValue(definition: AttributeDefinition, operator: CompareOperator, actual: unknown, expected: FilterValue): boolean {
  const type = valueTypeOf(definition);
  if (type === 'string' || type === 'binary') {
    if (typeof actual !== 'string' || typeof expected !== 'string') return false;
    const fold = (text: string) => (definition.caseExact ? text : text.toLowerCase());
    return compareStrings(operator, fold(actual), fold(expected));
  }
  if (type === 'dateTime') {
    const [left, right] = [dateTimeValue(actual), dateTimeValue(expected)];
    return left !== undefined && right !== undefined && compareOrdered(operator, left, right);
  }
  if (type === 'number') return typeof actual === 'number' && typeof expected === 'number' && compareOrdered(operator, actual, expected);
  return typeof actual === 'boolean' && (operator === 'eq' ? actual === expected : actual !== expected);
}

function evaluate(filter: Filter, node: unknown, scope: Scope): boolean {
  switch (filter.type) {
    case 'and':
      return evaluate(filter.left, node, scope) && evaluate(filter.right, node, scope);
    case 'or':
      return evaluate(filter.left, node, scope) || evaluate(filter.right, node, scope);
    case 'not':
      return !evaluate(filter.filter, node, scope);
    case 'present': {
      const target = resolveIn(scope, filter.path);
      return target !== undefined && lookup(node, target, false).some((value) => !isEmptyValue(value));
    }
    case 'valuePath': {
      const target = resolveIn(scope, filter.path);
      if (!target) return false;
      const within = target.subAttribute ?? target.attribute;
      return lookup(node, target, false).some((value) => isObject(value) && evaluate(filter.filter, value, { within }));
    }
    case 'compare': {
      const target = resolveIn(scope, filter.path);
      if (!target) return false;
      const { definition, viaValue } = comparedDefinition(target, filter.path);
      const values = lookup(node, target, viaValue);
      if (filter.value === null) return (filter.operator === 'eq') === values.every(isEmptyValue);
      return values.some((value) => compareValue(definition, filter.operator, value, filter.value));
    }
  }
}

/**
 * Whether `resource` matches `filter`. Strings compare per the attribute's caseExact, a comparison on
 * a multi-valued attribute holds when one of its values matches, a complex attribute compares its
 * `value`, dateTimes compare as instants, and an attribute the schema does not have is absent (no
 * match). A comparison on an absent attribute is false, `ne` too; `eq null` holds when it is absent.
 */
export function matches(filter: Filter, resource: ScimResource, resourceType: ResourceTypeName): boolean {
  validateFilter(filter, resourceType);
  return evaluate(filter, resource, { resourceType });
}

/** Whether one value of the multi-valued complex attribute `attribute` matches the filter of a value path. */
export function matchesValue(filter: Filter, value: unknown, attribute: AttributeDefinition): boolean {
  return isObject(value) && evaluate(filter, value, { within: attribute });
}

// ---------------------------------------------------------------------------------------------
// Compilation to SQL

/** A column a filter may compare: an SQL expression, its type and whether strings compare case-exactly. */
export interface SqlColumn {
  sql: string;
  type: 'string' | 'boolean' | 'dateTime' | 'integer';
  caseExact: boolean;
}

/**
 * A multi-valued attribute kept in rows of another table: `exists(condition)` gives an SQL
 * expression true when one of the resource's rows satisfies `condition` (e.g. `EXISTS (SELECT 1
 * FROM user_emails e WHERE e.user_id = u.id AND ${condition})`), and `subAttributes` the columns of
 * those rows by lower-cased sub-attribute name. `emails.value`, `emails` (its `value`), `emails pr`
 * and value paths such as `emails[type eq "work" and value co "@x"]` compile to one `exists(...)`.
 */
export interface SqlMultiValued {
  exists: (condition: string) => string;
  subAttributes: Record<string, SqlColumn>;
}

/**
 * The filterable attributes by lower-cased path: `username`, `name.givenname`, `emails.value`,
 * `urn:ietf:params:scim:schemas:extension:enterprise:2.0:user:department`. Core schema URN prefixes
 * are dropped from the filter's paths before the lookup; a key naming a column wins over an
 * SqlMultiValued entry of its attribute.
 */
export type SqlColumns = Record<string, SqlColumn | SqlMultiValued>;

export interface SqlFilter {
  where: string;
  params: unknown[];
}

const CORE_SCHEMA_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:(?:user|group)$/i;

const SQL_OPERATORS: Record<CompareOperator, string> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=', co: 'LIKE', sw: 'LIKE', ew: 'LIKE' };

interface Compiled {
  sql: string;
  /** Whether `sql` is already enclosed in parentheses. */
  grouped: boolean;
}

class SqlCompiler {
  readonly params: unknown[] = [];

  constructor(
    private readonly columns: SqlColumns,
    private readonly paramOffset: number,
  ) {}

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.paramOffset + this.params.length}`;
  }

  compile(filter: Filter, within?: SqlMultiValued): Compiled {
    switch (filter.type) {
      case 'and':
      case 'or': {
        const [left, right] = [this.compile(filter.left, within), this.compile(filter.right, within)];
        return { sql: `(${left.sql} ${filter.type.toUpperCase()} ${right.sql})`, grouped: true };
      }
      case 'not': {
        const inner = this.compile(filter.filter, within);
        return { sql: `${inner.grouped ? inner.sql : `(${inner.sql})`} IS NOT TRUE`, grouped: false };
      }
      case 'valuePath': {
        if (within) throw invalidFilter(`"${formatPath(filter.path)}[...]" inside another "[...]"`);
        const multi = this.multiValued(filter.path);
        if (!multi) throw invalidFilter(`the attribute ${formatPath(filter.path)} cannot be filtered on with "[...]"`);
        return { sql: multi.exists(this.compile(filter.filter, multi).sql), grouped: false };
      }
      default:
        return this.leaf(filter, within);
    }
  }

  /** A comparison or `pr`: on a column, or as `exists(...)` of a multi-valued attribute's rows. */
  leaf(filter: Extract<Filter, { type: 'present' | 'compare' }>, within?: SqlMultiValued): Compiled {
    const name = formatPath(filter.path);
    const column = within ? this.subColumn(within, filter.path) : this.column(filter.path);
    if (column) return this.condition(filter, column, name);
    const multi = within ? undefined : this.multiValued(filter.path, true);
    if (multi && filter.type === 'present' && !filter.path.subAttribute) return { sql: multi.exists('TRUE'), grouped: false };
    const sub = multi && this.subColumn(multi, { attribute: filter.path.subAttribute ?? 'value' });
    if (!multi || !sub) throw invalidFilter(`the attribute ${name} cannot be filtered on`);
    return { sql: multi.exists(this.condition(filter, sub, name).sql), grouped: false };
  }

  key(path: AttributePath, withSub = true): string {
    const uri = path.uri && !CORE_SCHEMA_PREFIX.test(path.uri) ? `${path.uri}:` : '';
    return `${uri}${path.attribute}${withSub && path.subAttribute ? `.${path.subAttribute}` : ''}`.toLowerCase();
  }

  column(path: AttributePath): SqlColumn | undefined {
    const key = this.key(path);
    const entry = Object.hasOwn(this.columns, key) ? this.columns[key] : undefined;
    return entry && 'sql' in entry ? entry : undefined;
  }

  /** The multi-valued entry of the path's attribute; with `sub`, also when the path names a sub-attribute. */
  multiValued(path: AttributePath, sub = false): SqlMultiValued | undefined {
    if (path.subAttribute && !sub) return undefined;
    const key = this.key(path, false);
    const entry = Object.hasOwn(this.columns, key) ? this.columns[key] : undefined;
    return entry && 'exists' in entry ? entry : undefined;
  }

  subColumn(multi: SqlMultiValued, path: AttributePath): SqlColumn | undefined {
    if (path.uri || path.subAttribute) return undefined;
    const key = path.attribute.toLowerCase();
    return Object.hasOwn(multi.subAttributes, key) ? multi.subAttributes[key] : undefined;
  }

  /** A comparison or `pr` on one column. */
  condition(filter: Extract<Filter, { type: 'present' | 'compare' }>, column: SqlColumn, name: string): Compiled {
    if (filter.type === 'present') return presence(column, true);
    const { operator, value } = filter;
    checkComparison(column.type === 'integer' ? 'number' : column.type, operator, value, name);
    if (value === null) return presence(column, operator === 'ne');
    if (column.type === 'integer' && !Number.isInteger(value)) throw invalidFilter(`"${name}" is an integer, not ${JSON.stringify(value)}`);
    const c = column.sql;
    if (SUBSTRING.has(operator)) {
      return { sql: `${c} ${column.caseExact ? 'LIKE' : 'ILIKE'} ${this.param(likePattern(operator, value as string))}`, grouped: false };
    }
    if (column.type === 'string' && !column.caseExact) return { sql: `lower(${c}) ${SQL_OPERATORS[operator]} lower(${this.param(value)})`, grouped: false };
    // A dateTime without zone is UTC, as in memory, not the session's time zone.
    const zoneless = column.type === 'dateTime' && !/(?:Z|[+-]\d{2}:\d{2})$/i.test(value as string);
    return { sql: `${c} ${SQL_OPERATORS[operator]} ${this.param(zoneless ? `${value as string}Z` : value)}`, grouped: false };
  }
}

/** `pr` (or `ne null`) on a column: non-null and, for a string, non-empty; or the opposite. */
function presence(column: SqlColumn, present: boolean): Compiled {
  const c = column.sql;
  if (column.type !== 'string') return { sql: `${c} IS ${present ? 'NOT ' : ''}NULL`, grouped: false };
  return { sql: present ? `(${c} IS NOT NULL AND ${c} <> '')` : `(${c} IS NULL OR ${c} = '')`, grouped: true };
}

/** The LIKE pattern of co/sw/ew: `%`, `_` and `\` of the value escaped (backslash is LIKE's default escape). */
function likePattern(operator: CompareOperator, value: string): string {
  const escaped = value.replace(/[\\%_]/g, (char) => `\\${char}`);
  if (operator === 'co') return `%${escaped}%`;
  return operator === 'sw' ? `${escaped}%` : `%${escaped}`;
}

/**
 * A PostgreSQL condition for `filter` over `columns`, with its values as parameters `$n` numbered
 * from `paramOffset + 1`. Strings that are not caseExact compare as `lower(col) = lower($n)`,
 * co/sw/ew use LIKE/ILIKE, `pr` on a string is `(col IS NOT NULL AND col <> '')`, and `not` is
 * `(…) IS NOT TRUE` so that rows where the column is NULL match `not (x eq "a")`. An attribute the
 * map lacks is ScimError(400, 'invalidFilter').
 */
export function toSql(filter: Filter, columns: SqlColumns, paramOffset = 0): SqlFilter {
  const compiler = new SqlCompiler(columns, paramOffset);
  const { sql } = compiler.compile(filter);
  return { where: sql, params: compiler.params };
}
