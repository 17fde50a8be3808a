import { randomUUID } from 'node:crypto';
import { LANGUAGES, pathOf, type RouteContract } from '@gatehouse/contracts';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { z } from 'zod';

/**
 * Generated abuse of a declared route: requests that break its contract (wrong types, missing
 * fields, strings past their limit, NUL, unicode and SQL metacharacters where a format is
 * expected, unknown fields, bodies that are not JSON objects, hostile file names) and requests that
 * keep it with hostile content (SQL metacharacters, unicode, emoji, RTL marks in free text). Each
 * says whether the product must refuse it: the contract refuses it, or it carries a NUL, which no
 * text column can store.
 */

/** The subset of JSON Schema that zod writes for the contracts' inputs. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
}

/** One abusive request, ready to send. */
export interface AbuseRequest {
  /** What was done to the request, for the failure message. */
  note: string;
  method: RouteContract['method'];
  /** Path and query string, percent-encoded. */
  url: string;
  /** The raw body and its content type, when there is one. */
  body?: { contentType: string; data: string | Buffer };
  /** Request headers the route reads (an idempotency key), when abused. */
  headers?: Record<string, string>;
  language: (typeof LANGUAGES)[number];
  /** The contract refuses this request, or it carries a NUL: the answer must be a refusal that writes nothing. */
  mustRefuse: boolean;
}

/** A file a multipart route reads, as the route expects it. */
export interface UploadTarget {
  /** The multipart field of the file. */
  field: string;
  /** The extension the route takes, such as `.xlsx`. */
  extension: string;
  /** The form's other fields, valid. */
  fields?: Record<string, string>;
}

/** A route to abuse, with what a valid call needs. */
export interface AbuseTarget {
  contract: RouteContract;
  /** Valid path parameters (ids of existing records, mostly). */
  params?: Record<string, string>;
  /** Query values to start from (the route's required ones are generated when not given). */
  query?: Record<string, string>;
  /** A valid body to start from (generated from the schema when not given). */
  body?: Record<string, unknown>;
  /** A value for a generated field, by its name (the id of an existing record), or undefined to generate one. */
  fill?: (field: string) => unknown;
  /** For a multipart route: the file it reads. */
  upload?: UploadTarget;
}

/** Strings that mean something to SQL, shells, paths, LIKE patterns or Unicode handling. */
export const HOSTILE_STRINGS: readonly string[] = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "1; SELECT pg_sleep(0)--",
  "') UNION SELECT NULL,NULL--",
  '%',
  '%%',
  '_',
  '\\',
  '\\%',
  '*',
  '$where',
  '{"$gt":""}',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '😀👍🏽👨‍👩‍👧',
  '\u202eevil.exe\u202dtxt',
  'ｆｕｌｌｗｉｄｔｈ１２３',
  'e\u0301\u0301\u0301',
  '\u200b\u200c\u200d\ufeff',
  'مرحبا بالعالم',
  '\ud83d',
  ' ',
  '\t\r\n',
];

/** A NUL in the middle of otherwise ordinary text. */
const WITH_NUL = ['a\u0000b', '\u0000', "x'\u0000--"];

/** JSON values of every type, for a field that expects another one. */
const ANY_TYPE: readonly unknown[] = [42, -1, 1e308, 0.5, true, false, {}, { $ne: null }, [], ['x'], 'text', '', null, [[[[]]]]];

/** Query values that are not the numbers, booleans, dates or ids a query expects. */
const QUERY_VALUES: readonly string[] = ['abc', '-1', '1.5', '1e999', 'NaN', 'Infinity', '99999999999999999999', 'true;', 'yes', '[]', '{}', '', ' ', '0x10', '2025-13-45', '9999-12-31T25:61:61Z'];

/** Bodies that are no JSON object: other JSON values, broken JSON, JSON followed by more. */
const NOT_AN_OBJECT: readonly string[] = ['[]', '"text"', '42', 'null', 'true', '{', '{"a":', '{}{}', '[{"$gt":""}]', '\u0000', "{'single':'quotes'}"];

/** File names that climb folders, hide their extension or carry control characters. */
const HOSTILE_FILE_NAMES = (extension: string): string[] => [
  `../../../../etc/passwd${extension}`,
  `..\\..\\..\\windows\\system32\\config${extension}`,
  `/etc/cron.d/x${extension}`,
  `C:\\Users\\Public\\x${extension}`,
  `..${extension}`,
  `a\u0000.exe${extension}`,
  `x.exe`,
  `x${extension}.exe`,
  `\u202egpj.exe${extension}`,
  `😀${extension}`,
  `${'n'.repeat(5000)}${extension}`,
  `name\r\nContent-Type: text/html${extension}`,
];

/** File contents no route takes: nothing, text, a truncated zip, and past the 2 MB limit. */
const BAD_FILE_CONTENTS: readonly Buffer[] = [
  Buffer.alloc(0),
  Buffer.from('not a file at all'),
  Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]),
  Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(16, 0xff)]),
  Buffer.alloc(2 * 1024 * 1024 + 1, 0x41),
];

/** A schema's JSON Schema, as its input is sent. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** The schema itself, or its alternative that is not null. */
function nonNull(schema: JsonSchema): JsonSchema {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (!alternatives) return schema;
  return alternatives.find((alternative) => alternative.type !== 'null') ?? alternatives[0] ?? {};
}

/** A string with a format, a pattern, or a set of values: hostile text there must be refused. */
function isConstrained(schema: JsonSchema): boolean {
  const s = nonNull(schema);
  return s.enum !== undefined || s.const !== undefined || s.format !== undefined || s.pattern !== undefined || (s.type !== undefined && s.type !== 'string');
}

function isString(schema: JsonSchema): boolean {
  const s = nonNull(schema);
  return s.type === 'string' || (s.type === undefined && (s.enum?.every((value) => typeof value === 'string') ?? false));
}

/** A unique address, valid for every e-mail check of the product. */
const uniqueEmail = () => `abuse-${randomUUID().slice(0, 8)}@example.com`;

/** How a generated value is given for a field by its name (the id of a record that exists). */
type Fill = (field: string) => unknown;

/**
 * A valid value of a schema; the field's name picks a plausible string where the schema says
 * little, and `fill` a value of its own (optional fields it fills are included).
 */
export function sampleOf(schema: JsonSchema, name = '', fill: Fill = () => undefined): unknown {
  const s = nonNull(schema);
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, 1);
    case 'array':
      return Array.from({ length: Math.max(s.minItems ?? 1, 1) }, () => sampleOf(s.items ?? {}, name, fill));
    case 'object': {
      const entries = Object.entries(s.properties ?? {}).flatMap(([key, property]): Array<[string, unknown]> => {
        const given = fill(key);
        if (given !== undefined) return [[key, given]];
        return s.required?.includes(key) ? [[key, sampleOf(property, key, fill)]] : [];
      });
      return Object.fromEntries(entries);
    }
    default:
      return sampleString(s, name);
  }
}

function sampleString(s: JsonSchema, name: string): string {
  if (s.format === 'uuid') return randomUUID();
  if (s.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
  if (s.format === 'date') return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  if (s.format === 'email' || /e-?mail|user_?name/i.test(name)) return uniqueEmail();
  if (s.pattern === '^\\d{6}$') return '123456';
  if (/url|uri/i.test(name)) return 'https://app.example.com/callback';
  if (/password/i.test(name)) return 'Abuse-Passw0rd!-2025';
  if (/language/i.test(name)) return 'en';
  const text = `abuse-${randomUUID().slice(0, 8)}`;
  const min = s.minLength ?? 0;
  return text.length >= min ? text.slice(0, s.maxLength ?? text.length) : text.padEnd(min, 'x');
}

/** A leaf of an input (a field, or a field of the items of a list), by its path. */
interface Leaf {
  path: Array<string | number>;
  schema: JsonSchema;
}

/** The fields of an object schema, and those of the objects in its lists, one level down. */
function leavesOf(schema: JsonSchema, path: Array<string | number> = [], depth = 0): Leaf[] {
  const s = nonNull(schema);
  const leaves: Leaf[] = [];
  for (const [key, property] of Object.entries(s.properties ?? {})) {
    const p = nonNull(property);
    leaves.push({ path: [...path, key], schema: property });
    if (depth < 2 && p.type === 'array' && p.items && nonNull(p.items).type === 'object') leaves.push(...leavesOf(p.items, [...path, key, 0], depth + 1));
    if (depth < 2 && p.type === 'object') leaves.push(...leavesOf(p, [...path, key], depth + 1));
  }
  return leaves;
}

/** A copy of `value` with the leaf at `path` set (or removed, for `undefined`), creating what the path needs. */
function withLeaf(value: unknown, path: ReadonlyArray<string | number>, leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  const container = (Array.isArray(value) ? [...(value as unknown[])] : { ...(value as object) }) as Record<string | number, unknown>;
  const child = container[head!] ?? (typeof rest[0] === 'number' ? [] : {});
  const next = withLeaf(child, rest, leaf);
  if (next === undefined && rest.length === 0) delete container[head!];
  else container[head!] = next;
  return container;
}

function leafAt(value: unknown, path: ReadonlyArray<string | number>): unknown {
  return path.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string | number, unknown>)[key] : undefined), value);
}

const refused = (schema: z.ZodType | undefined, value: unknown) => schema !== undefined && !schema.safeParse(value).success;

/** Whether a value holds a NUL anywhere (a key or a string). */
export function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value && typeof value === 'object') return Object.entries(value).some(([key, v]) => key.includes('\u0000') || hasNul(v));
  return false;
}

/** A mutation of one part of the request: its new value and what was done. */
interface Mutation<T> {
  value: T;
  note: string;
}

/** Mutations of a JSON object input (a body): each keeps the rest of the baseline as it was. */
function bodyMutations(schema: JsonSchema, baseline: Record<string, unknown>): Array<fc.Arbitrary<Mutation<unknown>>> {
  const s = nonNull(schema);
  const leaves = leavesOf(s);
  const strings = leaves.filter((leaf) => isString(leaf.schema));
  const limited = strings.filter((leaf) => nonNull(leaf.schema).maxLength !== undefined);
  const lists = leaves.filter((leaf) => nonNull(leaf.schema).maxItems !== undefined);
  const at = (leaf: Leaf) => leaf.path.join('.');
  const mutations: Array<fc.Arbitrary<Mutation<unknown>>> = [];
  if (s.required?.length) {
    mutations.push(fc.constantFrom(...s.required).map((key) => ({ value: withLeaf(baseline, [key], undefined), note: `without ${key}` })));
  }
  if (leaves.length) {
    mutations.push(
      fc.tuple(fc.constantFrom(...leaves), fc.constantFrom(...ANY_TYPE)).map(([leaf, value]) => ({ value: withLeaf(baseline, leaf.path, value), note: `${at(leaf)} = ${JSON.stringify(value)}` })),
    );
  }
  if (limited.length) {
    mutations.push(
      fc.tuple(fc.constantFrom(...limited), fc.constantFrom('x', 'é', '😀', '\u202e', 'ｘ', "'"), fc.constantFrom(1, 7, 5000, 1_100_000)).map(([leaf, char, extra]) => ({
        value: withLeaf(baseline, leaf.path, char.repeat(nonNull(leaf.schema).maxLength! + extra)),
        note: `${at(leaf)} ${extra} past its ${nonNull(leaf.schema).maxLength} characters`,
      })),
    );
  }
  if (lists.length) {
    mutations.push(
      fc.constantFrom(...lists).map((leaf) => {
        const items = (leafAt(baseline, leaf.path) as unknown[] | undefined) ?? [sampleOf(nonNull(leaf.schema).items ?? {})];
        return { value: withLeaf(baseline, leaf.path, Array.from({ length: nonNull(leaf.schema).maxItems! + 1 }, (_, i) => items[i % items.length])), note: `${at(leaf)} past its ${nonNull(leaf.schema).maxItems} items` };
      }),
    );
  }
  if (strings.length) {
    mutations.push(fc.tuple(fc.constantFrom(...strings), fc.constantFrom(...WITH_NUL)).map(([leaf, value]) => ({ value: withLeaf(baseline, leaf.path, value), note: `NUL in ${at(leaf)}` })));
    mutations.push(
      fc.tuple(fc.constantFrom(...strings), fc.constantFrom(...HOSTILE_STRINGS)).map(([leaf, value]) => {
        // In free text, hostile content within the limit: the product may take it, but must not break on it.
        const max = nonNull(leaf.schema).maxLength;
        const text = isConstrained(leaf.schema) || max === undefined ? value : value.slice(0, max);
        return { value: withLeaf(baseline, leaf.path, text), note: `${at(leaf)} = ${JSON.stringify(text)}` };
      }),
    );
  }
  mutations.push(
    fc.constantFrom('$where', 'isAdministrator', 'constructor', 'a\u0000b').map((key) => ({ value: { ...baseline, [key]: { $ne: null } }, note: `unknown field ${JSON.stringify(key)}` })),
  );
  return mutations;
}

/** A query object as Koa reads it back: every value a string. */
type Query = Record<string, string>;

function queryMutations(schema: JsonSchema, baseline: Query): Array<fc.Arbitrary<Mutation<Query>>> {
  const fields = Object.entries(nonNull(schema).properties ?? {});
  if (!fields.length) return [fc.constant({ value: { ...baseline, unknownParameter: "' OR 1=1--" }, note: 'unknown query parameter' })];
  const names = fields.map(([name]) => name);
  const limited = fields.filter(([, property]) => nonNull(property).maxLength !== undefined);
  const set = (name: string, value: string, note: string) => ({ value: { ...baseline, [name]: value }, note });
  const mutations: Array<fc.Arbitrary<Mutation<Query>>> = [
    fc.tuple(fc.constantFrom(...names), fc.constantFrom(...QUERY_VALUES)).map(([name, value]) => set(name, value, `?${name}=${JSON.stringify(value)}`)),
    fc.tuple(fc.constantFrom(...names), fc.constantFrom(...HOSTILE_STRINGS)).map(([name, value]) => set(name, value, `?${name}=${JSON.stringify(value)}`)),
    fc.tuple(fc.constantFrom(...names), fc.constantFrom(...WITH_NUL)).map(([name, value]) => set(name, value, `NUL in ?${name}`)),
  ];
  if (limited.length) {
    mutations.push(
      fc.tuple(fc.constantFrom(...limited), fc.constantFrom(1, 3000)).map(([[name, property], extra]) => set(name, 'q'.repeat(nonNull(property).maxLength! + extra), `?${name} ${extra} past its limit`)),
    );
  }
  return mutations;
}

function paramMutations(names: string[], baseline: Record<string, string>): Array<fc.Arbitrary<Mutation<Record<string, string>>>> {
  if (!names.length) return [];
  // A lone surrogate has no percent-encoding: it cannot be put in a path.
  const values = [...HOSTILE_STRINGS.filter((value) => value.trim() !== '' && value !== '\ud83d'), ...WITH_NUL, 'x'.repeat(3000), '{00000000-0000-0000-0000-000000000000}', '0'.repeat(33), 'null', 'undefined', '-1'];
  return [
    fc.tuple(fc.constantFrom(...names), fc.constantFrom(...values)).map(([name, value]) => ({ value: { ...baseline, [name]: value }, note: `:${name} = ${JSON.stringify(value)}` })),
  ];
}

/** A multipart body: the form's fields and one file, built by hand so that the file name is sent exactly as given. */
export function multipartBody(fields: Record<string, string>, file: { field: string; name: string; content: Buffer; contentType?: string } | undefined) {
  const boundary = `----abuse${randomUUID().replaceAll('-', '')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name.replaceAll('"', '%22')}"\r\nContent-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`;
    parts.push(Buffer.from(head), file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, data: Buffer.concat(parts) };
}

function uploadMutations(upload: UploadTarget): Array<fc.Arbitrary<Mutation<{ contentType: string; data: Buffer }>>> {
  const names = [`upload${upload.extension}`, ...HOSTILE_FILE_NAMES(upload.extension)];
  return [
    // Whatever its name, content the route cannot read is refused.
    fc.tuple(fc.constantFrom(...names), fc.constantFrom(...BAD_FILE_CONTENTS), fc.constantFrom(upload.field, 'other', `${upload.field}[0]`)).map(([name, content, field]) => ({
      value: multipartBody(upload.fields ?? {}, { field, name, content }),
      note: `file ${JSON.stringify(name.slice(0, 80))} of ${content.length} bytes in field ${field}`,
    })),
    fc.constant({ value: multipartBody(upload.fields ?? {}, undefined), note: 'no file' }),
  ];
}

/** Fills a path's parameters, percent-encoded. */
function urlOf(contract: RouteContract, params: Record<string, string>, query: Query | undefined): string {
  const path = pathOf(contract, params);
  const search = query && Object.keys(query).length ? `?${new URLSearchParams(query).toString()}` : '';
  return `${path}${search}`;
}

const json = (value: unknown) => ({ contentType: 'application/json', data: JSON.stringify(value) ?? '' });

/** The baseline query: the given values, and a valid value for each required parameter not given. */
export function baselineQuery(target: Pick<AbuseTarget, 'contract' | 'query' | 'fill'>): Query {
  const query: Query = { ...target.query };
  if (!target.contract.query) return query;
  const schema = nonNull(jsonSchemaOf(target.contract.query));
  for (const name of schema.required ?? []) {
    if (query[name] === undefined) query[name] = String(target.fill?.(name) ?? sampleOf(schema.properties?.[name] ?? {}, name));
  }
  return query;
}

/** Every kind of abuse that applies to the route, as one arbitrary of requests. */
export function abusiveRequests(target: AbuseTarget): fc.Arbitrary<AbuseRequest> {
  const { contract } = target;
  const params = target.params ?? {};
  const names = [...contract.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const missing = names.filter((name) => params[name] === undefined);
  if (missing.length) throw new Error(`${contract.method} ${contract.path}: no value for :${missing.join(', :')}`);
  const query = baselineQuery(target);
  const bodySchema = contract.body && !contract.consumes ? jsonSchemaOf(contract.body) : undefined;
  const body = bodySchema ? (target.body ?? (sampleOf(bodySchema, '', target.fill) as Record<string, unknown>)) : undefined;
  const language = fc.constantFrom(...LANGUAGES);
  const paramsRefused = (p: Record<string, string>) => refused(contract.params, p) || hasNul(p);
  const queryRefused = (q: Query) => refused(contract.query, q) || hasNul(q);
  const bodyRefused = (b: unknown) => refused(contract.body, b) || hasNul(b);
  const request = (note: string, p: Record<string, string>, q: Query, b: AbuseRequest['body'], mustRefuse: boolean) =>
    language.map((lng): AbuseRequest => ({ note, method: contract.method, url: urlOf(contract, p, q), body: b, language: lng, mustRefuse }));
  const keepBody = body !== undefined ? json(body) : undefined;
  const baselineRefused = paramsRefused(params) || queryRefused(query) || (body !== undefined && bodyRefused(body));

  const kinds: Array<fc.Arbitrary<AbuseRequest>> = [];
  for (const m of paramMutations(names, params)) kinds.push(m.chain(({ value, note }) => request(note, value, query, keepBody, baselineRefused || paramsRefused(value))));
  if (contract.query) {
    for (const m of queryMutations(jsonSchemaOf(contract.query), query)) kinds.push(m.chain(({ value, note }) => request(note, params, value, keepBody, baselineRefused || queryRefused(value))));
  } else {
    kinds.push(request('unknown query parameter', params, { ...query, '$search': "' OR 1=1--" }, keepBody, baselineRefused));
  }
  if (bodySchema && body !== undefined) {
    for (const m of bodyMutations(bodySchema, body)) kinds.push(m.chain(({ value, note }) => request(note, params, query, json(value), baselineRefused || bodyRefused(value))));
    kinds.push(
      fc.constantFrom(...NOT_AN_OBJECT).chain((text) => {
        let parsed: unknown;
        let parses = true;
        try {
          parsed = JSON.parse(text);
        } catch {
          parses = false;
        }
        // The body parser takes JSON objects and arrays only.
        const mustRefuse = !parses || parsed === null || typeof parsed !== 'object' || bodyRefused(parsed) || baselineRefused;
        return request(`body ${JSON.stringify(text)}`, params, query, { contentType: 'application/json', data: text }, mustRefuse);
      }),
      fc.constantFrom('text/plain', 'application/xml').chain((contentType) =>
        request(`body sent as ${contentType}`, params, query, { contentType, data: JSON.stringify(body) }, baselineRefused || bodyRefused({})),
      ),
    );
  }
  if (contract.headers) {
    const names = Object.keys(nonNull(jsonSchemaOf(contract.headers)).properties ?? {});
    // Header values travel as printable ASCII: what a client can send at all.
    const values = ['x'.repeat(5000), "' OR '1'='1", '../../etc/passwd', '%00', '', ' ', '{"$gt":""}', '-1', 'a'.repeat(257)];
    kinds.push(
      fc.tuple(fc.constantFrom(...names), fc.constantFrom(...values)).chain(([name, value]) =>
        language.map((lng): AbuseRequest => ({
          note: `header ${name}: ${JSON.stringify(value.slice(0, 40))}`,
          method: contract.method,
          url: urlOf(contract, params, query),
          body: keepBody,
          headers: { [name]: value },
          language: lng,
          mustRefuse: baselineRefused || refused(contract.headers, { [name]: value }),
        })),
      ),
    );
  }
  if (contract.consumes && target.upload) {
    for (const m of uploadMutations(target.upload)) kinds.push(m.chain(({ value, note }) => request(note, params, query, value, true)));
  }
  return fc.oneof(...kinds);
}

/**
 * A fingerprint of every row of the given tables: its count and a hash of its rows, one query.
 * Two equal fingerprints mean nothing was inserted, updated or deleted in between.
 */
export async function fingerprint(db: DataSource, tables: readonly string[]): Promise<Map<string, string>> {
  const sql = tables
    .map((table) => `SELECT '${table}' AS t, count(*)::text || ':' || md5(coalesce(string_agg(md5(x::text), ',' ORDER BY md5(x::text)), '')) AS f FROM "${table}" x`)
    .join(' UNION ALL ');
  const rows = (await db.query(sql)) as Array<{ t: string; f: string }>;
  return new Map(rows.map((row) => [row.t, row.f]));
}

/**
 * The fingerprint once it holds still: what a request writes in the background after its answer
 * (a mail queued without waiting) counts as its write, not as the next request's.
 */
export async function settledFingerprint(db: DataSource, tables: readonly string[]): Promise<Map<string, string>> {
  let last = await fingerprint(db, tables);
  for (let check = 0; check < 100; check++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    const next = await fingerprint(db, tables);
    if (changedTables(last, next).length === 0) return next;
    last = next;
  }
  throw new Error(`the tables never stopped changing: ${tables.join(', ')}`);
}

/** The tables whose fingerprints differ. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((table) => before.get(table) !== after.get(table));
}

/** The product's tables (the public schema's, but for the migrations' own bookkeeping). */
export async function productTables(db: DataSource): Promise<string[]> {
  const rows = (await db.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'migrations' ORDER BY table_name`,
  )) as Array<{ table_name: string }>;
  return rows.map((row) => row.table_name);
}

/** The fixed seed of every abuse run: a failure replays exactly. */
export const ABUSE_SEED = 20_251_213;

/** An answer, as the runner reads it. */
export interface AbuseAnswer {
  status: number;
  contentType: string;
  text: string;
  body: unknown;
}

export interface AbuseRun {
  db: DataSource;
  /** The tables whose rows a refusal must leave as they were. */
  tables: readonly string[];
  send(request: AbuseRequest): Promise<AbuseAnswer>;
  /** Why a refusal's body is not the product's error answer in the caller's language, or undefined when it is. */
  refusalProblem(answer: AbuseAnswer, request: AbuseRequest): string | undefined;
  /** Tables a refusal may still write, by design (a log of attempts). */
  mayWrite?: (request: AbuseRequest, answer: AbuseAnswer) => readonly string[];
  /** Runs after a success (waits for the job it queued, say). */
  afterSuccess?: (answer: AbuseAnswer) => Promise<void>;
  /** Waits for what the product does after answering (mails queued without waiting), before the tables are compared. */
  quiesce?: () => Promise<void>;
}

/**
 * Sends `numRuns` generated abusive requests to the route (seeded, so a failure replays) and checks
 * each answer: never a 5xx; a request that must be refused gets a 4xx; every 4xx is the product's
 * error answer and leaves the tables as they were.
 */
export async function assertWithstandsAbuse(target: AbuseTarget, run: AbuseRun, options: { numRuns: number; seed?: number }): Promise<void> {
  // The tables as the previous call left them, once its background writes (a mail queued after the answer) are done.
  let previous: Map<string, string> | undefined;
  const property = fc.asyncProperty(abusiveRequests(target), async (request) => {
    if (!previous) await run.quiesce?.();
    const before = previous ?? (await settledFingerprint(run.db, run.tables));
    previous = undefined;
    const answer = await run.send(request);
    if (answer.status < 400) await run.afterSuccess?.(answer);
    await run.quiesce?.();
    const after = await settledFingerprint(run.db, run.tables);
    previous = after;
    const said = `${request.method} ${request.url.slice(0, 300)} (${request.note}) answered ${answer.status} ${answer.text.slice(0, 400)}`;
    if (answer.status >= 500) throw new Error(`a server error: ${said}`);
    if (answer.status < 400) {
      if (request.mustRefuse) throw new Error(`the contract refuses this request, but it was taken: ${said}`);
      return;
    }
    const problem = run.refusalProblem(answer, request);
    if (problem) throw new Error(`${problem}: ${said}`);
    const allowed = run.mayWrite?.(request, answer) ?? [];
    const written = changedTables(before, after).filter((table) => !allowed.includes(table));
    if (written.length) throw new Error(`a refusal wrote to ${written.join(', ')}: ${said}`);
  });
  await fc.assert(property, { seed: options.seed ?? ABUSE_SEED, numRuns: options.numRuns });
}

/** Why a body is not the product's error answer (code, message in the caller's language, field errors, request id). */
export function errorBodyProblem(body: unknown): string | undefined {
  const b = body as { code?: unknown; message?: unknown; errors?: unknown; requestId?: unknown } | undefined;
  if (!b || typeof b !== 'object') return 'the refusal has no JSON body';
  if (typeof b.code !== 'string' || !/^[a-z][A-Za-z]*\.[\w.]+$/.test(b.code)) return `the refusal has no error code (${String(b.code)})`;
  const messageProblem = messageProblemOf(b.message, b.code);
  if (messageProblem) return messageProblem;
  if (!Array.isArray(b.errors)) return 'the refusal has no list of field errors';
  for (const error of b.errors as Array<{ field?: unknown; code?: unknown; message?: unknown }>) {
    if (typeof error.field !== 'string' || typeof error.code !== 'string') return 'a field error names no field or code';
    const fieldProblem = messageProblemOf(error.message, error.code);
    if (fieldProblem) return `field ${error.field}: ${fieldProblem}`;
  }
  if (typeof b.requestId !== 'string' || !b.requestId) return 'the refusal has no request id';
  return undefined;
}

/** A message is text in some language: not empty, not its own key, no placeholder left. */
export function messageProblemOf(message: unknown, code: string): string | undefined {
  if (typeof message !== 'string' || !message.trim()) return 'the refusal has no message';
  if (message === code) return `the message of ${code} is its key: it has no translation`;
  if (message.includes('{{')) return `the message of ${code} has a placeholder left: ${message}`;
  return undefined;
}

/** What the checks need of the server's translations. */
export interface Translations {
  t(key: string, options: { lng: string }): unknown;
}

/**
 * Why a message is not the code's phrase in the caller's language, or undefined when it is: the
 * phrase with its placeholders (`{{field}}`, filled by the server) matching anything.
 */
export function translationProblem(i18n: Translations, code: string, message: string, language: string): string | undefined {
  // A plural phrase (`x_one`, `x_other`) is one code: any of its forms will do.
  const keys = [code, ...['zero', 'one', 'two', 'few', 'many', 'other'].map((form) => `${code}_${form}`)];
  const phrases = keys.map((key) => [key, String(i18n.t(key, { lng: language }))]).filter(([key, phrase]) => phrase !== key).map(([, phrase]) => phrase!);
  const matches = (phrase: string) => {
    const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\\\{[^}]*\\\}\\\}/g, '[\\s\\S]*');
    return new RegExp(`^${escaped}$`).test(message);
  };
  if (phrases.some(matches)) return undefined;
  return `the message of ${code} is not its ${language} phrase ${phrases.map((phrase) => `"${phrase}"`).join(' or ') || '(none)'}: "${message}"`;
}

/**
 * What the product's mailer is to {@link trackSends}: a `send` returning a promise, and maybe a
 * `later` running work that ends in mails after the answer.
 */
interface Sender {
  send(...args: never[]): Promise<unknown>;
  later?(...args: never[]): Promise<unknown>;
}

/**
 * Counts the mails a mailer is still queuing (the product sends some without waiting); answers a
 * function that waits until none is left.
 */
export function trackSends(mailer: Sender): () => Promise<void> {
  const pending = new Set<Promise<unknown>>();
  const track = <K extends 'send' | 'later'>(name: K) => {
    const original = mailer[name]?.bind(mailer) as ((...args: never[]) => Promise<unknown>) | undefined;
    if (!original) return;
    mailer[name] = (...args: never[]) => {
      const running = original(...args);
      pending.add(running);
      void running.finally(() => pending.delete(running)).catch(() => undefined);
      return running;
    };
  };
  track('send');
  track('later');
  return async () => {
    while (pending.size) await Promise.allSettled([...pending]);
  };
}
