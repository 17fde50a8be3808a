// SIGTERM reaches the product (launcher and its embedded database, as `npm start` runs them) while
// 200 sign-ins are under way: it stops taking connections, answers every request it had taken,
// none with a 5xx, and ends within 10 s. What those sign-ins did was recorded: once the product
// is started again, each of them finishes with its tokens.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../support/server.js';
import { noteFigures } from './support/figures.js';
import { codeAfter, faultBootstrap, redeem, signInPage, since, submitPassword, type Answer } from './support/flows.js';
import { endProcess, startProductProcess, type ProductProcess } from './support/product.js';

const SECRET = 'fault-secret-0123456789-abcdefghijklmn';
const USERS = Array.from({ length: 200 }, (_, i) => `user${i}@example.com`);
/** The promise: drained and ended within 10 s of SIGTERM. */
const DRAIN_WITHIN_MS = 10_000;

describe('faults: SIGTERM during 200 concurrent sign-ins', function () {
  this.timeout(300_000);
  let dir: string;
  let port: number;
  let env: Record<string, string>;
  let product: ProductProcess | undefined;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-fault-term-'));
    port = await freePort();
    writeFileSync(path.join(dir, 'bootstrap.yaml'), faultBootstrap({ users: USERS, workerSecret: SECRET, url: `http://127.0.0.1:${port}` }));
    env = {
      DATA_DIR: path.join(dir, 'data'),
      IDP_BOOTSTRAP: path.join(dir, 'bootstrap.yaml'),
      IDP_ADMIN_PASSWORD: 'Admin-password-123!',
      IDP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // Every sign-in comes from one address and waits for its password check: no limit refuses any.
      SIGN_IN_RATE_LIMIT: '1000000',
      HASH_QUEUE_LIMIT: '1000',
    };
    product = await startProductProcess(port, env);
  });
  after(async () => {
    await endProcess(product);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every sign-in it had taken, none with a 5xx, ends within 10 s, and the sign-ins finish after a restart', async () => {
    const url = product!.url;
    const browsers = await Promise.all(USERS.map(() => signInPage(url)));
    let terminatedAt = 0;
    const answers: Array<Answer & { afterTerm: boolean }> = [];
    const failures: string[] = [];
    const logins = browsers.map(async (browser, i) => {
      try {
        const answer = await submitPassword(browser, USERS[i]!);
        answers[i] = { ...answer, afterTerm: terminatedAt > 0 };
      } catch (error) {
        failures.push(`${USERS[i]}: ${String((error as Error).cause ?? error)}`);
      }
    });
    // SIGTERM once a tenth of the sign-ins are answered: the others are under way.
    while (answers.filter(Boolean).length < USERS.length / 10) await new Promise((resolve) => setTimeout(resolve, 1));
    terminatedAt = Date.now();
    product!.kill('SIGTERM');
    const exit = await product!.exited;
    const drainMs = since(terminatedAt);
    await Promise.all(logins);

    expect(exit, 'a clean exit').to.deep.equal({ code: 0, signal: null });
    expect(drainMs, 'drained and ended within 10 s of SIGTERM').to.be.at.most(DRAIN_WITHIN_MS);
    expect(failures, 'every sign-in taken was answered').to.deep.equal([]);
    const serverErrors = answers.filter((a) => a.status >= 500);
    expect(serverErrors.map((a) => JSON.stringify(a.body)), 'no 5xx').to.deep.equal([]);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    const answeredAfterTerm = answers.filter((a) => a.afterTerm).length;
    expect(answeredAfterTerm, 'sign-ins were under way at SIGTERM').to.be.greaterThan(0);

    // Started again on the same data, every one of those sign-ins finishes with its tokens.
    product = await startProductProcess(port, env);
    for (const [i, answer] of answers.entries()) {
      const code = await codeAfter(browsers[i]!, String(answer.body.redirectTo));
      expect(code, USERS[i]).to.be.a('string');
      expect((await redeem(url, code!)).status, USERS[i]).to.equal(200);
    }

    noteFigures('SIGTERM', { signIns: USERS.length, answeredBeforeTerm: USERS.length - answeredAfterTerm, answeredDuringDrain: answeredAfterTerm, drainMs, serverErrors: serverErrors.length });
  });
});
