import type { MigrationInterface, QueryRunner } from 'typeorm';

const JOB_TYPES_BEFORE = `'ExportMembers', 'ExportTenants', 'AdminReport', 'BulkInsertUsers', 'BulkInsertGroupMembers', 'BulkInsertUsersWithTenant', 'BulkInsertGroupsWithTenant', 'BulkInsertPermisionRequestForTenant', 'BulkInsertUserAndPermisionRequestForTenant', 'BulkChangeUsernameEmail'`;
const PURPOSES_BEFORE = `'PasswordReset', 'Invitation', 'EmailVerification', 'SignInCode', 'ExpiredPassword'`;

/**
 * Log exports run as background jobs, listed newest first in the jobs view; one-time codes hand a signed-in administrator over to the
 * jobs view and to an impersonation without a token in any URL.
 */
export class JobExportsAndHandoffCodes1765024200000 implements MigrationInterface {
  name = 'JobExportsAndHandoffCodes1765024200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "background_jobs" DROP CONSTRAINT "background_jobs__type__check"');
    await queryRunner.query(
      `ALTER TABLE "background_jobs" ADD CONSTRAINT "background_jobs__type__check" CHECK ("type" IN (${JOB_TYPES_BEFORE}, 'ExportAuthenticationLogs', 'ExportSystemLogs'))`,
    );
    await queryRunner.query('ALTER TABLE "user_tokens" DROP CONSTRAINT "user_tokens__purpose__check"');
    await queryRunner.query(
      `ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens__purpose__check" CHECK ("purpose" IN (${PURPOSES_BEFORE}, 'JobDashboard', 'IdentifyAs'))`,
    );
    // The jobs view lists every job newest first.
    await queryRunner.query('CREATE INDEX "background_jobs__created_at" ON "background_jobs"("created_at")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "background_jobs__created_at"');
    await queryRunner.query(`DELETE FROM "user_tokens" WHERE "purpose" IN ('JobDashboard', 'IdentifyAs')`);
    await queryRunner.query('ALTER TABLE "user_tokens" DROP CONSTRAINT "user_tokens__purpose__check"');
    await queryRunner.query(`ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens__purpose__check" CHECK ("purpose" IN (${PURPOSES_BEFORE}))`);
    await queryRunner.query(`DELETE FROM "background_jobs" WHERE "type" IN ('ExportAuthenticationLogs', 'ExportSystemLogs')`);
    await queryRunner.query('ALTER TABLE "background_jobs" DROP CONSTRAINT "background_jobs__type__check"');
    await queryRunner.query(`ALTER TABLE "background_jobs" ADD CONSTRAINT "background_jobs__type__check" CHECK ("type" IN (${JOB_TYPES_BEFORE}))`);
  }
}
