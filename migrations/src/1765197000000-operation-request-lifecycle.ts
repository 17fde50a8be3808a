import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operation requests: the reason given with a rejection or a roll-back, and at most one waiting
 * request per identity and tenant (a second one edits the first instead), enforced by the database
 * so that two requesters racing cannot both create one.
 */
export class OperationRequestLifecycle1765197000000 implements MigrationInterface {
  name = 'OperationRequestLifecycle1765197000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "operation_requests" ADD "reason" character varying(1000)');
    await queryRunner.query(
      `CREATE UNIQUE INDEX "operation_requests__waiting_user" ON "operation_requests"("tenant_id", "user_id") WHERE "status" = 'WaitingForApprover' AND "user_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "operation_requests__waiting_group" ON "operation_requests"("tenant_id", "group_id") WHERE "status" = 'WaitingForApprover' AND "group_id" IS NOT NULL`,
    );
    await queryRunner.query('CREATE INDEX "operation_requests__group_id" ON "operation_requests"("group_id")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "operation_requests__group_id"');
    await queryRunner.query('DROP INDEX "operation_requests__waiting_group"');
    await queryRunner.query('DROP INDEX "operation_requests__waiting_user"');
    await queryRunner.query('ALTER TABLE "operation_requests" DROP COLUMN "reason"');
  }
}
