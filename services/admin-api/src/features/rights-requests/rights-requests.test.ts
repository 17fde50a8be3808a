import { randomUUID } from 'node:crypto';
import type { AppContext, User } from '@gatehouse/core';
import { buildUser, createTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../app.js';
import { insertSigningKey, mintAccessToken, type TestSigningKey } from '../../testing/tokens.js';

interface Stored {
  id: string;
  files: Array<{ id: string; name: string; content: Buffer }>;
}

describe('/api/v1/admin/rightsRequests', () => {
  let context: AppContext;
  let server: ReturnType<ReturnType<typeof createApp>['callback']>;
  let key: TestSigningKey;
  let caller: User;
  let requester: User;
  const stored: Stored[] = [];

  /** A request as the portal stores it, received `minutesAgo` minutes ago. */
  async function storeRequest(fullName: string, minutesAgo: number, files: Array<{ name: string; type: string; content: Buffer }> = []): Promise<Stored> {
    const [row] = await context.dataSource.query(
      `INSERT INTO rights_requests (user_id, request_date, full_name, email, request_type, representative_data, rights, request_details, created_at)
       VALUES ($1, '2025-11-24', $2, $3, 'Representative', 'Counsel Ada', '{Access,Supression}', 'Details', now() - $4 * interval '1 minute') RETURNING id`,
      [requester.id, fullName, `${fullName.split(' ')[0]!.toLowerCase()}@example.com`, minutesAgo],
    );
    const saved: Stored = { id: row.id, files: [] };
    for (const file of files) {
      const [f] = await context.dataSource.query(
        'INSERT INTO rights_request_files (rights_request_id, file_name, content_type, size, content) VALUES ($1, $2, $3, $4, $5) RETURNING id',
        [row.id, file.name, file.type, file.content.length, file.content],
      );
      saved.files.push({ id: f.id, name: file.name, content: file.content });
    }
    return saved;
  }

  before(async () => {
    // A database of its own: the list counts every request.
    context = await createTestContext();
    server = createApp(context).callback();
    key = await insertSigningKey(context);
    caller = await buildUser(context.dataSource);
    requester = await buildUser(context.dataSource);
    stored.push(
      await storeRequest('Ann Older', 30, [{ name: 'passport.pdf', type: 'application/pdf', content: Buffer.from('%PDF-1.4 ann') }]),
      await storeRequest('Ben Newest', 1, [
        { name: 'Carte d’identité.png', type: 'image/png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) },
        { name: 'mandate.pdf', type: 'application/pdf', content: Buffer.from('%PDF-1.4 ben') },
      ]),
      await storeRequest('Cleo Middle', 10),
    );
  });

  const get = async (path: string, roles = ['Administrator']) =>
    request(server)
      .get(`/api/v1/admin/rightsRequests${path}`)
      .set('Authorization', `Bearer ${await mintAccessToken(context, key, { sub: caller.id, roles })}`)
      .set('Accept-Language', 'en');

  it('lists the requests newest first, 10 to a page, with who sent them and how many documents', async () => {
    const res = await get('');
    expect(res.status).to.equal(200);
    expect(res.body.count).to.equal(3);
    expect(res.body.items.map((r: { fullName: string }) => r.fullName)).to.deep.equal(['Ben Newest', 'Cleo Middle', 'Ann Older']);
    expect(res.body.items[0]).to.deep.include({
      id: stored[1]!.id,
      requestDate: '2025-11-24',
      email: 'ben@example.com',
      requestType: 'Representative',
      rights: ['Access', 'Supression'],
      userId: requester.id,
      userName: requester.userName,
      fileCount: 2,
    });
    expect(res.body.items[0].createdAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.body.items[0]).to.not.have.property('requestDetails');
  });

  it('pages, sorts by name and searches the name or the e-mail', async () => {
    expect((await get('?orderBy=fullName%20asc&top=2&skip=1')).body.items.map((r: { fullName: string }) => r.fullName)).to.deep.equal(['Ben Newest', 'Cleo Middle']);
    const found = await get('?$search=CLEO@');
    expect(found.body).to.deep.include({ count: 1 });
    expect(found.body.items[0].fullName).to.equal('Cleo Middle');
    expect((await get('?orderBy=content%20asc')).status).to.equal(400);
  });

  it('shows one request with its texts and the names of its documents', async () => {
    const res = await get(`/${stored[1]!.id}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ fullName: 'Ben Newest', representativeData: 'Counsel Ada', requestDetails: 'Details', fileCount: 2 });
    expect(res.body.files.map((f: { fileName: string; contentType: string; size: number }) => [f.fileName, f.contentType, f.size])).to.have.deep.members([
      ['Carte d’identité.png', 'image/png', 7],
      ['mandate.pdf', 'application/pdf', 12],
    ]);
    expect(res.body.files[0]).to.not.have.property('content');
    expect((await get(`/${randomUUID()}`)).status).to.equal(404);
    expect((await get('/not-an-id')).status).to.equal(404);
  });

  it('downloads a document as an attachment that the browser does not sniff or keep', async () => {
    const file = stored[1]!.files[0]!;
    const res = await request(server)
      .get(`/api/v1/admin/rightsRequests/${stored[1]!.id}/files/${file.id}`)
      .set('Authorization', `Bearer ${await mintAccessToken(context, key, { sub: caller.id, roles: ['Administrator'] })}`)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).to.equal(200);
    expect(Buffer.compare(res.body as Buffer, file.content)).to.equal(0);
    expect(res.headers['content-type']).to.equal('image/png');
    // The name beyond ASCII as RFC 6266 encodes it (the plain `filename` is a Latin-1 fallback).
    expect(res.headers['content-disposition']).to.match(/^attachment; filename=/).and.include(`filename*=UTF-8''Carte%20d%E2%80%99identit%C3%A9.png`);
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.headers['content-security-policy']).to.match(/sandbox/);
  });

  it('answers 404 for a document of another request, or none', async () => {
    expect((await get(`/${stored[0]!.id}/files/${stored[1]!.files[0]!.id}`)).status).to.equal(404);
    expect((await get(`/${stored[0]!.id}/files/${randomUUID()}`)).status).to.equal(404);
  });

  it('is for Administrators (and God) only: 403 for a Manager or an area administrator, 401 without a token', async () => {
    expect((await get('', ['God'])).status).to.equal(200);
    for (const roles of [['Manager'], ['AreaAdministrator'], ['TenantAdministrator', 'User']]) {
      const list = await get('', roles);
      expect(list.status, roles.join()).to.equal(403);
      expect(list.body.message).to.equal('You do not have permission to perform this action');
      expect((await get(`/${stored[1]!.id}`, roles)).status).to.equal(403);
      expect((await get(`/${stored[1]!.id}/files/${stored[1]!.files[0]!.id}`, roles)).status).to.equal(403);
    }
    expect((await request(server).get('/api/v1/admin/rightsRequests')).status).to.equal(401);
  });
});
