import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Authenticator-app (TOTP) enrolment on users, the expired-password step's token purpose, and the
 * Kept status of mails held in the outbox when no SMTP server is configured.
 */
export class SecondFactor1763942400000 implements MigrationInterface {
  name = 'SecondFactor1763942400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" ADD "totp_secret_encrypted" text');
    await queryRunner.query('ALTER TABLE "users" ADD "totp_enabled_at" TIMESTAMP WITH TIME ZONE');
    await queryRunner.query('ALTER TABLE "users" ADD "totp_last_step" bigint');
    await queryRunner.query('ALTER TABLE "user_tokens" DROP CONSTRAINT "user_tokens__purpose__check"');
    await queryRunner.query(
      `ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens__purpose__check" CHECK ("purpose" IN ('PasswordReset', 'Invitation', 'EmailVerification', 'SignInCode', 'ExpiredPassword'))`,
    );
    await queryRunner.query('ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox__status__check"');
    await queryRunner.query(
      `ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox__status__check" CHECK ("status" IN ('Pending', 'Sent', 'Failed', 'Kept'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "mail_outbox" WHERE "status" = 'Kept'`);
    await queryRunner.query('ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox__status__check"');
    await queryRunner.query(
      `ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox__status__check" CHECK ("status" IN ('Pending', 'Sent', 'Failed'))`,
    );
    await queryRunner.query(`DELETE FROM "user_tokens" WHERE "purpose" = 'ExpiredPassword'`);
    await queryRunner.query('ALTER TABLE "user_tokens" DROP CONSTRAINT "user_tokens__purpose__check"');
    await queryRunner.query(
      `ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens__purpose__check" CHECK ("purpose" IN ('PasswordReset', 'Invitation', 'EmailVerification', 'SignInCode'))`,
    );
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "totp_last_step"');
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "totp_enabled_at"');
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "totp_secret_encrypted"');
  }
}
