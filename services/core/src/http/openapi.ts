import { PAGE_SESSION_COOKIE, en, type RouteContract } from '@gatehouse/contracts';
import { z } from 'zod';
import { exampleFromSchema } from './openapi-examples.js';

/** The parts of an OpenAPI 3.1 document this product writes. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  servers: { url: string; description?: string }[];
  tags?: OpenApiTag[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

export interface OpenApiTag {
  name: string;
  description: string;
  externalDocs?: { url: string; description?: string };
}

type JsonSchema = Record<string, unknown>;

/** What the document holds besides the contracts' operations. */
export interface OpenApiOptions {
  /** Who may call a role-checked route (from the roles table). */
  roles?: (contract: RouteContract) => string | undefined;
  /** Operations served outside the contracts (the OpenID Connect provider, health checks), as path items. */
  paths?: OpenApiDocument['paths'];
  /** Tags those operations use, with what they are about. */
  tags?: OpenApiTag[];
  /** Security schemes those operations name. */
  securitySchemes?: Record<string, unknown>;
}

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['code', 'message', 'errors', 'requestId'],
  properties: {
    code: { type: 'string', description: 'Stable error code, also the key of the message' },
    message: { type: 'string', description: "The message in the caller's language" },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'code', 'message'],
        properties: { field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
      },
    },
    requestId: { type: 'string' },
  },
};

const fill = (message: string, values: Record<string, string | number>) => message.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => String(values[name] ?? whole));

/** The error code and message an answer of this status usually carries, in the contracts' own words. */
const ERROR_OF_STATUS: Readonly<Record<string, readonly [code: string, message: string]>> = {
  '400': ['errors.validation', en.errors.validation],
  '401': ['errors.unauthorized', en.errors.unauthorized],
  '403': ['errors.forbidden', en.errors.forbidden],
  '404': ['errors.not_found', en.errors.not_found],
  '409': ['errors.already_exists', en.errors.already_exists],
  '413': ['errors.payload_too_large', fill(en.errors.payload_too_large, { limit: '2 MB' })],
  '422': ['errors.validation', en.errors.validation],
  '429': ['errors.too_many_requests', fill(en.errors.too_many_requests, { retryAfter: 30 })],
  '503': ['errors.service_unavailable', en.errors.service_unavailable],
};

/** An example error answer of this status; a refused input names its field. */
function errorExample(status: string): JsonSchema {
  const [code, message] = ERROR_OF_STATUS[status] ?? ERROR_OF_STATUS['400']!;
  const errors = status === '400' || status === '422' ? [{ field: 'name', code: 'validation.required', message: fill(en.validation.required, { field: 'name' }) }] : [];
  return { code, message, errors, requestId: '01JQ4M7Z3X8K2V5N9P6R1T0W2Y' };
}

/** Where a schema's own definitions go: the document's schemas, under names starting with `prefix`. */
interface Definitions {
  schemas: Record<string, JsonSchema>;
  prefix: string;
}

function schemaOf(schema: z.ZodType, io: 'input' | 'output', definitions: Definitions): JsonSchema {
  // A transform or a refinement has no JSON Schema: it is documented by its input or output side.
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return hoistRoot(hoistDefinitions(json, definitions), definitions);
}

/** Whether a schema refers to itself as a whole (`$ref: "#"`). */
function refersToRoot(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(refersToRoot);
  if (!node || typeof node !== 'object') return false;
  return Object.entries(node).some(([key, value]) => (key === '$ref' && value === '#') || refersToRoot(value));
}

/**
 * A recursive schema with no name of its own refers to itself as `#`, which inside the document
 * would mean the whole document: it moves to the document's schemas under the operation's name,
 * and its references to itself point there.
 */
function hoistRoot(json: JsonSchema, { schemas, prefix }: Definitions): JsonSchema {
  if (!refersToRoot(json)) return json;
  const name = componentName(prefix);
  const ref = `#/components/schemas/${name}`;
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === '$ref' && value === '#' ? ref : rewrite(value)]));
  };
  schemas[name] = rewrite(json) as JsonSchema;
  return { $ref: ref };
}

const componentName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_');

/** A definition zod names itself (`__schema0`) is the operation's own; one with an `id` in its meta is shared. */
const isAnonymous = (def: string) => /^__schema\d+$/.test(def);

/**
 * A recursive schema (a tree) comes with `$defs` that its `#/$defs/…` references point to; inside
 * an operation those references would resolve against the document's root. The definitions move
 * to the document's schemas, each under a name of its own, and the references follow them.
 */
function hoistDefinitions(json: JsonSchema, { schemas, prefix }: Definitions): JsonSchema {
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  if (!defs) return json;
  delete json.$defs;
  const nameOf = (def: string) => componentName(isAnonymous(def) ? `${prefix}.${def}` : def);
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) =>
        key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
          ? [key, `#/components/schemas/${nameOf(value.slice('#/$defs/'.length))}`]
          : [key, rewrite(value)],
      ),
    );
  };
  for (const [name, def] of Object.entries(defs)) {
    const hoisted = rewrite(def) as JsonSchema;
    const existing = schemas[nameOf(name)];
    // A shared schema reads the same wherever it is used; one that differs as input and output needs two ids.
    if (existing && JSON.stringify(existing) !== JSON.stringify(hoisted)) throw new Error(`The schema ${name} differs between two operations (${prefix}): give each form an id of its own`);
    schemas[nameOf(name)] = hoisted;
  }
  return rewrite(json) as JsonSchema;
}

/** `:id` → `{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function parametersOf(contract: RouteContract, schemas: Record<string, JsonSchema>): unknown[] {
  const list: unknown[] = [];
  const sources = [
    ['path', contract.params, contract.examples?.params],
    ['query', contract.query, contract.examples?.query],
    ['header', contract.headers, contract.examples?.headers],
  ] as const;
  for (const [where, schema, examples] of sources) {
    if (!schema) continue;
    const json = schemaOf(schema, 'input', { schemas, prefix: `${contract.endpoint}.${where}` }) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const example = examples?.[name] === undefined ? {} : { example: examples[name] };
      list.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: property, ...example });
    }
  }
  return list;
}

/** A media type's example, when the contract gives one. */
const exampleOf = (value: unknown) => (value === undefined ? {} : { example: value });

/** A file a route sends or takes as it is: its bytes. */
const BINARY: JsonSchema = { type: 'string', format: 'binary' };

/** What a page or a text answer is: a string; anything else a route writes itself is a file. */
function writtenSchema(mediaType: string): JsonSchema {
  if (mediaType === 'application/json') return { type: 'object', description: 'The JSON document the summary describes' };
  if (mediaType === 'text/html') return { type: 'string', description: 'An HTML page' };
  if (mediaType.startsWith('text/')) return { type: 'string' };
  return BINARY;
}

/** A page the browser is shown, for the examples of the routes that answer with one. */
const PAGE_EXAMPLE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gatehouse</title></head><body><main>…</main></body></html>';

/** Where a redirect sends the browser. */
const LOCATION = { description: 'Where the browser goes next', schema: { type: 'string', format: 'uri-reference' } };

/** The success answer of a route that writes its own body. */
function writtenAnswer(contract: RouteContract & { produces: string }): Record<string, unknown> {
  if (contract.produces === 'redirect') return { description: contract.summary, headers: { Location: LOCATION } };
  const schema = writtenSchema(contract.produces);
  const example = contract.examples?.response ?? (contract.produces === 'text/html' ? PAGE_EXAMPLE : undefined);
  return { description: contract.summary, content: { [contract.produces]: { schema, ...exampleOf(example) } } };
}

function successStatus(contract: RouteContract): string {
  if (contract.status) return String(contract.status);
  if (contract.produces === 'redirect') return '302';
  return contract.response || contract.produces ? '200' : '204';
}

/** A refusal answered with the error body. */
const errorAnswer = (status: string, description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: errorExample(status) } },
});

function responsesOf(contract: RouteContract, roles: (contract: RouteContract) => string | undefined, schemas: Record<string, JsonSchema>): Record<string, unknown> {
  const status = successStatus(contract);
  const success = contract.response
    ? {
        description: contract.summary,
        content: {
          'application/json': {
            schema: schemaOf(contract.response, 'output', { schemas, prefix: `${contract.endpoint}.response` }),
            ...exampleOf(contract.examples?.response),
          },
        },
      }
    : contract.produces
      ? writtenAnswer({ ...contract, produces: contract.produces })
      : { description: contract.summary };
  const responses: Record<string, unknown> = { [status]: success };
  if (contract.alternativeStatus) responses[String(contract.alternativeStatus)] = success;
  responses['400'] = errorAnswer('400', 'The input is not valid; each field names its problem');
  if (contract.access === 'page-session') {
    // A page answers its refusals as pages.
    const page = (description: string) => ({ description, content: { 'text/html': { schema: writtenSchema('text/html'), example: PAGE_EXAMPLE } } });
    responses['401'] = page('No session of the page, or a one-time code that is unknown, used or expired');
    responses['403'] = page('The user no longer holds the roles that opened the page');
  } else if (contract.access === 'application') {
    responses['401'] = errorAnswer('401', 'No valid token: a client-credentials token of the application for this API, or a personal access token issued for it, unexpired and not revoked');
    responses['403'] = errorAnswer('403', "The token's application may not use this API (stopped, or one of the product's own), or the token's owner no longer administers it");
    responses['429'] = {
      ...errorAnswer('429', 'Too many calls by this caller: try again after the number of seconds in Retry-After'),
      headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
    };
  } else {
    if (contract.access !== 'public') responses['401'] = errorAnswer('401', 'No valid bearer token or session');
    if (contract.access === 'roles') responses['403'] = errorAnswer('403', `The caller holds none of the roles: ${roles(contract) ?? ''}`);
  }
  if (contract.params) responses['404'] = errorAnswer('404', 'Nothing with this id is visible to the caller');
  for (const [status, description] of Object.entries(contract.errors ?? {})) responses[status] = errorAnswer(status, description);
  return responses;
}

/** The schema of a request body the handler reads itself. */
function readSchema(mediaType: string): JsonSchema {
  if (mediaType === 'multipart/form-data') return { type: 'object', description: 'A form with the fields and files the summary names' };
  return BINARY;
}

function securityOf(contract: RouteContract): unknown[] {
  switch (contract.access) {
    case 'public':
      return [];
    case 'page-session':
      return [{ pageSession: [] }];
    case 'application':
      return [{ application: [] }];
    default:
      return [{ bearer: [] }];
  }
}

function operationOf(contract: RouteContract, roles: (contract: RouteContract) => string | undefined, schemas: Record<string, JsonSchema>): Record<string, unknown> {
  const operation: Record<string, unknown> = {
    operationId: contract.operationId ?? contract.endpoint,
    summary: contract.summary,
    tags: [contract.endpoint.split('.')[0]],
    parameters: parametersOf(contract, schemas),
    responses: responsesOf(contract, roles, schemas),
    // An empty list says what a missing one would leave open: the route needs no credentials.
    security: securityOf(contract),
  };
  if (contract.access === 'roles') operation['x-roles'] = roles(contract);
  if (contract.access === 'application') operation['x-caller'] = 'A business application (client credentials, or a personal access token issued for it)';
  if (contract.body) {
    const schema = schemaOf(contract.body, 'input', { schemas, prefix: `${contract.endpoint}.body` });
    operation.requestBody = { required: true, content: { 'application/json': { schema, ...exampleOf(contract.examples?.body) } } };
  } else if (contract.consumes) {
    operation.requestBody = { required: true, content: { [contract.consumes]: { schema: readSchema(contract.consumes) } } };
  }
  return operation;
}

interface MediaType {
  schema?: JsonSchema;
  example?: unknown;
}

interface Parameter {
  name: string;
  schema?: JsonSchema;
  example?: unknown;
}

/** Whether a body is shown by an example: not a file's bytes, nor a form that carries files. */
export function exemplifiable(mediaType: string, content: MediaType): boolean {
  return content.schema !== undefined && content.schema.format !== 'binary' && mediaType !== 'multipart/form-data';
}

/**
 * Gives every parameter and body of the document that has no hand-written example one generated
 * from its schema, resolving references against the document's own schemas.
 */
function addExamples(document: OpenApiDocument): void {
  const resolve = (ref: string) => (ref.startsWith('#/components/schemas/') ? document.components.schemas[ref.slice('#/components/schemas/'.length)] : undefined);
  const fillContent = (content: Record<string, MediaType> | undefined, name: string) => {
    for (const [mediaType, media] of Object.entries(content ?? {})) {
      if (media.example === undefined && exemplifiable(mediaType, media)) media.example = exampleFromSchema(media.schema!, resolve, name);
    }
  };
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods) as Array<{ parameters?: Parameter[]; requestBody?: { content?: Record<string, MediaType> }; responses?: Record<string, { content?: Record<string, MediaType> }> }>) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.example === undefined && parameter.schema) parameter.example = exampleFromSchema(parameter.schema, resolve, parameter.name);
      }
      fillContent(operation.requestBody?.content, '');
      for (const response of Object.values(operation.responses ?? {})) fillContent(response.content, '');
    }
  }
}

/**
 * The OpenAPI 3.1 document of the given routes, generated from their contracts, with the
 * operations served outside them that `options` adds. Every parameter and JSON body carries an
 * example: the contract's own, or one generated from its schema.
 */
export function openApiDocument(contracts: readonly RouteContract[], info: OpenApiDocument['info'], options: OpenApiOptions = {}): OpenApiDocument {
  const roles = options.roles ?? (() => undefined);
  const paths: OpenApiDocument['paths'] = {};
  const schemas: Record<string, JsonSchema> = { Error: ERROR_SCHEMA };
  for (const contract of contracts) {
    const path = (paths[openApiPath(contract.path)] ??= {});
    path[contract.method.toLowerCase()] = operationOf(contract, roles, schemas);
  }
  for (const [path, methods] of Object.entries(options.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods)) {
      const item = (paths[path] ??= {});
      if (item[method]) throw new Error(`${method.toUpperCase()} ${path} is documented twice`);
      item[method] = structuredClone(operation);
    }
  }
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info,
    // The document is served by the product it describes: its paths are relative to that host.
    servers: [{ url: '/', description: 'The host serving this document' }],
    ...(options.tags?.length ? { tags: options.tags } : {}),
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An access token of the admin console, a personal access token or a portal session token' },
        application: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A business application: the JWT its client credentials get for the external API (`grant_type=client_credentials` with `resource` set to the external API audience), or a personal access token issued for the application to a user who administers it',
        },
        pageSession: {
          type: 'apiKey',
          in: 'cookie',
          name: PAGE_SESSION_COOKIE,
          description: 'The session of a page opened in a new tab with a one-time code (`__Secure-` prefixed over https)',
        },
        ...options.securitySchemes,
      },
    },
  };
  addExamples(document);
  return document;
}
