import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The last characters of a personal access token's value, kept beside its SHA-256 so that lists
 * can tell tokens apart (`gpat_…wxyz`) without the value itself. Four characters of a 256-bit
 * random value leave it as unguessable as before.
 */
export class PatLastChars1764720000000 implements MigrationInterface {
  name = 'PatLastChars1764720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "personal_access_tokens" ADD "token_last_chars" character varying(4)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "personal_access_tokens" DROP COLUMN "token_last_chars"');
  }
}
