import type { MigrationInterface, QueryRunner } from 'typeorm';

const LOG_TABLES = ['authentication_logs', 'system_logs', 'session_logs', 'external_api_access_logs'];

/**
 * Signing in as another user (Identify As): each impersonation is recorded with the provider
 * session it switched, and every log row names the user who acted on behalf of its user.
 */
export class IdentifyAs1765110600000 implements MigrationInterface {
  name = 'IdentifyAs1765110600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "impersonations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "actor_id" uuid NOT NULL, "target_id" uuid NOT NULL, "session_uid" character varying(64) NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "ended_at" TIMESTAMP WITH TIME ZONE, "end_reason" character varying(20), CONSTRAINT "impersonations__end_reason__check" CHECK ("end_reason" IN ('Ended', 'Expired')), CONSTRAINT "impersonations__pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query('CREATE UNIQUE INDEX "impersonations__session_uid" ON "impersonations"("session_uid")');
    await queryRunner.query('CREATE INDEX "impersonations__actor_id" ON "impersonations"("actor_id")');
    await queryRunner.query('CREATE INDEX "impersonations__target_id" ON "impersonations"("target_id")');
    await queryRunner.query(
      'ALTER TABLE "impersonations" ADD CONSTRAINT "impersonations__actor_id__fkey" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "impersonations" ADD CONSTRAINT "impersonations__target_id__fkey" FOREIGN KEY ("target_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    for (const table of LOG_TABLES) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "actor_id" uuid`);
      // Deleting a user clears the rows naming them as the actor: found through this index, not a scan of the log.
      await queryRunner.query(`CREATE INDEX "${table}__actor_id" ON "${table}"("actor_id")`);
      await queryRunner.query(
        `ALTER TABLE "${table}" ADD CONSTRAINT "${table}__actor_id__fkey" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of LOG_TABLES) await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "actor_id"`);
    await queryRunner.query('DROP TABLE "impersonations"');
  }
}
