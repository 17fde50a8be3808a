import { AppError, assertMayIdentifyAs, consumeUserToken, findUserToken, securitySettings, type AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { SESSION_COOKIE } from '../../oidc/provider.js';
import { homePath } from '../account/interaction.js';
import { findOpenByActor, insertImpersonation, type SessionImpersonation } from './repository.js';

/** A provider session as Identify As handles it. */
type Session = Awaited<ReturnType<Provider['Session']['get']>>;


const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Identify As, on the provider's side: the God user's browser redeems the console's one-time code
 * and its provider session becomes the user's, for a bounded time; the portal ends it.
 */
export class IdentifyAsSessions {
  constructor(
    private readonly context: AppContext,
    private readonly host: ProviderHost,
  ) {}

  /**
   * Redeems `code` in the browser of `ctx`, whose provider session must be the God user's who asked
   * for it (a leaked code is of no use to anyone else), once (a compare-and-set), with the
   * directory checked again. The God user's session and its grants end; a new session, signed in
   * as the user, takes its cookie. Answers where the browser goes next.
   */
  async start(ctx: Context, code: string | undefined): Promise<string> {
    const { config, dataSource } = this.context;
    if (!config.identifyAs.enabled) throw new AppError('identifyAs.disabled', 404);
    const issued = code ? await findUserToken(this.context, code, 'IdentifyAs') : undefined;
    if (!issued) throw new AppError('identifyAs.invalid_code', 400);
    const provider = this.host.current;
    const current = await provider.Session.get(ctx);
    // Checked before the code is spent: another browser's attempt leaves it to its owner.
    if (!current.accountId || current.accountId !== issued.user_id) throw new AppError('identifyAs.other_session', 403);
    if (!(await consumeUserToken(this.context, issued.id))) throw new AppError('identifyAs.invalid_code', 400);
    const { actor, target } = await assertMayIdentifyAs(dataSource, issued.user_id, String(issued.context.targetId ?? ''));
    // One user at a time: whatever the God user was still signed in as elsewhere ends now.
    for (const previous of await findOpenByActor(dataSource, actor.id)) await this.close(previous);

    const next = new provider.Session();
    const impersonation = await insertImpersonation(dataSource, {
      actorId: actor.id,
      targetId: target.id,
      sessionUid: next.uid,
      minutes: config.identifyAs.maxMinutes,
    });
    // The session signed in when the impersonation began (the ID tokens' auth_time).
    next.loginAccount({ accountId: target.id, loginTs: epochSeconds(impersonation.startedAt), transient: Boolean(current.transient) });
    await this.endSession(current);
    const left = epochSeconds(impersonation.expiresAt) - epochSeconds(new Date());
    await next.save(Math.max(1, Math.min(securitySettings(this.context).current().TokenLifetimes.sessionSeconds, left)));
    provider
      .createContext(ctx.req, ctx.res)
      .cookies.set(provider.cookieName('session'), next.jti, { ...SESSION_COOKIE.options, ...(next.transient ? {} : { expires: impersonation.expiresAt }) });
    return homePath(this.context);
  }

  /**
   * Ends the impersonation of the session `sessionUid` (the portal's "End"): written to the system
   * log, the session's grants and tokens revoked and the session closed, so that the God user signs
   * in again as themself. Answers where the browser goes next.
   */
  async end(sessionUid: string | undefined): Promise<string> {
    const impersonation = await this.host.impersonations.ofSession(sessionUid);
    if (!impersonation) throw new AppError('identifyAs.not_impersonating', 409);
    await this.close(impersonation);
    return homePath(this.context);
  }

  /** Ends an impersonation (logged once) and its provider session, with the session's grants. */
  private async close(impersonation: SessionImpersonation): Promise<void> {
    await this.host.impersonations.end(impersonation, 'Ended');
    const session = await this.host.current.Session.findByUid(impersonation.sessionUid);
    if (session) await this.endSession(session);
  }

  /** Ends a provider session: every grant it holds (with their codes and tokens), then the session. */
  private async endSession(session: Session): Promise<void> {
    const grants = Object.values(session.authorizations ?? {})
      .map((authorization) => authorization.grantId)
      .filter((grantId): grantId is string => typeof grantId === 'string');
    for (const grantId of grants) await this.host.revokeGrant(grantId);
    await session.destroy();
  }
}
