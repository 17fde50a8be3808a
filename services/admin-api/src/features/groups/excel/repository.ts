import type { GroupPermission } from '@gatehouse/core';
import type { Queryable } from '../../../db.js';

export interface LoginMatch {
  id: string;
  userName: string;
  normalizedUserName: string;
  normalizedEmail: string;
  areaId: string;
}

/** Every user whose user name or e-mail is one of these (lower-cased) logins, in one query. */
export async function findUsersByLogin(db: Queryable, logins: string[]): Promise<LoginMatch[]> {
  if (!logins.length) return [];
  const rows = await db.query<Array<{ id: string; user_name: string; normalized_user_name: string; normalized_email: string; area_id: string }>>(
    `SELECT id, user_name, normalized_user_name, normalized_email, area_id
       FROM users
      WHERE normalized_user_name = ANY($1::text[]) OR normalized_email = ANY($1::text[])`,
    [logins],
  );
  return rows.map((r) => ({
    id: r.id,
    userName: r.user_name,
    normalizedUserName: r.normalized_user_name,
    normalizedEmail: r.normalized_email,
    areaId: r.area_id,
  }));
}

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
