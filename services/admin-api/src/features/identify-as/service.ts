import { AppError, assertMayIdentifyAs, issueUserToken, writeSystemLog, type AppContext } from '@gatehouse/core';
import { IDENTIFY_AS_CODE_TTL_SECONDS, IDENTIFY_AS_START_PATH, type IdentifyAsEnabled, type IdentifyAsStarted } from '@gatehouse/contracts';
import type { Caller } from '../../auth/koa-admin-auth.js';

/**
 * Identify As, on the console's side: whether it is offered, and the one-time code that hands a
 * God user's console session over to the identity provider, which does the signing in.
 */
export class IdentifyAsService {
  constructor(private readonly context: AppContext) {}

  /** Offered to God only, and only where the deployment enables it. */
  availability(caller: Caller): IdentifyAsEnabled {
    const { enabled, maxMinutes } = this.context.config.identifyAs;
    return { enabled: enabled && caller.roles.includes('God'), maxMinutes };
  }

  /**
   * Issues the code (single use, 60 s, bound to the God user: only their browser's provider
   * session redeems it) and answers the provider's page that redeems it. The request is written
   * to the system log with the code, or neither is.
   */
  async start(caller: Caller, targetId: string): Promise<IdentifyAsStarted> {
    const { config, dataSource } = this.context;
    if (!config.identifyAs.enabled) throw new AppError('identifyAs.disabled', 404);
    if (caller.actorId) throw new AppError('identifyAs.already_impersonating', 409);
    // A personal access token is a script's credential: only someone at the console starts this.
    if (caller.kind !== 'access_token') throw new AppError('identifyAs.interactive_only', 403);
    const { actor, target } = await assertMayIdentifyAs(dataSource, caller.userId, targetId);
    const { token } = await dataSource.transaction(async (em) => {
      const issued = await issueUserToken(
        this.context,
        { userId: actor.id, purpose: 'IdentifyAs', ttlSeconds: IDENTIFY_AS_CODE_TTL_SECONDS, data: { targetId: target.id } },
        em,
      );
      await writeSystemLog(em, {
        operation: 'IdentifyAs',
        userId: actor.id,
        userName: actor.userName,
        metadata: { targetUserId: target.id, targetUserName: target.userName, maxMinutes: config.identifyAs.maxMinutes },
      });
      return issued;
    });
    // Appended, not resolved: the public URL may have a path (the base path) that the start path goes under.
    const url = new URL(`${config.server.publicUrl}${IDENTIFY_AS_START_PATH}`);
    url.searchParams.set('code', token);
    return { redirectUrl: url.toString() };
  }
}
