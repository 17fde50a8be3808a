import { expect } from 'chai';
import { migrations } from '@gatehouse/migrations';
import { createTestContext } from '../testing/index.js';

async function publicTables(query: (sql: string) => Promise<Array<{ table_name: string }>>) {
  const rows = await query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`);
  return rows.map((r) => r.table_name).filter((t) => t !== 'migrations');
}

describe('migrations', () => {
  it('run up, down and up again on an empty database, and match the entities exactly', async () => {
    const context = await createTestContext({ migrate: false });
    const ds = context.dataSource;
    const query = (sql: string) => ds.query(sql);

    const up = await ds.runMigrations();
    expect(up.map((m) => m.name)).to.deep.equal(migrations.map((m) => m.name));
    const tables = await publicTables(query);
    expect(tables).to.include.members(['users', 'tenants', 'tenant_members', 'oidc_model_instances', 'signing_keys', 'mail_outbox']);
    expect(tables).to.include('bootstrap_state');
    expect(tables).to.include('user_avatars');
    expect(tables).to.include('stored_files');
    expect(tables).to.include('impersonations');
    expect(tables).to.include('external_api_idempotency_keys');
    expect(tables).to.include('application_user_blocks');
    expect(tables).to.include.members(['user_passkeys', 'webauthn_challenges', 'user_recovery_codes', 'user_sessions']);
    expect(tables).to.include('application_exchange_audiences');
    expect(tables).to.include.members(['webhook_endpoints', 'webhook_events', 'webhook_deliveries']);
    expect(tables).to.include.members(['scim_tokens', 'scim_users', 'scim_groups']);
    expect(tables).to.include('application_saml_settings');
    expect(tables).to.have.length(51);

    const drift = await ds.driver.createSchemaBuilder().log();
    expect(drift.upQueries.map((q) => q.query), 'entities and migrations describe the same schema').to.deep.equal([]);

    for (let i = 0; i < migrations.length; i++) await ds.undoLastMigration();
    expect(await publicTables(query)).to.deep.equal([]);

    await ds.runMigrations();
    expect(await publicTables(query)).to.deep.equal(tables);
    expect((await ds.driver.createSchemaBuilder().log()).upQueries).to.have.length(0);
  });

  it('index every log table by date for range queries', async () => {
    const context = await createTestContext();
    const rows: Array<{ tablename: string; indexdef: string }> = await context.dataSource.query(
      `SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename LIKE '%_logs'`,
    );
    for (const table of ['authentication_logs', 'system_logs', 'session_logs', 'external_api_access_logs']) {
      expect(rows.some((r) => r.tablename === table && /\(date\)/.test(r.indexdef)), `${table} has a date index`).to.equal(true);
    }
  });
});
