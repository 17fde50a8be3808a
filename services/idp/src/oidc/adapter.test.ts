import { randomUUID } from 'node:crypto';
import { createTestContext, sharedTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { MemoryAdapter, type MemoryStore } from './memory-adapter.js';
import { PostgresAdapter, startSweeper, sweepExpired } from './postgres-adapter.js';

type MakeAdapter = (model: string) => Promise<Adapter>;

const isInvalidGrant = (error: unknown) =>
  error instanceof Error && (error.name === 'InvalidGrant' || (error as { error?: string }).error === 'invalid_grant');

async function consumeError(adapter: Adapter, id: string): Promise<unknown> {
  try {
    await adapter.consume(id);
  } catch (error) {
    return error;
  }
  throw new Error('consume() succeeded where it should have failed');
}

const codePayload = (extra: Partial<AdapterPayload> = {}): AdapterPayload => ({
  kind: 'AuthorizationCode',
  jti: randomUUID(),
  clientId: 'client-a',
  accountId: randomUUID(),
  scope: 'openid profile',
  grantId: randomUUID(),
  ...extra,
});

/** The behaviour oidc-provider relies on, asserted identically for every adapter. */
function adapterContract(label: string, makeAdapter: MakeAdapter): void {
  describe(`${label} adapter contract`, () => {
    let codes: Adapter;

    beforeEach(async () => {
      codes = await makeAdapter('AuthorizationCode');
    });

    it('returns the stored payload from find after upsert', async () => {
      const id = randomUUID();
      const payload = codePayload({ claims: { id_token: { email: { essential: true } } }, amr: ['pwd', 'otp'] });
      await codes.upsert(id, payload, 60);
      expect(await codes.find(id)).to.deep.equal(payload);
    });

    it('replaces the whole payload on a second upsert', async () => {
      const id = randomUUID();
      await codes.upsert(id, codePayload({ nonce: 'first' }), 60);
      const second = codePayload({ scope: 'openid' });
      await codes.upsert(id, second, 60);
      expect(await codes.find(id)).to.deep.equal(second);
    });

    it('does not let a caller change what is stored by mutating a payload', async () => {
      const id = randomUUID();
      const payload = codePayload();
      await codes.upsert(id, payload, 60);
      payload.scope = 'changed after upsert';
      (await codes.find(id))!.scope = 'changed after find';
      expect((await codes.find(id))!.scope).to.equal('openid profile');
    });

    it('finds nothing for an unknown id', async () => {
      expect(await codes.find(randomUUID())).to.equal(undefined);
    });

    it('keeps an entry saved without expiresIn', async () => {
      const id = randomUUID();
      await codes.upsert(id, codePayload());
      expect(await codes.find(id)).to.not.equal(undefined);
    });

    it('never returns an entry whose lifetime has passed', async () => {
      // A negative lifetime stores an entry that is already expired: no waiting, no clock races.
      const id = randomUUID();
      const uid = randomUUID();
      const userCode = randomUUID();
      const sessions = await makeAdapter('Session');
      const deviceCodes = await makeAdapter('DeviceCode');
      await codes.upsert(id, codePayload(), -5);
      await sessions.upsert(id, { uid, accountId: 'someone' }, -5);
      await deviceCodes.upsert(id, { userCode, grantId: randomUUID() }, -5);
      expect(await codes.find(id)).to.equal(undefined);
      expect(await sessions.findByUid(uid)).to.equal(undefined);
      expect(await deviceCodes.findByUserCode(userCode)).to.equal(undefined);
      expect(isInvalidGrant(await consumeError(codes, id))).to.equal(true);
    });

    it('finds a session by its uid', async () => {
      const sessions = await makeAdapter('Session');
      const id = randomUUID();
      const uid = randomUUID();
      const payload: AdapterPayload = { jti: id, uid, accountId: 'someone', loginTs: 1_700_000_000, kind: 'Session' };
      await sessions.upsert(id, payload, 3600);
      await sessions.upsert(randomUUID(), { uid: randomUUID(), kind: 'Session' }, 3600);
      expect(await sessions.findByUid(uid)).to.deep.equal(payload);
      expect(await sessions.findByUid(randomUUID())).to.equal(undefined);
    });

    it('finds a device code by its user code', async () => {
      const deviceCodes = await makeAdapter('DeviceCode');
      const id = randomUUID();
      const userCode = `ABCD-${randomUUID().slice(0, 4)}`;
      const payload: AdapterPayload = { jti: id, userCode, clientId: 'tv', grantId: randomUUID(), kind: 'DeviceCode' };
      await deviceCodes.upsert(id, payload, 600);
      expect(await deviceCodes.findByUserCode(userCode)).to.deep.equal(payload);
      expect(await deviceCodes.findByUserCode('ZZZZ-ZZZZ')).to.equal(undefined);
    });

    it('marks an entry consumed, in epoch seconds, and refuses to consume it twice', async () => {
      const id = randomUUID();
      await codes.upsert(id, codePayload(), 60);
      expect((await codes.find(id))!.consumed).to.equal(undefined);

      const before = Math.floor(Date.now() / 1000);
      await codes.consume(id);
      const consumed = (await codes.find(id))!.consumed as number;
      expect(consumed).to.be.a('number').within(before - 1, Math.ceil(Date.now() / 1000) + 1);

      const error = await consumeError(codes, id);
      expect(isInvalidGrant(error), String(error)).to.equal(true);
      expect(await codes.find(id), 'the loser does not destroy the entry').to.not.equal(undefined);
    });

    it('refuses to consume an entry that does not exist', async () => {
      expect(isInvalidGrant(await consumeError(codes, randomUUID()))).to.equal(true);
    });

    it('lets exactly one of 20 concurrent consumes of the same entry win', async () => {
      const id = randomUUID();
      await codes.upsert(id, codePayload(), 60);
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => codes.consume(id)));
      const won = results.filter((result) => result.status === 'fulfilled');
      const lost = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
      expect(won).to.have.length(1);
      expect(lost).to.have.length(19);
      expect(lost.every((result) => isInvalidGrant(result.reason)), String(lost[0]?.reason)).to.equal(true);
    });

    it('keeps a consumed entry consumed when it is saved again', async () => {
      const id = randomUUID();
      const payload = codePayload();
      await codes.upsert(id, payload, 60);
      await codes.consume(id);
      await codes.upsert(id, payload, 60);
      expect((await codes.find(id))!.consumed).to.be.a('number');
      expect(isInvalidGrant(await consumeError(codes, id))).to.equal(true);
    });

    it('forgets a destroyed entry', async () => {
      const id = randomUUID();
      const other = randomUUID();
      await codes.upsert(id, codePayload(), 60);
      await codes.upsert(other, codePayload(), 60);
      await codes.destroy(id);
      expect(await codes.find(id)).to.equal(undefined);
      expect(await codes.find(other)).to.not.equal(undefined);
    });

    it("revokes only the grant's entries of its own model", async () => {
      const refreshTokens = await makeAdapter('RefreshToken');
      const grantId = randomUUID();
      const otherGrantId = randomUUID();
      const [first, second, otherGrant, sameGrantOtherModel] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await codes.upsert(first, codePayload({ grantId }), 60);
      await codes.upsert(second, codePayload({ grantId }), 60);
      await codes.upsert(otherGrant, codePayload({ grantId: otherGrantId }), 60);
      await refreshTokens.upsert(sameGrantOtherModel, { kind: 'RefreshToken', grantId }, 3600);

      await codes.revokeByGrantId(grantId);

      expect(await codes.find(first)).to.equal(undefined);
      expect(await codes.find(second)).to.equal(undefined);
      expect(await codes.find(otherGrant)).to.not.equal(undefined);
      expect(await refreshTokens.find(sameGrantOtherModel)).to.not.equal(undefined);
    });

    it('keeps models apart when they share an id', async () => {
      const refreshTokens = await makeAdapter('RefreshToken');
      const id = randomUUID();
      await codes.upsert(id, codePayload({ kind: 'AuthorizationCode' }), 60);
      await refreshTokens.upsert(id, { kind: 'RefreshToken', grantId: randomUUID() }, 3600);

      await codes.consume(id);
      expect((await refreshTokens.find(id))!.consumed).to.equal(undefined);
      await refreshTokens.destroy(id);
      expect((await codes.find(id))!.kind).to.equal('AuthorizationCode');
      expect(await refreshTokens.find(id)).to.equal(undefined);
    });
  });
}

const store: MemoryStore = new Map();
adapterContract('in-memory', async (model) => new MemoryAdapter(model, store));

adapterContract('PostgreSQL', async (model) => new PostgresAdapter(model, (await sharedTestContext()).dataSource));

describe('PostgreSQL adapter storage', () => {
  let db: DataSource;

  before(async () => {
    db = (await sharedTestContext()).dataSource;
  });

  const insertRow = (id: string, expiresAt: string, model = 'AccessToken') =>
    db.query(
      `INSERT INTO oidc_model_instances (model, id, payload, expires_at) VALUES ($1, $2, '{"kind":"AccessToken"}', now() + $3::interval)`,
      [model, id, expiresAt],
    );

  it('copies grantId, userCode and uid into their indexed columns', async () => {
    const id = randomUUID();
    const payload = { grantId: randomUUID(), userCode: 'WXYZ-1234', uid: randomUUID() };
    await new PostgresAdapter('DeviceCode', db).upsert(id, payload, 600);
    const [row] = await db.query(
      `SELECT grant_id, user_code, uid, expires_at > now() + interval '590 seconds' AS expiry_ok FROM oidc_model_instances WHERE model = 'DeviceCode' AND id = $1`,
      [id],
    );
    expect(row).to.deep.equal({ grant_id: payload.grantId, user_code: 'WXYZ-1234', uid: payload.uid, expiry_ok: true });
  });

  it('does not return a row past its expiry that the sweeper has not deleted yet', async () => {
    const id = randomUUID();
    await insertRow(id, '-1 second');
    expect(await new PostgresAdapter('AccessToken', db).find(id)).to.equal(undefined);
  });
});

describe('sweeping expired OIDC artefacts', () => {
  // Its own database: the count it returns must not include what other suites left behind.
  let db: DataSource;

  before(async () => {
    db = (await createTestContext()).dataSource;
  });

  const insertRows = (ids: string[], expiresAt: string | null) =>
    db.query(
      `INSERT INTO oidc_model_instances (model, id, payload, expires_at)
       SELECT 'AccessToken', id, '{}'::jsonb, now() + $2::interval FROM unnest($1::varchar[]) AS id`,
      [ids, expiresAt],
    );
  const remaining = async (ids: string[]) =>
    (await db.query(`SELECT id FROM oidc_model_instances WHERE id = ANY($1::varchar[])`, [ids])).map((row: { id: string }) => row.id);

  it('deletes only expired rows, in batches, and returns how many it deleted', async () => {
    const expired = Array.from({ length: 25 }, () => randomUUID());
    const live = Array.from({ length: 5 }, () => randomUUID());
    const forever = [randomUUID()];
    await insertRows(expired, '-1 minute');
    await insertRows(live, '1 hour');
    await insertRows(forever, null);

    expect(await sweepExpired(db, { batchSize: 10 })).to.equal(25);
    expect(await remaining(expired)).to.deep.equal([]);
    expect((await remaining([...live, ...forever])).sort()).to.deep.equal([...live, ...forever].sort());
    expect(await sweepExpired(db)).to.equal(0);
  });

  it('sweeps periodically and logs failures instead of throwing', async () => {
    const id = randomUUID();
    await insertRows([id], '-1 minute');
    const warnings: unknown[] = [];
    const logger = { info: () => undefined, warn: (object: object) => void warnings.push(object) };

    const sweeper = startSweeper(db, { intervalMs: 10, logger });
    const failing = startSweeper({ query: () => Promise.reject(new Error('database is down')) }, { intervalMs: 10, logger });
    try {
      const deadline = Date.now() + 5000;
      while (((await remaining([id])).length > 0 || warnings.length === 0) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      sweeper.stop();
      failing.stop();
    }
    expect(await remaining([id])).to.deep.equal([]);
    expect(warnings[0]).to.deep.equal({ err: 'database is down' });
  });
});
