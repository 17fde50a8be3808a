import { randomUUID } from 'node:crypto';
import { Broadcast } from '@gatehouse/core';
import { sharedTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { OidcStore } from './oidc-store.js';
import { PostgresAdapter } from './postgres-adapter.js';

/** Counts the statements a store sends from now on. */
function countStatements(store: OidcStore): { count: number } {
  const counter = { count: 0 };
  const original = store.sql.query.bind(store.sql);
  (store.sql as { query: typeof original }).query = (async (...args: Parameters<typeof original>) => {
    counter.count++;
    return original(...args);
  }) as typeof original;
  return counter;
}

describe('provider storage front (batching and token cache)', () => {
  it('serves an issued access token from memory, and forgets it on every node when it is revoked', async () => {
    const { dataSource } = await sharedTestContext();
    // Two nodes hearing each other, as through Redis.
    const broadcastA = new Broadcast();
    const broadcastB = new Broadcast();
    broadcastA.publish = ((name, payload) => {
      broadcastA['local'].emit(name, payload);
      broadcastB['local'].emit(name, payload);
    }) as Broadcast['publish'];
    const nodeA = new PostgresAdapter('AccessToken', new OidcStore(dataSource, broadcastA));
    const storeB = new OidcStore(dataSource, broadcastB);
    const nodeB = new PostgresAdapter('AccessToken', storeB);
    const id = randomUUID();
    await nodeA.upsert(id, { grantId: 'g1', accountId: 'u1' } as never, 60);
    expect(await nodeB.find(id)).to.deep.include({ accountId: 'u1' });
    expect(storeB.cached('AccessToken', id), 'node B cached what it read').to.deep.include({ accountId: 'u1' });

    await nodeA.destroy(id);
    expect(storeB.cached('AccessToken', id), 'the revocation reached node B').to.equal(undefined);
    expect(await nodeB.find(id)).to.equal(undefined);
  });

  it('answers "not found" without the database for an id cached as another model', async () => {
    const { dataSource } = await sharedTestContext();
    const store = new OidcStore(dataSource);
    const id = randomUUID();
    await new PostgresAdapter('ClientCredentials', store).upsert(id, { clientId: 'c' } as never, 60);
    let queries = 0;
    const counting = new OidcStore({ query: async (...args: Parameters<typeof store.sql.query>) => (queries++, store.sql.query(...args)) } as never);
    counting.remember('ClientCredentials', id, { clientId: 'c' } as never, Date.now() + 60_000);
    expect(await new PostgresAdapter('AccessToken', counting).find(id)).to.equal(undefined);
    expect(await new PostgresAdapter('RefreshToken', counting).find(id)).to.equal(undefined);
    expect(queries).to.equal(0);
  });

  it('writes the upserts of one tick in one statement, each caller waiting for the commit', async () => {
    const { dataSource } = await sharedTestContext();
    const store = new OidcStore(dataSource);
    const statements = countStatements(store);
    const adapter = new PostgresAdapter('Session', store);
    const ids = Array.from({ length: 25 }, () => randomUUID());
    await Promise.all(ids.map((id) => adapter.upsert(id, { uid: id } as never, 60)));
    expect(statements.count).to.equal(1);
    const [{ count }] = await dataSource.query(`SELECT count(*) FROM oidc_model_instances WHERE model = 'Session' AND id = ANY($1)`, [ids]);
    expect(Number(count)).to.equal(25);
  });

  it('redeems a refresh token written on this node without reading it back, the compare-and-set still deciding', async () => {
    const { dataSource } = await sharedTestContext();
    const store = new OidcStore(dataSource);
    const statements = countStatements(store);
    const refreshTokens = new PostgresAdapter('RefreshToken', store);
    const id = randomUUID();
    await refreshTokens.upsert(id, { grantId: randomUUID(), accountId: 'u1' } as never, 3600);
    statements.count = 0;
    expect(await refreshTokens.find(id)).to.deep.include({ accountId: 'u1' });
    expect(statements.count, 'no read').to.equal(0);
    await refreshTokens.consume(id);
    expect(statements.count, 'one compare-and-set').to.equal(1);
    expect((await refreshTokens.find(id))!.consumed, 'this node knows it is used').to.be.a('number');
    const [{ consumed }] = await dataSource.query(`SELECT consumed_at IS NOT NULL AS consumed FROM oidc_model_instances WHERE model = 'RefreshToken' AND id = $1`, [id]);
    expect(consumed).to.equal(true);
  });

  it('ends the grant when a refresh token this node holds as unused was redeemed on another node', async () => {
    const { dataSource } = await sharedTestContext();
    const nodeA = new OidcStore(dataSource);
    const nodeB = new OidcStore(dataSource);
    const grantId = randomUUID();
    const [tokenId, accessTokenId] = [randomUUID(), randomUUID()];
    await new PostgresAdapter('Grant', nodeA).upsert(grantId, { accountId: 'u1' } as never, 3600);
    await new PostgresAdapter('AccessToken', nodeA).upsert(accessTokenId, { grantId, accountId: 'u1' } as never, 600);
    await new PostgresAdapter('RefreshToken', nodeA).upsert(tokenId, { grantId, accountId: 'u1' } as never, 3600);

    // Node B redeems it; node A's copy still says "unused".
    await new PostgresAdapter('RefreshToken', nodeB).consume(tokenId);
    expect((await new PostgresAdapter('RefreshToken', nodeA).find(tokenId))!.consumed).to.equal(undefined);

    const error = await new PostgresAdapter('RefreshToken', nodeA).consume(tokenId).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as { error?: string }).error).to.equal('invalid_grant');
    const rows = await dataSource.query(`SELECT model FROM oidc_model_instances WHERE grant_id = $1 OR id = $1`, [grantId]);
    expect(rows, 'the grant and its tokens are gone').to.deep.equal([]);
    expect(await new PostgresAdapter('AccessToken', nodeA).find(accessTokenId), 'and no longer cached').to.equal(undefined);
  });

  it('ends the grant when two requests on nodes that never saw the token redeem it at the same moment', async () => {
    const { dataSource } = await sharedTestContext();
    const grantId = randomUUID();
    const tokenId = randomUUID();
    await new PostgresAdapter('RefreshToken', new OidcStore(dataSource)).upsert(tokenId, { grantId, accountId: 'u1' } as never, 3600);
    const results = await Promise.allSettled([new OidcStore(dataSource), new OidcStore(dataSource)].map((node) => new PostgresAdapter('RefreshToken', node).consume(tokenId)));
    expect(results.map((r) => r.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
    const rows = await dataSource.query(`SELECT model FROM oidc_model_instances WHERE grant_id = $1`, [grantId]);
    expect(rows, 'the grant ended').to.deep.equal([]);
  });

  it('drops a revoked grant and its tokens from the memory of every node, in one message', async () => {
    const { dataSource } = await sharedTestContext();
    const broadcastA = new Broadcast();
    const broadcastB = new Broadcast();
    const sent: unknown[] = [];
    broadcastA.publish = ((name, payload) => {
      sent.push(payload);
      broadcastA['local'].emit(name, payload);
      broadcastB['local'].emit(name, payload);
    }) as Broadcast['publish'];
    const nodeA = new OidcStore(dataSource, broadcastA);
    const nodeB = new OidcStore(dataSource, broadcastB);
    const grantId = randomUUID();
    const [accessTokenId, refreshTokenId] = [randomUUID(), randomUUID()];
    await new PostgresAdapter('AccessToken', nodeB).upsert(accessTokenId, { grantId, accountId: 'u1' } as never, 600);
    await new PostgresAdapter('RefreshToken', nodeB).upsert(refreshTokenId, { grantId, accountId: 'u1' } as never, 3600);
    await new PostgresAdapter('Grant', nodeB).upsert(grantId, { accountId: 'u1' } as never, 3600);

    await nodeA.revokeGrant(grantId);
    expect(sent).to.have.length(1);
    expect(nodeB.cached('AccessToken', accessTokenId)).to.equal(undefined);
    expect(nodeB.cached('RefreshToken', refreshTokenId)).to.equal(undefined);
    expect(nodeB.cached('Grant', grantId)).to.equal(undefined);
  });
});
