import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The client tenant a consultant created a user for (the portal's My Clients): the new user is a
 * draft and not yet a member of the tenant (an approved operation request makes it one), and this
 * is how the tenant's consultants still find and edit it meanwhile. Deleting the tenant forgets it.
 */
export class ClientUsers1765283400000 implements MigrationInterface {
  name = 'ClientUsers1765283400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" ADD "created_for_tenant_id" uuid');
    await queryRunner.query('CREATE INDEX "users__created_for_tenant_id" ON "users" ("created_for_tenant_id")');
    await queryRunner.query(
      'ALTER TABLE "users" ADD CONSTRAINT "users__created_for_tenant_id__fkey" FOREIGN KEY ("created_for_tenant_id") REFERENCES "tenants"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" DROP CONSTRAINT "users__created_for_tenant_id__fkey"');
    await queryRunner.query('DROP INDEX "users__created_for_tenant_id"');
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "created_for_tenant_id"');
  }
}
