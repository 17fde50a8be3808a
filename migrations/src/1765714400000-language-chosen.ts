import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the person chose their preferred language in their own profile. Every account holds a
 * language from its creation (an administrator's pick or the default); only one the person chose
 * follows them to every device at their next sign-in.
 */
export class LanguageChosen1765714400000 implements MigrationInterface {
  name = 'LanguageChosen1765714400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" ADD "language_chosen_on" TIMESTAMP WITH TIME ZONE');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "language_chosen_on"');
  }
}
