import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tenant access (the authority rules):
 * - an operation request's version, which an approval names, so that a request changed after the
 *   approver looked at it is not applied;
 * - the business application that created an account through the external API (it may lock only
 *   such an account, and only while it holds nothing else);
 * - the accounts whose access to one application that application ended (LockUser on an account
 *   it did not create): the provider refuses them that application's sign-in.
 */
export class TenantAccess1765542600000 implements MigrationInterface {
  name = 'TenantAccess1765542600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "operation_requests" ADD "version" integer NOT NULL DEFAULT 1');
    await queryRunner.query('ALTER TABLE "users" ADD "created_by_application_id" character varying(64)');
    await queryRunner.query(
      'ALTER TABLE "users" ADD CONSTRAINT "users__created_by_application_id__fkey" FOREIGN KEY ("created_by_application_id") REFERENCES "applications"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      `CREATE TABLE "application_user_blocks" ("application_id" character varying(64) NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "application_user_blocks__pkey" PRIMARY KEY ("application_id", "user_id"))`,
    );
    await queryRunner.query('CREATE INDEX "application_user_blocks__user_id" ON "application_user_blocks"("user_id")');
    await queryRunner.query(
      'ALTER TABLE "application_user_blocks" ADD CONSTRAINT "application_user_blocks__application_id__fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "application_user_blocks" ADD CONSTRAINT "application_user_blocks__user_id__fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "application_user_blocks"');
    await queryRunner.query('ALTER TABLE "users" DROP CONSTRAINT "users__created_by_application_id__fkey"');
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "created_by_application_id"');
    await queryRunner.query('ALTER TABLE "operation_requests" DROP COLUMN "version"');
  }
}
