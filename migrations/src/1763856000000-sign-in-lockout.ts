import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lockout counters for user names that match no account (so they answer exactly like real ones),
 * and the back-channel logout URI of applications.
 */
export class SignInLockout1763856000000 implements MigrationInterface {
  name = 'SignInLockout1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "sign_in_attempts" ("normalized_user_name" character varying(256) NOT NULL, "failed_attempts" integer NOT NULL DEFAULT \'0\', "lockout_count" integer NOT NULL DEFAULT \'0\', "lockout_end" TIMESTAMP WITH TIME ZONE, "locked" boolean NOT NULL DEFAULT false, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "sign_in_attempts__pkey" PRIMARY KEY ("normalized_user_name"))',
    );
    await queryRunner.query('CREATE INDEX "sign_in_attempts__updated_at" ON "sign_in_attempts"("updated_at")');
    await queryRunner.query('ALTER TABLE "applications" ADD "backchannel_logout_uri" character varying(2000)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "applications" DROP COLUMN "backchannel_logout_uri"');
    await queryRunner.query('DROP TABLE "sign_in_attempts"');
  }
}
