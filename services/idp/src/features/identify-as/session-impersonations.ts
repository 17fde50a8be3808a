import { sqlClient, writeSystemLog, type AppContext, type SqlClient } from '@gatehouse/core';
import type { IdentifyAsEndReason } from '@gatehouse/contracts';
import { endImpersonation, findById, findBySession, type SessionImpersonation } from './repository.js';

export type { SessionImpersonation };

/** Past this many, the oldest session uids known to have no impersonation are forgotten first. */
const MAX_KNOWN_WITHOUT = 100_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who acts, according to a token issued while a God user was signed in as its user. */
export interface Acting {
  actorId: string;
  /** The impersonation the token was issued in; undefined in a token that does not name it. */
  impersonationId?: string;
}

/** Whether the impersonation still holds: not ended, and its time not come. */
export function isLive(impersonation: SessionImpersonation, now = Date.now()): boolean {
  return !impersonation.endedAt && impersonation.expiresAt.getTime() > now;
}

/**
 * The `act` claim (RFC 8693) of what is issued in an impersonated session: the God user acting,
 * and the impersonation itself, so that a token ends with that one and not with whichever of the
 * same God user and user is live when it is presented.
 */
export function actClaim(impersonation: SessionImpersonation): { sub: string; name: string; impersonation_id: string } {
  return { sub: impersonation.actorId, name: impersonation.actorName, impersonation_id: impersonation.id };
}

/**
 * Who acts according to a token's claims (its `act`); undefined when they name nobody. An `act` of
 * any other shape still counts as acting, in no impersonation that could be current: the token is
 * refused rather than taken for the user's own.
 */
export function actingOf(claims: unknown): Acting | undefined {
  const act = (claims as { act?: unknown } | null | undefined)?.act;
  if (act === undefined) return undefined;
  const { sub, impersonation_id: id } = (act ?? {}) as { sub?: unknown; impersonation_id?: unknown };
  return {
    actorId: typeof sub === 'string' ? sub.toLowerCase() : '',
    impersonationId: typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : undefined,
  };
}

/**
 * The provider's view of Identify As: which sessions are impersonations, read where tokens are
 * issued. Sessions are looked up by uid, which every code and token carries. A session gets its uid
 * when it is created and an impersonation always creates a new session, so a uid once found
 * without one never gets one: those answers are kept (bounded), and an ordinary session costs no
 * read after its first. What a request found is noted against it for the provider's lifetimes,
 * which are computed synchronously.
 */
export class SessionImpersonations {
  private readonly sql: SqlClient;
  private readonly without = new Set<string>();
  private readonly noted = new WeakMap<object, SessionImpersonation>();

  constructor(private readonly context: AppContext) {
    this.sql = sqlClient(context.dataSource, { prepare: !context.pglite });
  }

  /**
   * The impersonation of a session, live or over; undefined when it never had one. One whose time
   * has come is ended here (once, whichever request or node notices first) and written to the
   * system log.
   */
  async ofSession(sessionUid: string | undefined): Promise<SessionImpersonation | undefined> {
    if (!sessionUid || this.without.has(sessionUid)) return undefined;
    const impersonation = await findBySession(this.sql, sessionUid);
    if (!impersonation) {
      this.rememberWithout(sessionUid);
      return undefined;
    }
    if (!impersonation.endedAt && !isLive(impersonation)) await this.end(impersonation, 'Expired');
    return impersonation;
  }

  /**
   * Ends the impersonation now (or as expired, when its time has come) and writes the system log:
   * its user is the one signed in as, its actor the God user. Answers how it ended; undefined
   * when it had already ended.
   */
  async end(impersonation: SessionImpersonation, reason: IdentifyAsEndReason): Promise<IdentifyAsEndReason | undefined> {
    const ended = await this.context.dataSource.transaction(async (em) => {
      const how = await endImpersonation(em, impersonation.id, reason);
      if (how) {
        await writeSystemLog(em, {
          operation: 'EndIdentifyAs',
          userId: impersonation.targetId,
          userName: impersonation.targetUserName,
          actorId: impersonation.actorId,
          metadata: { targetUserId: impersonation.targetId, targetUserName: impersonation.targetUserName, actorUserName: impersonation.actorUserName, reason: how },
        });
      }
      return how;
    });
    impersonation.endedAt ??= new Date(Math.min(Date.now(), impersonation.expiresAt.getTime()));
    // Every node closes what was opened under it (the notification hub's sockets).
    if (ended) this.context.broadcast.publish('impersonation.ended', { impersonationId: impersonation.id });
    return ended;
  }

  /**
   * Whether a token of `userId` naming `acting` may still be used: the impersonation it names is
   * that God user's, signed in as that user, neither ended nor past its time, whatever later
   * impersonation of the same two exists. A token that names none is not current. One whose time
   * has come is ended here, as `ofSession` does.
   */
  async isCurrent(acting: Acting, userId: string): Promise<boolean> {
    if (!acting.impersonationId) return false;
    const impersonation = await findById(this.sql, acting.impersonationId);
    if (!impersonation || impersonation.actorId !== acting.actorId || impersonation.targetId !== userId.toLowerCase()) return false;
    if (!impersonation.endedAt && !isLive(impersonation)) await this.end(impersonation, 'Expired');
    return isLive(impersonation);
  }

  /** Notes a live impersonation against the request that found it (`ctx`: the provider's context). */
  note(ctx: object, impersonation: SessionImpersonation): void {
    if (isLive(impersonation)) this.noted.set(ctx, impersonation);
  }

  /** The live impersonation the request noted, if any. */
  notedFor(ctx: object | undefined): SessionImpersonation | undefined {
    return ctx ? this.noted.get(ctx) : undefined;
  }

  /**
   * The live impersonation of a token's session: the one the request noted when it is that
   * session's, else read.
   */
  async liveFor(ctx: object | undefined, sessionUid: string | undefined): Promise<SessionImpersonation | undefined> {
    const noted = this.notedFor(ctx);
    if (noted && noted.sessionUid === sessionUid) return noted;
    const impersonation = await this.ofSession(sessionUid);
    return impersonation && isLive(impersonation) ? impersonation : undefined;
  }

  /**
   * `seconds`, cut to what is left of the request's impersonation (at least 1: the provider
   * refuses a zero lifetime, and a session past its end is refused tokens anyway).
   */
  cap(ctx: object | undefined, seconds: number): number {
    const impersonation = this.notedFor(ctx);
    if (!impersonation) return seconds;
    const left = Math.floor((impersonation.expiresAt.getTime() - Date.now()) / 1000);
    return Math.max(1, Math.min(seconds, left));
  }

  private rememberWithout(sessionUid: string): void {
    if (this.without.size >= MAX_KNOWN_WITHOUT) this.without.delete(this.without.values().next().value!);
    this.without.add(sessionUid);
  }
}
