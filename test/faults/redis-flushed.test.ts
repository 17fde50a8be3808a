// An operator empties Redis (FLUSHALL) under a running product. Redis holds only what may be lost
// (rate-limit counts, cache invalidations in flight): the lockout, consumed codes and refresh
// token families are kept in PostgreSQL, so none of them is forgotten.
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../support/server.js';
import { noteFigures } from './support/figures.js';
import { PASSWORD, codeAfter, faultBootstrap, redeem, refresh, signIn, signInPage, submitPassword, userinfoAccepts } from './support/flows.js';
import { OwnRedis, redisMissing } from './support/redis.js';

const SECRET = 'fault-secret-0123456789-abcdefghijklmn';
const LOCKED = 'locked@example.com';
const CODER = 'coder@example.com';
const REFRESHER = 'refresher@example.com';

describe('faults: Redis is flushed under a running product', function () {
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
      bootstrap: faultBootstrap({ users: [LOCKED, CODER, REFRESHER], workerSecret: SECRET }),
      overrides: { 'redis.url': redis.url, 'log.level': 'silent' },
    });
  });
  after(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it('keeps lockouts, consumed codes and refresh token families', async () => {
    // A locked account: five wrong passwords in a row.
    for (let attempt = 1; attempt <= 5; attempt++) await submitPassword(await signInPage(server.url), LOCKED, `Wrong-password-${attempt}!`);
    const locked = await submitPassword(await signInPage(server.url), LOCKED);
    expect(locked.status).to.equal(423);
    expect(locked.body.code).to.equal('account.locked');

    // A code redeemed once.
    const browser = await signInPage(server.url);
    const answer = await submitPassword(browser, CODER);
    const code = (await codeAfter(browser, String(answer.body.redirectTo)))!;
    const first = await redeem(server.url, code);
    expect(first.status).to.equal(200);

    // A refresh token family: the first refresh token was used once, the second is current.
    const initial = await signIn(server.url, REFRESHER);
    const rotated = await refresh(server.url, initial.refresh_token!);
    expect(rotated.status).to.equal(200);

    const keysBefore = await redis.size();
    expect(keysBefore, 'the rate limits counted in Redis').to.be.greaterThan(0);
    await redis.flush();
    expect(await redis.size()).to.equal(0);

    // The lockout stands, even for the right password.
    const stillLocked = await submitPassword(await signInPage(server.url), LOCKED, PASSWORD);
    expect(stillLocked.status, JSON.stringify(stillLocked.body)).to.equal(423);
    expect(stillLocked.body.code).to.equal('account.locked');
    // The consumed code stays consumed.
    const replayed = await redeem(server.url, code);
    expect(replayed.status).to.equal(400);
    expect(replayed.tokens.error).to.equal('invalid_grant');
    // The family goes on from its current token, and its used one stays used.
    const next = await refresh(server.url, rotated.tokens.refresh_token!);
    expect(next.status, JSON.stringify(next.tokens)).to.equal(200);
    expect(await userinfoAccepts(server.url, next.tokens.access_token!)).to.equal(true);
    const reused = await refresh(server.url, initial.refresh_token!);
    expect(reused.status).to.equal(400);
    expect(reused.tokens.error).to.equal('invalid_grant');
    // The product carries on after the flush: readiness green, a new sign-in works.
    expect((await fetch(`${server.url}/health/ready`)).status).to.equal(200);
    expect(await userinfoAccepts(server.url, (await signIn(server.url, CODER)).access_token!)).to.equal(true);

    noteFigures('Redis flushed', { keysFlushed: keysBefore, lockoutsKept: 1, consumedCodesKept: 1, refreshFamiliesKept: 1 });
  });
});
