import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency keys of the external API: per caller and key, the request first made with it and,
 * once done, its answer, which a retry gets back instead of inviting anybody twice. Rows expire;
 * the index finds the expired ones.
 */
export class ExternalApiIdempotency1765456200000 implements MigrationInterface {
  name = 'ExternalApiIdempotency1765456200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "external_api_idempotency_keys" ("caller" character varying(200) NOT NULL, "idempotency_key" character varying(200) NOT NULL, "api_entry" character varying(100) NOT NULL, "request_hash" character varying(64) NOT NULL, "state" character varying(10) NOT NULL DEFAULT 'Running', "response_status" integer, "response_body" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "external_api_idempotency_keys__state__check" CHECK ("state" IN ('Running', 'Done')), CONSTRAINT "external_api_idempotency_keys__pkey" PRIMARY KEY ("caller", "idempotency_key"))`,
    );
    await queryRunner.query('CREATE INDEX "external_api_idempotency_keys__expires_at" ON "external_api_idempotency_keys"("expires_at")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "external_api_idempotency_keys"');
  }
}
