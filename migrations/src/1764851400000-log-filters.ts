import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the Logs page's filters, each within a date range and newest first:
 *
 * - b-trees `(filter, date)` for the equality filters the first schema did not cover: a user id
 *   (authentication and system logs), the provider, a session's tenant, the caller's address;
 * - trigram GIN indexes for the user-name search of every tab (`ILIKE '%term%'`), and for the
 *   system log's text search inside its metadata;
 * - the system log's "about this user" and "about this tenant" filters, read from its metadata.
 *
 * The GIN and metadata indexes are expression indexes (`user_name::text`, `metadata::text`,
 * `metadata->>…`): TypeORM's entity/schema comparison leaves those alone, as it cannot describe
 * them. The queries of the admin API's logs feature (features/logs/repository.ts) repeat these
 * expressions exactly, as the planner requires; its tests check that they are used.
 */
const TRIGRAM_TABLES = ['authentication_logs', 'system_logs', 'session_logs', 'external_api_access_logs'];

/** The metadata keys naming the user a system log row is about (users, group members, application owners). */
const SYSTEM_LOG_SUBJECT_USERS = `(ARRAY[metadata->>'targetUserId', metadata->>'memberId', metadata->>'ownerId'])`;

const BTREES: Array<[name: string, table: string, columns: string]> = [
  ['authentication_logs__user_id_date', 'authentication_logs', '"user_id", "date"'],
  ['authentication_logs__authentication_provider_date', 'authentication_logs', '"authentication_provider", "date"'],
  ['system_logs__user_id_date', 'system_logs', '"user_id", "date"'],
  ['session_logs__tenant_id_date', 'session_logs', '"tenant_id", "date"'],
  ['external_api_access_logs__ip_date', 'external_api_access_logs', '"ip", "date"'],
];

export class LogFilters1764851400000 implements MigrationInterface {
  name = 'LogFilters1764851400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // pg_trgm came with the users' search; asked again so this migration stands on its own.
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    for (const [name, table, columns] of BTREES) await queryRunner.query(`CREATE INDEX "${name}" ON "${table}" (${columns})`);
    for (const table of TRIGRAM_TABLES) {
      await queryRunner.query(`CREATE INDEX "${table}__user_name_trgm" ON "${table}" USING gin ((user_name::text) gin_trgm_ops)`);
    }
    await queryRunner.query(`CREATE INDEX "system_logs__metadata_trgm" ON "system_logs" USING gin ((metadata::text) gin_trgm_ops)`);
    await queryRunner.query(`CREATE INDEX "system_logs__metadata_users" ON "system_logs" USING gin (${SYSTEM_LOG_SUBJECT_USERS})`);
    await queryRunner.query(`CREATE INDEX "system_logs__metadata_tenant_id" ON "system_logs" ((metadata->>'tenantId'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "system_logs__metadata_tenant_id"');
    await queryRunner.query('DROP INDEX "system_logs__metadata_users"');
    await queryRunner.query('DROP INDEX "system_logs__metadata_trgm"');
    for (const table of TRIGRAM_TABLES) await queryRunner.query(`DROP INDEX "${table}__user_name_trgm"`);
    for (const [name] of [...BTREES].reverse()) await queryRunner.query(`DROP INDEX "${name}"`);
  }
}
