import type { Queryable } from '../db/data-source.js';

/** A public signing key as the provider publishes it. */
export interface PublishedKeyRow {
  kid: string;
  public_jwk: Record<string, unknown>;
  /** When a retiring key stops being published; null for an active one. */
  retire_at: Date | string | null;
}

/** The public halves of the keys the provider publishes now: active ones, and retiring ones until their date. */
export async function findPublishedKeys(db: Queryable): Promise<PublishedKeyRow[]> {
  return db.query<PublishedKeyRow[]>(
    `SELECT kid, public_jwk, retire_at FROM signing_keys
      WHERE status = 'active' OR (status = 'retiring' AND retire_at > now())`,
  );
}
