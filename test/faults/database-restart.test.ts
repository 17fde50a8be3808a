// The embedded database's thread dies under load on /token and is started again: the provider
// answers 503 temporarily_unavailable (with Retry-After) meanwhile, never a 500 or a hang, issues
// tokens again within 10 s of the crash, and every token it answered 200 for stays valid afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../services/core/src/db/embedded.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { noteFigures } from './support/figures.js';

const SECRET = 'fault-secret-0123456789-abcdefghijklmn';
const basic = `Basic ${Buffer.from(`worker:${SECRET}`).toString('base64')}`;
const form = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };
/** The promise: tokens again within 10 s (the embedded database starts again by itself). */
const RECOVERY_WITHIN_MS = 10_000;

describe('faults: the embedded database restarts under load on /token', function () {
  this.timeout(180_000);
  let dir: string;
  let db: EmbeddedPostgres;
  let server: TestServer;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-fault-'));
    db = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), maxConnections: 30 });
    server = await startTestServer({
      database: { url: db.url, drop: () => db.stop() },
      bootstrap: `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity, type: public, roles: [{ name: God }, { name: Administrator }] }
  - { id: worker, name: worker, displayName: Worker, type: confidential, secret: '${SECRET}', grantTypes: [client_credentials] }
`,
      overrides: { 'log.level': 'silent' },
    });
  });

  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const token = () =>
    fetch(`${server.url}/oidc/token`, { method: 'POST', headers: form, body: 'grant_type=client_credentials', signal: AbortSignal.timeout(10_000) });
  const introspect = async (accessToken: string) =>
    (await (await fetch(`${server.url}/oidc/token/introspection`, { method: 'POST', headers: form, body: new URLSearchParams({ token: accessToken }) })).json()) as { active: boolean };

  it('answers 503 temporarily_unavailable while it is down, 200 once it is back, and the tokens answered 200 stay valid', async () => {
    const issued: string[] = [];
    const statuses = new Map<number, number>();
    const unavailable: Array<{ body: unknown; retryAfter: string | null }> = [];
    let running = true;
    const load = Array.from({ length: 8 }, async () => {
      while (running) {
        const res = await token();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const body = (await res.json()) as { access_token?: string };
        if (res.status === 200) issued.push(body.access_token!);
        if (res.status === 503) unavailable.push({ body, retryAfter: res.headers.get('retry-after') });
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = issued.length;
    const crashedAt = Date.now();
    await db.crash();
    // Until the database is back and answering again.
    const deadline = Date.now() + 60_000;
    while (db.restarts === 0 || (await token()).status !== 200) {
      if (Date.now() > deadline) throw new Error('the database did not come back within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const recoveryMs = Date.now() - crashedAt;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    running = false;
    await Promise.all(load);

    expect(before, 'tokens were issued before the crash').to.be.greaterThan(0);
    expect([...statuses.keys()].sort(), `answers: ${JSON.stringify([...statuses])}`).to.satisfy((codes: number[]) => codes.every((code) => code === 200 || code === 503));
    expect(statuses.get(503) ?? 0, 'the outage was seen').to.be.greaterThan(0);
    expect(unavailable[0]).to.deep.include({ retryAfter: '1' });
    expect(unavailable[0]!.body).to.include({ error: 'temporarily_unavailable' });
    expect(issued.length, 'tokens were issued after the restart').to.be.greaterThan(before);
    expect(recoveryMs, 'tokens again within 10 s of the crash').to.be.at.most(RECOVERY_WITHIN_MS);
    // Every token answered 200, before or after, is still valid.
    const sample = [...issued.slice(0, 5), ...issued.slice(-5)];
    for (const accessToken of sample) expect((await introspect(accessToken)).active).to.equal(true);
    noteFigures('embedded database restarted', { tokens: issued.length, unavailable503: statuses.get(503) ?? 0, recoveryMs });
  });
});
