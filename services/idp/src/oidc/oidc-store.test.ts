import { randomUUID } from 'node:crypto';
import { Broadcast } from '@gatehouse/core';
import { sharedTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { OidcStore } from './oidc-store.js';
import { PostgresAdapter } from './postgres-adapter.js';

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
    let statements = 0;
    const original = store.sql.query.bind(store.sql);
    (store.sql as { query: typeof original }).query = (async (...args: Parameters<typeof original>) => {
      statements++;
      return original(...args);
    }) as typeof original;
    const adapter = new PostgresAdapter('Session', store);
    const ids = Array.from({ length: 25 }, () => randomUUID());
    await Promise.all(ids.map((id) => adapter.upsert(id, { uid: id } as never, 60)));
    expect(statements).to.equal(1);
    const [{ count }] = await dataSource.query(`SELECT count(*) FROM oidc_model_instances WHERE model = 'Session' AND id = ANY($1)`, [ids]);
    expect(Number(count)).to.equal(25);
  });
});
