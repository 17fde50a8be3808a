import { AppError, recordUserFailure, refundUserAttempt, reserveUserAttempt, writeAuthenticationLog, type AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { lockRefusal, logResultOf, type LockOutcome } from '../account/refusal.js';

/** Who asks, for the throttle and the authentication log. */
export interface ProfileRequest {
  accountId: string;
  sessionUid: string | undefined;
  ip: string;
  userAgent: string;
}

/** The signed-in user koaAccountAuth found, and where the request comes from. */
export function requestOf(ctx: Context): ProfileRequest {
  return { accountId: ctx.state.accountId as string, sessionUid: ctx.state.sessionUid as string | undefined, ip: ctx.ip, userAgent: ctx.get('user-agent') };
}

/** The account whose secret is checked. */
export interface ProvingUser {
  id: string;
  user_name: string;
}

export const INVALID_PASSWORD = 'Invalid password';
export const INVALID_CODE = 'Invalid authenticator code';

/**
 * A secret checked for a change of the account's factors: reserved before it is checked and
 * counted toward the sign-in lockout when wrong, exactly like a password or code at sign-in.
 * Resolves when `check` accepts it; throws the refusal otherwise.
 */
export class SecretProof {
  constructor(private readonly context: AppContext) {}

  async prove(request: ProfileRequest, user: ProvingUser, reason: string, check: () => Promise<boolean> | boolean): Promise<void> {
    const db = this.context.dataSource;
    await this.context.throttle.assertMayAttempt(request.ip, user.user_name.toLowerCase());
    const reservation = await reserveUserAttempt(db, user.id);
    if (reservation.kind !== 'reserved') this.refuse(reservation);
    if (await this.checkReserved(user.id, check)) {
      await refundUserAttempt(db, user.id);
      return;
    }
    await this.countFailure(request, user, reason);
  }

  /** Runs the check; an error gives the reservation back before it goes on. */
  private async checkReserved(userId: string, check: () => Promise<boolean> | boolean): Promise<boolean> {
    try {
      return await check();
    } catch (error) {
      await refundUserAttempt(this.context.dataSource, userId);
      throw error;
    }
  }

  private async countFailure(request: ProfileRequest, user: ProvingUser, reason: string): Promise<never> {
    const db = this.context.dataSource;
    const outcome = await recordUserFailure(db, user.id);
    await this.context.throttle.failed(request.ip, user.user_name.toLowerCase());
    await writeAuthenticationLog(db, {
      userId: user.id,
      userName: user.user_name,
      result: logResultOf(outcome),
      reason,
      ip: request.ip,
      userAgent: request.userAgent,
    });
    if (outcome.kind === 'counted') {
      throw new AppError(reason === INVALID_PASSWORD ? 'account.invalid_credentials' : 'account.invalid_code', 400, { count: outcome.attemptsLeft });
    }
    // A lock ends the user's sessions and tokens on every node.
    this.context.broadcast.publish('user.changed', { userId: user.id });
    return this.refuse(outcome);
  }

  private refuse(outcome: LockOutcome): never {
    const refusal = lockRefusal(outcome);
    throw new AppError(refusal.code, refusal.status, refusal.params);
  }
}
