import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The company (tenant) a user works for now, chosen in the portal and sent to the applications
 * that ask for it. Deleting the tenant forgets the choice.
 */
export class CurrentCompany1764201600000 implements MigrationInterface {
  name = 'CurrentCompany1764201600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" ADD "current_company_id" uuid');
    await queryRunner.query('CREATE INDEX "users__current_company_id" ON "users" ("current_company_id")');
    await queryRunner.query(
      'ALTER TABLE "users" ADD CONSTRAINT "users__current_company_id__fkey" FOREIGN KEY ("current_company_id") REFERENCES "tenants"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" DROP CONSTRAINT "users__current_company_id__fkey"');
    await queryRunner.query('DROP INDEX "users__current_company_id"');
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "current_company_id"');
  }
}
