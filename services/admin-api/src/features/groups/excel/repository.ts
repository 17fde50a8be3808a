import type { GroupPermission } from '@gatehouse/core';
import type { Queryable } from '../../../db.js';

/** The group's members and their permissions. */
export async function memberPermissions(db: Queryable, groupId: string): Promise<Map<string, GroupPermission>> {
  const rows = await db.query<Array<{ user_id: string; permission: GroupPermission }>>(
    `SELECT user_id, permission FROM group_members WHERE group_id = $1`,
    [groupId],
  );
  return new Map(rows.map((r) => [r.user_id, r.permission]));
}

/**
 * Runs `work` inside a savepoint of the current transaction: if it fails, what it did is undone
 * and the transaction goes on, so one bad row never takes the others down with it.
 */
export async function inSavepoint<T>(db: Queryable, work: () => Promise<T>): Promise<T> {
  await db.query('SAVEPOINT import_row');
  try {
    const result = await work();
    await db.query('RELEASE SAVEPOINT import_row');
    return result;
  } catch (error) {
    await db.query('ROLLBACK TO SAVEPOINT import_row');
    throw error;
  }
}
