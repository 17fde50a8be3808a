import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-application protocol hardening: pushed authorization requests required (PAR), signed request
 * objects required (JAR), authentication by a JWT signed with the application's key
 * (`private_key_jwt`, keys by value or by URL), the FAPI 2.0 Security Profile, and the applications
 * whose API an application may call for a user by token exchange (RFC 8693). Off, or none, for every
 * existing application.
 */
export class ApplicationHardening1766059900000 implements MigrationInterface {
  name = 'ApplicationHardening1766059900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "applications" ADD "require_par" boolean NOT NULL DEFAULT false, ADD "require_signed_request_object" boolean NOT NULL DEFAULT false, ADD "client_authentication" character varying(30) NOT NULL DEFAULT 'client_secret_basic', ADD "jwks" jsonb, ADD "jwks_uri" character varying(2000), ADD "fapi2" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `ALTER TABLE "applications" ADD CONSTRAINT "applications__client_authentication__check" CHECK ("client_authentication" IN ('client_secret_basic', 'private_key_jwt'))`,
    );
    await queryRunner.query(
      `CREATE TABLE "application_exchange_audiences" ("application_id" character varying(64) NOT NULL, "audience_id" character varying(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "application_exchange_audiences__pkey" PRIMARY KEY ("application_id", "audience_id"))`,
    );
    await queryRunner.query('CREATE INDEX "application_exchange_audiences__audience_id" ON "application_exchange_audiences" ("audience_id")');
    await queryRunner.query(
      'ALTER TABLE "application_exchange_audiences" ADD CONSTRAINT "application_exchange_audiences__application_id__fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "application_exchange_audiences" ADD CONSTRAINT "application_exchange_audiences__audience_id__fkey" FOREIGN KEY ("audience_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "application_exchange_audiences"');
    await queryRunner.query('ALTER TABLE "applications" DROP CONSTRAINT "applications__client_authentication__check"');
    await queryRunner.query(
      'ALTER TABLE "applications" DROP COLUMN "fapi2", DROP COLUMN "jwks_uri", DROP COLUMN "jwks", DROP COLUMN "client_authentication", DROP COLUMN "require_signed_request_object", DROP COLUMN "require_par"',
    );
  }
}
