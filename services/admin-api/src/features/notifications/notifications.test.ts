import { randomBytes, randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, type User } from '@gatehouse/core';
import { buildApplication, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { buildAdminWorld, call, userIn, type AdminWorld, type Application } from '../../testing/admin-world.js';
import { mintAccessToken } from '../../testing/tokens.js';
import { storeFile, XLSX_MEDIA_TYPE } from '../jobs/files.js';
import { notify } from './notify.js';

interface Stored {
  id: string;
  user_id: string;
  read_at: Date | null;
}

describe('/api/v1/admin/notifications: the caller’s own notifications', () => {
  let w: AdminWorld;
  let crm: Application;

  before(async () => {
    w = await buildAdminWorld();
    crm = await buildApplication(w.context.dataSource, { displayName: 'CRM', roles: ['Reader', 'Writer'] });
  });

  /** A new user of area A (who calls as an Administrator unless told). */
  const someone = (overrides: Partial<User> = {}) => userIn(w, w.areaA, overrides);

  /** Stores a notification of `user`'s, `minutesAgo` old; answers its id. */
  async function stored(user: User, options: { minutesAgo?: number; read?: boolean; type?: string; data?: unknown } = {}): Promise<string> {
    const [row] = await w.context.dataSource.query(
      `INSERT INTO notifications (user_id, type, description, data, read_at, created_at)
       VALUES ($1, $2, $3, $4, CASE WHEN $5 THEN now() END, now() - make_interval(mins => $6)) RETURNING id`,
      [user.id, options.type ?? 'PermissionAssigned', `note ${options.minutesAgo ?? 0}`, options.data === undefined ? null : JSON.stringify(options.data), options.read ?? false, options.minutesAgo ?? 0],
    );
    return row.id;
  }

  const rowsOf = (user: User): Promise<Stored[]> =>
    w.context.dataSource.query('SELECT id, user_id, read_at FROM notifications WHERE user_id = $1 ORDER BY created_at DESC', [user.id]);

  describe('GET /notifications/active', () => {
    it('lists only the caller’s notifications, newest first, with the total and the unread count', async () => {
      const me = await someone();
      const other = await someone();
      const old = await stored(me, { minutesAgo: 30, read: true });
      const newest = await stored(me, { minutesAgo: 1 });
      const middle = await stored(me, { minutesAgo: 10, data: { totalElements: 3, importedElements: 2, success: false, errors: [{ row: 3, reason: 'Area required' }], warnings: [] } });
      await stored(other, { minutesAgo: 0 });

      const res = await call(w, 'get', '/notifications/active', { user: me });

      expect(res.status).to.equal(200);
      expect(res.body.items.map((n: { id: string }) => n.id)).to.deep.equal([newest, middle, old]);
      expect(res.body).to.include({ count: 3, unread: 2 });
      const item = res.body.items[1];
      expect(item).to.deep.include({ type: 'PermissionAssigned', description: 'note 10', readed: false, userId: me.id });
      expect(item.data).to.deep.equal({ totalElements: 3, importedElements: 2, success: false, errors: [{ row: 3, reason: 'Area required' }], warnings: [] });
      expect(new Date(item.creationTime).getTime()).to.be.closeTo(Date.now() - 10 * 60_000, 60_000);
      expect(res.body.items[2].readed).to.equal(true);
    });

    it('answers at most 100, the newest, while counting them all', async () => {
      const me = await someone();
      await w.context.dataSource.query(
        `INSERT INTO notifications (user_id, type, description, created_at)
         SELECT $1, 'PermissionAssigned', 'n' || i, now() - make_interval(mins => i) FROM generate_series(1, 105) AS i`,
        [me.id],
      );

      const res = await call(w, 'get', '/notifications/active', { user: me });

      expect(res.body.items).to.have.length(100);
      expect(res.body.items[0].description).to.equal('n1');
      expect(res.body.items[99].description).to.equal('n100');
      expect(res.body).to.include({ count: 105, unread: 105 });
      const fewer = await call(w, 'get', '/notifications/active?top=5', { user: me });
      expect(fewer.body.items.map((n: { description: string }) => n.description)).to.deep.equal(['n1', 'n2', 'n3', 'n4', 'n5']);
    });

    it('refuses to list more than 100 with a 400 naming `top`', async () => {
      const res = await call(w, 'get', '/notifications/active?top=101', { user: await someone() });
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['top']);
    });

    it('leaves out data the console does not know rather than failing', async () => {
      const me = await someone();
      await stored(me, { data: { errors: 'not a list' } });
      const res = await call(w, 'get', '/notifications/active', { user: me });
      expect(res.status).to.equal(200);
      expect(res.body.items[0].data).to.equal(null);
    });

    it('answers 401 without a token and with an invalid one, and lists nothing', async () => {
      const bare = await request(w.server).get('/api/v1/admin/notifications/active');
      expect(bare.status).to.equal(401);
      expect(bare.body).to.not.have.property('items');
      const bad = await request(w.server).get('/api/v1/admin/notifications/active').set('Authorization', 'Bearer not.a.token');
      expect(bad.status).to.equal(401);
    });

    it('is open to any signed-in console user, holding no role at all', async () => {
      const me = await someone();
      await stored(me);
      const res = await request(w.server)
        .get('/api/v1/admin/notifications/active')
        .set('Authorization', `Bearer ${await mintAccessToken(w.context, w.key, { sub: me.id, roles: [] })}`);
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(1);
    });
  });

  describe('PUT /notifications', () => {
    it('marks all the caller’s unread notifications read, and no one else’s', async () => {
      const me = await someone();
      const other = await someone();
      await stored(me, { minutesAgo: 2 });
      await stored(me, { minutesAgo: 1 });
      await stored(me, { read: true });
      await stored(other);

      const res = await call(w, 'put', '/notifications', { user: me, body: {} });

      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ marked: 2, unread: 0 });
      expect((await rowsOf(me)).every((row) => row.read_at !== null)).to.equal(true);
      expect((await rowsOf(other))[0]!.read_at).to.equal(null);
    });

    it('marks only the ids it is given, so one that came meanwhile stays unread', async () => {
      const me = await someone();
      const shown = await stored(me, { minutesAgo: 5 });
      const arrivedLater = await stored(me);

      const res = await call(w, 'put', '/notifications', { user: me, body: { ids: [shown] } });

      expect(res.body).to.deep.equal({ marked: 1, unread: 1 });
      const rows = await rowsOf(me);
      expect(rows.find((row) => row.id === arrivedLater)!.read_at).to.equal(null);
      expect(rows.find((row) => row.id === shown)!.read_at).to.not.equal(null);
    });

    it('ignores another user’s ids: nothing of theirs changes', async () => {
      const me = await someone();
      const other = await someone();
      const theirs = await stored(other);

      const res = await call(w, 'put', '/notifications', { user: me, body: { ids: [theirs] } });

      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ marked: 0, unread: 0 });
      expect((await rowsOf(other))[0]!.read_at).to.equal(null);
    });

    it('refuses malformed ids, an empty list and unknown fields with a 400 naming them', async () => {
      const me = await someone();
      const malformed = await call(w, 'put', '/notifications', { user: me, body: { ids: ['nope'] } });
      expect(malformed.status).to.equal(400);
      expect(malformed.body.errors[0].field).to.equal('ids.0');
      const empty = await call(w, 'put', '/notifications', { user: me, body: { ids: [] } });
      expect(empty.status).to.equal(400);
      expect(empty.body.errors[0].field).to.equal('ids');
      const unknown = await call(w, 'put', '/notifications', { user: me, body: { all: true } });
      expect(unknown.status).to.equal(400);
    });
  });

  describe('DELETE /notifications/{id}', () => {
    it('deletes one of the caller’s notifications', async () => {
      const me = await someone();
      const gone = await stored(me, { minutesAgo: 1 });
      const kept = await stored(me);

      const res = await call(w, 'delete', `/notifications/${gone}`, { user: me });

      expect(res.status).to.equal(204);
      expect((await rowsOf(me)).map((row) => row.id)).to.deep.equal([kept]);
    });

    it('answers 404 for another user’s notification and leaves it in place', async () => {
      const me = await someone();
      const other = await someone();
      const theirs = await stored(other);

      const res = await call(w, 'delete', `/notifications/${theirs}`, { user: me });

      expect(res.status).to.equal(404);
      expect((await rowsOf(other)).map((row) => row.id)).to.deep.equal([theirs]);
    });

    it('answers 404 for an unknown or malformed id', async () => {
      const me = await someone();
      expect((await call(w, 'delete', `/notifications/${randomUUID()}`, { user: me })).status).to.equal(404);
      expect((await call(w, 'delete', '/notifications/not-an-id', { user: me })).status).to.equal(404);
    });

    it('deletes a notification once when two deletions race: one 204, one 404', async () => {
      const me = await someone();
      const id = await stored(me);

      const statuses = (await Promise.all([call(w, 'delete', `/notifications/${id}`, { user: me }), call(w, 'delete', `/notifications/${id}`, { user: me })])).map((res) => res.status);

      expect(statuses.sort()).to.deep.equal([204, 404]);
      expect(await rowsOf(me)).to.deep.equal([]);
    });
  });

  describe('DELETE /notifications', () => {
    it('deletes every notification of the caller’s and none of anyone else’s', async () => {
      const me = await someone();
      const other = await someone();
      await stored(me, { minutesAgo: 1 });
      await stored(me, { read: true });
      const theirs = await stored(other);

      const res = await call(w, 'delete', '/notifications', { user: me });

      expect(res.status).to.equal(204);
      expect(await rowsOf(me)).to.deep.equal([]);
      expect((await rowsOf(other)).map((row) => row.id)).to.deep.equal([theirs]);
      const list = await call(w, 'get', '/notifications/active', { user: me });
      expect(list.body).to.deep.equal({ items: [], count: 0, unread: 0 });
    });
  });

  describe('GET /tasks/active', () => {
    /** Stores a background job of `user`'s; answers its id. */
    async function job(user: User, status: string, startedMinutesAgo: number | null, createdMinutesAgo = 60): Promise<string> {
      const [row] = await w.context.dataSource.query(
        `INSERT INTO background_jobs (type, status, user_id, progress, total, created_at, started_at)
         VALUES ('BulkInsertUsers', $1, $2, 3, 10, now() - make_interval(mins => $3), CASE WHEN $4::int IS NULL THEN NULL ELSE now() - make_interval(mins => $4::int) END)
         RETURNING id`,
        [status, user.id, createdMinutesAgo, startedMinutesAgo],
      );
      return row.id;
    }

    it('lists the caller’s queued and running processes, newest start first, and no finished or other user’s one', async () => {
      const me = await someone();
      const other = await someone();
      const running = await job(me, 'Running', 20);
      const queued = await job(me, 'Queued', null, 5);
      const recent = await job(me, 'Running', 1);
      await job(me, 'Succeeded', 0);
      await job(me, 'Failed', 0);
      await job(other, 'Running', 0);

      const res = await call(w, 'get', '/tasks/active', { user: me });

      expect(res.status).to.equal(200);
      expect(res.body.items.map((t: { id: string }) => t.id)).to.deep.equal([recent, queued, running]);
      expect(res.body.count).to.equal(3);
      expect(res.body.items[0]).to.include({ type: 'BulkInsertUsers', status: 'Running', progress: 3, total: 10 });
      expect(new Date(res.body.items[1].startTime).getTime()).to.be.closeTo(Date.now() - 5 * 60_000, 60_000);
    });

    it('answers at most 25', async () => {
      const me = await someone();
      for (let i = 0; i < 27; i += 1) await job(me, 'Running', i);
      const res = await call(w, 'get', '/tasks/active', { user: me });
      expect(res.body.items).to.have.length(25);
    });
  });

  describe('PermissionAssigned', () => {
    const notesOf = (user: User): Promise<Array<{ type: string; description: string }>> =>
      w.context.dataSource.query('SELECT type, description FROM notifications WHERE user_id = $1 ORDER BY created_at', [user.id]);

    it('tells a user given roles which ones and where, in their own language, once', async () => {
      const target = await someone({ language: 'fr' });
      const grant = () =>
        call(w, 'put', `/users/${target.id}/roles/${crm.id}`, { body: { tenantId: w.tenantA.id, roleIds: [crm.roleByName.Reader!.id, crm.roleByName.Writer!.id] } });

      expect((await grant()).status).to.equal(200);
      expect(await notesOf(target)).to.deep.equal([
        { type: 'PermissionAssigned', description: `Les rôles Reader, Writer (CRM) vous ont été attribués dans ${w.tenantA.title}` },
      ]);

      // The same roles again change nothing, and say nothing.
      expect((await grant()).status).to.equal(200);
      expect(await notesOf(target)).to.have.length(1);
    });

    it('tells a user added to a tenant as a member, in English by default', async () => {
      const target = await someone({ language: 'en' });
      const res = await call(w, 'post', `/tenants/${w.tenantA.id}/members`, {
        body: { identityType: 'User', identityId: target.id, roleIds: [crm.roleByName.Reader!.id] },
      });
      expect(res.status, JSON.stringify(res.body)).to.be.within(200, 201);
      expect(await notesOf(target)).to.deep.equal([{ type: 'PermissionAssigned', description: `You have been given the role Reader (CRM) in ${w.tenantA.title}` }]);
    });

    it('grants the roles even when the notification cannot be written', async () => {
      const target = await someone();
      const original = w.context.i18n.t;
      w.context.i18n.t = (() => {
        throw new Error('translations unavailable');
      }) as unknown as typeof original;
      try {
        const res = await call(w, 'put', `/users/${target.id}/roles/${crm.id}`, { body: { tenantId: GLOBAL_TENANT_ID, roleIds: [crm.roleByName.Reader!.id] } });
        expect(res.status).to.equal(200);
      } finally {
        w.context.i18n.t = original;
      }
      expect(await notesOf(target)).to.deep.equal([]);
      const [held] = await w.context.dataSource.query(
        `SELECT count(*) AS n FROM tenant_member_roles tmr JOIN tenant_members tm ON tm.id = tmr.tenant_member_id WHERE tm.user_id = $1`,
        [target.id],
      );
      expect(Number(held.n)).to.equal(1);
    });

    it('does not tell anyone when the grant is refused', async () => {
      const target = await someone();
      const res = await call(w, 'put', `/users/${target.id}/roles/${crm.id}`, {
        as: 'manager',
        body: { tenantId: GLOBAL_TENANT_ID, roleIds: [crm.roleByName.Reader!.id] },
      });
      expect(res.status).to.equal(403);
      expect(await notesOf(target)).to.deep.equal([]);
    });
  });

  describe('with the portal’s session token (the portal’s notifications)', () => {
    /** An opaque access token as the provider stores it, issued to `clientId` (the portal unless told) for `user`. */
    async function providerToken(user: User, clientId = w.context.config.oidc.portalClientId): Promise<string> {
      const id = randomBytes(32).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      await w.context.dataSource.query(
        `INSERT INTO oidc_model_instances (model, id, payload, grant_id, expires_at) VALUES ('AccessToken', $1, $2, $3, now() + interval '1 hour')`,
        [id, { kind: 'AccessToken', jti: id, accountId: user.id, clientId, grantId: `g-${id}`, scope: 'openid profile', iat: now, exp: now + 3600 }, `g-${id}`],
      );
      return id;
    }

    const send = (method: 'get' | 'put' | 'delete', path: string, token: string, body?: object) => {
      const url = path.startsWith('/api/') ? path : `/api/v1/admin${path}`;
      const req = request(w.server)[method](url).set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en');
      return body === undefined ? req : req.send(body);
    };

    it('lists, marks read and deletes the caller’s own notifications, and never another user’s', async () => {
      const me = await someone();
      const other = await someone();
      const older = await stored(me, { minutesAgo: 5, type: 'BulkInsertPermisionRequestForTenant', data: { totalElements: 2, importedElements: 1, errors: [{ row: 3, reason: 'Unknown role' }] } });
      const newer = await stored(me, { minutesAgo: 1, type: 'OperationRequest' });
      const theirs = await stored(other);
      const token = await providerToken(me);

      const list = await send('get', '/notifications/active', token);
      expect(list.status).to.equal(200);
      expect(list.body.items.map((n: { id: string }) => n.id)).to.deep.equal([newer, older]);
      expect(list.body).to.include({ count: 2, unread: 2 });
      expect(list.body.items[1].data).to.deep.equal({ totalElements: 2, importedElements: 1, errors: [{ row: 3, reason: 'Unknown role' }] });

      const marked = await send('put', '/notifications', token, { ids: [older, theirs] });
      expect(marked.status).to.equal(200);
      expect(marked.body).to.deep.equal({ marked: 1, unread: 1 });
      expect((await send('put', '/notifications', token, {})).body).to.deep.equal({ marked: 1, unread: 0 });
      expect((await rowsOf(me)).every((row) => row.read_at !== null)).to.equal(true);

      expect((await send('delete', `/notifications/${theirs}`, token)).status).to.equal(404);
      expect((await send('delete', `/notifications/${older}`, token)).status).to.equal(204);
      expect((await send('delete', '/notifications', token)).status).to.equal(204);
      expect(await rowsOf(me)).to.deep.equal([]);
      expect(await rowsOf(other)).to.deep.equal([{ id: theirs, user_id: other.id, read_at: null }]);
    });

    it('lists the caller’s own running processes, and no one else’s', async () => {
      const me = await someone();
      const other = await someone();
      const [mine] = await w.context.dataSource.query(`INSERT INTO background_jobs (type, status, user_id, progress, total) VALUES ('BulkInsertPermisionRequestForTenant', 'Running', $1, 1, 4) RETURNING id`, [me.id]);
      await w.context.dataSource.query(`INSERT INTO background_jobs (type, status, user_id, progress, total) VALUES ('BulkInsertUsers', 'Running', $1, 0, 9)`, [other.id]);

      const res = await send('get', '/tasks/active', await providerToken(me));

      expect(res.status).to.equal(200);
      expect(res.body.items.map((t: { id: string }) => t.id)).to.deep.equal([mine.id]);
      expect(res.body.items[0]).to.include({ type: 'BulkInsertPermisionRequestForTenant', status: 'Running', progress: 1, total: 4 });
    });

    it('downloads a file of the caller’s own job, and answers 404 for another user’s', async () => {
      const me = await someone();
      const other = await someone();
      const mine = await storeFile(w.context, { ownerId: me.id, fileName: 'Report.xlsx', mediaType: XLSX_MEDIA_TYPE, bytes: Buffer.from('mine') });
      const theirs = await storeFile(w.context, { ownerId: other.id, fileName: 'Theirs.xlsx', mediaType: XLSX_MEDIA_TYPE, bytes: Buffer.from('theirs') });
      const token = await providerToken(me);
      const download = (id: string) => send('get', `/filestorage/downloadExcel?url=${encodeURIComponent(id)}`, token).buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

      const own = await download(mine);
      expect(own.status).to.equal(200);
      expect((own.body as Buffer).toString()).to.equal('mine');
      const refused = await download(theirs);
      expect(refused.status).to.equal(404);
      expect((refused.body as Buffer).toString()).to.not.include('theirs');
    });

    it('keeps the console’s endpoints closed to it (403), even for a God user, while the console’s token opens them', async () => {
      const god = await someone();
      await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, user: god, roles: [w.identity.roleByName.God!] });
      const token = await providerToken(god);
      for (const [method, path, body] of [
        ['get', '/users', undefined],
        ['get', '/dashboard/base', undefined],
        ['get', '/securityConfig', undefined],
        ['get', '/api/v1/keys', undefined],
        ['put', `/users/${(await someone()).id}/roles/${crm.id}`, { tenantId: GLOBAL_TENANT_ID, roleIds: [crm.roleByName.Reader!.id] }],
      ] as const) {
        const res = await send(method, path, token, body);
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(res.body).to.include({ code: 'errors.forbidden' });
      }
      const consoleToken = await mintAccessToken(w.context, w.key, { sub: god.id, roles: ['God'] });
      expect((await request(w.server).get('/api/v1/admin/users').set('Authorization', `Bearer ${consoleToken}`)).status).to.equal(200);
    });

    it('refuses (401) a token the provider issued to another application, on the notifications too', async () => {
      const me = await someone();
      await stored(me);
      const res = await send('get', '/notifications/active', await providerToken(me, crm.id));
      expect(res.status).to.equal(401);
      expect(res.body).to.not.have.property('items');
    });
  });

  describe('notify()', () => {
    it('stores the notification and answers it as the list shows it, cutting a long text', async () => {
      const me = await someone();
      const created = await notify(w.context, me.id, { type: 'BulkInsertUsers', description: 'x'.repeat(1200), data: { messageError: 'The file could not be read' } });
      expect(created).to.deep.include({ type: 'BulkInsertUsers', readed: false, userId: me.id, data: { messageError: 'The file could not be read' } });
      expect(created.description).to.have.length(1000);
      const list = await call(w, 'get', '/notifications/active', { user: me });
      expect(list.body.items).to.deep.equal([created]);
    });

    it('keeps a message as its phrase: pushed in the recipient’s saved language, listed in the reader’s', async () => {
      const me = await someone({ language: 'de' });
      const message = { key: 'notifications.permission_assigned', params: { count: 2, roles: 'Reader, Writer (CRM)', tenant: 'Sales' } };
      const created = await notify(w.context, me.id, { type: 'PermissionAssigned', message });
      expect(created.description).to.equal('Ihnen wurden die Rollen Reader, Writer (CRM) in Sales zugewiesen');
      const listed = async (lang: string) => (await call(w, 'get', '/notifications/active', { user: me, lang })).body.items[0].description as string;
      expect(await listed('en')).to.equal('You have been given the roles Reader, Writer (CRM) in Sales');
      expect(await listed('de')).to.equal('Ihnen wurden die Rollen Reader, Writer (CRM) in Sales zugewiesen');
      expect(await listed('fr')).to.equal('Les rôles Reader, Writer (CRM) vous ont été attribués dans Sales');

      // The language the recipient asked in, when the caller knows it, rather than the saved one.
      const english = await notify(w.context, me.id, { type: 'PermissionAssigned', message, language: 'en' });
      expect(english.description).to.equal('You have been given the roles Reader, Writer (CRM) in Sales');
    });
  });
});
