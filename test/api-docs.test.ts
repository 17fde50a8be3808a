import { readFileSync } from 'node:fs';
import type Router from '@koa/router';
import * as adminApi from '@gatehouse/admin-api';
import { ALL_ROUTES, type RouteContract } from '@gatehouse/contracts';
import { contractOf } from '@gatehouse/core/http';
import * as idp from '@gatehouse/idp';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { expect } from 'chai';
import type Koa from 'koa';
import { startTestServer, type TestServer } from './support/server.js';

const BOOTSTRAP = `areas: [{ name: Default, default: true }]
applications: [{ id: '1', name: identity, displayName: Identity, type: public, roles: [{ name: God }, { name: Administrator }] }]
`;

interface Layer {
  methods: string[];
  path: string | RegExp;
  stack: unknown[];
}

/** Every routed layer of an app: the layers of each router it mounts. */
function layersOf(app: Koa): Layer[] {
  return app.middleware.flatMap((middleware) => {
    const router = (middleware as { router?: Router }).router;
    return router ? (router.stack as unknown as Layer[]).filter((layer) => layer.methods.length > 0) : [];
  });
}

const key = (contract: Pick<RouteContract, 'method' | 'path'>) => `${contract.method} ${contract.path}`;

type Json = Record<string, unknown>;

interface MediaType {
  schema?: Json;
  example?: unknown;
}

interface Operation {
  operationId: string;
  tags: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; schema?: Json; example?: unknown }>;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
}

/** Every operation of the document, with where it is. */
const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation, at: `${method.toUpperCase()} ${path}` })));

/** A JSON pointer's step. */
const step = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** Each example beside a schema (a parameter's, a body's), with the pointer of that schema in the document. */
function examplesOf(document: Document): Array<{ at: string; pointer: string; example: unknown }> {
  return operationsOf(document).flatMap(({ path, method, operation, at }) => {
    const base = `#/paths/${step(path)}/${method}`;
    const parameters = (operation.parameters ?? []).map((parameter, i) => ({ at: `${at} parameter ${parameter.name}`, pointer: `${base}/parameters/${i}/schema`, example: parameter.example }));
    const bodies = [
      ...Object.entries(operation.requestBody?.content ?? {}).map(([type, media]) => ({ where: 'requestBody', status: 'request', type, media })),
      ...Object.entries(operation.responses).flatMap(([status, response]) => Object.entries(response.content ?? {}).map(([type, media]) => ({ where: `responses/${status}`, status, type, media }))),
    ]
      .filter(({ media }) => media.example !== undefined)
      .map(({ where, status, type, media }) => ({ at: `${at} ${status} ${type}`, pointer: `${base}/${where}/content/${step(type)}/schema`, example: media.example }));
    return [...parameters, ...bodies];
  });
}

/** Bodies that carry an example: JSON and text; a file's bytes and a form carrying files cannot be shown. */
const shownByExample = (type: string, media: MediaType) => media.schema?.format !== 'binary' && type !== 'multipart/form-data';

describe('API document: every route declared once, documented at /api/docs', function () {
  let server: TestServer;
  let layers: Layer[];
  let closeIdp: () => Promise<void>;

  before(async function () {
    server = await startTestServer({ bootstrap: BOOTSTRAP });
    const idpApp = await idp.createApp(server.server.context);
    closeIdp = () => idpApp.close();
    layers = [...layersOf(idpApp), ...layersOf(adminApi.createApp(server.server.context))];
  });
  after(async () => {
    await closeIdp?.();
    await server?.stop();
  });

  it('binds every route of both services through a contract', () => {
    const undeclared = layers.filter((layer) => !layer.stack.some((middleware) => contractOf(middleware)));
    expect(undeclared.map((layer) => `${layer.methods.join(',')} ${String(layer.path)}`)).to.deep.equal([]);
  });

  it('binds every declared contract exactly once, on its own method and path', () => {
    const bound = layers.map((layer) => layer.stack.map(contractOf).find(Boolean)!);
    for (const [layer, contract] of layers.map((l, i) => [l, bound[i]] as const)) {
      expect(layer.methods, key(contract)).to.include(contract.method);
      expect(String(layer.path), key(contract)).to.equal(contract.path);
    }
    const counts = new Map<string, number>();
    for (const contract of bound) counts.set(key(contract), (counts.get(key(contract)) ?? 0) + 1);
    expect(ALL_ROUTES.map(key).filter((k) => counts.get(k) !== 1)).to.deep.equal([]);
    expect([...counts.keys()].filter((k) => !ALL_ROUTES.some((contract) => key(contract) === k))).to.deep.equal([]);
  });

  it('serves an OpenAPI 3.1 document that a schema validator accepts', async () => {
    const response = await fetch(`${server.url}/api/docs`, { headers: { accept: 'application/json' } });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/application\/json/);
    const document = (await response.json()) as { openapi: string; paths: Record<string, object> };
    expect(document.openapi).to.equal('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? [], JSON.stringify(result.errors)?.slice(0, 2000)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    const documented = operationsOf(document as unknown as Document);
    for (const contract of ALL_ROUTES) {
      const operation = (document as unknown as Document).paths[contract.path.replace(/:(\w+)/g, '{$1}')]?.[contract.method.toLowerCase()];
      expect(operation?.operationId, key(contract)).to.equal(contract.operationId ?? contract.endpoint);
    }
    // Besides the contracts: the OpenID Connect provider's endpoints and the health checks.
    const others = documented.filter(({ operation }) => !ALL_ROUTES.some((contract) => (contract.operationId ?? contract.endpoint) === operation.operationId));
    expect(documented.length - others.length).to.equal(ALL_ROUTES.length);
    expect([...new Set(others.map(({ operation }) => operation.tags[0]))].sort()).to.deep.equal(['health', 'oidc']);
  });

  it('lists every route the README names', async () => {
    const document = (await (await fetch(`${server.url}/api/docs/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const documented = new Set(Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`)));
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const named = [...readme.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/api\/[^`?\s]*)/g)].map(([, method, path]) => `${method} ${path!.replace(/:(\w+)/g, '{$1}')}`);
    expect(named.length).to.be.greaterThan(40);
    expect([...new Set(named)].filter((route) => !documented.has(route))).to.deep.equal([]);
  });

  it('shows a browser a readable page of the same operations, under a strict content policy', async () => {
    const response = await fetch(`${server.url}/api/docs`, { headers: { accept: 'text/html' } });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/text\/html/);
    expect(response.headers.get('content-security-policy')).to.match(/default-src 'none'; style-src 'nonce-[^']+'/);
    const page = await response.text();
    const document = (await (await fetch(`${server.url}/api/docs/openapi.json`)).json()) as Document;
    expect(page.match(/<section id=/g)?.length).to.equal(operationsOf(document).length);
    expect(page).to.contain('/oidc/token').and.to.contain('https://www.rfc-editor.org/rfc/rfc6749#section-3.2');
    expect(page).to.contain('/api/v1/admin/users/{id}');
    expect(page).to.not.match(/<script/);
  });
});

describe('API document: accepted by client generators, with examples that fit their schemas', function () {
  let server: TestServer;
  let document: Document;

  before(async function () {
    server = await startTestServer({ bootstrap: BOOTSTRAP });
    document = (await (await fetch(`${server.url}/api/docs/openapi.json`)).json()) as Document;
  });
  after(async () => {
    await server?.stop();
  });

  it('refers only to schemas it defines, never to itself as a whole (`$ref: "#"`)', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      for (const [name, value] of Object.entries(node)) {
        if (name === '$ref' && typeof value === 'string') refs.push(value);
        else walk(value);
      }
    };
    walk(document);
    expect(refs).to.include('#/components/schemas/TenantTreeNode');
    const defined = (ref: string) => ref.startsWith('#/components/schemas/') && document.components.schemas[ref.slice('#/components/schemas/'.length)] !== undefined;
    expect([...new Set(refs.filter((ref) => !defined(ref)))]).to.deep.equal([]);
  });

  it('gives every operation an id of its own', () => {
    const ids = operationsOf(document).map(({ operation }) => operation.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).to.deep.equal([]);
    expect(ids).to.include.members(['groups.addMember', 'groups.addUserToGroup', 'groups.removeMember', 'groups.removeUserFromGroup']);
  });

  it('describes every answer with content by a schema, and every success but 204 and redirects with content', () => {
    const missing: string[] = [];
    for (const { operation, at } of operationsOf(document)) {
      const statuses = Object.keys(operation.responses);
      if (!statuses.some((status) => /^[23]\d\d$/.test(status))) missing.push(`${at}: no success`);
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) if (!media.schema) missing.push(`${at} ${status} ${type}: no schema`);
        if (/^2\d\d$/.test(status) && status !== '204' && !response.content && !['oidc.revocation'].includes(operation.operationId)) missing.push(`${at} ${status}: no content`);
      }
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) if (!media.schema) missing.push(`${at} request ${type}: no schema`);
    }
    expect(missing).to.deep.equal([]);
  });

  it('marks public operations `security: []` and names a defined scheme for every other', () => {
    const problems: string[] = [];
    for (const contract of ALL_ROUTES) {
      const operation = document.paths[contract.path.replace(/:(\w+)/g, '{$1}')]![contract.method.toLowerCase()]!;
      if (contract.access === 'public' ? operation.security?.length !== 0 : !operation.security?.length) problems.push(`${key(contract)} (${contract.access}): ${JSON.stringify(operation.security)}`);
    }
    for (const { operation, at } of operationsOf(document)) {
      if (!Array.isArray(operation.security)) problems.push(`${at}: no security`);
      for (const scheme of (operation.security ?? []).flatMap(Object.keys)) if (!document.components.securitySchemes[scheme]) problems.push(`${at}: undefined scheme ${scheme}`);
    }
    expect(problems).to.deep.equal([]);
  });

  it('shows every parameter and every JSON or text body by an example', () => {
    const missing: string[] = [];
    for (const { operation, at } of operationsOf(document)) {
      for (const parameter of operation.parameters ?? []) if (parameter.example === undefined) missing.push(`${at} parameter ${parameter.name}`);
      const bodies = [...Object.entries(operation.requestBody?.content ?? {}), ...Object.values(operation.responses).flatMap((response) => Object.entries(response.content ?? {}))];
      for (const [type, media] of bodies) if (shownByExample(type, media) && media.example === undefined) missing.push(`${at} ${type}`);
    }
    expect(missing).to.deep.equal([]);
  });

  it('has examples that its own schemas accept, and refuses one that does not fit', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    formats.default(ajv);
    ajv.addFormat('binary', true);
    ajv.addSchema({ ...document, $id: 'urn:gatehouse:openapi' });
    const check = (pointer: string, example: unknown) => {
      const validate = ajv.compile({ $ref: `urn:gatehouse:openapi${pointer}` });
      return validate(example) ? undefined : ajv.errorsText(validate.errors);
    };
    const examples = examplesOf(document);
    expect(examples.length).to.be.greaterThan(1000);
    const refused = examples.map(({ at, pointer, example }) => [at, check(pointer, example)]).filter(([, errors]) => errors);
    expect(refused).to.deep.equal([]);

    // The check itself: a generated tree with a child missing its fields is refused.
    const tree = examples.find(({ at }) => at === 'GET /api/v1/admin/tenants/{tenantId}/hierarchy-tree 200 application/json')!;
    expect(check(tree.pointer, { ...(tree.example as object), children: [{ id: 'x' }] })).to.match(/must have required property 'title'/);
  });

  it("has request examples that the route's own validation accepts", () => {
    const refused: string[] = [];
    for (const contract of ALL_ROUTES) {
      const operation = document.paths[contract.path.replace(/:(\w+)/g, '{$1}')]![contract.method.toLowerCase()]!;
      const exampleIn = (where: string) => Object.fromEntries((operation.parameters ?? []).filter((parameter) => parameter.in === where).map((parameter) => [parameter.name, parameter.example]));
      const inputs: Array<[string, RouteContract['body'], unknown]> = [
        ['body', contract.body, operation.requestBody?.content['application/json']?.example],
        ['path', contract.params, exampleIn('path')],
        ['query', contract.query, exampleIn('query')],
        ['header', contract.headers, exampleIn('header')],
      ];
      for (const [where, schema, example] of inputs) {
        const result = schema?.safeParse(example);
        if (result && !result.success) refused.push(`${key(contract)} ${where}: ${result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
      }
    }
    expect(refused).to.deep.equal([]);
  });

  it('documents every endpoint the provider advertises in its discovery document, and the health checks', async () => {
    const discovery = (await (await fetch(`${server.url}/oidc/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    const endpoints = Object.entries(discovery).filter(([name, value]) => /_(endpoint|uri)$/.test(name) && name !== 'check_session_iframe' && typeof value === 'string' && value.startsWith(server.url));
    expect(endpoints.map(([name]) => name)).to.include.members([
      'authorization_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
      'jwks_uri',
      'introspection_endpoint',
      'revocation_endpoint',
      'end_session_endpoint',
      'device_authorization_endpoint',
      'pushed_authorization_request_endpoint',
    ]);
    const undocumented = endpoints.map(([, url]) => new URL(url as string).pathname).filter((path) => !document.paths[path]);
    expect(undocumented).to.deep.equal([]);
    expect(document.paths['/oidc/.well-known/openid-configuration']?.get?.operationId).to.equal('oidc.discovery');
    for (const path of ['/health/live', '/health/ready']) {
      expect((await fetch(`${server.url}${path}`)).status, path).to.equal(200);
      expect(document.paths[path]?.get?.security, path).to.deep.equal([]);
    }
  });
});
