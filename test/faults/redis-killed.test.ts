// Redis dies (SIGKILL) while sign-ins are under way, then comes back. Nothing a sign-in needs lives
// only in Redis (interactions, sessions, codes and the lockout are in PostgreSQL; the rate limits
// count in memory meanwhile), so the sign-ins under way finish, a wrong password is still refused
// and counted, no tokens come out of a refused one, readiness turns red within 5 s and green again
// within 5 s of Redis answering again.
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../support/server.js';
import { noteFigures } from './support/figures.js';
import { authorizePath, codeAfter, faultBootstrap, redeem, signIn, signInPage, since, submitPassword, userinfoAccepts, waitUntil } from './support/flows.js';
import { OwnRedis, redisMissing } from './support/redis.js';

const SECRET = 'fault-secret-0123456789-abcdefghijklmn';
const WALKERS = Array.from({ length: 6 }, (_, i) => `walker${i}@example.com`);
const GUESSED = 'guessed@example.com';
const LATE = 'late@example.com';
/** The promises: readiness red within 5 s of Redis dying, green within 5 s of it answering again. */
const RED_WITHIN_MS = 5000;
const GREEN_WITHIN_MS = 5000;

describe('faults: Redis is killed in the middle of sign-ins', function () {
  const missing = redisMissing();
  if (missing) {
    it(`is pending: ${missing}`);
    return;
  }
  this.timeout(120_000);
  let redis: OwnRedis;
  let server: TestServer;

  before(async () => {
    redis = await OwnRedis.start();
    server = await startTestServer({
      bootstrap: faultBootstrap({ users: [...WALKERS, GUESSED, LATE], workerSecret: SECRET }),
      overrides: { 'redis.url': redis.url, 'log.level': 'silent' },
    });
  });
  after(async () => {
    await server?.stop();
    await redis?.stop();
  });

  const readiness = async () => {
    const res = await fetch(`${server.url}/health/ready`);
    return { status: res.status, body: (await res.json()) as { checks: Record<string, string> } };
  };
  const failedAttempts = async (userName: string) =>
    Number(((await server.server.context.dataSource.query('SELECT failed_attempts FROM users WHERE normalized_user_name = $1', [userName])) as Array<{ failed_attempts: number }>)[0]!.failed_attempts);

  it('finishes the sign-ins under way, refuses a wrong password without tokens, and reports readiness red within 5 s and green within 5 s of its return', async () => {
    const before = await readiness();
    expect(before.status).to.equal(200);
    expect(before.body.checks.redis).to.equal('ok');

    // Six users and one guesser at the sign-in page; their passwords are on their way when Redis dies.
    const browsers = await Promise.all(WALKERS.map(() => signInPage(server.url)));
    const guesser = await signInPage(server.url);
    const answers = Promise.all(browsers.map((browser, i) => submitPassword(browser, WALKERS[i]!)));
    const guess = submitPassword(guesser, GUESSED, 'Wrong-password-1!');
    const killedAt = Date.now();
    await redis.kill();
    const redMs = await waitUntil('readiness red', async () => (await readiness()).status === 503, 30_000).then(() => since(killedAt));
    expect((await readiness()).body.checks.redis).to.match(/^unavailable/);
    expect(redMs, 'readiness turned red within 5 s of Redis dying').to.be.at.most(RED_WITHIN_MS);

    // The sign-ins under way finish: a code, tokens, accepted by userinfo.
    for (const [i, answer] of (await answers).entries()) {
      expect(answer.status, `${WALKERS[i]}: ${JSON.stringify(answer.body)}`).to.equal(200);
      const code = await codeAfter(browsers[i]!, String(answer.body.redirectTo));
      expect(code, WALKERS[i]).to.be.a('string');
      const { status, tokens } = await redeem(server.url, code!);
      expect(status, JSON.stringify(tokens)).to.equal(200);
      expect(await userinfoAccepts(server.url, tokens.access_token!)).to.equal(true);
    }
    // The wrong password is refused, counted in the lockout, and its interaction gives no code.
    const refused = await guess;
    expect(refused.status).to.equal(401);
    expect(refused.body).to.include({ code: 'account.invalid_credentials', redirectTo: null });
    expect(await codeAfter(guesser, authorizePath(server.url)), 'no code for the refused sign-in').to.equal(undefined);

    // While Redis is down: a sign-in started afresh completes, a second wrong password still counts.
    const startedDuringOutage = Date.now();
    const late = await signIn(server.url, LATE);
    const signInDuringOutageMs = since(startedDuringOutage);
    expect(await userinfoAccepts(server.url, late.access_token!)).to.equal(true);
    const again = await submitPassword(await signInPage(server.url), GUESSED, 'Wrong-password-2!');
    expect(again.body).to.include({ code: 'account.invalid_credentials', attemptsLeft: 3 });
    expect(await failedAttempts(GUESSED), 'both wrong passwords counted in PostgreSQL').to.equal(2);
    expect((await readiness()).status, 'still red while Redis is down').to.equal(503);

    // Redis answers again on the same port: readiness is green within 5 s, and the limits count there again.
    await redis.start();
    const backAt = Date.now();
    const greenMs = await waitUntil('readiness green', async () => (await readiness()).status === 200, 30_000).then(() => since(backAt));
    expect(greenMs, 'readiness turned green within 5 s of Redis returning').to.be.at.most(GREEN_WITHIN_MS);
    expect(await redis.size(), 'the new Redis starts empty').to.equal(0);
    await submitPassword(await signInPage(server.url), GUESSED, 'Wrong-password-3!');
    expect(await redis.size(), 'the rate limits count in Redis again').to.be.greaterThan(0);

    noteFigures('Redis killed', { readinessRedMs: redMs, readinessGreenMs: greenMs, signInsFinished: WALKERS.length, signInDuringOutageMs });
  });
});
