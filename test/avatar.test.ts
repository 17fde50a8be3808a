import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'node:http';
import { pngDeclaring } from '@gatehouse/core/testing';
import { expect } from 'chai';
import sharp from 'sharp';
import { Browser } from './support/browser.js';
import { PKCE, accessTokenAfter } from './support/flows.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const USERS = ['pia', 'polly', 'sam', 'size', 'cache', 'plain', 'moved', 'folder'];
const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }] }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'] }
users:
${USERS.map((name) => `  - { userName: ${name}@example.com, area: Default, language: en, password: '${PASSWORD}' }`).join('\n')}
`;

/** The hash a picture URL carries for `email`. */
const hashOf = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

/** Signs in with the password and redeems the code: an access token of the portal (the `spa` client). */
async function tokenFor(server: TestServer, userName: string): Promise<string> {
  const browser = new Browser(server.url);
  const params = new URLSearchParams({ client_id: 'spa', response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/spa/callback`, ...PKCE });
  await browser.get(`/oidc/auth?${params}`);
  await browser.get('/api/v1/config');
  const res = await browser.postJson('/api/v1/account/login', { userName, password: PASSWORD }, { 'accept-language': 'en' });
  const { redirectTo } = (await res.json()) as { redirectTo: string };
  return accessTokenAfter(server, browser, redirectTo);
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Uploads `bytes` as `fileName` in the form field `field` (`file` unless told). */
async function upload(server: TestServer, token: string | undefined, bytes: Buffer | undefined, options: { fileName?: string; field?: string; language?: string } = {}): Promise<Answer> {
  const form = new FormData();
  if (bytes) form.append(options.field ?? 'file', new Blob([new Uint8Array(bytes)]), options.fileName ?? 'me.png');
  else form.append('note', 'no file here');
  const headers: Record<string, string> = { 'accept-language': options.language ?? 'en' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${server.url}/api/v1/profile/avatar`, { method: 'POST', headers, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function picture(server: TestServer, url: string) {
  const res = await fetch(new URL(url, server.url));
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/**
 * A browser's revalidation of a cached picture. Not through fetch, which marks a conditional
 * request `Cache-Control: no-cache` (an end-to-end reload, never answered 304).
 */
function revalidate(server: TestServer, url: string, etag: string): Promise<{ status: number; length: number }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(url, server.url), { headers: { 'if-none-match': etag } }, (res) => {
      let length = 0;
      res.on('data', (chunk: Buffer) => (length += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, length }));
    });
    req.on('error', reject);
    req.end();
  });
}

const pngOf = (width: number, height: number, colour = '#c0392b') =>
  sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();

/** The headers whose presence an answer shows, with the values that must not depend on whose picture it is. */
function headerShape(res: Response): Record<string, string | null> {
  const shape: Record<string, string | null> = {};
  for (const name of ['content-type', 'cache-control', 'x-content-type-options', 'content-disposition', 'content-security-policy']) shape[name] = res.headers.get(name);
  shape.etag = res.headers.get('etag') ? 'present' : null;
  shape['last-modified'] = res.headers.get('last-modified');
  return shape;
}

describe('avatar: POST /api/v1/profile/avatar and GET /api/v1/avatar/:hash', function () {
  this.timeout(120_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP, overrides: { 'oidc.portalClientId': 'spa' } });
  });
  after(() => server?.stop());

  describe('upload', () => {
    let token: string;
    before(async () => {
      token = await tokenFor(server, 'pia@example.com');
    });

    it('refuses an upload without a valid token', async () => {
      const forged = await upload(server, 'not-a-token', await pngOf(8, 8));
      expect(forged.status).to.equal(401);
      expect(forged.body.code).to.equal('errors.unauthorized');
      // Without any token the call is a cookie call, which must carry the anti-forgery header.
      expect((await upload(server, undefined, await pngOf(8, 8))).status).to.equal(403);
    });

    it('refuses a file that is not a picture although it is named like one, in the caller’s language', async () => {
      const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
      const answer = await upload(server, token, html, { fileName: 'me.png' });
      expect(answer.status).to.equal(400);
      expect(answer.body).to.include({ code: 'avatar.not_an_image', message: 'This file is not a picture: upload a PNG, JPEG, WebP or GIF image' });
      const french = await upload(server, token, html, { fileName: 'me.png', language: 'fr-FR' });
      expect(french.body.message).to.equal('Ce fichier n’est pas une image : envoyez une image PNG, JPEG, WebP ou GIF');
    });

    it('refuses an SVG, by name or disguised', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>');
      for (const fileName of ['me.svg', 'me.png']) {
        const answer = await upload(server, token, svg, { fileName });
        expect(answer.status, fileName).to.equal(400);
        expect(answer.body.code, fileName).to.equal('avatar.not_an_image');
      }
    });

    it('refuses a picture just over 2 MB, and a request declaring far more, naming the limit', async () => {
      const justOver = Buffer.concat([await pngOf(4, 4), Buffer.alloc(2 * 1024 * 1024)]);
      const over = await upload(server, token, justOver);
      expect(over.status).to.equal(400);
      expect(over.body).to.include({ code: 'avatar.file_too_large', message: 'The picture is larger than the limit of 2 MB' });
      const huge = await upload(server, token, Buffer.alloc(5 * 1024 * 1024));
      expect(huge.status).to.equal(400);
      expect(huge.body.code).to.equal('avatar.file_too_large');
    });

    it('refuses a picture declaring more pixels than may be decoded (an image bomb)', async () => {
      const answer = await upload(server, token, pngDeclaring(30_000, 30_000));
      expect(answer.status).to.equal(400);
      expect(answer.body).to.include({ code: 'avatar.too_many_pixels', message: 'The picture is too large: it may have at most 25 million pixels' });
    });

    it('refuses a request without a file, or with the file under another field', async () => {
      const none = await upload(server, token, undefined);
      expect(none.status).to.equal(400);
      expect(none.body).to.include({ code: 'avatar.file_required', message: 'Choose a picture to upload' });
      const elsewhere = await upload(server, token, await pngOf(8, 8), { field: 'picture' });
      expect(elsewhere.status).to.equal(400);
      expect(elsewhere.body.code).to.equal('avatar.file_required');
      const garbled = await fetch(`${server.url}/api/v1/profile/avatar`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=xyz', 'accept-language': 'en' },
        body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\ncut short',
      });
      expect(garbled.status).to.equal(400);
      expect(((await garbled.json()) as { code: string }).code).to.equal('avatar.malformed_upload');
    });

    it('refuses two pictures at once', async () => {
      const form = new FormData();
      const png = new Uint8Array(await pngOf(8, 8));
      form.append('file', new Blob([png]), 'one.png');
      form.append('file', new Blob([png]), 'two.png');
      const res = await fetch(`${server.url}/api/v1/profile/avatar`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' }, body: form });
      expect(res.status).to.equal(400);
      expect(await res.json()).to.include({ code: 'avatar.one_file_only', message: 'Send one picture at a time' });
    });

    it('refuses a broken picture with a 400, never a 500', async () => {
      const png = await pngOf(64, 64);
      const answer = await upload(server, token, png.subarray(0, png.length - 30));
      expect(answer.status).to.equal(400);
      expect(answer.body.code).to.equal('avatar.unreadable');
    });
  });

  describe('what is served back', () => {
    it('re-encodes a PNG carrying a script after its image data: the script is never stored nor served', async () => {
      const token = await tokenFor(server, 'polly@example.com');
      const polyglot = Buffer.concat([await pngOf(300, 200), Buffer.from('<script>alert(document.domain)</script>')]);
      const answer = await upload(server, token, polyglot, { fileName: 'polly.png' });
      expect(answer.status).to.equal(200);
      expect(answer.body.success).to.equal(true);
      expect(String(answer.body.url)).to.match(new RegExp(`^/api/v1/avatar/${hashOf('polly@example.com')}\\?size=180&v=[0-9a-f]{16}$`));

      const { res, bytes } = await picture(server, String(answer.body.url));
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/webp');
      expect(bytes.includes('<script')).to.equal(false);
      const served = await sharp(bytes).metadata();
      expect([served.format, served.width, served.height]).to.deep.equal(['webp', 180, 180]);
      const [stored] = await server.server.context.dataSource.query(
        'SELECT a.content FROM user_avatars a JOIN users u ON u.id = a.user_id WHERE u.user_name = $1',
        ['polly@example.com'],
      );
      expect((stored.content as Buffer).includes('<script')).to.equal(false);
      expect((await sharp(stored.content as Buffer).metadata()).format).to.equal('webp');
    });

    it('accepts PNG, JPEG, WebP and GIF pictures, judged by their content whatever their name', async () => {
      const token = await tokenFor(server, 'sam@example.com');
      for (const format of ['png', 'jpeg', 'webp', 'gif'] as const) {
        const bytes = await sharp({ create: { width: 20, height: 30, channels: 3, background: '#34495e' } }).toFormat(format).toBuffer();
        const answer = await upload(server, token, bytes, { fileName: 'picture.txt' });
        expect(answer.status, format).to.equal(200);
      }
    });

    it('keeps only pixels: no EXIF or other metadata survives', async () => {
      const token = await tokenFor(server, 'sam@example.com');
      const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#2980b9' } })
        .jpeg()
        .withExif({ IFD0: { Copyright: 'secret-marker', ImageDescription: 'secret-marker' } })
        .toBuffer();
      expect(jpeg.includes('secret-marker')).to.equal(true);
      const answer = await upload(server, token, jpeg, { fileName: 'sam.jpg' });
      expect(answer.status).to.equal(200);
      const { bytes } = await picture(server, String(answer.body.url));
      expect(bytes.includes('secret-marker')).to.equal(false);
      expect((await sharp(bytes).metadata()).exif).to.equal(undefined);
    });

    it('serves the size asked for, within 16 to 512 pixels, 180 by default', async () => {
      const token = await tokenFor(server, 'size@example.com');
      expect((await upload(server, token, await pngOf(600, 600))).status).to.equal(200);
      const hash = hashOf('size@example.com');
      for (const [query, side] of [['', 180], ['?size=64', 64], ['?size=5000', 512], ['?size=1', 16]] as const) {
        const { res, bytes } = await picture(server, `/api/v1/avatar/${hash}${query}`);
        expect(res.status, query).to.equal(200);
        const { width, height } = await sharp(bytes).metadata();
        expect([width, height], query).to.deep.equal([side, side]);
      }
      const { res } = await picture(server, `/api/v1/avatar/${hash}?size=big`);
      expect(res.status).to.equal(400);
    });

    it('is revalidated by its ETag (304) at its bare address, cached for good at its versioned one, never sniffed, shown inline', async () => {
      const token = await tokenFor(server, 'cache@example.com');
      const uploaded = await upload(server, token, await pngOf(50, 50));
      expect(uploaded.status).to.equal(200);
      const versioned = await picture(server, String(uploaded.body.url));
      expect(versioned.res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      // The profile gives the same versioned address, so a reload after an upload shows the new picture.
      const profile = await fetch(`${server.url}/api/v1/profile`, { headers: { authorization: `Bearer ${token}` } });
      expect(((await profile.json()) as { avatarUrl: string }).avatarUrl).to.equal(uploaded.body.url);
      const url = `/api/v1/avatar/${hashOf('cache@example.com')}?size=96`;
      const { res } = await picture(server, url);
      expect(res.headers.get('cache-control')).to.equal('public, no-cache');
      const stale = await picture(server, `/api/v1/avatar/${hashOf('cache@example.com')}?size=96&v=0000000000000000`);
      expect(stale.res.headers.get('cache-control'), 'a version that is not the picture’s is not cached for good').to.equal('public, no-cache');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('content-disposition')).to.equal('inline');
      const etag = res.headers.get('etag');
      expect(etag).to.match(/^"[\w-]+"$/);
      expect(await revalidate(server, url, etag!)).to.deep.equal({ status: 304, length: 0 });
      const otherSize = await revalidate(server, `/api/v1/avatar/${hashOf('cache@example.com')}?size=97`, etag!);
      expect(otherSize.status, 'another size is another picture').to.equal(200);
      const newPicture = await upload(server, token, await pngOf(50, 50, '#f1c40f'));
      expect((await revalidate(server, url, etag!)).status, 'a new picture is another picture').to.equal(200);
      expect(newPicture.status).to.equal(200);
    });

    it('answers the default picture, in the same shape, for a user without one, an unknown hash and a malformed one', async () => {
      const withoutPicture = await picture(server, `/api/v1/avatar/${hashOf('plain@example.com')}`);
      const unknown = await picture(server, `/api/v1/avatar/${hashOf('nobody@example.com')}`);
      const malformed = await picture(server, '/api/v1/avatar/not-a-hash');
      const someone = await picture(server, `/api/v1/avatar/${hashOf('cache@example.com')}`);
      for (const answer of [withoutPicture, unknown, malformed]) {
        expect(answer.res.status).to.equal(200);
        expect(headerShape(answer.res)).to.deep.equal(headerShape(someone.res));
        expect(answer.res.headers.get('etag')).to.equal(unknown.res.headers.get('etag'));
        expect(answer.bytes.equals(unknown.bytes)).to.equal(true);
      }
      expect(unknown.bytes.equals(someone.bytes)).to.equal(false);
      const { format, width, height } = await sharp(unknown.bytes).metadata();
      expect([format, width, height]).to.deep.equal(['webp', 180, 180]);
    });

    it('replaces the picture at a new address, and shows it no more under an e-mail the user no longer has', async () => {
      const token = await tokenFor(server, 'moved@example.com');
      const first = await upload(server, token, await pngOf(40, 40, '#27ae60'));
      const second = await upload(server, token, await pngOf(40, 40, '#8e44ad'));
      expect(second.body.url).to.not.equal(first.body.url);
      const oldHash = hashOf('moved@example.com');
      const before = await picture(server, `/api/v1/avatar/${oldHash}`);
      const unknown = await picture(server, `/api/v1/avatar/${hashOf('nobody@example.com')}`);
      expect(before.bytes.equals(unknown.bytes)).to.equal(false);

      await server.server.context.dataSource.query(`UPDATE users SET email = 'moved-away@example.com' WHERE user_name = 'moved@example.com'`);
      const after = await picture(server, `/api/v1/avatar/${oldHash}`);
      expect(after.res.headers.get('etag')).to.equal(unknown.res.headers.get('etag'));
    });
  });
});

describe('avatar: pictures kept in a folder (AVATAR_STORE)', function () {
  this.timeout(120_000);
  let server: TestServer;
  const folder = path.join(mkdtempSync(path.join(tmpdir(), 'gatehouse-avatars-')), 'pictures');

  before(async () => {
    server = await startTestServer({ bootstrap: BOOTSTRAP, overrides: { 'oidc.portalClientId': 'spa', 'avatar.store': folder } });
  });
  after(() => server?.stop());

  it('writes one file per picture, named by its hash, keeps no bytes in the database, and removes a replaced file', async () => {
    const token = await tokenFor(server, 'folder@example.com');
    const first = await upload(server, token, await pngOf(64, 64, '#d35400'));
    expect(first.status).to.equal(200);
    const [row] = await server.server.context.dataSource.query(
      'SELECT a.content_hash, a.content FROM user_avatars a JOIN users u ON u.id = a.user_id WHERE u.user_name = $1',
      ['folder@example.com'],
    );
    expect(row.content).to.equal(null);
    expect(readdirSync(folder)).to.deep.equal([`${row.content_hash}.webp`]);
    const stored = readFileSync(path.join(folder, `${row.content_hash}.webp`));
    expect(createHash('sha256').update(stored).digest('hex')).to.equal(row.content_hash);

    const { res, bytes } = await picture(server, String(first.body.url));
    expect(res.status).to.equal(200);
    expect((await sharp(bytes).metadata()).width).to.equal(180);

    const second = await upload(server, token, await pngOf(64, 64, '#16a085'));
    expect(second.status).to.equal(200);
    const files = readdirSync(folder);
    expect(files).to.have.length(1);
    expect(files[0]).to.not.equal(`${row.content_hash}.webp`);
  });
});
