import { IDENTITY_APPLICATION_ID, randomToken, resolveEffectiveRoles, sha256, sqlClient, type AppContext } from '@gatehouse/core';
import { InvalidTokenError } from './access-token.js';
import type { BearerVerifier } from './koa-admin-auth.js';

/** Personal access tokens start with this, so they are told from JWTs and portal tokens at a glance (and by secret scanners). */
export const PAT_PREFIX = 'gpat_';
/** What a personal access token looks like; anything else with the prefix is refused as malformed before any lookup. */
export const PAT_SHAPE = /^gpat_[A-Za-z0-9_-]{32,100}$/;
/** How many of a value's last characters are kept to tell tokens apart in lists. */
const SHOWN_CHARS = 4;
/** `last_used_at` is written at most this often per token: a busy integration must not turn every call into a write. */
export const LAST_USE_RESOLUTION_MS = 60_000;

/** A new token: its value (handed to its owner once) and what is stored of it. */
export interface MintedPersonalAccessToken {
  token: string;
  hash: string;
  prefix: string;
  lastChars: string;
}

/**
 * A new personal access token: 256 random bits after the prefix. Only its SHA-256 is stored: a
 * value that random cannot be found by trying values, so a slow password hash would add nothing
 * but cost on every call, and an unsalted hash lets a call find its token by an indexed lookup of
 * the hash, never by comparing secrets one by one.
 */
export function mintPersonalAccessToken(): MintedPersonalAccessToken {
  const token = `${PAT_PREFIX}${randomToken(32)}`;
  return { token, hash: sha256(token), prefix: PAT_PREFIX, lastChars: token.slice(-SHOWN_CHARS) };
}

type PatRow = {
  id: string;
  user_id: string;
  application_id: string;
  expires_at: Date | null;
  last_used_at: Date | null;
  locked: boolean;
  draft: boolean;
};

/**
 * Personal access tokens: random values of which only the SHA-256 is stored. A token opens the
 * admin API when it was issued for the Identity application; the caller then has the owner's
 * current Identity roles (resolved per call, so a revoked role stops working at once, unlike a
 * JWT that keeps its roles until it expires). One is bound to no key: presented under the DPoP
 * scheme, it is refused like any unbound token.
 */
export function personalAccessTokenBearer(context: AppContext): BearerVerifier {
  const sql = sqlClient(context.dataSource, { prepare: !context.pglite });
  return {
    async verify(token) {
      if (!token.startsWith(PAT_PREFIX)) return null;
      if (!PAT_SHAPE.test(token)) throw new InvalidTokenError('malformed');
      const { rows } = await sql.query<PatRow>(
        `SELECT p.id, p.user_id, p.application_id, p.expires_at, p.last_used_at, u.locked, u.draft
           FROM personal_access_tokens p JOIN users u ON u.id = p.user_id
          WHERE p.token_hash = $1`,
        [sha256(token)],
        'admin_personal_access_token',
      );
      const pat = rows[0];
      if (!pat) throw new InvalidTokenError('claims');
      if (pat.expires_at && new Date(pat.expires_at).getTime() <= Date.now()) throw new InvalidTokenError('expired');
      // The owner's account state counts at every call: a locked account's tokens stop at once.
      if (pat.locked || pat.draft) throw new InvalidTokenError('claims');
      if (pat.application_id !== IDENTITY_APPLICATION_ID) throw new InvalidTokenError('insufficient_scope');
      if (!pat.last_used_at || Date.now() - new Date(pat.last_used_at).getTime() > LAST_USE_RESOLUTION_MS) {
        await sql.query('UPDATE personal_access_tokens SET last_used_at = now() WHERE id = $1', [pat.id], 'admin_personal_access_token_used');
      }
      const roles = await resolveEffectiveRoles(context.dataSource, pat.user_id, { applicationId: IDENTITY_APPLICATION_ID });
      return {
        kind: 'personal_access_token',
        userId: pat.user_id,
        roles: [...new Set(roles.map((role) => role.roleName))],
        scopes: [],
        tokenId: pat.id,
      };
    },
  };
}
