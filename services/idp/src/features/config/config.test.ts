import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestContext, sharedTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../app.js';

function fakePortalBuild(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'gatehouse-portal-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html lang="fr"><head><title>Gatehouse</title></head><body><div id="root"></div></body></html>');
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dist;
}

describe('identity provider: start-up calls and portal', () => {
  let server: ReturnType<Awaited<ReturnType<typeof createApp>>['callback']>;

  before(async () => {
    const context = await sharedTestContext();
    server = (await createApp(context, { portalDist: fakePortalBuild() })).callback();
  });

  it('GET /api/v1/online answers that the API is up', async () => {
    const res = await request(server).get('/api/v1/online');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ online: true });
  });

  it('GET /api/v1/config answers what the SPAs need to sign in, and nothing secret', async () => {
    const res = await request(server).get('/api/v1/config');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({
      serviceUrl: 'http://localhost:0',
      identityServerUrl: 'http://localhost:0',
      authority: 'http://localhost:0/oidc',
      clientId: 'portal',
      environment: 'development',
      microsoftSignIn: false,
    });
    expect(res.body.scopes.split(' ')).to.include.members(['openid', 'profile', 'email', 'roles']);
    expect(res.body.adminScopes.split(' '), 'the console needs the admin API scope').to.include.members(['openid', 'admin']);
    expect(res.body.apps).to.deep.equal({ portal: 'http://localhost:0/', admin: 'http://localhost:0/admin' });
    expect(JSON.stringify(res.body)).not.to.match(/secret|password|key/i);
  });

  it('GET /api/v1/config sends no support link and no group rule when none is configured', async () => {
    const res = await request(server).get('/api/v1/config');
    expect(res.body.links).not.to.have.property('support');
    expect(res.body.groupDomains).to.deep.equal([]);
    expect(res.body).not.to.have.property('groupDomainFragment');
  });

  it('GET /api/v1/config sends the support link (SUPPORT_URL) and who must use the Microsoft sign-in', async () => {
    const context = await createTestContext({
      overrides: {
        'portal.supportUrl': 'https://support.example.com/gatehouse',
        'signIn.groupDomains': 'Group.example, corp.example',
        'signIn.groupDomainFragment': 'grupo-es',
      },
    });
    const configured = (await createApp(context, { portalDist: fakePortalBuild() })).callback();
    const res = await request(configured).get('/api/v1/config');
    expect(res.status).to.equal(200);
    expect(res.body.links).to.deep.include({ support: 'https://support.example.com/gatehouse' });
    expect(res.body).to.deep.include({ groupDomains: ['group.example', 'corp.example'], groupDomainFragment: 'grupo-es' });
  });

  it('serves the portal for its client routes, and the not-found page with 404 elsewhere', async () => {
    for (const route of ['/', '/account/login', '/account/changePassword', '/profile', '/auth/callback']) {
      const res = await request(server).get(route);
      expect(res.status, route).to.equal(200);
      expect(res.type).to.equal('text/html');
      expect(res.headers['cache-control']).to.equal('no-cache');
      expect(res.headers['content-security-policy']).to.contain("default-src 'self'");
    }
    const unknown = await request(server).get('/no/such/page');
    expect(unknown.status).to.equal(404);
    expect(unknown.text).to.contain('<div id="root">');
  });

  it('security: gives the SPA shell a fresh nonce for its run-time styles, and no unsafe-inline or framing', async () => {
    const nonces = new Set<string>();
    for (const route of ['/account/login', '/account/login', '/no/such/page']) {
      const res = await request(server).get(route);
      const policy = String(res.headers['content-security-policy']);
      expect(policy).not.to.contain('unsafe-inline');
      expect(policy).to.contain("frame-ancestors 'none'");
      expect(policy).to.contain("script-src 'self';");
      const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(policy)?.[1];
      expect(nonce, policy).to.be.a('string');
      expect(res.text, 'the page reads the nonce from its head').to.contain(`<head><meta property="csp-nonce" nonce="${nonce}">`);
      nonces.add(nonce!);
    }
    expect(nonces.size, 'one nonce per answer').to.equal(3);
  });

  it('caches hashed assets for a year and answers a missing asset with a plain 404', async () => {
    const asset = await request(server).get('/assets/index-abc123.js');
    expect(asset.status).to.equal(200);
    expect(asset.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    const missing = await request(server).get('/assets/missing-123.js');
    expect(missing.status).to.equal(404);
    expect(missing.text).not.to.contain('<div id="root">');
  });

  it('never answers an API path with the HTML shell', async () => {
    const res = await request(server).get('/api/v1/unknown');
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('errors.route_not_found');
  });
});
