import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SCIM provisioning: the tokens an administrator issues to an application for one area, and what
 * a provisioning client keeps on the users and groups it provisions beyond the product's own
 * columns (its external id, and the SCIM attributes the product has no column for).
 */
export class Scim1766232700000 implements MigrationInterface {
  name = 'Scim1766232700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scim_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "application_id" character varying(64) NOT NULL, "area_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "token_hash" character varying(64) NOT NULL, "token_last_chars" character varying(8) NOT NULL, "created_by" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "scim_tokens__pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query('CREATE UNIQUE INDEX "scim_tokens__token_hash" ON "scim_tokens" ("token_hash")');
    await queryRunner.query('CREATE INDEX "scim_tokens__application_id" ON "scim_tokens" ("application_id")');
    await queryRunner.query(
      'ALTER TABLE "scim_tokens" ADD CONSTRAINT "scim_tokens__application_id__fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "scim_tokens" ADD CONSTRAINT "scim_tokens__area_id__fkey" FOREIGN KEY ("area_id") REFERENCES "areas"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    // A token acts with its issuer's authority: it goes with them.
    await queryRunner.query(
      'ALTER TABLE "scim_tokens" ADD CONSTRAINT "scim_tokens__created_by__fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      `CREATE TABLE "scim_users" ("user_id" uuid NOT NULL, "external_id" character varying(256), "attributes" jsonb NOT NULL DEFAULT '{}', "application_id" character varying(64), "modified_on" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "scim_users__pkey" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query('CREATE INDEX "scim_users__external_id" ON "scim_users" ("external_id")');
    await queryRunner.query(
      'ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users__user_id__fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users__application_id__fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      `CREATE TABLE "scim_groups" ("group_id" uuid NOT NULL, "external_id" character varying(256), "attributes" jsonb NOT NULL DEFAULT '{}', "application_id" character varying(64), "modified_on" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "scim_groups__pkey" PRIMARY KEY ("group_id"))`,
    );
    await queryRunner.query('CREATE INDEX "scim_groups__external_id" ON "scim_groups" ("external_id")');
    await queryRunner.query(
      'ALTER TABLE "scim_groups" ADD CONSTRAINT "scim_groups__group_id__fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "scim_groups" ADD CONSTRAINT "scim_groups__application_id__fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "scim_groups"');
    await queryRunner.query('DROP TABLE "scim_users"');
    await queryRunner.query('DROP TABLE "scim_tokens"');
  }
}
