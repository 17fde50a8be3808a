import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Whether an application may sign users in on devices without a browser (RFC 8628 device code): off for every existing one. */
export class ApplicationDeviceFlow1765973600000 implements MigrationInterface {
  name = 'ApplicationDeviceFlow1765973600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "applications" ADD "device_flow" boolean NOT NULL DEFAULT false');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "applications" DROP COLUMN "device_flow"');
  }
}
