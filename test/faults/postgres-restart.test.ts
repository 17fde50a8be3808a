// A real PostgreSQL server (a cluster of the test's own) stops as a crash would and starts again
// while eight clients hammer /token: meanwhile the provider answers 503 temporarily_unavailable
// with Retry-After, each at once, never a 500, a hang or a crash; it issues tokens again within
// 10 s of the server accepting connections; and every token it answered 200 for stays valid.
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../support/server.js';
import { noteFigures } from './support/figures.js';
import { faultBootstrap, since } from './support/flows.js';
import { OwnPostgres, postgresMissing } from './support/postgres.js';

const SECRET = 'fault-secret-0123456789-abcdefghijklmn';
const basic = `Basic ${Buffer.from(`worker:${SECRET}`).toString('base64')}`;
const form = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };
/** The product's bound on waiting for a connection: no answer during the outage may take longer. */
const CONNECT_TIMEOUT_MS = 5000;
/** The promise: tokens again within 10 s of PostgreSQL accepting connections. */
const RECOVERY_WITHIN_MS = 10_000;
const DOWN_MS = 2000;

interface Answer {
  status: number;
  ms: number;
  at: number;
  body: { access_token?: string; error?: string };
  retryAfter: string | null;
}

describe('faults: PostgreSQL restarts under load on /token', function () {
  const missing = postgresMissing();
  if (missing) {
    it(`is pending: ${missing}`);
    return;
  }
  this.timeout(180_000);
  let cluster: OwnPostgres;
  let server: TestServer;

  before(async () => {
    cluster = await OwnPostgres.start();
    server = await startTestServer({
      database: { url: cluster.url, drop: () => Promise.resolve() },
      bootstrap: faultBootstrap({ users: [], workerSecret: SECRET }),
      overrides: { 'log.level': 'silent', 'database.connectTimeoutMs': CONNECT_TIMEOUT_MS },
    });
  });
  after(async () => {
    await server?.stop();
    await cluster?.stop();
  });

  const token = async (): Promise<Answer> => {
    const start = Date.now();
    const res = await fetch(`${server.url}/oidc/token`, { method: 'POST', headers: form, body: 'grant_type=client_credentials', signal: AbortSignal.timeout(60_000) });
    return { status: res.status, ms: since(start), at: Date.now(), body: (await res.json()) as Answer['body'], retryAfter: res.headers.get('retry-after') };
  };

  it('answers fast 503s while it is down, issues tokens within 10 s of its return, and keeps every token answered 200 valid', async () => {
    const answers: Answer[] = [];
    const failures: string[] = [];
    let running = true;
    const load = Array.from({ length: 8 }, async () => {
      while (running) {
        try {
          answers.push(await token());
        } catch (error) {
          failures.push(String((error as Error).cause ?? error));
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const stoppedAt = Date.now();
    const { upAt } = await cluster.restart(DOWN_MS);
    // Until the first token after the server is back, then a second more of load.
    while (!answers.some((a) => a.status === 200 && a.at > upAt)) {
      if (since(upAt) > 60_000) throw new Error('no token within 60 s of PostgreSQL accepting connections');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const recoveryMs = Math.min(...answers.filter((a) => a.status === 200 && a.at > upAt).map((a) => a.at)) - upAt;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    running = false;
    await Promise.all(load);

    expect(failures, 'every request was answered').to.deep.equal([]);
    const unavailable = answers.filter((a) => a.status === 503);
    const others = answers.filter((a) => a.status !== 200 && a.status !== 503);
    expect(others.map((a) => `${a.status} ${JSON.stringify(a.body)}`), 'only 200 and 503').to.deep.equal([]);
    expect(unavailable.length, 'the outage was seen').to.be.greaterThan(0);
    for (const a of unavailable) {
      expect(a.body.error).to.equal('temporarily_unavailable');
      expect(a.retryAfter).to.equal('1');
    }
    const slowest503 = Math.max(...unavailable.map((a) => a.ms));
    expect(slowest503, 'no 503 waited longer than the connection bound').to.be.below(CONNECT_TIMEOUT_MS);
    expect(recoveryMs, 'tokens again within 10 s of PostgreSQL accepting connections').to.be.at.most(RECOVERY_WITHIN_MS);

    // Every token answered 200, before and after the restart, is stored and valid.
    const issued = answers.filter((a) => a.status === 200).map((a) => a.body.access_token!);
    expect(issued.filter((t) => answers.find((a) => a.body.access_token === t)!.at < stoppedAt).length, 'tokens before the restart').to.be.greaterThan(0);
    const [{ stored }] = (await server.server.context.dataSource.query(
      `SELECT count(*)::int AS stored FROM oidc_model_instances WHERE model = 'ClientCredentials' AND id = ANY($1) AND expires_at > now()`,
      [issued],
    )) as Array<{ stored: number }>;
    expect(stored, 'every token answered 200 is stored').to.equal(issued.length);
    for (const accessToken of [...issued.slice(0, 10), ...issued.slice(-10)]) {
      const res = await fetch(`${server.url}/oidc/token/introspection`, { method: 'POST', headers: form, body: new URLSearchParams({ token: accessToken }) });
      expect(((await res.json()) as { active: boolean }).active).to.equal(true);
    }

    noteFigures('PostgreSQL restarted', {
      requests: answers.length,
      tokens: issued.length,
      unavailable503: unavailable.length,
      slowest503Ms: slowest503,
      downMs: upAt - stoppedAt,
      recoveryMs,
    });
  });
});
