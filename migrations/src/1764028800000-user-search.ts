import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Trigram index for the users list's search (`$search` matches anywhere in user name, e-mail,
 * first or last name): `ILIKE '%term%'` cannot use a b-tree, and with 100,000 users a sequential
 * scan per keystroke is too slow.
 *
 * One GIN index over the four columns joined by spaces, rather than one per column: a search is
 * then a single bitmap index scan, and a term spanning first and last name ("Jean Dupont") finds
 * the user too. Being an expression index also keeps it out of TypeORM's entity/schema comparison,
 * which cannot describe GIN operator classes and would otherwise want to drop it. The users list
 * (admin API, features/users/repository.ts) repeats this expression exactly, as the planner
 * requires; a test there checks that the index is used.
 */
const SEARCH_EXPRESSION = `(user_name || ' ' || email || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, ''))`;

export class UserSearch1764028800000 implements MigrationInterface {
  name = 'UserSearch1764028800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it without superuser.
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await queryRunner.query(`CREATE INDEX "users__search_trgm" ON "users" USING gin (${SEARCH_EXPRESSION} gin_trgm_ops)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "users__search_trgm"');
    await queryRunner.query('DROP EXTENSION IF EXISTS pg_trgm');
  }
}
