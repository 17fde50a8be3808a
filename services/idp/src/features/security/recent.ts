import { AppError, type AppContext } from '@gatehouse/core';
import { RECENT_SIGN_IN_SECONDS } from '@gatehouse/contracts';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { sessionAuthTime } from '../profile/koa-account-auth.js';

/**
 * Until when this session may change the user's factors or end sessions without confirming the
 * password: ten minutes after signing in, or after the password was last confirmed in it.
 * Undefined when that time has passed (or the session is gone).
 */
export async function recentUntil(context: AppContext, host: ProviderHost, sessionUid: string | undefined): Promise<Date | undefined> {
  if (!sessionUid) return undefined;
  const authTime = await sessionAuthTime(host, sessionUid);
  if (authTime === undefined) return undefined;
  const [row] = await context.dataSource.query('SELECT reauthenticated_at FROM user_sessions WHERE session_uid = $1', [sessionUid]);
  const confirmedAt = Math.max(authTime * 1000, row?.reauthenticated_at ? (row.reauthenticated_at as Date).getTime() : 0);
  const until = confirmedAt + RECENT_SIGN_IN_SECONDS * 1000;
  return until > Date.now() ? new Date(until) : undefined;
}

/** Refuses a change of factors (or the end of sessions) unless the session signed in or confirmed the password recently. */
export async function assertRecent(context: AppContext, host: ProviderHost, sessionUid: string | undefined): Promise<void> {
  if (!(await recentUntil(context, host, sessionUid))) throw new AppError('account.reauthentication_required', 403);
}
