import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { createApp, type IdpApp } from '../app.js';
import { rotateSigningKeys } from './keys.js';

/** An answer's status, headers and bytes as they crossed the wire (no decoding). */
function rawGet(server: http.Server, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('published documents: the key set and discovery document from memory', () => {
  let app: IdpApp;
  let server: ReturnType<IdpApp['callback']>;
  /** The provider itself, without the product's middleware: what it renders for each document. */
  let provider: ReturnType<IdpApp['callback']>;
  let context: Awaited<ReturnType<typeof createTestContext>>;
  let listening: http.Server;

  before(async () => {
    context = await createTestContext();
    const dist = mkdtempSync(path.join(tmpdir(), 'gatehouse-portal-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><title>Gatehouse</title></head><body></body></html>');
    app = await createApp(context, { portalDist: dist });
    server = app.callback();
    provider = app.host.current.callback();
    listening = http.createServer((req, res) => void server(req, res));
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    listening.close();
    await app.close();
  });

  it('answers the key set exactly as the provider renders it, the same bytes every time, with a validator and a short lifetime', async () => {
    const own = await request(provider).get('/jwks');
    const first = await rawGet(listening, '/oidc/jwks');
    const second = await rawGet(listening, '/oidc/jwks');
    expect(first.status).to.equal(200);
    expect(JSON.parse(first.body.toString())).to.deep.equal(own.body);
    expect(second.body.equals(first.body), 'the second answer is the first one').to.equal(true);
    expect(second.headers['content-type']).to.equal(own.headers['content-type']).and.to.contain('application/jwk-set+json');
    expect(second.headers.etag).to.match(/^"[\w-]+"$/).and.to.equal(first.headers.etag);
    expect(second.headers['cache-control']).to.equal('public, max-age=60');
    expect(second.headers['access-control-allow-origin']).to.equal('*');
    expect(second.headers.vary).to.contain('Origin').and.to.contain('Accept-Encoding');
  });

  it('answers 304 without a body to a client holding the current copy, and 200 to one holding another', async () => {
    const { headers } = await request(server).get('/oidc/jwks');
    const same = await request(server).get('/oidc/jwks').set('If-None-Match', headers.etag!);
    expect(same.status).to.equal(304);
    expect(same.text ?? '').to.equal('');
    const other = await request(server).get('/oidc/jwks').set('If-None-Match', '"an-older-set"');
    expect(other.status).to.equal(200);
    expect(other.body.keys).to.have.length.greaterThan(0);
  });

  it('sends the bytes compressed with brotli or gzip as the client accepts, each decoding to the same document', async () => {
    for (const path of ['/oidc/jwks', '/oidc/.well-known/openid-configuration']) {
      const plain = (await rawGet(listening, path)).body;
      expect(plain.length, path).to.be.greaterThan(100);
      const br = await rawGet(listening, path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding'], path).to.equal('br');
      expect(brotliDecompressSync(br.body).equals(plain), path).to.equal(true);
      const gzip = await rawGet(listening, path, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding'], path).to.equal('gzip');
      expect(gunzipSync(gzip.body).equals(plain), path).to.equal(true);
      const identity = await rawGet(listening, path, { 'accept-encoding': 'identity' });
      expect(identity.headers['content-encoding'], path).to.equal(undefined);
      expect(identity.body.equals(plain), path).to.equal(true);
    }
  });

  it('answers a browser from another site with its own origin allowed, as the provider does', async () => {
    const res = await request(server).get('/oidc/.well-known/openid-configuration').set('Origin', 'https://app.example.com');
    expect(res.status).to.equal(200);
    expect(res.headers['access-control-allow-origin']).to.equal('https://app.example.com');
    const head = await request(server).head('/oidc/jwks');
    expect(head.status).to.equal(200);
    expect(head.headers.etag).to.match(/^"/);
  });

  it('names the endpoints from the origin the request came to, for each origin, even past the few it keeps', async () => {
    for (let i = 0; i < 12; i++) {
      const host = `node${i}.example.test`;
      for (let again = 0; again < 2; again++) {
        const res = await request(server).get('/oidc/.well-known/openid-configuration').set('Host', host);
        expect(res.status).to.equal(200);
        expect(res.body.token_endpoint, host).to.equal(`http://${host}/oidc/token`);
        expect(res.body.jwks_uri, host).to.equal(`http://${host}/oidc/jwks`);
        const own = await request(provider).get('/.well-known/openid-configuration').set('Host', host);
        expect(Object.keys(res.body), host).to.deep.equal(Object.keys(own.body));
      }
    }
  });

  it('publishes new keys at once after a rotation, with a new validator', async () => {
    const before = await request(server).get('/oidc/jwks');
    const { added } = await rotateSigningKeys(context, 3600);
    await app.host.refreshKeys();
    const after = await request(server).get('/oidc/jwks');
    expect(after.body.keys.map((k: { kid: string }) => k.kid)).to.include.members(added);
    expect(after.headers.etag).not.to.equal(before.headers.etag);
    const stale = await request(server).get('/oidc/jwks').set('If-None-Match', before.headers.etag!);
    expect(stale.status, 'a copy of the old set is not current').to.equal(200);
  });

  it('leaves every other method and path to the provider', async () => {
    const post = await request(server).post('/oidc/jwks');
    expect(post.status).to.be.within(400, 499);
    expect(post.headers.etag).to.equal(undefined);
    const other = await request(server).get('/oidc/jwks/extra');
    expect(other.status).to.equal(404);
  });
});
