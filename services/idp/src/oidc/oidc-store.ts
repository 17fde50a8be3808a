import { sqlClient, type Broadcast, type SqlClient } from '@gatehouse/core';
import type { AdapterPayload } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { MicroBatch } from './micro-batch.js';

/**
 * Models whose stored payload never changes after it is written (they are only deleted): safe to
 * serve from memory. Consumable models (codes, refresh tokens) and mutable ones (sessions,
 * interactions, grants) are always read from the database.
 */
export const CACHEABLE_MODELS = new Set(['AccessToken', 'ClientCredentials', 'Grant']);
/**
 * Single-use models, kept in memory by the node that wrote them so that redeeming one costs no read.
 * The cached copy never decides: the compare-and-set of {@link OidcStore.consume} does, and a lost
 * one revokes the grant (another node, or a concurrent request, redeemed it first: RFC 9700 reuse).
 */
export const CONSUMABLE_MODELS = new Set(['AuthorizationCode', 'RefreshToken']);
const kept = (model: string) => CACHEABLE_MODELS.has(model) || CONSUMABLE_MODELS.has(model);
const CACHE_LIMIT = 50_000;
/**
 * Longest a cached entry is trusted. Invalidation reaches every node at once through Redis; a
 * deployment of several nodes without Redis sees another node's revocation within this delay.
 */
const CACHE_MAX_AGE_MS = 60_000;

export interface StoredRow {
  model: string;
  id: string;
  payload: AdapterPayload;
  consumed: number | null;
  expires_at_ms: number | null;
}

const UPSERT_MANY = `
  INSERT INTO oidc_model_instances AS o (model, id, payload, grant_id, user_code, uid, expires_at, consumed_at)
  SELECT r.model, r.id, r.payload, r.grant_id, r.user_code, r.uid,
         now() + r.expires_in * interval '1 second', to_timestamp(r.consumed)
    FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::float8[])
         AS r(model, id, payload, grant_id, user_code, uid, expires_in, consumed)
  ON CONFLICT (model, id) DO UPDATE SET
    payload = EXCLUDED.payload,
    grant_id = EXCLUDED.grant_id,
    user_code = EXCLUDED.user_code,
    uid = EXCLUDED.uid,
    expires_at = EXCLUDED.expires_at,
    consumed_at = CASE WHEN o.expires_at <= now() THEN EXCLUDED.consumed_at ELSE COALESCE(o.consumed_at, EXCLUDED.consumed_at) END`;

const FIND_MANY = `
  SELECT o.model, o.id, o.payload, floor(extract(epoch FROM o.consumed_at))::float8 AS consumed,
         (extract(epoch FROM o.expires_at) * 1000)::float8 AS expires_at_ms
    FROM oidc_model_instances o
    JOIN unnest($1::text[], $2::text[]) AS k(model, id) ON o.model = k.model AND o.id = k.id
   WHERE o.expires_at IS NULL OR o.expires_at > now()`;

const FIND_MANY_BY_UID = `
  SELECT DISTINCT ON (o.model, o.uid) o.model, o.id, o.uid, o.payload,
         floor(extract(epoch FROM o.consumed_at))::float8 AS consumed,
         (extract(epoch FROM o.expires_at) * 1000)::float8 AS expires_at_ms
    FROM oidc_model_instances o
    JOIN unnest($1::text[], $2::text[]) AS k(model, uid) ON o.model = k.model AND o.uid = k.uid
   WHERE o.expires_at IS NULL OR o.expires_at > now()`;

const CONSUME_MANY = `
  UPDATE oidc_model_instances o SET consumed_at = now()
    FROM (SELECT DISTINCT * FROM unnest($1::text[], $2::text[]) AS k(model, id)) k
   WHERE o.model = k.model AND o.id = k.id AND o.consumed_at IS NULL
     AND (o.expires_at IS NULL OR o.expires_at > now())
  RETURNING o.model, o.id`;

const GRANT_OF = 'SELECT grant_id FROM oidc_model_instances WHERE model = $1 AND id = $2';
const REVOKE_GRANT = `DELETE FROM oidc_model_instances WHERE grant_id = $1 OR (model = 'Grant' AND id = $1)`;

export interface UpsertRow {
  model: string;
  id: string;
  payload: AdapterPayload;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  expiresIn: number | null;
  consumed: number | null;
}

/** A stored entry's identity: its model and its id (or, for lookups by uid, its uid). */
type ModelKey = {
  model: string;
  id: string;
};

const keyOf = (key: ModelKey): string => `${key.model}\u0000${key.id}`;

/** The two array parameters the batched statements unnest into (model, id) pairs. */
const columnsOf = (keys: ModelKey[]): [string[], string[]] => [keys.map((k) => k.model), keys.map((k) => k.id)];

/**
 * What the provider's adapters share on one node: the SQL client, group commit of writes, batched
 * reads, and a write-through cache of immutable tokens. Upserts and reads issued in the same turn of
 * the event loop go to the database as one statement each: a token endpoint under load then costs
 * one round trip per batch instead of one per token, and every caller still waits for its own
 * write to be committed before answering.
 */
export class OidcStore {
  readonly sql: SqlClient;
  private readonly cache = new Map<
    string,
    { payload: AdapterPayload; grantId?: string; expiresAt: number | null; cachedAt: number; consumed?: number }
  >();
  private readonly upserts = new MicroBatch<UpsertRow, void>((rows) => this.upsertMany(rows));
  private readonly reads = new MicroBatch<ModelKey, StoredRow | undefined>((keys) => this.findMany(keys));
  private readonly uidReads = new MicroBatch<ModelKey, StoredRow | undefined>((keys) => this.findManyByUid(keys));
  private readonly consumes = new MicroBatch<ModelKey, boolean>((keys) => this.consumeMany(keys));
  private readonly unsubscribe?: () => void;

  /** Told when a single-use token turns out redeemed already (by another node or a concurrent request). */
  readonly onReuse?: (model: string) => void;

  constructor(
    db: DataSource | SqlClient,
    private readonly broadcast?: Broadcast,
    options: { prepare?: boolean; onReuse?: (model: string) => void } = {},
  ) {
    this.sql = 'driver' in db ? sqlClient(db, { prepare: options.prepare ?? false }) : db;
    this.onReuse = options.onReuse;
    this.unsubscribe = broadcast?.on('oidc.invalidated', ({ model, id, grantId, accountId }) =>
      accountId ? this.forgetAccount(accountId) : model ? this.forget(model, id, grantId) : grantId && this.forgetGrant(grantId),
    );
  }

  close(): void {
    this.unsubscribe?.();
    this.cache.clear();
  }

  /**
   * The model an id is cached under on this node. Token ids are random and unique across models,
   * so an id known as an access token is no refresh token: that lookup needs no round trip.
   */
  cachedModel(id: string): string | undefined {
    for (const model of CACHEABLE_MODELS) if (this.cache.has(`${model}\u0000${id}`)) return model;
    return undefined;
  }

  /**
   * Cached payload of a token, if this node has it and it has not expired; a single-use one this
   * node consumed carries `consumed`.
   */
  cached(model: string, id: string): AdapterPayload | undefined {
    const entry = this.cache.get(`${model}\u0000${id}`);
    if (!entry) return undefined;
    if ((entry.expiresAt !== null && entry.expiresAt <= Date.now()) || entry.cachedAt + CACHE_MAX_AGE_MS <= Date.now()) {
      this.cache.delete(`${model}\u0000${id}`);
      return undefined;
    }
    // A copy: the provider may change what it is given.
    return entry.consumed === undefined ? { ...entry.payload } : { ...entry.payload, consumed: entry.consumed };
  }

  remember(model: string, id: string, payload: AdapterPayload, expiresAt: number | null): void {
    if (!kept(model)) return;
    if (this.cache.size >= CACHE_LIMIT) {
      // Drop the oldest tenth; Map iteration is in insertion order.
      let drop = CACHE_LIMIT / 10;
      for (const key of this.cache.keys()) {
        if (drop-- <= 0) break;
        this.cache.delete(key);
      }
    }
    const key = `${model}\u0000${id}`;
    // Saving a consumed single-use token again leaves it consumed, as the database does.
    const consumed = this.cache.get(key)?.consumed;
    this.cache.set(key, { payload, grantId: payload.grantId, expiresAt, cachedAt: Date.now(), consumed });
  }

  /** Notes that this node consumed a cached single-use token. */
  markConsumed(model: string, id: string): void {
    const entry = this.cache.get(`${model}\u0000${id}`);
    if (entry) entry.consumed = Math.floor(Date.now() / 1000);
  }

  /** The grant a stored entry belongs to, if the entry is still there. */
  async grantIdOf(model: string, id: string): Promise<string | undefined> {
    const { rows } = await this.sql.query<{ grant_id: string | null }>(GRANT_OF, [model, id], 'oidc_grant_of');
    return rows[0]?.grant_id ?? undefined;
  }

  /**
   * Ends a grant whose single-use token was redeemed twice: the grant and every token issued under
   * it, here and on every node.
   */
  async revokeGrant(grantId: string): Promise<void> {
    await this.sql.query(REVOKE_GRANT, [grantId], 'oidc_revoke_grant');
    this.forgetGrant(grantId);
    this.broadcast?.publish('oidc.invalidated', { grantId });
  }

  /** Grants change in place (consent adds scopes): other nodes must drop their copy when one is saved. */
  isShared(model: string): boolean {
    return model === 'Grant';
  }

  /** Tells the other nodes (not this one, which keeps the version it just wrote) to drop a copy. */
  invalidateOthers(model: string, id: string): void {
    this.broadcast?.publishToOthers('oidc.invalidated', { model, id });
  }

  /** Drops cached tokens here and, through the broadcast, on every node. */
  invalidate(model: string, ids: { id?: string; grantId?: string }): void {
    if (!kept(model)) return;
    this.forget(model, ids.id, ids.grantId);
    this.broadcast?.publish('oidc.invalidated', { model, id: ids.id, grantId: ids.grantId });
  }

  /** Drops every cached token and grant of a user (their sessions were revoked). */
  forgetAccount(accountId: string): void {
    for (const [key, entry] of this.cache) if ((entry.payload as { accountId?: string }).accountId === accountId) this.cache.delete(key);
  }

  /** Drops a grant and every token cached under it, whatever its model. */
  private forgetGrant(grantId: string): void {
    this.cache.delete(`Grant\u0000${grantId}`);
    for (const [key, entry] of this.cache) if (entry.grantId === grantId) this.cache.delete(key);
  }

  private forget(model: string, id?: string, grantId?: string): void {
    if (id) this.cache.delete(`${model}\u0000${id}`);
    if (grantId) {
      for (const [key, entry] of this.cache) if (entry.grantId === grantId && key.startsWith(`${model}\u0000`)) this.cache.delete(key);
    }
  }

  upsert(row: UpsertRow): Promise<void> {
    return this.upserts.add(row);
  }

  find(model: string, id: string): Promise<StoredRow | undefined> {
    return this.reads.add({ model, id });
  }

  /** Rows by their `uid` column (sessions), batched like {@link find}. */
  findByUid(model: string, uid: string): Promise<StoredRow | undefined> {
    return this.uidReads.add({ model, id: uid });
  }

  /**
   * Compare-and-set consumption, batched: true for the caller whose update marked the row, false
   * when it was consumed already (or is gone). One statement decides every row of the batch.
   */
  consume(model: string, id: string): Promise<boolean> {
    return this.consumes.add({ model, id });
  }

  private async upsertMany(batch: UpsertRow[]): Promise<void[]> {
    // A row written twice in one batch keeps its last version (one statement cannot touch a row twice).
    const latest = new Map<string, UpsertRow>();
    for (const row of batch) latest.set(keyOf(row), row);
    const rows = [...latest.values()];
    await this.sql.query(
      UPSERT_MANY,
      [
        rows.map((r) => r.model),
        rows.map((r) => r.id),
        rows.map((r) => JSON.stringify(r.payload)),
        rows.map((r) => r.grantId),
        rows.map((r) => r.userCode),
        rows.map((r) => r.uid),
        rows.map((r) => r.expiresIn),
        rows.map((r) => r.consumed),
      ],
      'oidc_upsert_many',
    );
    return batch.map(() => undefined);
  }

  private async findMany(keys: ModelKey[]): Promise<Array<StoredRow | undefined>> {
    const { rows } = await this.sql.query<StoredRow>(FIND_MANY, columnsOf(keys), 'oidc_find_many');
    const byKey = new Map(rows.map((r) => [keyOf(r), r]));
    return keys.map((key) => byKey.get(keyOf(key)));
  }

  private async findManyByUid(keys: ModelKey[]): Promise<Array<StoredRow | undefined>> {
    const { rows } = await this.sql.query<StoredRow & { uid: string }>(FIND_MANY_BY_UID, columnsOf(keys), 'oidc_find_many_uid');
    const byKey = new Map(rows.map((r) => [keyOf({ model: r.model, id: r.uid }), r]));
    return keys.map((key) => byKey.get(keyOf(key)));
  }

  private async consumeMany(keys: ModelKey[]): Promise<boolean[]> {
    const { rows } = await this.sql.query<ModelKey>(CONSUME_MANY, columnsOf(keys), 'oidc_consume_many');
    // The same id twice in one batch: only the first caller wins, like two separate updates.
    const won = new Set(rows.map(keyOf));
    return keys.map((key) => won.delete(keyOf(key)));
  }
}
