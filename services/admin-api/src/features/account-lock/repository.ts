import { unlockUser, writeAuthenticationLog } from '@gatehouse/core';
import type { EntityManager } from 'typeorm';
import type { Queryable } from '../../db.js';

/** The permanent administrative lock: only an administrator lifts it. */
export async function lockUser(db: Queryable, id: string, modifiedById: string): Promise<void> {
  await db.query(`UPDATE users SET locked = true, modified_by_id = $2, modified_on = now() WHERE id = $1`, [id, modifiedById]);
}

/** Lifts every lock and clears the failure counters (core's unlockUser), recording who did it. */
export async function unlock(db: EntityManager, id: string, modifiedById: string): Promise<void> {
  await unlockUser(db, id);
  await db.query(`UPDATE users SET modified_by_id = $2 WHERE id = $1`, [id, modifiedById]);
}

/** The Authentication Logs page's row for an unlock (result Unlocked). */
export async function logUnlocked(db: EntityManager, user: { id: string; userName: string }, reason: string): Promise<void> {
  await writeAuthenticationLog(db, { userId: user.id, userName: user.userName, result: 'Unlocked', reason, provider: 'Local' });
}
