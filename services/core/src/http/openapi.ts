import { PAGE_SESSION_COOKIE, type RouteContract } from '@gatehouse/contracts';
import { z } from 'zod';

/** The parts of an OpenAPI 3.1 document this product writes. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, unknown>;
}

type JsonSchema = Record<string, unknown>;

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

/** Where a schema's own definitions go: the document's schemas, under names starting with `prefix`. */
interface Definitions {
  schemas: Record<string, JsonSchema>;
  prefix: string;
}

function schemaOf(schema: z.ZodType, io: 'input' | 'output', definitions: Definitions): JsonSchema {
  // A transform or a refinement has no JSON Schema: it is documented by its input or output side.
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return hoistDefinitions(json, definitions);
}

/**
 * A recursive schema (a tree) comes with `$defs` that its `#/$defs/…` references point to; inside
 * an operation those references would resolve against the document's root. The definitions move
 * to the document's schemas, each under a name of its own, and the references follow them.
 */
function hoistDefinitions(json: JsonSchema, { schemas, prefix }: Definitions): JsonSchema {
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  if (!defs) return json;
  delete json.$defs;
  const nameOf = (def: string) => `${prefix}.${def}`.replace(/[^A-Za-z0-9._-]/g, '_');
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
  for (const [name, def] of Object.entries(defs)) schemas[nameOf(name)] = rewrite(def) as JsonSchema;
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

function responsesOf(contract: RouteContract, roles: (contract: RouteContract) => string | undefined, schemas: Record<string, JsonSchema>): Record<string, unknown> {
  const status = String(contract.status ?? (contract.response || contract.produces ? 200 : 204));
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
      ? { description: contract.summary, content: { [contract.produces]: {} } }
      : { description: contract.summary };
  const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
  const responses: Record<string, unknown> = { [status]: success };
  if (contract.alternativeStatus) responses[String(contract.alternativeStatus)] = success;
  Object.assign(responses, { '400': error('The input is not valid; each field names its problem') });
  if (contract.access === 'page-session') {
    // A page answers its refusals as pages.
    const page = (description: string) => ({ description, content: { 'text/html': {} } });
    responses['401'] = page('No session of the page, or a one-time code that is unknown, used or expired');
    responses['403'] = page('The user no longer holds the roles that opened the page');
  } else if (contract.access === 'application') {
    responses['401'] = error('No valid token: a client-credentials token of the application for this API, or a personal access token issued for it, unexpired and not revoked');
    responses['403'] = error("The token's application may not use this API (stopped, or one of the product's own), or the token's owner no longer administers it");
    responses['429'] = {
      description: 'Too many calls by this caller: try again after the number of seconds in Retry-After',
      headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  } else {
    if (contract.access !== 'public') responses['401'] = error('No valid bearer token or session');
    if (contract.access === 'roles') responses['403'] = error(`The caller holds none of the roles: ${roles(contract) ?? ''}`);
  }
  if (contract.params) responses['404'] = error('Nothing with this id is visible to the caller');
  for (const [status, description] of Object.entries(contract.errors ?? {})) responses[status] = error(description);
  return responses;
}

function operationOf(contract: RouteContract, roles: (contract: RouteContract) => string | undefined, schemas: Record<string, JsonSchema>): Record<string, unknown> {
  const operation: Record<string, unknown> = {
    operationId: contract.endpoint,
    summary: contract.summary,
    tags: [contract.endpoint.split('.')[0]],
    parameters: parametersOf(contract, schemas),
    responses: responsesOf(contract, roles, schemas),
  };
  if (contract.access === 'page-session') operation.security = [{ pageSession: [] }];
  else if (contract.access === 'application') operation.security = [{ application: [] }];
  else if (contract.access !== 'public') operation.security = [{ bearer: [] }];
  if (contract.access === 'roles') operation['x-roles'] = roles(contract);
  if (contract.access === 'application') operation['x-caller'] = 'A business application (client credentials, or a personal access token issued for it)';
  if (contract.body) {
    const schema = schemaOf(contract.body, 'input', { schemas, prefix: `${contract.endpoint}.body` });
    operation.requestBody = { required: true, content: { 'application/json': { schema, ...exampleOf(contract.examples?.body) } } };
  } else if (contract.consumes) {
    operation.requestBody = { required: true, content: { [contract.consumes]: {} } };
  }
  return operation;
}

/**
 * The OpenAPI 3.1 document of the given routes, generated from their contracts. `roles` names who
 * may call a role-checked route (from the roles table).
 */
export function openApiDocument(
  contracts: readonly RouteContract[],
  info: OpenApiDocument['info'],
  roles: (contract: RouteContract) => string | undefined = () => undefined,
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const schemas: Record<string, JsonSchema> = { Error: ERROR_SCHEMA };
  for (const contract of contracts) {
    const path = (paths[openApiPath(contract.path)] ??= {});
    path[contract.method.toLowerCase()] = operationOf(contract, roles, schemas);
  }
  return {
    openapi: '3.1.0',
    info,
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
      },
    },
  };
}
