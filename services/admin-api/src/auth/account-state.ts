import { sqlClient, type AppContext, type SqlClient } from '@gatehouse/core';
import type { Acting } from './access-token.js';

/** How long an account's state is reused; a `user.changed` from any node drops it at once anyway. */
export const ACCOUNT_STATE_MAX_AGE_MS = 10_000;
/** Past this many cached accounts the oldest entries go first. */
const MAX_CACHED_ACCOUNTS = 10_000;

interface CachedState {
  active: boolean;
  expiresAt: number;
}

/**
 * Whether the account behind a bearer token may still call the admin API: it exists, is not
 * permanently locked and is not a draft. Asked on every request, so a lock or a deletion stops the
 * account's tokens (an admin JWT lives 15 minutes) on the next call. Answers are cached briefly and
 * dropped when any node broadcasts `user.changed` for the account.
 */
export class AccountStates {
  private readonly cache = new Map<string, CachedState>();
  /** Bumped on every `user.changed`: a read that started before a change must not be cached after it. */
  private generation = 0;
  private readonly sql: SqlClient;
  private readonly stopListening: () => void;

  constructor(
    private readonly context: AppContext,
    private readonly now: () => number = Date.now,
  ) {
    this.sql = sqlClient(context.dataSource, { prepare: !context.pglite });
    this.stopListening = context.broadcast.on('user.changed', ({ userId }) => {
      this.generation += 1;
      if (userId) this.cache.delete(userId);
      else this.cache.clear();
    });
  }

  async isActive(userId: string): Promise<boolean> {
    const hit = this.cache.get(userId);
    if (hit && this.now() < hit.expiresAt) return hit.active;
    const generation = this.generation;
    const { rows } = await this.sql.query<{ locked: boolean; draft: boolean }>(
      'SELECT locked, draft FROM users WHERE id = $1',
      [userId],
      'admin_account_state',
    );
    const active = !!rows[0] && !rows[0].locked && !rows[0].draft;
    if (generation === this.generation) this.remember(userId, active);
    return active;
  }

  /**
   * Whether the impersonation a token names is current: its actor signed in as `userId` right now
   * (Identify As, neither ended nor expired). Read by the impersonation's own id, so a token stops
   * working the moment its impersonation ends, whatever later one of the same two users exists; a
   * token that names none is not current. Never cached.
   */
  async isActing(acting: Acting, userId: string): Promise<boolean> {
    if (!acting.impersonationId) return false;
    const { rows } = await this.sql.query(
      'SELECT 1 FROM impersonations WHERE id = $1 AND actor_id = $2 AND target_id = $3 AND ended_at IS NULL AND expires_at > now()',
      [acting.impersonationId, acting.actorId, userId],
      'admin_impersonation_by_id',
    );
    return rows.length > 0;
  }

  /** Stops listening to account changes (the context's broadcast drops every listener when it closes anyway). */
  close(): void {
    this.stopListening();
  }

  private remember(userId: string, active: boolean): void {
    this.cache.delete(userId);
    if (this.cache.size >= MAX_CACHED_ACCOUNTS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(userId, { active, expiresAt: this.now() + ACCOUNT_STATE_MAX_AGE_MS });
  }
}

