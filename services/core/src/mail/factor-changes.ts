import type { AppContext } from '../context.js';
import type { Queryable } from '../db/data-source.js';
import { writeSystemLog } from '../logging/audit.js';
import type { FactorKind } from '../security/factors.js';
import type { Mailer } from './mailer.js';

/** A change of a user's factors, told to the user by mail and written to the log. */
export type FactorChange =
  | 'passkey_added'
  | 'passkey_removed'
  | 'totp_added'
  | 'totp_removed'
  | 'recovery_codes_generated'
  | 'recovery_code_used'
  | 'factors_reset';

/** The system log's operation for each change, as the Logs page lists it. */
export const FACTOR_CHANGE_OPERATIONS = {
  passkey_added: 'AddPasskey',
  passkey_removed: 'RemovePasskey',
  totp_added: 'EnrolAuthenticatorApp',
  totp_removed: 'RemoveAuthenticatorApp',
  recovery_codes_generated: 'GenerateRecoveryCodes',
  recovery_code_used: 'UseRecoveryCode',
  factors_reset: 'ResetFactors',
} as const satisfies Record<FactorChange, string>;

export interface FactorChangeDetails {
  /** The passkey's name, for passkey changes. */
  passkeyName?: string;
  /** Who made the change when it was not the user (an administrator's reset): their user id. */
  actorId?: string;
  ip?: string | null;
  userAgent?: string | null;
  /** For a reset: the kinds of factor it removed. */
  kinds?: readonly FactorKind[];
  /**
   * The log row was written with the change, in its transaction ({@link recordFactorChange}):
   * only the mail is left to send.
   */
  logged?: boolean;
}

/**
 * Writes the change's system log row: by the user, or by the administrator who made it (then the
 * user is the row's target). Pass the change's transaction manager to store both together.
 */
export async function recordFactorChange(db: Queryable, userId: string, change: FactorChange, details: FactorChangeDetails = {}): Promise<void> {
  const by = details.actorId ?? userId;
  const rows = await db.query<Array<{ id: string; user_name: string }>>('SELECT id, user_name FROM users WHERE id = ANY($1::uuid[])', [[userId, by]]);
  const nameOf = (id: string) => rows.find((row) => row.id === id)?.user_name ?? null;
  await writeSystemLog(db, {
    operation: FACTOR_CHANGE_OPERATIONS[change],
    userId: by,
    userName: nameOf(by),
    metadata: {
      targetUserId: userId,
      targetUserName: nameOf(userId),
      change,
      ...(details.passkeyName ? { passkeyName: details.passkeyName } : {}),
      ...(details.kinds ? { kinds: details.kinds } : {}),
      ...(details.ip ? { ip: details.ip.slice(0, 64) } : {}),
      ...(details.userAgent ? { userAgent: details.userAgent.slice(0, 500) } : {}),
    },
  });
}

/**
 * Tells the user of a change of their factors, in their language (a mail through the outbox), and
 * records it in the log. Never throws for the mail: the change has happened.
 */
export async function announceFactorChange(context: AppContext, mailer: Mailer, userId: string, change: FactorChange, details: FactorChangeDetails = {}): Promise<void> {
  if (!details.logged) await recordFactorChange(context.dataSource, userId, change, details);
  try {
    const [user] = await context.dataSource.query<Array<{ email: string | null; language: string; first_name: string | null; user_name: string }>>(
      'SELECT email, language, first_name, user_name FROM users WHERE id = $1',
      [userId],
    );
    if (!user?.email) return;
    await mailer.send({
      to: user.email,
      template: 'factor-changed',
      language: user.language,
      params: {
        name: user.first_name ?? user.user_name,
        change,
        date: new Date(),
        ...(details.passkeyName ? { passkeyName: details.passkeyName } : {}),
        ...(details.kinds?.length ? { kinds: details.kinds.join(', ') } : {}),
      },
    });
  } catch (error) {
    context.logger.warn({ err: (error as Error).message, userId, change }, 'factor-changed mail failed');
  }
}
