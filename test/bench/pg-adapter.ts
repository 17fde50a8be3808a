// The durable reference: what someone who picks oidc-provider and keeps its data in PostgreSQL
// writes from the library's adapter interface. One table for every model (`kind`), one upsert per
// save, one select per find, consume as one update; expired rows are never answered.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type pg from 'pg';

export const STORE_TABLE = `
CREATE TABLE IF NOT EXISTS oidc_store (
  kind        text        NOT NULL,
  id          text        NOT NULL,
  payload     jsonb       NOT NULL,
  grant_id    text,
  uid         text,
  user_code   text,
  expires_at  timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS oidc_store_grant ON oidc_store (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS oidc_store_uid ON oidc_store (uid) WHERE uid IS NOT NULL;
CREATE INDEX IF NOT EXISTS oidc_store_user_code ON oidc_store (user_code) WHERE user_code IS NOT NULL;
`;

const LIVE = '(expires_at IS NULL OR expires_at > now())';

export class PostgresAdapter implements Adapter {
  constructor(
    private readonly pool: pg.Pool,
    private readonly kind: string,
  ) {}

  static async prepare(pool: pg.Pool): Promise<void> {
    await pool.query(STORE_TABLE);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO oidc_store (kind, id, payload, grant_id, uid, user_code, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + $7::int * interval '1 second' END)
       ON CONFLICT (kind, id) DO UPDATE
         SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
      [this.kind, id, payload, payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiresIn ?? null],
    );
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.one(`kind = $1 AND id = $2`, id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.one(`kind = $1 AND uid = $2`, uid);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.one(`kind = $1 AND user_code = $2`, userCode);
  }

  async consume(id: string): Promise<void> {
    await this.pool.query(`UPDATE oidc_store SET consumed_at = now() WHERE kind = $1 AND id = $2`, [this.kind, id]);
  }

  async destroy(id: string): Promise<void> {
    await this.pool.query(`DELETE FROM oidc_store WHERE kind = $1 AND id = $2`, [this.kind, id]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.pool.query(`DELETE FROM oidc_store WHERE kind = $1 AND grant_id = $2`, [this.kind, grantId]);
  }

  private async one(where: string, value: string): Promise<AdapterPayload | undefined> {
    const { rows } = await this.pool.query<{ payload: AdapterPayload; consumed: number | null }>(
      `SELECT payload, extract(epoch FROM consumed_at)::int AS consumed FROM oidc_store WHERE ${where} AND ${LIVE}`,
      [this.kind, value],
    );
    const row = rows[0];
    if (!row) return undefined;
    return row.consumed === null ? row.payload : { ...row.payload, consumed: row.consumed };
  }
}
