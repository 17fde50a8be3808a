import type { AppContext } from '@gatehouse/core';
import type { Context, Next } from 'koa';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { SessionImpersonations } from '../identify-as/session-impersonations.js';
import { recordUserSession, type SessionFacts } from './repository.js';

/**
 * Keeps `user_sessions` up to date with the provider's sessions, for "My security": each
 * authorization the provider grants notes its session (where from, how it signed in, when last
 * seen). A failure is logged and never stops the authorization. A session a God user is signed in
 * to as the user is not the user's browser: it is left out.
 */
export class SessionRecorder {
  private readonly pending = new WeakMap<object, Promise<void>>();

  constructor(
    private readonly context: AppContext,
    private readonly impersonations: SessionImpersonations,
  ) {}

  /** The provider's `authorization.success` listener: starts writing the session's row. */
  readonly authorized = (ctx: KoaContextWithOIDC): void => {
    const facts = factsOf(ctx);
    if (!facts) return;
    this.pending.set(ctx, this.record(facts).catch((error: Error) => this.context.logger.warn({ err: error.message }, 'recording the session failed')));
  };

  /** Provider middleware: the answer waits for the row, so the session is listed once the browser has its code. */
  readonly middleware = async (ctx: Context, next: Next): Promise<void> => {
    await next();
    await this.pending.get(ctx);
  };

  private async record(facts: SessionFacts): Promise<void> {
    if (await this.impersonations.ofSession(facts.sessionUid)) return;
    await recordUserSession(this.context.dataSource, facts);
  }
}

/** The session an authorization was granted in, as recorded; undefined when nobody is signed in. */
function factsOf(ctx: KoaContextWithOIDC): SessionFacts | undefined {
  const { session } = ctx.oidc;
  if (!session?.accountId || !session.uid) return undefined;
  return {
    sessionUid: session.uid,
    userId: session.accountId,
    userAgent: ctx.get('user-agent') || null,
    ip: ctx.ip || null,
    amr: Array.isArray(session.amr) ? session.amr.map(String) : [],
    loginTs: Number(session.authTime()) || Math.floor(Date.now() / 1000),
  };
}
