import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Router from '@koa/router';
import { expect } from 'chai';
import { sharedTestContext } from '../testing/index.js';
import { createBaseApp } from './base-app.js';
import { koaSpa } from './koa-spa.js';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent, not decompressed. */
  body: Buffer;
}

function rawGet(base: string, target: string, acceptEncoding?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    http
      .get(new URL(target, base), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('compression and caching of answers and built files', () => {
  const items = Array.from({ length: 60 }, (_, i) => ({ id: i, name: `Application number ${i}`, description: 'An application of the directory' }));
  const script = `export const phrases = ${JSON.stringify(items)};\n`.repeat(4);
  let root: string;
  let server: http.Server;
  let base: string;

  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'spa-'));
    await mkdir(path.join(root, 'assets'));
    await writeFile(path.join(root, 'index.html'), `<!doctype html><html><head><title>Portal</title></head><body>${'<p>shell</p>'.repeat(150)}</body></html>`);
    const hashed = path.join(root, 'assets', 'index-B1x_9aZq.js');
    await writeFile(hashed, script);
    await writeFile(`${hashed}.br`, brotliCompressSync(script));
    await writeFile(`${hashed}.gz`, gzipSync(script));
    await writeFile(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

    const app = createBaseApp(await sharedTestContext());
    const router = new Router();
    router.get('/api/test/large', (ctx) => {
      ctx.body = { items, count: items.length };
    });
    router.get('/api/test/small', (ctx) => {
      ctx.body = { ok: true };
    });
    app.use(router.routes());
    app.use(koaSpa({ root, basePath: '', isKnownRoute: (p) => p === '/' }));
    server = app.listen(0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.close();
    await rm(root, { recursive: true, force: true });
  });

  it('compresses a JSON answer over 1 KB with brotli, else gzip, as the caller accepts', async () => {
    const expected = { items, count: items.length };
    const br = await rawGet(base, '/api/test/large', 'gzip, deflate, br');
    expect(br.headers).to.include({ 'content-encoding': 'br', vary: 'Accept-Encoding' });
    expect(br.headers['content-type']).to.match(/^application\/json/);
    expect(Number(br.headers['content-length'])).to.equal(br.body.length).and.be.below(JSON.stringify(expected).length);
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).to.deep.equal(expected);

    const gz = await rawGet(base, '/api/test/large', 'gzip');
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString('utf8'))).to.deep.equal(expected);
  });

  it('sends JSON as it is to a caller that accepts no compression, and below 1 KB', async () => {
    const plain = await rawGet(base, '/api/test/large', 'identity');
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.headers.vary).to.equal('Accept-Encoding');
    expect(JSON.parse(plain.body.toString('utf8')).count).to.equal(items.length);
    const none = await rawGet(base, '/api/test/large');
    expect(none.headers['content-encoding']).to.equal(undefined);
    const small = await rawGet(base, '/api/test/small', 'br');
    expect(small.headers['content-encoding']).to.equal(undefined);
    expect(JSON.parse(small.body.toString('utf8'))).to.deep.equal({ ok: true });
  });

  it('sends the brotli or gzip twin of a built file, as the caller accepts, cached for a year as immutable', async () => {
    const br = await rawGet(base, '/assets/index-B1x_9aZq.js', 'br, gzip');
    expect(br.status).to.equal(200);
    expect(br.headers).to.include({ 'content-encoding': 'br', vary: 'Accept-Encoding', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(br.headers['content-type']).to.match(/javascript/);
    expect(brotliDecompressSync(br.body).toString('utf8')).to.equal(script);

    const gz = await rawGet(base, '/assets/index-B1x_9aZq.js', 'gzip');
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).to.equal(script);

    const plain = await rawGet(base, '/assets/index-B1x_9aZq.js', 'identity');
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.headers.vary).to.equal('Accept-Encoding');
    expect(plain.body.toString('utf8')).to.equal(script);
  });

  it('caches a file without a hash in its name for minutes only, and asks again for the HTML shell', async () => {
    const icon = await rawGet(base, '/favicon.svg', 'br');
    expect(icon.headers['cache-control']).to.equal('public, max-age=300');
    const shell = await rawGet(base, '/', 'br');
    expect(shell.headers['cache-control']).to.equal('no-cache');
    expect(shell.headers).to.include({ 'content-encoding': 'br', vary: 'Accept-Encoding' });
    expect(brotliDecompressSync(shell.body).toString('utf8')).to.match(/^<!doctype html><html><head><meta property="csp-nonce" nonce="[^"]+"><title>Portal<\/title>/);
  });
});
