import { readFileSync } from 'node:fs';
import type Router from '@koa/router';
import * as adminApi from '@gatehouse/admin-api';
import { ALL_ROUTES, type RouteContract } from '@gatehouse/contracts';
import { contractOf } from '@gatehouse/core/http';
import * as idp from '@gatehouse/idp';
import { Validator } from '@seriousme/openapi-schema-validator';
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
    const operations = Object.values(document.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(operations).to.equal(ALL_ROUTES.length);
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
    expect(page.match(/<section id=/g)?.length).to.equal(ALL_ROUTES.length);
    expect(page).to.contain('/api/v1/admin/users/{id}');
    expect(page).to.not.match(/<script/);
  });
});
