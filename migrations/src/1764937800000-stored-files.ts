import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Files the background jobs produce (reports, exports), downloadable by their owner until they
 * expire; the admin API deletes the expired ones.
 */
export class StoredFiles1764937800000 implements MigrationInterface {
  name = 'StoredFiles1764937800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "stored_files" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "owner_id" uuid NOT NULL, "file_name" character varying(260) NOT NULL, "media_type" character varying(100) NOT NULL, "bytes" bytea NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "stored_files__pkey" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "stored_files__owner_id" ON "stored_files"("owner_id")');
    await queryRunner.query('CREATE INDEX "stored_files__expires_at" ON "stored_files"("expires_at")');
    await queryRunner.query(
      'ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files__owner_id__fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "stored_files"');
  }
}
