import type { Queryable } from '../../db.js';

export interface StoredAccessTokenRow {
  account_id: string | null;
  expired: boolean;
}

/**
 * An opaque access token in the provider's store, by its value: whose it is and whether it has
 * expired, nothing more. A revoked token is no longer stored.
 */
export async function findStoredAccessToken(db: Queryable, token: string): Promise<StoredAccessTokenRow | undefined> {
  const [row] = await db.query<StoredAccessTokenRow[]>(
    `SELECT payload->>'accountId' AS account_id, (expires_at IS NOT NULL AND expires_at <= now()) AS expired
       FROM oidc_model_instances WHERE model IN ('AccessToken', 'ClientCredentials') AND id = $1`,
    [token],
  );
  return row;
}

export interface SubjectRow {
  id: string;
  user_name: string;
  first_name: string | null;
  last_name: string | null;
  locked: boolean;
  draft: boolean;
}

export async function findSubject(db: Queryable, userId: string): Promise<SubjectRow | undefined> {
  const [row] = await db.query<SubjectRow[]>('SELECT id, user_name, first_name, last_name, locked, draft FROM users WHERE id = $1', [userId]);
  return row;
}

/** The titles of the tenants with these ids. */
export async function findTenantTitles(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<Array<{ id: string; title: string }>>('SELECT id, title FROM tenants WHERE id = ANY($1::uuid[])', [[...ids]]);
  return new Map(rows.map((row) => [row.id, row.title]));
}

/** The display names of the applications with these ids. */
export async function findApplicationDisplayNames(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<Array<{ id: string; display_name: string }>>('SELECT id, display_name FROM applications WHERE id = ANY($1::text[])', [[...ids]]);
  return new Map(rows.map((row) => [row.id, row.display_name]));
}
