import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestContext } from '../testing/index.js';
import { createBaseApp } from './base-app.js';
import { basePathOf, withinBasePath } from './base-path.js';
import { koaSpa } from './koa-spa.js';

/** A relative-base build, as Vite writes it: its files addressed from the page ("./assets/…"). */
function spaBuild(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'gatehouse-spa-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'assets/index-AbCdEf12.js'), 'console.log(1)');
  writeFileSync(
    path.join(root, 'index.html'),
    '<!doctype html><html><head><script type="module" src="./assets/index-AbCdEf12.js"></script><link rel="stylesheet" href="./assets/index-AbCdEf12.css"><link rel="icon" href="data:image/svg+xml,x"></head><body></body></html>',
  );
  return root;
}

describe('base path of the public URL', () => {
  it('is the path of PUBLIC_URL without its trailing slash', () => {
    expect(basePathOf('https://example.com')).to.equal('');
    expect(basePathOf('https://example.com/')).to.equal('');
    expect(basePathOf('https://example.com/identity')).to.equal('/identity');
    expect(basePathOf('https://example.com/apps/identity/')).to.equal('/apps/identity');
    expect(withinBasePath('/identity/oidc/token', '/identity')).to.equal('/oidc/token');
    expect(withinBasePath('/identity', '/identity')).to.equal('/');
    expect(withinBasePath('/identity?x=1', '/identity')).to.equal('?x=1');
    expect(withinBasePath('/identityx/oidc', '/identity'), 'a longer segment is not under it').to.equal(undefined);
    expect(withinBasePath('/oidc/token', '/identity')).to.equal(undefined);
    expect(withinBasePath('/oidc/token', '')).to.equal('/oidc/token');
  });

  describe('a service under /identity', () => {
    let server: ReturnType<ReturnType<typeof createBaseApp>['callback']>;

    before(async () => {
      const context = await createTestContext({ migrate: false, overrides: { 'server.publicUrl': 'http://gatehouse.test/identity' } });
      const app = createBaseApp(context);
      app.use(async (ctx, next) => {
        switch (ctx.path) {
          case '/where':
            ctx.body = { path: ctx.path, url: ctx.url, originalUrl: ctx.originalUrl };
            return;
          case '/go':
            ctx.cookies.set('root', '1', { path: '/' });
            ctx.cookies.set('page', '2', { path: '/account/login' });
            ctx.cookies.set('placed', '3', { path: '/identity/oidc/auth/1' });
            ctx.cookies.set('other', '4', { path: '/oidc' });
            ctx.redirect('/account/login?interaction=1');
            return;
          case '/away':
            ctx.redirect('https://elsewhere.example/callback?code=1');
            return;
          case '/page':
            ctx.type = 'html';
            ctx.body = `<p><a href="/">home</a> <a href='/account/login'>again</a> <a href="https://elsewhere.example/">out</a> <a href="//cdn.example/x">cdn</a> <form action="/oidc/session/end"></form> <a href="/identity/profile">placed</a>${' '.repeat(2000)}</p>`;
            return;
          default:
            return next();
        }
      });
      app.use(koaSpa({ root: spaBuild(), basePath: '/admin' }));
      server = app.callback();
    });

    it('routes by the path within the product and keeps the original URL', async () => {
      const res = await request(server).get('/identity/where?x=1');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ path: '/where', url: '/where?x=1', originalUrl: '/identity/where?x=1' });
    });

    it('answers 404 in the caller’s language outside the base path, probes and metrics excepted', async () => {
      for (const outside of ['/where', '/', '/oidc/.well-known/openid-configuration', '/api/v1/config', '/identityx/where']) {
        const res = await request(server).get(outside).set('Accept-Language', 'fr');
        expect(res.status, outside).to.equal(404);
        expect(res.body.code, outside).to.equal('errors.not_found');
        expect(res.body.message).to.be.a('string').and.not.equal('Not found');
      }
      expect((await request(server).get('/health/live')).status, 'probes address the node').to.equal(200);
      expect((await request(server).get('/identity/health/live')).status).to.equal(200);
      expect((await request(server).get('/metrics')).status).to.equal(200);
    });

    it('puts the paths of redirects and cookies under the base path, and leaves other addresses as they are', async () => {
      const res = await request(server).get('/identity/go');
      expect(res.status).to.equal(302);
      expect(res.headers.location).to.equal('/identity/account/login?interaction=1');
      const cookies = (res.headers['set-cookie'] as unknown as string[]).map((c) => c.replace(/; (expires|samesite|httponly)[^;]*/gi, ''));
      expect(cookies).to.deep.equal(['root=1; path=/identity', 'page=2; path=/identity/account/login', 'placed=3; path=/identity/oidc/auth/1', 'other=4; path=/identity/oidc']);
      expect((await request(server).get('/identity/away')).headers.location).to.equal('https://elsewhere.example/callback?code=1');
    });

    it('puts the links of the pages it writes under the base path, compressed or not', async () => {
      for (const encoding of ['identity', 'gzip']) {
        const res = await request(server).get('/identity/page').set('Accept-Encoding', encoding);
        expect(res.status).to.equal(200);
        expect(res.text).to.contain('<a href="/identity/">home</a>');
        expect(res.text).to.contain("<a href='/identity/account/login'>again</a>");
        expect(res.text).to.contain('<a href="https://elsewhere.example/">out</a>');
        expect(res.text).to.contain('<a href="//cdn.example/x">cdn</a>');
        expect(res.text).to.contain('<form action="/identity/oidc/session/end">');
        expect(res.text).to.contain('<a href="/identity/profile">placed</a>');
      }
    });

    it('serves a single-page application’s shell with its files and the base path addressed from there, at any depth', async () => {
      for (const page of ['/identity/admin', '/identity/admin/users/1/roles']) {
        const res = await request(server).get(page);
        expect(res.status, page).to.equal(200);
        expect(res.text).to.contain('<meta name="gatehouse-base-path" content="/identity">');
        expect(res.text).to.contain('src="/identity/admin/assets/index-AbCdEf12.js"');
        expect(res.text).to.contain('href="/identity/admin/assets/index-AbCdEf12.css"');
        expect(res.text).to.contain('href="data:image/svg+xml,x"');
      }
      const file = await request(server).get('/identity/admin/assets/index-AbCdEf12.js');
      expect(file.status).to.equal(200);
      expect(file.headers['cache-control']).to.contain('immutable');
      expect((await request(server).get('/admin/assets/index-AbCdEf12.js')).status, 'not outside the base path').to.equal(404);
    });
  });

  it('serves the shell at the root of the host with its files from the root', async () => {
    const context = await createTestContext({ migrate: false, overrides: { 'server.publicUrl': 'http://gatehouse.test' } });
    const app = createBaseApp(context);
    app.use(koaSpa({ root: spaBuild(), basePath: '/admin' }));
    const res = await request(app.callback()).get('/admin/users');
    expect(res.text, 'no base path to tell').not.to.contain('gatehouse-base-path');
    expect(res.text).to.contain('src="/admin/assets/index-AbCdEf12.js"');
    expect((await request(app.callback()).get('/where')).status).to.equal(404);
  });
});
