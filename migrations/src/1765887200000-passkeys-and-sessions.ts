import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passkeys (WebAuthn credentials) and their single-use challenges, recovery codes (only their
 * hashes), the browser sessions a user sees and ends in their profile, and the tenants' "phishing
 * resistant only" second factor (passkeys or Microsoft).
 */
export class PasskeysAndSessions1765887200000 implements MigrationInterface {
  name = 'PasskeysAndSessions1765887200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "user_passkeys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "credential_id" character varying(1400) NOT NULL, "public_key" bytea NOT NULL, "sign_count" bigint NOT NULL DEFAULT 0, "transports" text[] NOT NULL DEFAULT '{}', "device_type" character varying(20) NOT NULL, "backed_up" boolean NOT NULL DEFAULT false, "aaguid" character varying(36), "name" character varying(100) NOT NULL, "device_hint" character varying(200), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, "last_used_device" character varying(200), CONSTRAINT "user_passkeys__pkey" PRIMARY KEY ("id"), CONSTRAINT "user_passkeys__user_id__fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE)`,
    );
    await queryRunner.query('CREATE UNIQUE INDEX "user_passkeys__credential_id" ON "user_passkeys"("credential_id")');
    await queryRunner.query('CREATE INDEX "user_passkeys__user_id" ON "user_passkeys"("user_id")');
    // A challenge is stored by its hash, bound to what it was issued for, and consumed once.
    await queryRunner.query(
      `CREATE TABLE "webauthn_challenges" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "challenge_hash" character varying(64) NOT NULL, "purpose" character varying(20) NOT NULL, "interaction_uid" character varying(255), "user_id" uuid, "session_uid" character varying(255), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "consumed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webauthn_challenges__purpose__check" CHECK ("purpose" IN ('SignIn', 'SecondFactor', 'Register', 'Reauthenticate')), CONSTRAINT "webauthn_challenges__pkey" PRIMARY KEY ("id"), CONSTRAINT "webauthn_challenges__user_id__fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE)`,
    );
    await queryRunner.query('CREATE UNIQUE INDEX "webauthn_challenges__challenge_hash" ON "webauthn_challenges"("challenge_hash")');
    await queryRunner.query('CREATE INDEX "webauthn_challenges__expires_at" ON "webauthn_challenges"("expires_at")');
    await queryRunner.query(
      `CREATE TABLE "user_recovery_codes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "code_hash" character varying(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "user_recovery_codes__pkey" PRIMARY KEY ("id"), CONSTRAINT "user_recovery_codes__user_id__fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE)`,
    );
    await queryRunner.query('CREATE UNIQUE INDEX "user_recovery_codes__user_id_code_hash" ON "user_recovery_codes"("user_id", "code_hash")');
    // The provider's sessions as the user sees them: where and when each began, when it was last used.
    await queryRunner.query(
      `CREATE TABLE "user_sessions" ("session_uid" character varying(255) NOT NULL, "user_id" uuid NOT NULL, "user_agent" character varying(500), "ip" character varying(64), "amr" text[] NOT NULL DEFAULT '{}', "started_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "reauthenticated_at" TIMESTAMP WITH TIME ZONE, "ended_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "user_sessions__pkey" PRIMARY KEY ("session_uid"), CONSTRAINT "user_sessions__user_id__fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE)`,
    );
    await queryRunner.query('CREATE INDEX "user_sessions__user_id_last_seen_at" ON "user_sessions"("user_id", "last_seen_at" DESC)');
    // Ending one session finds the tokens issued in it.
    await queryRunner.query(`CREATE INDEX "oidc_model_instances__session_uid" ON "oidc_model_instances" ((payload->>'sessionUid')) WHERE payload ? 'sessionUid'`);
    await queryRunner.query('ALTER TABLE "tenants" ADD "phishing_resistant_only" boolean NOT NULL DEFAULT false');
    await queryRunner.query('ALTER TABLE "users" ADD "recovery_codes_generated_at" TIMESTAMP WITH TIME ZONE');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "recovery_codes_generated_at"');
    await queryRunner.query('ALTER TABLE "tenants" DROP COLUMN "phishing_resistant_only"');
    await queryRunner.query('DROP INDEX "oidc_model_instances__session_uid"');
    await queryRunner.query('DROP TABLE "user_sessions"');
    await queryRunner.query('DROP TABLE "user_recovery_codes"');
    await queryRunner.query('DROP TABLE "webauthn_challenges"');
    await queryRunner.query('DROP TABLE "user_passkeys"');
  }
}
