import { IDEMPOTENCY_KEY_TTL_HOURS } from '@gatehouse/contracts';
import { AppError, sha256 } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { claimIdempotencyKey, completeIdempotencyKey, findIdempotencyKey, releaseIdempotencyKey } from './repository.js';

/** How long a running call holds its key: past it, a call cut short no longer blocks a retry. */
const LEASE_SECONDS = 10 * 60;
/** Claims lost to a key freed meanwhile are tried again this many times. */
const CLAIM_ATTEMPTS = 3;

/** One call under an idempotency key. */
export interface IdempotentCall {
  /** Whom the key belongs to (ExternalCaller.key): two callers' keys never meet. */
  caller: string;
  /** The Idempotency-Key header; without one the call simply runs. */
  key: string | undefined;
  apiEntry: string;
  /** What makes two calls the same one: the route's parameters and body. */
  request: unknown;
}

/** JSON with the keys of every object sorted: the same request always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Runs `work` once per idempotency key: the first call claims the key and keeps its answer for
 * IDEMPOTENCY_KEY_TTL_HOURS; a retry with the same key and request gets that answer back
 * (`replayed`), one with another request is refused (422), and one arriving while the first still
 * runs is refused (409) rather than run a second time. A call that fails as a whole keeps no
 * answer, so its retry runs again.
 */
export async function runIdempotently<T>(db: Queryable, call: IdempotentCall, work: () => Promise<T>): Promise<{ body: T; replayed: boolean }> {
  if (!call.key) return { body: await work(), replayed: false };
  const requestHash = sha256(canonical({ apiEntry: call.apiEntry, request: call.request }));
  const claim = { caller: call.caller, key: call.key, apiEntry: call.apiEntry, requestHash, leaseSeconds: LEASE_SECONDS };
  let claimed = false;
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS && !claimed; attempt++) {
    claimed = await claimIdempotencyKey(db, claim);
    if (claimed) break;
    const existing = await findIdempotencyKey(db, call.caller, call.key);
    if (!existing) continue;
    if (existing.request_hash !== requestHash || existing.api_entry !== call.apiEntry) throw new AppError('external.idempotency_key_reused', 422);
    if (existing.state === 'Running') throw new AppError('external.idempotency_in_progress', 409);
    return { body: existing.response_body as T, replayed: true };
  }
  if (!claimed) throw new AppError('external.idempotency_in_progress', 409);
  let body: T;
  try {
    body = await work();
  } catch (error) {
    await releaseIdempotencyKey(db, call.caller, call.key);
    throw error;
  }
  await completeIdempotencyKey(db, call.caller, call.key, { status: 200, body, ttlSeconds: IDEMPOTENCY_KEY_TTL_HOURS * 3600 });
  return { body, replayed: false };
}
