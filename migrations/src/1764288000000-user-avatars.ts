import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users' pictures, one per user: the re-encoded image (or, with a folder store, only its
 * description: the bytes are then a file named by `content_hash`), found by the SHA-256 of the
 * user's e-mail as it was at upload (`email_hash`), which is what the public picture URL carries.
 * Only the avatar feature reads and writes it, through SQL: it has no entity.
 */
export class UserAvatars1764288000000 implements MigrationInterface {
  name = 'UserAvatars1764288000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "user_avatars" ("user_id" uuid NOT NULL, "email_hash" character(64) NOT NULL, "content_hash" character(64) NOT NULL, "content_type" character varying(50) NOT NULL, "size" integer NOT NULL, "content" bytea, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "user_avatars__pkey" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query('CREATE INDEX "user_avatars__email_hash" ON "user_avatars"("email_hash")');
    await queryRunner.query(
      'ALTER TABLE "user_avatars" ADD CONSTRAINT "user_avatars__user_id__fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "user_avatars"');
  }
}
