import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SAML 2.0 applications: an application's protocol (OpenID Connect for every existing one), and
 * what a SAML one is to the identity provider (entity id, assertion consumer services, single
 * logout address, NameID format, attribute mapping, certificate, signed requests required,
 * encrypted assertions, the RelayState of a sign-in started from the portal).
 */
export class SamlApplications1766319100000 implements MigrationInterface {
  name = 'SamlApplications1766319100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "applications" ADD "protocol" character varying(10) NOT NULL DEFAULT 'oidc'`);
    await queryRunner.query(`ALTER TABLE "applications" ADD CONSTRAINT "applications__protocol__check" CHECK ("protocol" IN ('oidc', 'saml'))`);
    await queryRunner.query(
      `CREATE TABLE "application_saml_settings" ("application_id" character varying(64) NOT NULL, "entity_id" character varying(1000) NOT NULL, "assertion_consumer_services" jsonb NOT NULL DEFAULT '[]', "single_logout_url" character varying(2000), "name_id_format" character varying(20) NOT NULL DEFAULT 'email', "attribute_mapping" jsonb NOT NULL DEFAULT '[]', "certificate" text, "want_authn_requests_signed" boolean NOT NULL DEFAULT false, "encrypt_assertions" boolean NOT NULL DEFAULT false, "default_relay_state" character varying(2000), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "modified_on" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "application_saml_settings__name_id_format__check" CHECK ("name_id_format" IN ('email', 'persistent')), CONSTRAINT "application_saml_settings__pkey" PRIMARY KEY ("application_id"))`,
    );
    await queryRunner.query('CREATE UNIQUE INDEX "application_saml_settings__entity_id" ON "application_saml_settings" ("entity_id")');
    await queryRunner.query(
      'ALTER TABLE "application_saml_settings" ADD CONSTRAINT "application_saml_settings__application_id__fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "application_saml_settings"');
    await queryRunner.query('ALTER TABLE "applications" DROP CONSTRAINT "applications__protocol__check"');
    await queryRunner.query('ALTER TABLE "applications" DROP COLUMN "protocol"');
  }
}
