import { expect } from 'chai';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import pg from 'pg';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@gatehouse/core/testing';
import { PostgresAdapter } from './pg-adapter.js';

// The bench's durable reference must be a correct adapter, or its figures compare with nothing.
const SECRET = 'bench-secret-0123456789-abcdefghijklmno';

describe('the benchmark reference: oidc-provider with a plain PostgreSQL adapter', () => {
  let database: TestDatabase;
  let pool: pg.Pool;

  before(async () => {
    database = await createTestDatabase();
    // One connection: the embedded database is one session.
    pool = new pg.Pool({ connectionString: database.url, max: 1 });
    await PostgresAdapter.prepare(pool);
  });

  after(async () => {
    await pool.end();
    await database.drop();
  });

  const adapter = (kind: string) => new PostgresAdapter(pool, kind);

  it('answers what was saved, the last save winning, and keeps each model apart', async () => {
    await adapter('AccessToken').upsert('same-id', { jti: 'same-id', kind: 'AccessToken', scope: 'a' }, 60);
    await adapter('AccessToken').upsert('same-id', { jti: 'same-id', kind: 'AccessToken', scope: 'b' }, 60);
    await adapter('Session').upsert('same-id', { jti: 'same-id', kind: 'Session', uid: 'uid-1' }, 60);

    expect(await adapter('AccessToken').find('same-id')).to.deep.equal({ jti: 'same-id', kind: 'AccessToken', scope: 'b' });
    expect(await adapter('Session').find('same-id')).to.deep.include({ kind: 'Session' });
    expect(await adapter('RefreshToken').find('same-id')).to.equal(undefined);
  });

  it('never answers an expired entry, by id, session uid or user code', async () => {
    await adapter('Session').upsert('expired-session', { uid: 'uid-expired' }, 60);
    await adapter('DeviceCode').upsert('expired-code', { userCode: 'ABCD-EFGH' }, 60);
    expect(await adapter('Session').findByUid('uid-expired')).to.deep.equal({ uid: 'uid-expired' });
    expect(await adapter('DeviceCode').findByUserCode('ABCD-EFGH')).to.deep.equal({ userCode: 'ABCD-EFGH' });

    await pool.query(`UPDATE oidc_store SET expires_at = now() - interval '1 second' WHERE id IN ('expired-session', 'expired-code')`);

    expect(await adapter('Session').find('expired-session')).to.equal(undefined);
    expect(await adapter('Session').findByUid('uid-expired')).to.equal(undefined);
    expect(await adapter('DeviceCode').findByUserCode('ABCD-EFGH')).to.equal(undefined);
  });

  it('keeps an entry without expiry until it is destroyed', async () => {
    await adapter('Grant').upsert('forever', { accountId: 'a' });
    expect(await adapter('Grant').find('forever')).to.deep.equal({ accountId: 'a' });
    await adapter('Grant').destroy('forever');
    expect(await adapter('Grant').find('forever')).to.equal(undefined);
  });

  it('marks a consumed code, and a later save does not make it fresh again', async () => {
    await adapter('AuthorizationCode').upsert('code-1', { grantId: 'g' }, 60);
    expect(await adapter('AuthorizationCode').find('code-1')).to.not.have.property('consumed');

    await adapter('AuthorizationCode').consume('code-1');
    const consumed = await adapter('AuthorizationCode').find('code-1');
    expect(consumed?.consumed).to.be.a('number').above(0);

    await adapter('AuthorizationCode').upsert('code-1', { grantId: 'g' }, 60);
    expect((await adapter('AuthorizationCode').find('code-1'))?.consumed).to.equal(consumed?.consumed);
  });

  it("revokes a grant's entries of one model, and nothing of another grant or model", async () => {
    await adapter('RefreshToken').upsert('rt-1', { grantId: 'grant-1' }, 60);
    await adapter('RefreshToken').upsert('rt-2', { grantId: 'grant-2' }, 60);
    await adapter('AccessToken').upsert('at-1', { grantId: 'grant-1' }, 60);

    await adapter('RefreshToken').revokeByGrantId('grant-1');

    expect(await adapter('RefreshToken').find('rt-1')).to.equal(undefined);
    expect(await adapter('RefreshToken').find('rt-2')).to.deep.equal({ grantId: 'grant-2' });
    expect(await adapter('AccessToken').find('at-1')).to.deep.equal({ grantId: 'grant-1' });
  });

  it('backs a provider: a client-credentials token is stored there and introspects as active', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const provider = new Provider('http://127.0.0.1', {
      adapter: (model: string) => new PostgresAdapter(pool, model),
      jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig' }] },
      clients: [
        {
          client_id: 'bench',
          client_secret: SECRET,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
          id_token_signed_response_alg: 'ES256',
        },
      ],
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        introspection: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      },
      ttl: { ClientCredentials: 600 },
    });
    const app = provider.callback();
    const token = await request(app)
      .post('/token')
      .auth('bench', SECRET)
      .type('form')
      .send({ grant_type: 'client_credentials' });
    expect(token.status, JSON.stringify(token.body)).to.equal(200);
    const { rows } = await pool.query(`SELECT payload FROM oidc_store WHERE kind = 'ClientCredentials' AND id = $1`, [token.body.access_token]);
    expect(rows).to.have.length(1);

    const introspection = await request(app)
      .post('/token/introspection')
      .auth('bench', SECRET)
      .type('form')
      .send({ token: token.body.access_token });
    expect(introspection.body).to.include({ active: true, client_id: 'bench' });

    // Gone from the store, the token is no longer active: the provider reads the table, not a copy.
    await pool.query(`DELETE FROM oidc_store WHERE kind = 'ClientCredentials' AND id = $1`, [token.body.access_token]);
    const after = await request(app)
      .post('/token/introspection')
      .auth('bench', SECRET)
      .type('form')
      .send({ token: token.body.access_token });
    expect(after.body).to.deep.equal({ active: false });
  });
});
