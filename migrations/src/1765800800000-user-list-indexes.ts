import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes that serve the admin console's users lists in their own order, so that a page reads its
 * ten rows instead of sorting every match first:
 *
 * - the users list, newest change first (its default), on its own and within an area: the users id
 *   follows the date in each, as the list breaks ties by it, so a walk of the index is already in
 *   the list's order and stops after one page; a deep page (`skip`) passes over index entries
 *   alone, never over whole rows. The date is descending as the default order is: one index then
 *   serves it entirely (the ascending order reads it backwards and re-sorts only equal dates).
 *   They replace the single-column indexes on `modified_on` and `area_id`, which they cover;
 * - the user name and the e-mail address, with the id: the sorts of a group's members (and of the
 *   users list), read in order while each user's membership is checked;
 * - a group's members by permission, with the user: the members list's third sort.
 *
 * The descending column is beyond what TypeORM's entity description can say: the entities
 * declare these indexes with `synchronize: false`, so the schema comparison leaves them alone.
 *
 * And a finer sample of the search's text (the `users__search_trgm` expression) for the planner's
 * estimate of a search's matches, which decides whether the list counts them one by one and how
 * it reads the page: a word inside the text (a last name, a mail domain) is estimated from the
 * sampled values that hold it, and with the default sample one in fifty users could be taken for
 * one in ten thousand (a count and a plan then made for a few matches, for 20,000 of them in
 * 1,000,000 users). Three times the default sample finds such words; planning a search costs about
 * 0.4 ms more, as the planner tries the pattern on each sampled value.
 */
const SEARCH_STATISTICS = 300;
const INDEXES: Array<[name: string, table: string, columns: string]> = [
  ['users__modified_on_id', 'users', '"modified_on" DESC, "id"'],
  ['users__area_id_modified_on_id', 'users', '"area_id", "modified_on" DESC, "id"'],
  ['users__user_name_id', 'users', '"user_name", "id"'],
  ['users__email_id', 'users', '"email", "id"'],
  ['group_members__group_id_permission_user_id', 'group_members', '"group_id", "permission", "user_id"'],
];

export class UserListIndexes1765800800000 implements MigrationInterface {
  name = 'UserListIndexes1765800800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, table, columns] of INDEXES) await queryRunner.query(`CREATE INDEX "${name}" ON "${table}" (${columns})`);
    await queryRunner.query('DROP INDEX "users__modified_on"');
    await queryRunner.query('DROP INDEX "users__area_id"');
    await queryRunner.query(`ALTER INDEX "users__search_trgm" ALTER COLUMN 1 SET STATISTICS ${SEARCH_STATISTICS}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER INDEX "users__search_trgm" ALTER COLUMN 1 SET STATISTICS -1');
    await queryRunner.query('CREATE INDEX "users__area_id" ON "users" ("area_id")');
    await queryRunner.query('CREATE INDEX "users__modified_on" ON "users" ("modified_on")');
    for (const [name] of [...INDEXES].reverse()) await queryRunner.query(`DROP INDEX "${name}"`);
  }
}
