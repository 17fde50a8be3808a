import { AppError, writeSystemLog, type AppContext } from '@gatehouse/core';
import type { EndedSessions, UserSessionInfo, UserSessions } from '@gatehouse/contracts';
import { tellBackchannelApplications } from '../../oidc/backchannel.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import type { ProfileRequest } from '../profile/secret-proof.js';
import { deviceOf } from '../passkeys/relying-party.js';
import { assertRecent } from './recent.js';
import { applicationNames, deleteProviderSession, findLiveSession, findSecurityUser, listLiveSessions, markSessionEnded, type LiveSessionRow } from './repository.js';

/**
 * The browsers where the user is signed in, and signing them out for real: the provider's session,
 * its grants and every token issued in it (refresh tokens included) end, on every node.
 */
export class UserSessionsService {
  constructor(
    private readonly context: AppContext,
    private readonly host: ProviderHost,
  ) {}

  /** The user's live sessions, the last seen first, the asking one marked `current`. */
  async list(request: ProfileRequest): Promise<UserSessions> {
    const db = this.context.dataSource;
    const rows = await listLiveSessions(db, request.accountId);
    const names = await applicationNames(db, [...new Set(rows.flatMap((row) => Object.keys(row.authorizations)))]);
    return { sessions: rows.map((row) => this.present(row, request, names)) };
  }

  /** Signs one of the user's sessions out (this browser's included); needs a recent sign-in. */
  async end(request: ProfileRequest, sessionUid: string): Promise<EndedSessions> {
    await assertRecent(this.context, this.host, request.sessionUid);
    const session = await findLiveSession(this.context.dataSource, request.accountId, sessionUid);
    if (!session) throw new AppError('errors.not_found', 404);
    return { success: true, errors: [], ended: (await this.endOne(request, session)) ? 1 : 0 };
  }

  /** Signs every other session of the user out; needs a recent sign-in. */
  async endOthers(request: ProfileRequest): Promise<EndedSessions> {
    await assertRecent(this.context, this.host, request.sessionUid);
    const others = (await listLiveSessions(this.context.dataSource, request.accountId)).filter((row) => row.session_uid !== request.sessionUid);
    let ended = 0;
    for (const session of others) if (await this.endOne(request, session)) ended++;
    return { success: true, errors: [], ended };
  }

  private present(row: LiveSessionRow, request: ProfileRequest, names: Map<string, string>): UserSessionInfo {
    return {
      id: row.session_uid,
      current: row.session_uid === request.sessionUid,
      browser: deviceOf(row.user_agent, { version: true }),
      ip: row.ip,
      startedAt: row.started_at.toISOString(),
      lastSeenAt: row.last_seen_at.toISOString(),
      amr: row.amr,
      applications: Object.keys(row.authorizations).map((clientId) => names.get(clientId) ?? clientId),
    };
  }

  /**
   * Deletes the session and what was issued in it, makes every node drop its cached copies, then
   * marks it ended and writes the system log in one transaction. False when another request ended it first.
   */
  private async endOne(request: ProfileRequest, session: LiveSessionRow): Promise<boolean> {
    const db = this.context.dataSource;
    const grants = await deleteProviderSession(db, request.accountId, session.session_uid);
    for (const grantId of grants) this.context.broadcast.publish('oidc.invalidated', { grantId });
    const user = await findSecurityUser(db, request.accountId);
    const ended = await db.transaction(async (em) => {
      if (!(await markSessionEnded(em, request.accountId, session.session_uid))) return false;
      await writeSystemLog(em, {
        operation: 'EndSession',
        userId: request.accountId,
        userName: user?.user_name ?? null,
        metadata: { sessionUid: session.session_uid, browser: deviceOf(session.user_agent, { version: true }), ip: session.ip, current: session.session_uid === request.sessionUid },
      });
      return true;
    });
    // Its applications that keep their own session hear of it, as at a sign-out (by the request that ended it, once).
    if (ended) await this.tellApplications(request.accountId, session);
    return ended;
  }

  /** Tells the session's applications with a back-channel logout URI that it ended; a failure is logged, never the user's problem. */
  private async tellApplications(accountId: string, session: LiveSessionRow): Promise<void> {
    for (const { client, error } of await tellBackchannelApplications(this.host.current, accountId, session.authorizations)) {
      if (error) this.context.logger.warn({ clientId: client.clientId, err: error.message }, 'back-channel logout failed');
    }
  }
}
