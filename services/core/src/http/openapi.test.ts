import { defineRoute } from '@gatehouse/contracts';
import { expect } from 'chai';
import { z } from 'zod';
import { exampleFromSchema } from './openapi-examples.js';
import { openApiDocument } from './openapi.js';

interface Node {
  name: string;
  children: Node[];
}
/** A recursive schema with no id: zod refers to its root as `#`. */
const anonymousTree: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(anonymousTree) }));

const create = defineRoute({
  method: 'POST',
  path: '/api/v1/trees',
  endpoint: 'trees.create',
  access: 'signed-in',
  summary: 'Plants a tree',
  body: z.object({
    email: z.email(),
    code: z.string().regex(/^\d{6}$/),
    label: z.string().min(12).max(20),
    kind: z.enum(['oak', 'elm']),
    height: z.number().int().min(3).max(9),
    planted: z.iso.datetime(),
    note: z.string().meta({ example: 'Planted by the river' }),
    tags: z.array(z.string()).min(2),
  }),
  response: z.object({ id: z.guid() }),
  status: 201,
});

const routes = [
  defineRoute({ method: 'GET', path: '/api/v1/trees/:id', endpoint: 'trees.get', access: 'public', summary: 'A tree', params: z.object({ id: z.guid() }), response: anonymousTree }),
  create,
  defineRoute({ method: 'GET', path: '/api/v1/trees/:id/photo', endpoint: 'trees.photo', access: 'signed-in', summary: 'The photo', params: z.object({ id: z.guid() }), produces: 'image/png' }),
];

const document = () => openApiDocument(routes, { title: 'Trees', version: '1' });

describe('openApiDocument', () => {
  it('moves a recursive schema without an id to the document’s schemas instead of referring to `#`', () => {
    const doc = document();
    const answer = (doc.paths['/api/v1/trees/{id}']!.get as { responses: Record<string, { content: Record<string, { schema: unknown }> }> }).responses['200']!.content['application/json']!;
    expect(answer.schema).to.deep.equal({ $ref: '#/components/schemas/trees.get.response' });
    expect(JSON.stringify(doc)).to.not.include('"$ref":"#"');
    expect(doc.components.schemas['trees.get.response']).to.have.nested.property('properties.children.items.$ref', '#/components/schemas/trees.get.response');
  });

  it('marks a public route `security: []` and documents a file download as binary', () => {
    const doc = document();
    expect(doc.paths['/api/v1/trees/{id}']!.get).to.have.deep.property('security', []);
    expect(doc.paths['/api/v1/trees']!.post).to.have.deep.property('security', [{ bearer: [] }]);
    expect(doc.paths['/api/v1/trees/{id}/photo']!.get).to.have.deep.nested.property('responses.200.content.image/png.schema', { type: 'string', format: 'binary' });
  });

  it('gives a body an example generated from its schema, within its bounds, pattern and meta', () => {
    const body = (document().paths['/api/v1/trees']!.post as { requestBody: { content: Record<string, { example: Record<string, unknown> }> } }).requestBody.content['application/json']!.example;
    expect(body).to.include({ email: 'ada@example.com', code: '123456', kind: 'oak', height: 3, planted: '2025-03-14T09:30:00.000Z', note: 'Planted by the river' });
    expect(body.label).to.have.length.within(12, 20);
    expect(body.tags).to.have.length(2);
    expect(create.body.safeParse(body).success).to.equal(true);
  });

  it('ends a recursive example at its smallest valid form', () => {
    const doc = document();
    const resolve = (ref: string) => doc.components.schemas[ref.slice('#/components/schemas/'.length)];
    const example = exampleFromSchema({ $ref: '#/components/schemas/trees.get.response' }, resolve) as Node;
    expect(example.children).to.have.length(1);
    expect(example.children[0]!.children).to.deep.equal([]);
    expect(anonymousTree.safeParse(example).success).to.equal(true);
  });

  it('refuses two operations that give one id to schemas that differ', () => {
    const shared = (extra: z.ZodRawShape) => z.object({ a: z.string(), ...extra }).meta({ id: 'SharedThing' });
    const first = defineRoute({ method: 'GET', path: '/a', endpoint: 'a.get', access: 'public', summary: 'A', response: z.object({ x: shared({}) }) });
    const second = defineRoute({ method: 'GET', path: '/b', endpoint: 'b.get', access: 'public', summary: 'B', response: z.object({ x: shared({ b: z.string() }) }) });
    expect(() => openApiDocument([first, second], { title: 'T', version: '1' })).to.throw(/SharedThing differs/);
  });
});
