// The product (launcher and its embedded database, as `npm start` runs them) is killed with SIGKILL
// while 50 token requests are under way, then started again on the same data: the signing keys,
// the user's session, grant and refresh token, and every token answered 200 before the kill are
// all still there.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { Browser } from '../support/browser.js';
import { freePort } from '../support/server.js';
import { noteFigures } from './support/figures.js';
import { authorizePath, faultBootstrap, redeem, refresh, signIn, since, userinfoAccepts } from './support/flows.js';
import { endProcess, startProductProcess, type ProductProcess } from './support/product.js';

const SECRET = 'fault-secret-0123456789-abcdefghijklmn';
const basic = `Basic ${Buffer.from(`worker:${SECRET}`).toString('base64')}`;
const form = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };
const PARALLEL = 50;

describe('faults: the product is killed (SIGKILL) during 50 parallel token requests', function () {
  this.timeout(300_000);
  let dir: string;
  let port: number;
  let env: Record<string, string>;
  let product: ProductProcess | undefined;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-fault-kill-'));
    port = await freePort();
    writeFileSync(path.join(dir, 'bootstrap.yaml'), faultBootstrap({ users: ['keeper@example.com'], workerSecret: SECRET, url: `http://127.0.0.1:${port}` }));
    env = {
      DATA_DIR: path.join(dir, 'data'),
      IDP_BOOTSTRAP: path.join(dir, 'bootstrap.yaml'),
      IDP_ADMIN_PASSWORD: 'Admin-password-123!',
      IDP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    };
    product = await startProductProcess(port, env);
  });
  after(async () => {
    await endProcess(product);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the signing keys, the session and every token it answered 200 for', async () => {
    const url = product!.url;
    const jwks = async () => (await (await fetch(`${url}/oidc/jwks`)).json()) as JSONWebKeySet;
    const keysBefore = await jwks();
    const browser = new Browser(url);
    const user = (await signIn(url, 'keeper@example.com', browser)) as { access_token: string; refresh_token: string; id_token: string };

    // Fifty clients each asking for a token again and again: fifty requests are under way at any moment.
    const answered: string[] = [];
    const cut: string[] = [];
    const clients = Array.from({ length: PARALLEL }, async () => {
      for (;;) {
        let answer: { status: number; body: { access_token?: string } };
        try {
          const res = await fetch(`${url}/oidc/token`, { method: 'POST', headers: form, body: 'grant_type=client_credentials' });
          answer = { status: res.status, body: (await res.json()) as { access_token?: string } };
        } catch (error) {
          // Refused, or cut before the whole answer came: nothing was answered.
          cut.push(String((error as Error).cause ?? error));
          return;
        }
        if (answer.status !== 200) throw new Error(`a token request answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        answered.push(answer.body.access_token!);
      }
    });
    while (answered.length < 2 * PARALLEL) await new Promise((resolve) => setTimeout(resolve, 1));
    product!.kill('SIGKILL');
    expect(await product!.exited).to.deep.equal({ code: null, signal: 'SIGKILL' });
    await Promise.all(clients);
    expect(cut.length, 'every client stopped at the kill, after nothing but 200s').to.equal(PARALLEL);

    const restartedAt = Date.now();
    product = await startProductProcess(port, env);
    const restartMs = since(restartedAt);

    // The same signing keys: the ID token signed before the kill verifies against today's set.
    const keysAfter = await jwks();
    expect(keysAfter.keys.map((k) => k.kid)).to.deep.equal(keysBefore.keys.map((k) => k.kid));
    await jwtVerify(user.id_token, createLocalJWKSet(keysAfter), { issuer: `${url}/oidc`, audience: 'spa' });
    // Every token answered 200 before the kill is still active.
    for (const accessToken of answered) {
      const res = await fetch(`${url}/oidc/token/introspection`, { method: 'POST', headers: form, body: new URLSearchParams({ token: accessToken }) });
      expect(((await res.json()) as { active: boolean }).active, 'a token answered 200 before the kill').to.equal(true);
    }
    // The user's tokens, grant and session.
    expect(await userinfoAccepts(url, user.access_token)).to.equal(true);
    const renewed = await refresh(url, user.refresh_token);
    expect(renewed.status, JSON.stringify(renewed.tokens)).to.equal(200);
    const again = await browser.get(authorizePath(url));
    const callback = new URL(again.headers.get('location') ?? '', url);
    expect(callback.pathname, 'signed in still: straight back to the application').to.equal('/spa/callback');
    expect((await redeem(url, callback.searchParams.get('code')!)).status).to.equal(200);

    noteFigures('SIGKILL', { parallel: PARALLEL, answeredBeforeKill: answered.length, cutByKill: cut.length, activeAfterRestart: answered.length, restartMs });
  });
});
