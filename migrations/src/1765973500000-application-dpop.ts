import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether an application's tokens must be bound to a key of the application (DPoP, RFC 9449): its
 * token requests without a proof are refused. Off for every existing one.
 */
export class ApplicationDpop1765973500000 implements MigrationInterface {
  name = 'ApplicationDpop1765973500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "applications" ADD "require_dpop" boolean NOT NULL DEFAULT false');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "applications" DROP COLUMN "require_dpop"');
  }
}
