import Router from '@koa/router';
import { defineRoute, idParams, listPage, listQuery } from '@gatehouse/contracts';
import { expect } from 'chai';
import type { Middleware } from 'koa';
import request from 'supertest';
import { z } from 'zod';
import { AppError } from '../errors/app-error.js';
import { sharedTestContext } from '../testing/index.js';
import { createBaseApp, koaJsonBody } from './base-app.js';
import { toListQuery } from './list-query.js';
import { contractOf, routeKit, withStatus } from './route.js';

const item = z.object({ id: z.string(), name: z.string() });

const routes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/test/items',
    endpoint: 'items.list',
    access: 'roles',
    summary: 'Lists items',
    query: listQuery({ sortable: ['name', 'modifiedOn'], defaultOrder: 'name asc', maxTop: 50 }),
    response: listPage(item),
  }),
  get: defineRoute({ method: 'GET', path: '/api/test/items/:id', endpoint: 'items.get', access: 'roles', summary: 'One item', params: idParams, response: item }),
  create: defineRoute({
    method: 'POST',
    path: '/api/test/items',
    endpoint: 'items.create',
    access: 'roles',
    summary: 'Adds an item',
    body: z.strictObject({ name: z.string().trim().min(1).max(20), kind: z.enum(['a', 'b']) }),
    required: { kind: 'users.language_required' },
    response: item,
    status: 201,
    alternativeStatus: 200,
  }),
  remove: defineRoute({ method: 'DELETE', path: '/api/test/items/:id', endpoint: 'items.remove', access: 'roles', summary: 'Removes', params: idParams }),
  broken: defineRoute({ method: 'GET', path: '/api/test/broken', endpoint: 'items.broken', access: 'public', summary: 'Answers off-contract', response: item }),
};

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('declared routes (routeKit)', () => {
  let server: ReturnType<ReturnType<typeof createBaseApp>['callback']>;
  const calls: string[] = [];
  const router = new Router();

  before(async () => {
    const context = await sharedTestContext();
    const app = createBaseApp(context);
    app.use(koaJsonBody(context));
    // The guard stands in for the role check: it refuses `x-role: none` before any input is read.
    const guard = (contract: { endpoint: string }): Middleware => async (ctx, next) => {
      calls.push(`guard ${contract.endpoint}`);
      if (ctx.get('x-role') === 'none') throw new AppError('errors.forbidden', 403);
      await next();
    };
    const { bind } = routeKit({ guard, extra: (ctx) => ({ caller: ctx.get('x-caller') || 'anonymous' }) });
    bind(router, routes.list, async ({ query }) => {
      const sql = toListQuery(query, { name: 'i.name', modifiedOn: 'i.modified_on' });
      return { items: [{ id: sql.orderBy, name: `${sql.skip}/${sql.top}/${sql.search ?? ''}`, secret: 'dropped' }], count: 1 };
    });
    bind(router, routes.get, async ({ params, caller }) => ({ id: params.id, name: caller }));
    bind(router, routes.create, async ({ body }) => (body.name === 'again' ? withStatus(200, { id: '2', name: body.name }) : { id: '1', name: body.name }));
    bind(router, routes.remove, async ({ params }) => void calls.push(`removed ${params.id}`));
    bind(router, routes.broken, async () => ({ id: 1 }) as never);
    app.use(router.routes());
    server = app.callback();
  });

  const post = (body: unknown) => request(server).post('/api/test/items').set('Accept-Language', 'en').send(body as object);

  it('marks every bound layer with its contract', () => {
    const bound = router.stack.map((layer) => layer.stack.map(contractOf).find(Boolean)?.endpoint);
    expect(bound).to.deep.equal(['items.list', 'items.get', 'items.create', 'items.remove', 'items.broken']);
  });

  it('reads the list query: defaults, a declared sort in any case, the SQL it maps to', async () => {
    const res = await request(server).get('/api/test/items?orderBy=MODIFIEDON%20desc&skip=20&top=5&$search=%20ada%20');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ items: [{ id: 'i.modified_on DESC', name: '20/5/ada' }], count: 1 });
    const defaults = await request(server).get('/api/test/items');
    expect(defaults.body.items[0]).to.deep.equal({ id: 'i.name ASC', name: '0/10/' });
  });

  it('answers 400 naming the field for an undeclared sort or a page over the limit', async () => {
    const res = await request(server).get('/api/test/items?orderBy=password%20asc&top=51').set('Accept-Language', 'en');
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('errors.validation');
    expect(res.body.errors.map((e: { field: string; code: string }) => `${e.field} ${e.code}`)).to.have.members([
      'orderBy validation.invalid_value',
      'top validation.too_big',
    ]);
  });

  it('answers a malformed path id as the same 404 as an unknown one, without calling the handler', async () => {
    const res = await request(server).delete('/api/test/items/not-an-id');
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('errors.not_found');
    expect(calls).to.not.include('removed not-an-id');
  });

  it('lower-cases a path id and answers 204 for a route with no response body', async () => {
    const res = await request(server).delete(`/api/test/items/${ID.toUpperCase()}`);
    expect(res.status).to.equal(204);
    expect(calls).to.include(`removed ${ID}`);
  });

  it('validates the body: unknown fields, the spec message for a blank required field, each field named', async () => {
    const res = await post({ name: ' ', kind: '', extra: 1 });
    expect(res.status).to.equal(400);
    const errors = res.body.errors.map((e: { field: string; code: string }) => `${e.field} ${e.code}`);
    expect(errors).to.include.members(['kind users.language_required', 'name validation.required', 'extra validation.unknown_field']);
    const kind = res.body.errors.find((e: { field: string }) => e.field === 'kind');
    // The message is the spec's own, in the caller's language, not the generic "required".
    expect(kind.message).to.equal('Please select your preferred language!');
  });

  it('answers the declared status, or the alternative one the handler chose', async () => {
    expect((await post({ name: 'first', kind: 'a' })).status).to.equal(201);
    const again = await post({ name: 'again', kind: 'b' });
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal({ id: '2', name: 'again' });
  });

  it('runs the guard before reading any input: a refused caller learns nothing about validation', async () => {
    const res = await request(server).post('/api/test/items').set('x-role', 'none').send({ nonsense: true });
    expect(res.status).to.equal(403);
    expect(res.body.code).to.equal('errors.forbidden');
  });

  it('hands the handler what the kit adds (the caller)', async () => {
    const res = await request(server).get(`/api/test/items/${ID}`).set('x-caller', 'ada');
    expect(res.body).to.deep.equal({ id: ID, name: 'ada' });
  });

  it('refuses to answer off its contract: a 500, never the undeclared shape', async () => {
    const res = await request(server).get('/api/test/broken').set('Accept-Language', 'en');
    expect(res.status).to.equal(500);
    expect(res.body.code).to.equal('errors.internal');
    expect(JSON.stringify(res.body)).to.not.contain('"id":1');
  });
});
