import Router from '@koa/router';
import { expect } from 'chai';
import pg from 'pg';
import request from 'supertest';
import { z } from 'zod';
import { Area } from '../entities/identity.js';
import { AppError } from '../errors/app-error.js';
import { sharedTestContext } from '../testing/index.js';
import { createBaseApp, koaJsonBody } from './base-app.js';
import { parseInput } from './validation.js';

describe('error handler', () => {
  let server: ReturnType<ReturnType<typeof createBaseApp>['callback']>;
  let areaName: string;

  before(async () => {
    const context = await sharedTestContext();
    areaName = `errors-${Date.now()}`;
    await context.dataSource.getRepository(Area).save({ name: areaName });
    const app = createBaseApp(context);
    app.use(koaJsonBody(context));
    const router = new Router({ prefix: '/api/test' });
    router.get('/app-error', () => {
      throw new AppError('errors.forbidden', 403);
    });
    router.post('/validate', (ctx) => {
      ctx.body = parseInput(
        z.strictObject({ email: z.email(), name: z.string().min(1).max(5), age: z.number().int(), kind: z.enum(['a', 'b']) }),
        ctx.request.body,
      );
    });
    router.post('/areas', async (ctx) => {
      ctx.body = await context.dataSource.getRepository(Area).save({ name: (ctx.request.body as { name: string }).name });
    });
    router.get('/database-gone', async () => {
      // A pool whose server refuses connections, as a restarting database does.
      const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 1000 });
      await client.connect();
    });
    router.get('/boom', () => {
      throw new Error('connection string postgres://secret@db leaked?');
    });
    app.use(router.routes());
    server = app.callback();
  });

  it('answers an AppError with its status, code and the message in the caller language', async () => {
    const en = await request(server).get('/api/test/app-error').set('Accept-Language', 'en-GB,en;q=0.9');
    expect(en.status).to.equal(403);
    expect(en.body).to.include({ code: 'errors.forbidden', message: 'You do not have permission to perform this action' });
    expect(en.body.requestId).to.equal(en.headers['x-request-id']);
    const es = await request(server).get('/api/test/app-error').set('Accept-Language', 'es');
    expect(es.body.message).to.equal('No tiene permiso para realizar esta acción');
  });

  it('answers in French when the caller names no supported language', async () => {
    const res = await request(server).get('/api/test/app-error').set('Accept-Language', 'ja');
    expect(res.body.message).to.equal('Vous n’avez pas la permission d’effectuer cette action');
  });

  it('answers 400 naming every invalid field and its reason', async () => {
    const res = await request(server)
      .post('/api/test/validate')
      .set('Accept-Language', 'en')
      .send({ email: 'nope', name: 'far too long', kind: 'c', extra: 1 });
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('errors.validation');
    const byField = Object.fromEntries(res.body.errors.map((e: { field: string; code: string; message: string }) => [e.field, e]));
    expect(byField.email).to.include({ code: 'validation.invalid_email', message: 'Invalid email address.' });
    expect(byField.name).to.include({ code: 'validation.too_long', message: 'name must have at most 5 characters' });
    expect(byField.age).to.include({ code: 'validation.required', message: 'age is required' });
    expect(byField.kind).to.include({ code: 'validation.invalid_value', message: 'kind must be one of: a, b' });
    expect(byField.extra).to.include({ code: 'validation.unknown_field' });
  });

  it('maps a unique-constraint violation to its error code by constraint name (409)', async () => {
    const res = await request(server).post('/api/test/areas').set('Accept-Language', 'en').send({ name: areaName });
    expect(res.status).to.equal(409);
    expect(res.body).to.deep.include({ code: 'errors.area_name_in_use', message: 'An area with this name already exists' });
    expect(res.body.errors).to.deep.equal([
      { field: 'name', code: 'errors.area_name_in_use', message: 'An area with this name already exists' },
    ]);
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await request(server).post('/api/test/validate').set('Content-Type', 'application/json').send('{"email": ');
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('errors.invalid_json');
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await request(server)
      .post('/api/test/validate')
      .set('Accept-Language', 'en')
      .send({ email: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).to.equal(413);
    expect(res.body).to.include({ code: 'errors.payload_too_large', message: 'The request body is larger than the limit of 1mb' });
  });

  it('answers 503 with Retry-After while the database is out of reach, never a 500', async () => {
    const res = await request(server).get('/api/test/database-gone').set('Accept-Language', 'en');
    expect(res.status).to.equal(503);
    expect(res.headers['retry-after']).to.equal('1');
    expect(res.body).to.include({ code: 'errors.service_unavailable', message: 'The service is temporarily unavailable' });
  });

  it('answers an unknown API route with a JSON 404', async () => {
    const res = await request(server).get('/api/v1/nothing-here').set('Accept-Language', 'en');
    expect(res.status).to.equal(404);
    expect(res.type).to.equal('application/json');
    expect(res.body).to.include({ code: 'errors.route_not_found', message: 'No API route matches GET /api/v1/nothing-here' });
  });

  it('answers an unexpected error with a 500 that reveals only the request id', async () => {
    const res = await request(server).get('/api/test/boom').set('Accept-Language', 'en').set('X-Request-Id', 'trace-1234567');
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({
      code: 'errors.internal',
      message: 'An unexpected error occurred. Reference: trace-1234567',
      errors: [],
      requestId: 'trace-1234567',
    });
    expect(res.text).not.to.contain('postgres://');
    expect(res.text).not.to.contain('at ');
  });

  it('sets the security headers on every answer', async () => {
    const res = await request(server).get('/health/live');
    expect(res.headers).to.include({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
    expect(res.headers['content-security-policy']).to.contain("frame-ancestors 'none'").and.not.contain('unsafe-inline');
    expect(res.headers, 'no HSTS over plain HTTP').not.to.have.property('strict-transport-security');
  });
});
