import type { ErrorCode } from '@gatehouse/contracts';
import type { FailureOutcome, Reservation } from '@gatehouse/core';

/** Why a sign-in (or one of its steps) was refused: `code` is the i18n key of the message shown to the user. */
export interface SignInRefusal {
  ok: false;
  status: number;
  code: ErrorCode;
  /** A second message, after `code`'s (the detail under a headline), with the same params. */
  detail?: ErrorCode;
  params?: Record<string, unknown>;
  attemptsLeft?: number;
  lockedUntil?: Date;
  /** The failures in a row that locked the account (the lockout setting's threshold). */
  lockedAfter?: number;
  externalLoginRequired?: boolean;
  /** Seconds to wait before trying again (429). */
  retryAfter?: number;
  /** Where the page goes on (an expired interaction sends the browser back). */
  redirectTo?: string;
}

/** A refusal with nothing more than its status and message. */
export const refusal = (status: number, code: ErrorCode): SignInRefusal => ({ ok: false, status, code });

/** The sign-in this step belongs to is over, or belongs to another browser. */
export const interactionExpired = (): SignInRefusal => refusal(400, 'account.interaction_expired');

/** A refusal thrown from a step, answered by the account routes as a login response with its status. */
export class Refused extends Error {
  constructor(readonly refusal: SignInRefusal) {
    super(refusal.code);
    this.name = 'Refused';
  }
}

/** The value of a step's result, or its refusal thrown. */
export function orRefuse<T extends { ok: true }>(result: T | SignInRefusal): T {
  if (!result.ok) throw new Refused(result);
  return result;
}

/** "YYYY-MM-DD HH:MM UTC", as the messages and mails show a date. */
export function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A lock that refuses an attempt: what a reservation or a failed attempt found, or the account's lock state. */
export type LockOutcome = FailureOutcome | Exclude<Reservation, { kind: 'reserved' }>;

/** The answer to an attempt the lockout refused, in the spec's words. */
export function lockRefusal(outcome: LockOutcome): SignInRefusal {
  switch (outcome.kind) {
    case 'busy':
      return { ok: false, status: 429, code: 'account.too_many_attempts', retryAfter: 1 };
    case 'counted':
      return { ok: false, status: 401, code: 'account.invalid_credentials', params: { count: outcome.attemptsLeft }, attemptsLeft: outcome.attemptsLeft };
    case 'locked':
    case 'already_locked':
      return {
        ok: false,
        status: 423,
        code: 'account.locked',
        params: { until: formatUtc(outcome.until), count: outcome.attempts },
        lockedUntil: outcome.until,
        lockedAfter: outcome.attempts,
      };
    case 'permanent':
    case 'permanently_locked':
    case 'already_permanently_locked':
      return { ok: false, status: 423, code: 'account.locked_permanently' };
  }
}

/**
 * A lock refusal said to someone who has already proved who they are (the right password, then a
 * second factor or the end of the sign-in): headed "User Is Locked Out", the lock's own message
 * after it. Never said at the password itself, where a locked account, a wrong password and an
 * unknown name are answered alike: it would tell a guesser that the password was right.
 */
export function lockedOut(refusal: SignInRefusal): SignInRefusal {
  if (refusal.code !== 'account.locked' && refusal.code !== 'account.locked_permanently') return refusal;
  return { ...refusal, code: 'account.locked_out', detail: refusal.code };
}

/** The refusal for an account's lock state (`lockout_end` in the future, or `locked`); `attempts`: the lockout threshold now. */
export function lockStateRefusal(state: { locked: boolean; lockoutEnd: Date | null }, attempts: number): SignInRefusal {
  return lockRefusal(state.locked || !state.lockoutEnd ? { kind: 'permanent' } : { kind: 'locked', until: state.lockoutEnd, attempts });
}

/** The authentication-log result of a failed attempt's outcome. */
export function logResultOf(outcome: FailureOutcome): 'Failure' | 'UserLocked' | 'FullUserLocked' {
  if (outcome.kind === 'counted') return 'Failure';
  return outcome.kind.includes('permanent') ? 'FullUserLocked' : 'UserLocked';
}
