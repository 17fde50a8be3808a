import { AppError, type AppContext } from '@gatehouse/core';
import type { EntityManager } from 'typeorm';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { CallerScope } from '../../auth/scope.js';
import { actorOf, assertMayManage, endProviderSessions, publishUserEvents, userForUpdate, type Actor, type UserStateRow } from '../users/access.js';
import { lockUser, logUnlocked, unlock } from './repository.js';

/** The user as the lock and unlock confirmations show them. */
const lockedView = (user: UserStateRow, locked: boolean) => ({
  id: user.id,
  userName: user.user_name,
  firstName: user.first_name,
  lastName: user.last_name,
  locked,
});

/**
 * Locks `current` (row-locked by the caller, who checked the rules) inside `em`'s transaction: the
 * permanent lock, the end of its sessions, grants and tokens, and the LockUser row (plus `origin`,
 * e.g. the provisioning client). The caller publishes `oidc.invalidated` and `user.changed` once
 * committed.
 */
export async function lockAccount(em: EntityManager, actor: Actor, current: UserStateRow, origin: Record<string, unknown> = {}): Promise<void> {
  await lockUser(em, current.id, actor.userId);
  const sessionsEnded = await endProviderSessions(em, current.id);
  await writeSystemLog(em, {
    operation: 'LockUser',
    ...actor,
    metadata: { targetUserId: current.id, targetUserName: current.user_name, wasLocked: current.locked, sessionsEnded, ...origin },
  });
}

/** Lifts every lock of `current` and clears its failure counters, with its rows in both logs; the caller publishes `user.changed`. */
export async function unlockAccount(em: EntityManager, actor: Actor, current: UserStateRow, origin: Record<string, unknown> = {}): Promise<void> {
  await unlock(em, current.id, actor.userId);
  await logUnlocked(em, { id: current.id, userName: current.user_name }, `Unlocked by ${actor.userName ?? actor.userId}`);
  await writeSystemLog(em, {
    operation: 'UnlockUser',
    ...actor,
    metadata: { targetUserId: current.id, targetUserName: current.user_name, wasLocked: current.locked, ...origin },
  });
}

/**
 * Locking and unlocking accounts. Nobody locks or unlocks their own account (a locked
 * administrator whose token still works must not undo the lock), nor an account that outranks them.
 */
export class AccountLockService {
  constructor(private readonly context: AppContext) {}

  private get db() {
    return this.context.dataSource;
  }

  /** The permanent administrative lock; the user's sessions, grants and tokens end with it. */
  async lock(caller: Caller, scope: CallerScope, id: string) {
    if (id === caller.userId) throw new AppError('users.cannot_lock_self', 400);
    const actor = await actorOf(this.db, caller);
    const user = await this.db.transaction(async (em) => {
      const current = await userForUpdate(em, scope, id);
      await assertMayManage(em, scope, id);
      await lockAccount(em, actor, current);
      return current;
    });
    publishUserEvents(this.context, id, ['oidc.invalidated', 'user.changed']);
    if (!user.locked) this.context.metrics.lockouts.inc({ cause: 'administrator', kind: 'permanent' });
    return lockedView(user, true);
  }

  /** Lifts the permanent lock and any temporary lockout, and clears the failure counters. */
  async unlock(caller: Caller, scope: CallerScope, id: string) {
    if (id === caller.userId) throw new AppError('users.cannot_unlock_self', 400);
    const actor = await actorOf(this.db, caller);
    const user = await this.db.transaction(async (em) => {
      const current = await userForUpdate(em, scope, id);
      await assertMayManage(em, scope, id);
      await unlockAccount(em, actor, current);
      return current;
    });
    publishUserEvents(this.context, id, ['user.changed']);
    return lockedView(user, false);
  }
}
