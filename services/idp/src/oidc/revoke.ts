import type { AppContext } from '@gatehouse/core';

/**
 * Ends everything the provider holds for a user: sessions, grants, codes, access and refresh
 * tokens (all carry the account id), here and in every node's caches. Used after a password change
 * or reset, and when an administrator locks the account.
 */
export async function revokeUserSessions(context: AppContext, userId: string): Promise<number> {
  const result = await context.dataSource.query(`DELETE FROM oidc_model_instances WHERE payload->>'accountId' = $1`, [userId]);
  context.broadcast.publish('oidc.invalidated', { accountId: userId });
  context.broadcast.publish('user.changed', { userId });
  return Number(result[1] ?? 0);
}
