import type { ResetFactorsReply, ResettableFactor, userFactorsSchema } from '@gatehouse/contracts';
import { AppError, factorSummary, removeFactors, type AppContext } from '@gatehouse/core';
import { enforce } from '@gatehouse/core/access';
import { announceFactorChange, recordFactorChange, type Mailer } from '@gatehouse/core/mail';
import type { z } from 'zod';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { CallerScope } from '../../auth/scope.js';
import { publishUserEvents, resetFactorsDecision, userForUpdate, visibleUser } from './access.js';

/** The factors as the server builds them: dates stay Dates until the response schema writes them. */
export type UserFactorsItem = z.input<typeof userFactorsSchema>;

/**
 * A user's sign-in factors on the console, and their reset by an administrator (a lost phone or
 * security key). A reset takes factors off and nothing else: the user's sessions go on (locking
 * the account or setting its password is what ends them), and the user is told by mail.
 */
export class UserFactorsService {
  constructor(
    private readonly context: AppContext,
    private readonly mailer: Mailer,
  ) {}

  private get db() {
    return this.context.dataSource;
  }

  /** The user's factors, never a secret, and whether the caller may reset them. */
  async summary(caller: Caller, scope: CallerScope, id: string): Promise<UserFactorsItem> {
    await visibleUser(this.db, scope, id);
    const factors = await factorSummary(this.db, id);
    if (!factors) throw new AppError('errors.not_found', 404);
    const decision = await resetFactorsDecision(this.db, caller, scope, id);
    return { ...factors, mayReset: decision.ok };
  }

  /**
   * Removes the kinds asked for with their log row in one transaction, the user's row locked: two
   * resets at once apply one after the other, and the second finds nothing left to remove (nor to
   * log or mail). Answers what was actually removed.
   */
  async reset(caller: Caller, scope: CallerScope, id: string, kinds: readonly ResettableFactor[]): Promise<ResetFactorsReply> {
    const removed = await this.db.transaction(async (em) => {
      await userForUpdate(em, scope, id);
      enforce(await resetFactorsDecision(em, caller, scope, id));
      const done = await removeFactors(em, id, kinds);
      if (done.length) await recordFactorChange(em, id, 'factors_reset', { actorId: caller.userId, kinds: done });
      return done;
    });
    if (removed.length) {
      publishUserEvents(this.context, id, ['user.changed']);
      await announceFactorChange(this.context, this.mailer, id, 'factors_reset', { actorId: caller.userId, kinds: removed, logged: true });
    }
    return { removed };
  }
}
