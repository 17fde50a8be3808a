import { errors } from 'oidc-provider';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Queryable, SqlClient } from '@gatehouse/core';
import type { DataSource } from 'typeorm';
import { CONSUMABLE_MODELS, OidcStore, type StoredRow } from './oidc-store.js';

// Expired rows stay in the table until the sweeper runs, so every read filters them out itself.
const LIVE = '(expires_at IS NULL OR expires_at > now())';
const SELECT = `SELECT payload, floor(extract(epoch FROM consumed_at))::double precision AS consumed FROM oidc_model_instances`;

function toPayload(row: Pick<StoredRow, 'payload' | 'consumed'> | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  return row.consumed === null ? row.payload : { ...row.payload, consumed: row.consumed };
}

const FIND_BY = {
  user_code: `${SELECT} WHERE model = $1 AND user_code = $2 AND ${LIVE} LIMIT 1`,
};
const DESTROY = 'DELETE FROM oidc_model_instances WHERE model = $1 AND id = $2';
// A device code is confirmed once: the write that marks it in flight wins only over a code nobody has confirmed or refused.
const CLAIM = `UPDATE oidc_model_instances SET payload = $3 WHERE model = $1 AND id = $2 AND ${LIVE}
                  AND NOT (payload ? 'inFlight' OR payload ? 'accountId' OR payload ? 'error') RETURNING id`;
const REVOKE = 'DELETE FROM oidc_model_instances WHERE model = $1 AND grant_id = $2';

/**
 * oidc-provider's storage on PostgreSQL: every model in `oidc_model_instances`, through the node's
 * {@link OidcStore} (group commit, batched reads, cache of immutable tokens). Codes and refresh
 * tokens are consumed with a compare-and-set, so of two nodes redeeming one, exactly one succeeds;
 * the other answers `invalid_grant`.
 */
export class PostgresAdapter implements Adapter {
  private readonly store: OidcStore;

  constructor(
    private readonly model: string,
    db: DataSource | SqlClient | OidcStore,
  ) {
    this.store = db instanceof OidcStore ? db : new OidcStore(db);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const { consumed, ...stored } = payload;
    const lifetime = typeof expiresIn === 'number' && Number.isFinite(expiresIn) ? expiresIn : null;
    await this.store.upsert({
      model: this.model,
      id,
      payload: stored,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresIn: lifetime,
      consumed: typeof consumed === 'number' ? consumed : consumed ? Date.now() / 1000 : null,
    });
    if (this.store.isShared(this.model)) this.store.invalidateOthers(this.model, id);
    this.store.remember(this.model, id, stored, lifetime === null ? null : Date.now() + lifetime * 1000);
    if (consumed) this.store.markConsumed(this.model, id);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const cached = this.store.cached(this.model, id);
    if (cached) return cached;
    const known = this.store.cachedModel(id);
    if (known && known !== this.model) return undefined;
    const row = await this.store.find(this.model, id);
    if (row && row.consumed === null) this.store.remember(this.model, id, row.payload, row.expires_at_ms);
    return toPayload(row);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return toPayload(await this.store.findByUid(this.model, uid));
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findOne('user_code', userCode);
  }

  /** Stores `payload` only over a row nobody has confirmed or refused yet (RFC 8628 user codes); whether it did. */
  async claim(id: string, payload: AdapterPayload): Promise<boolean> {
    const { rowCount } = await this.store.sql.query(CLAIM, [this.model, id, payload], 'oidc_claim');
    return rowCount === 1;
  }

  async consume(id: string): Promise<void> {
    const cached = this.store.cached(this.model, id);
    if (await this.store.consume(this.model, id)) {
      this.store.markConsumed(this.model, id);
      return;
    }
    // The provider redeems only what it found unused; yet it was redeemed elsewhere (another node,
    // or a concurrent request): reuse, which ends the grant.
    if (CONSUMABLE_MODELS.has(this.model) && !cached?.consumed) {
      const grantId = cached?.grantId ?? (await this.store.grantIdOf(this.model, id));
      if (typeof grantId === 'string') await this.store.revokeGrant(grantId);
      this.store.onReuse?.(this.model);
    }
    throw new errors.InvalidGrant(`${this.model} already consumed`);
  }

  async destroy(id: string): Promise<void> {
    await this.store.sql.query(DESTROY, [this.model, id], 'oidc_destroy');
    this.store.invalidate(this.model, { id });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.store.sql.query(REVOKE, [this.model, grantId], 'oidc_revoke');
    this.store.invalidate(this.model, { grantId });
  }

  private async findOne(column: 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const { rows } = await this.store.sql.query<StoredRow & Record<string, unknown>>(FIND_BY[column], [this.model, value], `oidc_find_${column}`);
    return toPayload(rows[0]);
  }
}

/** TypeORM answers an UPDATE or DELETE on postgres as `[rows, affectedCount]`. */
function affectedRows(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

export async function sweepExpired(db: Queryable, { batchSize = 1000 }: { batchSize?: number } = {}): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.query(
      `DELETE FROM oidc_model_instances WHERE ctid IN (
         SELECT ctid FROM oidc_model_instances WHERE expires_at < now() LIMIT $1)`,
      [batchSize],
    );
    const deleted = affectedRows(result);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/** The part of a pino logger the sweeper uses. */
export interface SweeperLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}

/**
 * Runs {@link sweepExpired} every `intervalMs` without keeping the process alive. Failures are
 * logged, never thrown; a sweep still running when the next one is due makes that one skip.
 */
export function startSweeper(
  db: Queryable,
  { intervalMs, logger, batchSize }: { intervalMs: number; logger: SweeperLogger; batchSize?: number },
): { stop(): void } {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const deleted = await sweepExpired(db, { batchSize });
      if (deleted > 0) logger.info({ deleted }, 'expired OIDC artefacts swept');
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'sweeping expired OIDC artefacts failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep().catch(() => undefined), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
