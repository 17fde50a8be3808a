import { errors } from 'oidc-provider';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DataSource } from 'typeorm';

/** What the adapter needs from TypeORM: a `DataSource` (or an `EntityManager`) will do. */
export type Queryable = Pick<DataSource, 'query'>;

interface StoredRow {
  payload: AdapterPayload;
  consumed: number | null;
}

// Expired rows stay in the table until the sweeper runs, so every read filters them out itself.
const LIVE = '(expires_at IS NULL OR expires_at > now())';
const SELECT = `SELECT payload, floor(extract(epoch FROM consumed_at))::double precision AS consumed FROM oidc_model_instances`;

// Consumption is one-way: re-saving a consumed artefact must not make it redeemable again, unless
// the row it replaces had already expired (then it is a new artefact that happens to reuse the id).
const UPSERT = `
  INSERT INTO oidc_model_instances AS o (model, id, payload, grant_id, user_code, uid, expires_at, consumed_at)
  VALUES ($1, $2, $3::jsonb, $4, $5, $6, now() + $7::double precision * interval '1 second', to_timestamp($8::double precision))
  ON CONFLICT (model, id) DO UPDATE SET
    payload = EXCLUDED.payload,
    grant_id = EXCLUDED.grant_id,
    user_code = EXCLUDED.user_code,
    uid = EXCLUDED.uid,
    expires_at = EXCLUDED.expires_at,
    consumed_at = CASE WHEN o.expires_at <= now() THEN EXCLUDED.consumed_at ELSE COALESCE(o.consumed_at, EXCLUDED.consumed_at) END`;

// TypeORM's postgres driver answers UPDATE and DELETE with `[rows, rowCount]` instead of the rows.
function affectedRows(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

function toPayload(row: StoredRow | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  return row.consumed === null ? row.payload : { ...row.payload, consumed: row.consumed };
}

/**
 * oidc-provider storage for one model (Session, AuthorizationCode, RefreshToken, Grant, …) in the
 * `oidc_model_instances` table, shared by every node.
 *
 * Expired rows are never returned, even before {@link sweepExpired} deletes them. `consume` is an
 * atomic compare-and-set, so of two nodes redeeming the same code or refresh token exactly one wins
 * and the other gets `invalid_grant`.
 */
export class PostgresAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly db: Queryable,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    // consumed_at is the single source of truth for consumption; find() puts it back in the payload.
    const { consumed, ...stored } = payload;
    await this.db.query(UPSERT, [
      this.model,
      id,
      JSON.stringify(stored),
      payload.grantId ?? null,
      payload.userCode ?? null,
      payload.uid ?? null,
      typeof expiresIn === 'number' && Number.isFinite(expiresIn) ? expiresIn : null,
      typeof consumed === 'number' ? consumed : consumed ? Date.now() / 1000 : null,
    ]);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.findOne('id', id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findOne('uid', uid);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findOne('user_code', userCode);
  }

  /** Marks the artefact consumed; throws `InvalidGrant` when it already was (or is gone or expired). */
  async consume(id: string): Promise<void> {
    const result = await this.db.query(
      `UPDATE oidc_model_instances SET consumed_at = now() WHERE model = $1 AND id = $2 AND consumed_at IS NULL AND ${LIVE}`,
      [this.model, id],
    );
    // The loser of a race must not revoke the grant: the winner's freshly issued tokens belong to it.
    if (affectedRows(result) !== 1) throw new errors.InvalidGrant(`${this.model} already consumed`);
  }

  async destroy(id: string): Promise<void> {
    await this.db.query('DELETE FROM oidc_model_instances WHERE model = $1 AND id = $2', [this.model, id]);
  }

  /** Deletes this model's rows of the grant; oidc-provider calls it once per grantable model. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.query('DELETE FROM oidc_model_instances WHERE model = $1 AND grant_id = $2', [this.model, grantId]);
  }

  private async findOne(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const rows: StoredRow[] = await this.db.query(`${SELECT} WHERE model = $1 AND ${column} = $2 AND ${LIVE} LIMIT 1`, [
      this.model,
      value,
    ]);
    return toPayload(rows[0]);
  }
}

/**
 * Deletes expired rows of every model, `batchSize` at a time so no single statement holds locks on
 * a large backlog. Resolves to the number of rows deleted.
 */
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
