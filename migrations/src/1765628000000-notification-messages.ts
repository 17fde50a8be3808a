import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A notification's message as a phrase key and its parameters (`{ key, params }`), so that a list
 * writes it in the language of whoever reads it; `description` stays the text written for the
 * recipient when it was sent (the live push, and rows written before this column).
 */
export class NotificationMessages1765628000000 implements MigrationInterface {
  name = 'NotificationMessages1765628000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "notifications" ADD "message" jsonb');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "notifications" DROP COLUMN "message"');
  }
}
