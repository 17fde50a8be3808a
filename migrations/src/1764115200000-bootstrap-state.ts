import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the bootstrap file last did to this database, in one row: the SHA-256 of the last document
 * applied (an unchanged file is then skipped whole, so a restart never reverts what administrators
 * changed since) and when the first administrator was provisioned (never again after that, even
 * if it was deleted or demoted). Only the bootstrap reads and writes it, through SQL: it has no
 * entity.
 */
export class BootstrapState1764115200000 implements MigrationInterface {
  name = 'BootstrapState1764115200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "bootstrap_state" ("id" smallint NOT NULL DEFAULT 1, "document_sha256" character(64), "applied_at" TIMESTAMP WITH TIME ZONE, "administrator_user_name" character varying(256), "administrator_provisioned_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "bootstrap_state__pkey" PRIMARY KEY ("id"), CONSTRAINT "bootstrap_state__id__check" CHECK ("id" = 1))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "bootstrap_state"');
  }
}
