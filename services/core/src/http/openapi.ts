import type { RouteContract } from '@gatehouse/contracts';
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

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // A transform or a refinement has no JSON Schema: it is documented by its input or output side.
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** `:id` → `{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function parametersOf(contract: RouteContract): unknown[] {
  const list: unknown[] = [];
  for (const [where, schema] of [['path', contract.params], ['query', contract.query]] as const) {
    if (!schema) continue;
    const json = schemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      list.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: property });
    }
  }
  return list;
}

function responsesOf(contract: RouteContract, roles: (contract: RouteContract) => string | undefined): Record<string, unknown> {
  const status = String(contract.status ?? (contract.response || contract.produces ? 200 : 204));
  const success = contract.response
    ? { description: contract.summary, content: { 'application/json': { schema: schemaOf(contract.response, 'output') } } }
    : contract.produces
      ? { description: contract.summary, content: { [contract.produces]: {} } }
      : { description: contract.summary };
  const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
  const responses: Record<string, unknown> = { [status]: success };
  if (contract.alternativeStatus) responses[String(contract.alternativeStatus)] = success;
  Object.assign(responses, { '400': error('The input is not valid; each field names its problem') });
  if (contract.access !== 'public') responses['401'] = error('No valid bearer token or session');
  if (contract.access === 'roles') responses['403'] = error(`The caller holds none of the roles: ${roles(contract) ?? ''}`);
  if (contract.params) responses['404'] = error('Nothing with this id is visible to the caller');
  return responses;
}

function operationOf(contract: RouteContract, roles: (contract: RouteContract) => string | undefined): Record<string, unknown> {
  const operation: Record<string, unknown> = {
    operationId: contract.endpoint,
    summary: contract.summary,
    tags: [contract.endpoint.split('.')[0]],
    parameters: parametersOf(contract),
    responses: responsesOf(contract, roles),
  };
  if (contract.access !== 'public') operation.security = [{ bearer: [] }];
  if (contract.access === 'roles') operation['x-roles'] = roles(contract);
  if (contract.body) {
    operation.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(contract.body, 'input') } } };
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
  for (const contract of contracts) {
    const path = (paths[openApiPath(contract.path)] ??= {});
    path[contract.method.toLowerCase()] = operationOf(contract, roles);
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An access token of the admin console, a personal access token or a portal session token' } },
    },
  };
}
