import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks: the endpoints administrators register (global or for one application), the events
 * written in the same transaction as the change they describe (an outbox), and one delivery per
 * event and endpoint, tried until received or a day has passed.
 */
export class Webhooks1766146300000 implements MigrationInterface {
  name = 'Webhooks1766146300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "url" character varying(2000) NOT NULL, "description" character varying(500), "events" text[] NOT NULL DEFAULT '{}', "application_id" character varying(64), "secret_encrypted" text NOT NULL, "previous_secret_encrypted" text, "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE, "enabled" boolean NOT NULL DEFAULT true, "disabled_reason" character varying(50), "failing_since" TIMESTAMP WITH TIME ZONE, "created_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "modified_on" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webhook_endpoints__pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query('CREATE INDEX "webhook_endpoints__application_id" ON "webhook_endpoints" ("application_id")');
    await queryRunner.query(
      'ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints__application_id__fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints__created_by__fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "type" character varying(50) NOT NULL, "payload" jsonb NOT NULL, "application_ids" text[] NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webhook_events__pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query('CREATE INDEX "webhook_events__created_at" ON "webhook_events" ("created_at")');
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "endpoint_id" uuid NOT NULL, "event_id" uuid NOT NULL, "status" character varying(20) NOT NULL DEFAULT 'Pending', "attempts" integer NOT NULL DEFAULT 0, "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "leased_until" TIMESTAMP WITH TIME ZONE, "last_attempt_at" TIMESTAMP WITH TIME ZONE, "last_status_code" integer, "last_duration_ms" integer, "last_error" character varying(500), "delivered_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webhook_deliveries__status__check" CHECK ("status" IN ('Pending', 'Succeeded', 'Failed')), CONSTRAINT "webhook_deliveries__pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query('CREATE INDEX "webhook_deliveries__endpoint_id_created_at" ON "webhook_deliveries" ("endpoint_id", "created_at")');
    await queryRunner.query('CREATE INDEX "webhook_deliveries__event_id" ON "webhook_deliveries" ("event_id")');
    // What the deliverer reads on every round: each endpoint's due deliveries in order, and how many it has under way.
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries__pending_endpoint_id_next_attempt_at" ON "webhook_deliveries" ("endpoint_id", "next_attempt_at") WHERE "status" = 'Pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries__leased_endpoint_id" ON "webhook_deliveries" ("endpoint_id", "leased_until") WHERE "status" = 'Pending' AND "leased_until" IS NOT NULL`,
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries__endpoint_id__fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries__event_id__fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "webhook_deliveries"');
    await queryRunner.query('DROP TABLE "webhook_events"');
    await queryRunner.query('DROP TABLE "webhook_endpoints"');
  }
}
