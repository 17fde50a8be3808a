import { randomBytes } from 'node:crypto';
import type { Role } from '@gatehouse/core';
import { buildApplication, grant, pngDeclaring } from '@gatehouse/core/testing';
import { expect } from 'chai';
import sharp from 'sharp';
import { buildAdminWorld, call, logsWhere, userIn, type AdminWorld } from '../../testing/admin-world.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** A valid body of `POST /applications` for `name`; `overrides` change or add fields. */
function newApp(name = unique('app'), overrides: Record<string, unknown> = {}) {
  return {
    name,
    displayName: `Display ${name}`,
    description: 'An application of the tests',
    type: 'confidential',
    privateUrl: 'https://app.example.com/',
    redirectUris: ['https://app.example.com/callback'],
    ...overrides,
  };
}

/** The stored row of an application, as the provider reads it. */
async function storedRow(w: AdminWorld, id: string) {
  const [row] = await w.context.dataSource.query('SELECT * FROM applications WHERE id = $1', [id]);
  return row as Record<string, unknown> | undefined;
}

/** One of the product's own applications (the portal, the console), whatever ran before. */
async function productApplication(w: AdminWorld, name: 'portal' | 'admin-console') {
  await w.context.dataSource.query(
    `INSERT INTO applications (id, name, display_name, client_type, redirect_uris) VALUES ($1, $1, $1, 'public', '{https://product.example.com/cb}') ON CONFLICT DO NOTHING`,
    [name],
  );
}

/** The messages of the field errors of an answer, by field. */
function fieldMessages(body: { errors?: Array<{ field: string; message: string }> }): Record<string, string> {
  return Object.fromEntries((body.errors ?? []).map((error) => [error.field, error.message]));
}

const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

/** A PNG of `width` × `height` pixels, the top half `top`, the bottom half `bottom`. */
async function twoColourPng(width: number, height: number, top = '#ff0000', bottom = '#0000ff'): Promise<Buffer> {
  const half = Math.floor(height / 2);
  const lower = await sharp({ create: { width, height: height - half, channels: 4, background: bottom } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 4, background: top } })
    .composite([{ input: lower, top: half, left: 0 }])
    .png()
    .toBuffer();
}

/** An ICO file holding `images` (PNG files or bitmaps without their file header), as Windows writes one. */
function icoOf(images: Array<{ side: number; data: Buffer }>): Buffer {
  const header = Buffer.from([0, 0, 1, 0, images.length, 0]);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ side, data }) => {
    const entry = Buffer.alloc(16);
    entry[0] = side % 256;
    entry[1] = side % 256;
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.data)]);
}

/** A 32-bit bitmap of an ICO (rows bottom up, then the AND mask): the top half red, the bottom half blue. */
function icoBitmap(side: number): Buffer {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(side, 4);
  header.writeInt32LE(side * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const pixels = Buffer.alloc(side * side * 4);
  for (let row = 0; row < side; row++) {
    // The first row stored is the bottom one.
    const bgra = row < side / 2 ? [255, 0, 0, 255] : [0, 0, 255, 255];
    for (let x = 0; x < side; x++) pixels.set(bgra, (row * side + x) * 4);
  }
  const mask = Buffer.alloc(Math.ceil(side / 32) * 4 * side);
  return Buffer.concat([header, pixels, mask]);
}

/** The colour of the pixel at (`x`, `y`), as `#rrggbb`. */
async function colourAt(image: Buffer, x: number, y: number): Promise<string> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return `#${[...data.subarray(at, at + 3)].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

describe('applications admin API', function () {
  this.timeout(120_000);
  let w: AdminWorld;
  /** The `application.changed` announcements heard since the last reset. */
  let announced: Array<{ clientId?: string }> = [];

  before(async () => {
    w = await buildAdminWorld();
    w.context.broadcast.on('application.changed', (payload) => announced.push(payload));
  });
  beforeEach(() => {
    announced = [];
  });

  const create = (body: Record<string, unknown>, as: 'admin' | 'god' | 'tenantAdmin' = 'admin') => call(w, 'post', '/applications', { body, as });

  describe('GET /api/v1/admin/applications', () => {
    const tag = unique('list');
    let owned: string;

    before(async () => {
      owned = (await create(newApp(`${tag}-bravo`, { displayName: `${tag} Bravo` }))).body.id;
      await buildApplication(w.context.dataSource, { id: `${tag}-alpha`, displayName: `${tag} Alpha`, status: 'Maintenance' });
      await buildApplication(w.context.dataSource, { id: `${tag}-charlie`, displayName: `${tag} Charlie`, status: 'Stopped' });
    });

    it('answers { items, count } sorted by display name, each with its status and whether the caller owns it', async () => {
      const res = await call(w, 'get', `/applications?$search=${tag}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.count).to.equal(3);
      expect(res.body.items.map((a: { displayName: string }) => a.displayName)).to.deep.equal([`${tag} Alpha`, `${tag} Bravo`, `${tag} Charlie`]);
      const bravo = res.body.items[1];
      expect(bravo).to.deep.include({ id: owned, name: `${tag}-bravo`, type: 'confidential', status: 'Running', userIsOwner: true, system: false });
      expect(res.body.items[0]).to.deep.include({ status: 'Maintenance', userIsOwner: false });
      expect(bravo).to.not.have.property('sharedSecret');
      expect(bravo.modifiedOn).to.match(/^\d{4}-\d\d-\d\dT/);
    });

    it('pages, sorts by a declared field, filters by status, and marks the Identity application as the product’s own', async () => {
      const page = await call(w, 'get', `/applications?$search=${tag}&orderBy=displayName desc&top=1&skip=1`);
      expect(page.body).to.deep.include({ count: 3 });
      expect(page.body.items.map((a: { displayName: string }) => a.displayName)).to.deep.equal([`${tag} Bravo`]);
      const stopped = await call(w, 'get', `/applications?$search=${tag}&status=Stopped`);
      expect(stopped.body.items.map((a: { id: string }) => a.id)).to.deep.equal([`${tag}-charlie`]);
      const identity = await call(w, 'get', '/applications?$search=identity');
      expect(identity.body.items.find((a: { id: string }) => a.id === '1')).to.deep.include({ system: true });
      expect((await call(w, 'get', '/applications?orderBy=secret asc')).status).to.equal(400);
    });

    it('lets the read-only TenantAdministrator read the list, and nobody else without an administration role', async () => {
      expect((await call(w, 'get', '/applications', { as: 'tenantAdmin' })).status).to.equal(200);
      expect((await call(w, 'get', '/applications', { as: 'areaAdmin' })).status).to.equal(403);
      expect((await call(w, 'get', '/applications', { as: 'manager' })).status).to.equal(403);
    });
  });

  describe('POST /api/v1/admin/applications', () => {
    it('creates a confidential application owned by its creator: the shared secret is answered once and stored encrypted', async () => {
      const name = unique('crm');
      const res = await create(newApp(name, { postLogoutRedirectUris: ['https://app.example.com/bye'], prerelease: true }));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.body).to.deep.include({ id: name, name, type: 'confidential', status: 'Running', prerelease: true, hasSecret: true, userIsOwner: true });
      expect(res.body.owners.map((o: { id: string }) => o.id)).to.deep.equal([w.callers.admin.id]);
      const secret: string = res.body.sharedSecret;
      expect(secret).to.be.a('string').with.length.of.at.least(43);

      const row = (await storedRow(w, name))!;
      expect(row.client_secret_encrypted).to.be.a('string').and.not.include(secret);
      expect(w.context.secrets.decrypt(row.client_secret_encrypted as string)).to.equal(secret);
      expect(row.redirect_uris).to.deep.equal(['https://app.example.com/callback']);
      expect(row.is_first_party).to.equal(false);

      const read = await call(w, 'get', `/applications/${name}`);
      expect(read.status).to.equal(200);
      expect(read.body).to.not.have.property('sharedSecret');
      expect(JSON.stringify(read.body)).to.not.include(secret);
      expect(read.body).to.deep.include({ hasSecret: true, postLogoutRedirectUris: ['https://app.example.com/bye'] });

      const [log] = await logsWhere(w, 'applicationId', name);
      expect(log).to.deep.include({ operation: 'CreateApplication', user_id: w.callers.admin.id });
      expect(JSON.stringify(log)).to.not.include(secret);
      expect(announced).to.deep.include({ clientId: name });
    });

    it('creates a public application without a secret', async () => {
      const res = await create(newApp(unique('spa'), { type: 'public' }));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.deep.include({ type: 'public', hasSecret: false, sharedSecret: null });
      expect((await storedRow(w, res.body.id))!.client_secret_encrypted).to.equal(null);
    });

    it('takes an id of its own, and otherwise the name (or a generated id when the name is taken as an id)', async () => {
      const name = unique('named');
      const given = await create(newApp(name, { id: `${name}-id` }));
      expect(given.body).to.deep.include({ id: `${name}-id`, name });
      const clash = await create(newApp(`${name}-id-2`));
      expect(clash.body.id).to.equal(`${name}-id-2`);
      // An application whose id is another's name.
      await buildApplication(w.context.dataSource, { id: `${name}-taken`, name: unique('other') });
      const generated = await create(newApp(`${name}-taken`));
      expect(generated.status, JSON.stringify(generated.body)).to.equal(201);
      expect(generated.body.id).to.match(/^[0-9a-f-]{36}$/);
    });

    it('makes the owners named owners too, and refuses an unknown user', async () => {
      const colleague = await userIn(w, w.areaA);
      const res = await create(newApp(unique('owned'), { ownerIds: [colleague.id] }));
      expect(res.body.owners.map((o: { id: string }) => o.id).sort()).to.deep.equal([w.callers.admin.id, colleague.id].sort());
      const unknown = await create(newApp(unique('owned'), { ownerIds: ['00000000-0000-4000-8000-000000000001'] }));
      expect(unknown.status).to.equal(400);
      expect(fieldMessages(unknown.body)).to.deep.equal({ ownerIds: 'This user does not exist' });
    });

    it('answers the spec’s duplicate messages: this id, this name, this id and name (whatever the case)', async () => {
      const name = unique('dup');
      await create(newApp(name, { id: `${name}-id` }));

      const sameId = await create(newApp(unique('fresh'), { id: `${name}-ID` }));
      expect(sameId.status).to.equal(409);
      expect(sameId.body).to.include({ code: 'errors.application_id_in_use', message: 'Already exists an app with this id' });
      expect(fieldMessages(sameId.body)).to.deep.equal({ id: 'Already exists an app with this id' });

      const sameName = await create(newApp(name.toUpperCase()));
      expect(sameName.status).to.equal(409);
      expect(sameName.body).to.include({ message: 'Already exists an app with this name' });
      expect(fieldMessages(sameName.body)).to.deep.equal({ name: 'Already exists an app with this name' });

      const both = await create(newApp(name, { id: `${name}-id` }));
      expect(both.status).to.equal(409);
      expect(both.body).to.include({ code: 'errors.application_id_and_name_in_use', message: 'Already exists an app with this id and name' });
      expect(Object.keys(fieldMessages(both.body)).sort()).to.deep.equal(['id', 'name']);

      const french = await call(w, 'post', '/applications', { body: newApp(name), lang: 'fr' });
      expect(french.body.message).to.equal('Une application avec ce nom existe déjà');
    });

    it('answers the spec’s message for each missing field', async () => {
      const res = await create({ name: ' ', displayName: '', redirectUris: [] });
      expect(res.status).to.equal(400);
      expect(fieldMessages(res.body)).to.deep.equal({
        name: 'Please input the application name!',
        displayName: 'Please input the application display name!',
        privateUrl: 'Please input the application private URL!',
        redirectUris: 'Please input the application redirect URIs!',
      });
    });

    it('keeps the spec’s lengths: name and display name 200, description 1000, each redirect URI 2000', async () => {
      const ok = await create(
        newApp(`n${'a'.repeat(199)}`, {
          displayName: 'd'.repeat(200),
          description: 'x'.repeat(1000),
          redirectUris: [`https://app.example.com/${'p'.repeat(2000 - 'https://app.example.com/'.length)}`],
        }),
      );
      expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
      const tooLong = await create(
        newApp(`n${'a'.repeat(200)}`, {
          displayName: 'd'.repeat(201),
          description: 'x'.repeat(1001),
          redirectUris: [`https://app.example.com/${'p'.repeat(2001 - 'https://app.example.com/'.length)}`],
        }),
      );
      expect(tooLong.status).to.equal(400);
      expect(fieldMessages(tooLong.body)).to.deep.equal({
        name: 'name must have at most 200 characters',
        displayName: 'displayName must have at most 200 characters',
        description: 'description must have at most 1000 characters',
        'redirectUris.0': 'redirectUris.0 must have at most 2000 characters',
      });
    });

    it('takes https addresses, and http on this computer only; no fragment in a redirect URI', async () => {
      const loopback = await create(
        newApp(unique('local'), {
          privateUrl: 'http://localhost:8080/',
          redirectUris: ['http://127.0.0.1:4000/cb', 'http://localhost/cb', 'http://[::1]:3000/cb', 'https://app.example.com/cb?x=1'],
        }),
      );
      expect(loopback.status, JSON.stringify(loopback.body)).to.equal(201);
      const refused = await create(
        newApp(unique('bad'), {
          privateUrl: 'javascript:alert(1)',
          publicUrl: '/relative',
          redirectUris: ['http://app.example.com/cb', 'https://app.example.com/cb#part', 'https://user:pw@app.example.com/cb', 'https://ok.example/cb', 'https://ok.example/cb'],
          postLogoutRedirectUris: ['ftp://files.example.com/'],
        }),
      );
      expect(refused.status).to.equal(400);
      expect(fieldMessages(refused.body)).to.deep.equal({
        privateUrl: 'Enter an absolute address starting with https:// (http:// only on localhost)',
        publicUrl: 'Enter an absolute address starting with https:// (http:// only on localhost)',
        'redirectUris.0': 'Enter an absolute address starting with https:// (http:// only on localhost), without #',
        'redirectUris.1': 'Enter an absolute address starting with https:// (http:// only on localhost), without #',
        'redirectUris.2': 'Enter an absolute address starting with https:// (http:// only on localhost), without #',
        'redirectUris.4': 'This address is already in the list',
        'postLogoutRedirectUris.0': 'Enter an absolute address starting with https:// (http:// only on localhost), without #',
      });
    });

    it('refuses an id or a name a client_id or a path could not carry', async () => {
      const res = await create(newApp('my app', { id: 'a/b' }));
      expect(res.status).to.equal(400);
      expect(Object.keys(fieldMessages(res.body)).sort()).to.deep.equal(['id', 'name']);
    });

    it('is for administrators only', async () => {
      const res = await create(newApp(unique('nope')), 'tenantAdmin');
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('You do not have permission to perform this action');
      expect((await create(newApp(unique('god')), 'god')).status).to.equal(201);
    });
  });

  describe('GET and PUT /api/v1/admin/applications/{id}', () => {
    it('answers "Application not found" for an unknown id', async () => {
      for (const [method, body] of [
        ['get', undefined],
        ['put', newApp()],
        ['delete', undefined],
      ] as const) {
        const res = await call(w, method, '/applications/no-such-app', { body: body && { ...body, name: undefined } });
        expect(res.status, method).to.equal(404);
        expect(res.body.message, method).to.equal('Application not found');
      }
    });

    it('changes the General properties at once, keeps the name, and logs what changed', async () => {
      const name = unique('edit');
      await create(newApp(name));
      const { name: _name, ...fields } = newApp(name);
      const res = await call(w, 'put', `/applications/${name}`, {
        body: { ...fields, displayName: 'Renamed', redirectUris: ['https://app.example.com/new-callback'], hideInUserList: true },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ name, displayName: 'Renamed', hideInUserList: true, sharedSecret: null, redirectUris: ['https://app.example.com/new-callback'] });
      expect(announced).to.deep.include({ clientId: name });
      const logs = await logsWhere(w, 'applicationId', name);
      expect(logs.at(-1)!.operation).to.equal('UpdateApplication');
      expect(logs.at(-1)!.metadata.changes).to.deep.equal({
        displayName: { from: `Display ${name}`, to: 'Renamed' },
        redirectUris: { from: ['https://app.example.com/callback'], to: ['https://app.example.com/new-callback'] },
        hideInUserList: { from: false, to: true },
      });

      const renamed = await call(w, 'put', `/applications/${name}`, { body: { ...fields, name: 'other' } });
      expect(renamed.status).to.equal(400);
      expect(fieldMessages(renamed.body)).to.deep.equal({ name: 'name cannot be changed' });
    });

    it('reads and changes the enabled flag: validated, logged, announced; absent keeps it; for administrators only; never off for the product’s own', async () => {
      const name = unique('enabled');
      const created = await create(newApp(name, { enabled: false }));
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.deep.include({ enabled: false, status: 'Running' });
      expect((await storedRow(w, name))!.enabled).to.equal(false);
      expect((await call(w, 'get', `/applications?$search=${name}`)).body.items[0]).to.deep.include({ name, enabled: false });

      const { name: _name, ...fields } = newApp(name);
      announced = [];
      const enabled = await call(w, 'put', `/applications/${name}`, { body: { ...fields, enabled: true } });
      expect(enabled.status, JSON.stringify(enabled.body)).to.equal(200);
      expect(enabled.body.enabled).to.equal(true);
      expect(announced).to.deep.include({ clientId: name });
      expect((await logsWhere(w, 'applicationId', name)).at(-1)!.metadata.changes).to.deep.equal({ enabled: { from: false, to: true } });
      expect((await call(w, 'put', `/applications/${name}`, { body: fields })).body.enabled, 'absent: unchanged').to.equal(true);

      const bad = await call(w, 'put', `/applications/${name}`, { body: { ...fields, enabled: 'no' } });
      expect(bad.status).to.equal(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['enabled']);
      expect((await call(w, 'put', `/applications/${name}`, { as: 'tenantAdmin', body: { ...fields, enabled: false } })).status).to.equal(403);
      expect((await storedRow(w, name))!.enabled).to.equal(true);

      await productApplication(w, 'portal');
      const portal = await call(w, 'get', '/applications/portal');
      const portalFields = { displayName: portal.body.displayName, type: 'public', privateUrl: 'https://product.example.com/', redirectUris: portal.body.redirectUris, postLogoutRedirectUris: portal.body.postLogoutRedirectUris };
      const off = await call(w, 'put', '/applications/portal', { as: 'god', body: { ...portalFields, enabled: false } });
      expect(off.status).to.equal(409);
      expect(off.body.message).to.equal('The product\'s own applications cannot be disabled: nobody could sign in to enable them again');
      expect((await storedRow(w, 'portal'))!.enabled).to.equal(true);
    });

    it('reads and changes the device sign-in switch: off unless asked, logged, absent keeps it; fixed for the product’s own', async () => {
      const name = unique('devices');
      const created = await create(newApp(name));
      expect(created.body.deviceFlow).to.equal(false);
      const { name: _name, ...fields } = newApp(name);
      const allowed = await call(w, 'put', `/applications/${name}`, { body: { ...fields, deviceFlow: true } });
      expect(allowed.status, JSON.stringify(allowed.body)).to.equal(200);
      expect(allowed.body.deviceFlow).to.equal(true);
      expect((await storedRow(w, name))!.device_flow).to.equal(true);
      expect((await logsWhere(w, 'applicationId', name)).at(-1)!.metadata.changes).to.deep.equal({ deviceFlow: { from: false, to: true } });
      expect((await call(w, 'put', `/applications/${name}`, { body: fields })).body.deviceFlow, 'absent: unchanged').to.equal(true);
      const createdAllowing = await create(newApp(unique('tv'), { type: 'public', deviceFlow: true }));
      expect(createdAllowing.body.deviceFlow).to.equal(true);

      await productApplication(w, 'portal');
      const portal = await call(w, 'get', '/applications/portal');
      const portalFields = { displayName: portal.body.displayName, type: 'public', privateUrl: 'https://product.example.com/', redirectUris: portal.body.redirectUris, postLogoutRedirectUris: portal.body.postLogoutRedirectUris };
      const onDevices = await call(w, 'put', '/applications/portal', { as: 'god', body: { ...portalFields, deviceFlow: true } });
      expect(onDevices.status).to.equal(400);
      expect((await storedRow(w, 'portal'))!.device_flow).to.equal(false);
    });

    it('gives an application made confidential a secret (answered once), and takes it from one made public', async () => {
      const created = await create(newApp(unique('switch'), { type: 'public' }));
      const { name: _name, ...fields } = newApp();
      const confidential = await call(w, 'put', `/applications/${created.body.id}`, { body: { ...fields, type: 'confidential' } });
      expect(confidential.body).to.deep.include({ type: 'confidential', hasSecret: true });
      expect(confidential.headers['cache-control']).to.equal('no-store');
      const secret = confidential.body.sharedSecret;
      expect(w.context.secrets.decrypt((await storedRow(w, created.body.id))!.client_secret_encrypted as string)).to.equal(secret);
      const again = await call(w, 'put', `/applications/${created.body.id}`, { body: { ...fields, type: 'confidential' } });
      expect(again.body.sharedSecret, 'the existing secret is kept, and never answered again').to.equal(null);

      const madePublic = await call(w, 'put', `/applications/${created.body.id}`, { body: { ...fields, type: 'public' } });
      expect(madePublic.body).to.deep.include({ type: 'public', hasSecret: false });
      expect((await storedRow(w, created.body.id))!.client_secret_encrypted).to.equal(null);
    });

    it('keeps the type of the product’s own applications', async () => {
      await productApplication(w, 'portal');
      const { name: _name, ...fields } = newApp();
      const res = await call(w, 'put', '/applications/portal', { body: { ...fields, type: 'confidential' } });
      expect(res.status).to.equal(409);
      expect(res.body.message).to.equal('The type of this application is part of the product and cannot be changed');
    });

    it('keeps the addresses of the product’s own applications: no administrator, God included, sends the console’s codes elsewhere', async () => {
      await productApplication(w, 'admin-console');
      const stored = async () => (await w.context.dataSource.query(`SELECT redirect_uris, post_logout_redirect_uris FROM applications WHERE id = 'admin-console'`))[0];
      const before = await stored();
      const fields = { displayName: 'Administration console', type: 'public', privateUrl: 'https://product.example.com/admin', redirectUris: before.redirect_uris, postLogoutRedirectUris: before.post_logout_redirect_uris };
      for (const as of ['admin', 'god'] as const) {
        const added = await call(w, 'put', '/applications/admin-console', { as, body: { ...fields, redirectUris: [...before.redirect_uris, 'https://attacker.example.net/cb'] } });
        expect(added.status, as).to.equal(400);
        expect(added.body.errors).to.have.length(1);
        expect(added.body.errors[0]).to.include({ field: 'redirectUris', code: 'applications.product_own_fixed' });
        const logout = await call(w, 'put', '/applications/admin-console', { as, body: { ...fields, postLogoutRedirectUris: ['https://attacker.example.net/'] } });
        expect(logout.status, as).to.equal(400);
        expect(logout.body.errors[0]).to.include({ field: 'postLogoutRedirectUris', code: 'applications.product_own_fixed' });
      }
      expect(await stored()).to.deep.equal(before);
      // What is not an address still changes.
      const renamed = await call(w, 'put', '/applications/admin-console', { body: { ...fields, displayName: 'Console' } });
      expect(renamed.status).to.equal(200);
      expect(renamed.body.displayName).to.equal('Console');
    });

    it('stores an uploaded icon (served by the icon route), an icon name or an https address; refuses an SVG upload', async () => {
      const created = await create(newApp(unique('icon')));
      const { name: _name, ...fields } = newApp();
      const uploaded = await call(w, 'put', `/applications/${created.body.id}`, { body: { ...fields, icon: 'AppstoreOutlined', iconImage: `data:image/png;base64,${PNG}` } });
      expect(uploaded.body).to.deep.include({ icon: 'AppstoreOutlined', hasIconImage: true });
      const icon = await call(w, 'get', `/applications/icon/${created.body.id}`);
      expect(icon.headers['content-type']).to.equal('image/png');

      const kept = await call(w, 'put', `/applications/${created.body.id}`, { body: { ...fields, icon: 'https://cdn.example.com/icon.png' } });
      expect(kept.body).to.deep.include({ icon: 'https://cdn.example.com/icon.png', hasIconImage: true });
      const removed = await call(w, 'put', `/applications/${created.body.id}`, { body: { ...fields, iconImage: null } });
      expect(removed.body).to.deep.include({ hasIconImage: false, icon: null });

      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64');
      const refused = await call(w, 'put', `/applications/${created.body.id}`, { body: { ...fields, icon: 'javascript:x', iconImage: `data:image/svg+xml;base64,${svg}` } });
      expect(refused.status).to.equal(400);
      expect(fieldMessages(refused.body)).to.deep.equal({
        icon: 'The icon must be an icon name or an https:// address',
        iconImage: 'The icon must be a PNG, JPEG, GIF, WebP or ICO image of at most 256 KB',
      });
    });
  });

  describe('uploaded icons: judged by their content, stored as the product encodes them', () => {
    const { name: _name, ...fields } = newApp();
    let appId: string;
    before(async () => {
      appId = (await create(newApp(unique('icon-content')))).body.id;
    });
    const upload = (iconImage: string, lang = 'en') => call(w, 'put', `/applications/${appId}`, { body: { ...fields, iconImage }, lang });
    const NOT_AN_ICON = 'The icon must be a PNG, JPEG, GIF, WebP or ICO image of at most 256 KB';

    it('refuses an HTML page or a script declared as an image, naming the field, in the caller’s language', async () => {
      const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
      const script = Buffer.from('alert(document.domain)//');
      for (const [type, bytes] of [['image/png', html], ['image/jpeg', script], ['image/gif', script], ['image/webp', html], ['image/x-icon', html]] as const) {
        const res = await upload(dataUrl(type, bytes));
        expect(res.status, type).to.equal(400);
        expect(fieldMessages(res.body), type).to.deep.equal({ iconImage: NOT_AN_ICON });
      }
      const french = await upload(dataUrl('image/png', html), 'fr');
      expect(fieldMessages(french.body)).to.deep.equal({ iconImage: 'L’icône doit être une image PNG, JPEG, GIF, WebP ou ICO de 256 KB au plus' });
      expect((await storedRow(w, appId))!.icon_data, 'nothing was stored').to.equal(null);
    });

    it('refuses an SVG declared as a PNG, a truncated PNG, a PNG declaring billions of pixels and another image type', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script><rect width="8" height="8"/></svg>');
      expect(fieldMessages((await upload(dataUrl('image/png', svg))).body)).to.deep.equal({ iconImage: NOT_AN_ICON });
      const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).tiff().toBuffer();
      expect(fieldMessages((await upload(dataUrl('image/png', tiff))).body)).to.deep.equal({ iconImage: NOT_AN_ICON });

      const png = await twoColourPng(64, 64);
      const truncated = await upload(dataUrl('image/png', png.subarray(0, png.length - 40)));
      expect(truncated.status).to.equal(400);
      expect(truncated.body.errors).to.deep.equal([
        { field: 'iconImage', code: 'applications.icon_unreadable', message: 'The icon could not be read: the image is damaged or incomplete' },
      ]);

      const bomb = pngDeclaring(60_000, 60_000);
      expect(bomb.length).to.be.below(10_000);
      const started = Date.now();
      const refused = await upload(dataUrl('image/png', bomb), 'de');
      expect(refused.status).to.equal(400);
      expect(refused.body.errors).to.deep.equal([
        { field: 'iconImage', code: 'applications.icon_too_many_pixels', message: 'Das Symbol ist zu groß: Es darf höchstens 16 Millionen Pixel haben' },
      ]);
      expect(Date.now() - started, 'refused from its header, never decoded').to.be.below(5000);
      expect((await storedRow(w, appId))!.icon_data).to.equal(null);
    });

    it('stores a PNG re-encoded: the bytes served are a PNG the product wrote, without what followed the image data', async () => {
      const polyglot = Buffer.concat([await twoColourPng(40, 30), Buffer.from('<script>alert(document.domain)</script>')]);
      const res = await upload(dataUrl('image/png', polyglot));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const row = (await storedRow(w, appId))!;
      const stored = row.icon_data as Buffer;
      expect(row.icon_content_type).to.equal('image/png');
      expect(stored.equals(polyglot)).to.equal(false);
      expect(stored.includes('<script')).to.equal(false);

      const served = await call(w, 'get', `/applications/icon/${appId}`);
      expect(served.headers['content-type']).to.equal('image/png');
      expect(Buffer.from(served.body as Buffer).equals(stored), 'what is served is what was stored').to.equal(true);
      const { format, width, height } = await sharp(stored).metadata();
      expect([format, width, height]).to.deep.equal(['png', 40, 30]);
      expect([await colourAt(stored, 5, 2), await colourAt(stored, 5, 28)]).to.deep.equal(['#ff0000', '#0000ff']);
    });

    it('accepts JPEG, GIF, WebP and ICO icons by their content, each stored as a PNG of at most 256 pixels a side', async () => {
      const base = sharp({ create: { width: 600, height: 300, channels: 3, background: '#228833' } });
      const cases: Array<[string, string, Buffer, [number, number]]> = [
        ['JPEG declared as PNG', 'image/png', await base.clone().jpeg().toBuffer(), [256, 128]],
        ['GIF', 'image/gif', await base.clone().gif().toBuffer(), [256, 128]],
        ['WebP', 'image/webp', await base.clone().webp().toBuffer(), [256, 128]],
        ['ICO of a PNG', 'image/x-icon', icoOf([{ side: 16, data: await twoColourPng(16, 16) }, { side: 48, data: await twoColourPng(48, 48) }]), [48, 48]],
        ['ICO of a bitmap', 'image/vnd.microsoft.icon', icoOf([{ side: 32, data: icoBitmap(32) }]), [32, 32]],
      ];
      for (const [label, type, bytes, [width, height]] of cases) {
        const res = await upload(dataUrl(type, bytes));
        expect(res.status, `${label}: ${JSON.stringify(res.body)}`).to.equal(200);
        const row = (await storedRow(w, appId))!;
        expect(row.icon_content_type, label).to.equal('image/png');
        const meta = await sharp(row.icon_data as Buffer).metadata();
        expect([meta.format, meta.width, meta.height], label).to.deep.equal(['png', width, height]);
        if (label.startsWith('ICO')) {
          const stored = row.icon_data as Buffer;
          expect([await colourAt(stored, 3, 1), await colourAt(stored, 3, height - 2)], `${label}: upright`).to.deep.equal(['#ff0000', '#0000ff']);
        }
      }
    });
  });

  describe('PUT /api/v1/admin/applications/{id}/{status}', () => {
    it('sets Running, Maintenance or Stopped, logs it and tells the provider at once', async () => {
      const name = unique('status');
      await create(newApp(name));
      for (const status of ['Maintenance', 'Stopped', 'Running']) {
        announced = [];
        const res = await call(w, 'put', `/applications/${name}/${status}`);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.deep.include({ id: name, status });
        expect((await storedRow(w, name))!.status).to.equal(status);
        expect(announced).to.deep.equal([{ clientId: name }]);
      }
      const logs = (await logsWhere(w, 'applicationId', name)).filter((log) => log.operation === 'ChangeApplicationStatus');
      expect(logs.map((log) => [log.metadata.previous, log.metadata.status])).to.deep.equal([
        ['Running', 'Maintenance'],
        ['Maintenance', 'Stopped'],
        ['Stopped', 'Running'],
      ]);
    });

    it('refuses an unknown status, and stopping the console (nobody could sign in to start it again)', async () => {
      const name = unique('status');
      await create(newApp(name));
      expect((await call(w, 'put', `/applications/${name}/Paused`)).status).to.equal(404);
      await productApplication(w, 'admin-console');
      const res = await call(w, 'put', '/applications/admin-console/Stopped');
      expect(res.status).to.equal(409);
      expect(res.body.message).to.equal('The administration console cannot be stopped: nobody could sign in to start it again');
      expect((await call(w, 'put', '/applications/admin-console/Maintenance')).status).to.equal(200);
    });

    it('is for administrators only', async () => {
      const name = unique('status');
      await create(newApp(name));
      expect((await call(w, 'put', `/applications/${name}/Stopped`, { as: 'tenantAdmin' })).status).to.equal(403);
      expect((await storedRow(w, name))!.status).to.equal('Running');
    });
  });

  describe('DELETE /api/v1/admin/applications/{id}', () => {
    it('deletes an application of the caller with its roles and their grants, and tells the provider', async () => {
      const name = unique('gone');
      await create(newApp(name));
      const [role] = await w.context.dataSource.query(`INSERT INTO roles (application_id, name) VALUES ($1, 'Reader') RETURNING id`, [name]);
      await grant(w.context.dataSource, { tenant: w.tenantA, user: await userIn(w, w.areaA), roles: [{ id: role.id } as Role] });
      const res = await call(w, 'delete', `/applications/${name}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(204);
      expect(await storedRow(w, name)).to.equal(undefined);
      expect(await w.context.dataSource.query('SELECT 1 FROM tenant_member_roles WHERE role_id = $1', [role.id])).to.deep.equal([]);
      expect(announced).to.deep.include({ clientId: name });
      expect((await logsWhere(w, 'applicationId', name)).at(-1)!.operation).to.equal('DeleteApplication');
    });

    it('is refused to an administrator who does not own it, with the spec’s message', async () => {
      const name = unique('theirs');
      await create(newApp(name), 'god');
      const res = await call(w, 'delete', `/applications/${name}`);
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('The User is not the owner of the application and cannot delete it.');
      expect(await storedRow(w, name)).to.not.equal(undefined);
    });

    it('never deletes the Identity application, the portal or the console, even for an owner', async () => {
      await productApplication(w, 'portal');
      for (const id of ['1', 'portal']) {
        await w.context.dataSource.query('INSERT INTO application_owners (application_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, w.callers.admin.id]);
      }
      const identity = await call(w, 'delete', '/applications/1');
      expect(identity.status).to.equal(409);
      expect(identity.body.message).to.equal('The Identity application cannot be deleted');
      const portal = await call(w, 'delete', '/applications/portal');
      expect(portal.status).to.equal(409);
      expect(portal.body.message).to.equal('This application is part of the product and cannot be deleted');
      expect(await storedRow(w, '1')).to.not.equal(undefined);
    });
  });

  describe('POST /api/v1/admin/applications/{id}/secret', () => {
    it('replaces the secret (answered once, stored encrypted); a public application has none', async () => {
      const created = await create(newApp(unique('rotate')));
      announced = [];
      const res = await call(w, 'post', `/applications/${created.body.id}/secret`);
      expect(res.status).to.equal(200);
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.body.sharedSecret).to.be.a('string').and.not.equal(created.body.sharedSecret);
      const stored = (await storedRow(w, created.body.id))!.client_secret_encrypted as string;
      expect(stored).to.not.include(res.body.sharedSecret);
      expect(w.context.secrets.decrypt(stored)).to.equal(res.body.sharedSecret);
      expect(announced).to.deep.equal([{ clientId: created.body.name }]);

      const spa = await create(newApp(unique('spa'), { type: 'public' }));
      const refused = await call(w, 'post', `/applications/${spa.body.id}/secret`);
      expect(refused.status).to.equal(409);
      expect(refused.body.message).to.equal('A public application has no shared secret');
    });
  });

  describe('owners: POST and DELETE /api/v1/admin/applications/{id}/owners', () => {
    it('adds and removes owners; an owner added may delete the application', async () => {
      const created = await create(newApp(unique('owners')), 'god');
      const added = await call(w, 'post', `/applications/${created.body.id}/owners`, { body: { userId: w.callers.admin.id } });
      expect(added.status, JSON.stringify(added.body)).to.equal(200);
      expect(added.body.map((o: { id: string }) => o.id).sort()).to.deep.equal([w.callers.admin.id, w.callers.god.id].sort());
      const twice = await call(w, 'post', `/applications/${created.body.id}/owners`, { body: { userId: w.callers.admin.id } });
      expect(twice.status).to.equal(409);
      expect(twice.body.message).to.equal('This user is already an owner of the application');

      const removed = await call(w, 'delete', `/applications/${created.body.id}/owners/${w.callers.god.id}`);
      expect(removed.body.map((o: { id: string }) => o.id)).to.deep.equal([w.callers.admin.id]);
      const notOwner = await call(w, 'delete', `/applications/${created.body.id}/owners/${w.callers.god.id}`);
      expect(notOwner.status).to.equal(404);
      expect((await call(w, 'delete', `/applications/${created.body.id}`, { as: 'god' })).status).to.equal(403);
      expect((await call(w, 'delete', `/applications/${created.body.id}`)).status).to.equal(204);
    });

    it('requires a user, and an existing one', async () => {
      const created = await create(newApp(unique('owners')));
      const missing = await call(w, 'post', `/applications/${created.body.id}/owners`, { body: {} });
      expect(fieldMessages(missing.body)).to.deep.equal({ userId: 'User required' });
      const unknown = await call(w, 'post', `/applications/${created.body.id}/owners`, { body: { userId: '00000000-0000-4000-8000-000000000002' } });
      expect(unknown.status).to.equal(400);
      expect(fieldMessages(unknown.body)).to.deep.equal({ userId: 'This user does not exist' });
    });
  });
});
