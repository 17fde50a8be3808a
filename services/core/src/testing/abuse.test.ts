import { defineRoute, idSchema } from '@gatehouse/contracts';
import { expect } from 'chai';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import {
  ABUSE_SEED,
  abusiveRequests,
  assertWithstandsAbuse,
  changedTables,
  errorBodyProblem,
  fingerprint,
  hasNul,
  productTables,
  type AbuseAnswer,
  type AbuseRequest,
  type AbuseRun,
} from './abuse.js';
import { sharedTestContext } from './context.js';
import { buildArea } from './factories.js';

/** A route with a path parameter, a query and a body, as the contracts declare them. */
const route = defineRoute({
  method: 'PUT',
  path: '/api/v1/things/:id',
  endpoint: 'things.update',
  summary: 'Changes a thing',
  access: 'roles',
  params: z.object({ id: idSchema }),
  query: z.object({ mode: z.enum(['fast', 'slow']).optional(), $search: z.string().max(20).optional() }),
  body: z.strictObject({ name: z.string().min(1).max(10), size: z.number().int().min(1).max(5), tags: z.array(z.string().max(5)).max(2).optional() }),
  response: z.object({ ok: z.boolean() }),
});

const target = { contract: route, params: { id: '5f0c4c1e-9a51-4c55-9d3a-2f0f6c0a1b2c' } };

/** What the route received: its path parameter, query and body, parsed back from the request. */
function received(request: AbuseRequest) {
  const url = new URL(request.url, 'http://localhost');
  const id = decodeURIComponent(url.pathname.split('/').pop()!);
  let body: unknown;
  try {
    body = request.body?.contentType === 'application/json' ? JSON.parse(String(request.body.data)) : {};
  } catch {
    body = Symbol('not JSON');
  }
  return { params: { id }, query: Object.fromEntries(url.searchParams), body };
}

/** Whether the route, as declared, takes the request. */
function contractTakes(request: AbuseRequest): boolean {
  const { params, query, body } = received(request);
  return route.params.safeParse(params).success && route.query.safeParse(query).success && route.body.safeParse(body).success && !hasNul([params, query, body]);
}

const errorAnswer = (status = 400): AbuseAnswer => ({
  status,
  contentType: 'application/json',
  text: '{}',
  body: { code: 'errors.validation', message: 'The request is not valid', errors: [{ field: 'name', code: 'validation.required', message: 'name is required' }], requestId: 'r-1' },
});

describe('abuse testing kit', () => {
  let db: DataSource;

  before(async () => {
    db = (await sharedTestContext()).dataSource;
  });

  describe('abusiveRequests', () => {
    const requests = fc.sample(abusiveRequests(target), { seed: ABUSE_SEED, numRuns: 400 });

    it('flags every request the contract refuses, or that carries a NUL, as one that must be refused', () => {
      for (const request of requests) expect(request.mustRefuse, request.note).to.equal(!contractTakes(request));
    });

    it('comes up with every kind of abuse of the route', () => {
      const notes = requests.map((request) => request.note).join('\n');
      for (const kind of [/^without name$/m, /past its 10 characters/, /past its 2 items/, /^NUL in name$/m, /^unknown field/m, /^body /m, /^:id = /m, /^\?mode=/m, /^NUL in \?/m, /text\/plain|application\/xml/]) {
        expect(notes, String(kind)).to.match(kind);
      }
      expect(requests.filter((request) => !request.mustRefuse).length, 'some keep the contract, with hostile content').to.be.greaterThan(0);
    });
  });

  describe('fingerprint', () => {
    it('tells inserted, updated and deleted rows, and nothing else', async () => {
      const tables = await productTables(db);
      const before = await fingerprint(db, tables);
      expect(changedTables(before, await fingerprint(db, tables))).to.deep.equal([]);
      const area = await buildArea(db);
      const inserted = await fingerprint(db, tables);
      expect(changedTables(before, inserted)).to.deep.equal(['areas']);
      await db.query('UPDATE areas SET name = $2 WHERE id = $1', [area.id, `${area.name}-renamed`]);
      const updated = await fingerprint(db, tables);
      expect(changedTables(inserted, updated)).to.deep.equal(['areas']);
      await db.query('DELETE FROM areas WHERE id = $1', [area.id]);
      expect(changedTables(updated, await fingerprint(db, tables))).to.deep.equal(['areas']);
    });
  });

  describe('assertWithstandsAbuse', () => {
    /** A run whose route answers as `answer` says. */
    async function runWith(answer: (request: AbuseRequest) => Promise<AbuseAnswer>): Promise<AbuseRun> {
      return { db, tables: await productTables(db), send: answer, refusalProblem: (a) => errorBodyProblem(a.body) };
    }
    /** Undefined when the run passes; else what fast-check reports and the failure it found. */
    const attempt = async (run: AbuseRun) =>
      assertWithstandsAbuse(target, run, { numRuns: 40 }).then(
        () => undefined,
        (error: Error) => `${error.message}\n${(error.cause as Error | undefined)?.message ?? ''}`,
      );

    it('passes a route that refuses what its contract refuses, in the error answer, writing nothing', async () => {
      const run = await runWith(async (request) => (contractTakes(request) ? { status: 200, contentType: 'application/json', text: '{"ok":true}', body: { ok: true } } : errorAnswer()));
      expect(await attempt(run)).to.equal(undefined);
    });

    it('fails on a server error', async () => {
      const run = await runWith(async (request) => (hasNul(received(request)) ? { ...errorAnswer(500) } : contractTakes(request) ? { status: 200, contentType: 'application/json', text: '', body: {} } : errorAnswer()));
      expect(await attempt(run)).to.match(/a server error/);
    });

    it('fails when a request the contract refuses is taken', async () => {
      const run = await runWith(async () => ({ status: 200, contentType: 'application/json', text: '', body: {} }));
      expect(await attempt(run)).to.match(/the contract refuses this request, but it was taken/);
    });

    it('fails when a refusal writes', async () => {
      const run = await runWith(async (request) => {
        if (contractTakes(request)) return { status: 200, contentType: 'application/json', text: '', body: {} };
        await buildArea(db);
        return errorAnswer();
      });
      expect(await attempt(run)).to.match(/a refusal wrote to areas/);
    });

    it('fails when a refusal is not the error answer', async () => {
      const run = await runWith(async (request) =>
        contractTakes(request) ? { status: 200, contentType: 'application/json', text: '', body: {} } : { status: 400, contentType: 'application/json', text: '{}', body: { message: 'bad' } },
      );
      expect(await attempt(run)).to.match(/no error code/);
    });
  });
});
