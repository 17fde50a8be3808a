import { sha256, sqlClient, type AppContext, type SqlClient } from '@gatehouse/core';

/** The provider name of the links, as the authentication log also spells it. */
export const MICROSOFT = 'Microsoft';

/** A local user as the Microsoft sign-in reads it. */
export interface LocalUserRow {
  id: string;
  user_name: string;
  draft: boolean;
  locked: boolean;
  lockout_end: Date | null;
}

const LINKED_USER = `
  SELECT l.id AS link_id, l.email AS link_email, u.id, u.user_name, u.draft, u.locked, u.lockout_end
    FROM user_external_logins l JOIN users u ON u.id = l.user_id
   WHERE l.provider = $1 AND l.tid = $2 AND l.oid = $3`;

// By user name only: the e-mail column is free text that administrators set, never verified.
const LOCAL_USER_BY_NAME = `
  SELECT id, user_name, draft, locked, lockout_end FROM users WHERE normalized_user_name = $1`;

const LINK = `
  INSERT INTO user_external_logins (user_id, provider, tid, oid, email) VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (provider, tid, oid) DO NOTHING`;

// One statement, so a user is never created without its link; of two first sign-ins of the same
// person, the second finds the user name taken and then the first one's link.
const PROVISION = `
  WITH area AS (
    SELECT id FROM areas WHERE CASE WHEN $8::text IS NULL THEN is_default ELSE name = $8 END LIMIT 1
  ), created AS (
    INSERT INTO users (user_name, normalized_user_name, email, normalized_email, email_verified, first_name, last_name, area_id, language)
    SELECT $1, $1, $1, $1, true, $2, $3, area.id, $4 FROM area
    ON CONFLICT (normalized_user_name) DO NOTHING
    RETURNING id
  ), linked AS (
    INSERT INTO user_external_logins (user_id, provider, tid, oid, email)
    SELECT id, $5, $6, $7, $1 FROM created
    ON CONFLICT (provider, tid, oid) DO NOTHING
    RETURNING id
  )
  SELECT EXISTS (SELECT 1 FROM area) AS area_found, (SELECT id FROM created) AS user_id`;

/** A Microsoft identity's key: its tenant and object ids. */
export interface IdentityKey {
  tid: string;
  oid: string;
}

/** The users and links of Microsoft identities, and the sign-in states waiting for Microsoft's answer. */
export class ExternalLoginRepository {
  private readonly sql: SqlClient;

  constructor(context: AppContext) {
    this.sql = sqlClient(context.dataSource, { prepare: false });
  }

  async linkedUser(key: IdentityKey): Promise<(LocalUserRow & { link_id: string; link_email: string | null }) | undefined> {
    const { rows } = await this.sql.query<LocalUserRow & { link_id: string; link_email: string | null }>(LINKED_USER, [MICROSOFT, key.tid, key.oid]);
    return rows[0];
  }

  async updateLinkEmail(linkId: string, email: string): Promise<void> {
    await this.sql.query('UPDATE user_external_logins SET email = $2 WHERE id = $1', [linkId, email]);
  }

  /** The local account whose user name is this name. */
  async localUser(name: string): Promise<LocalUserRow | undefined> {
    const { rows } = await this.sql.query<LocalUserRow>(LOCAL_USER_BY_NAME, [name]);
    return rows[0];
  }

  /** Links an identity to a user, unless it is linked already. */
  async link(userId: string, key: IdentityKey, email: string): Promise<void> {
    await this.sql.query(LINK, [userId, MICROSOFT, key.tid, key.oid, email]);
  }

  /** Creates the user of an identity with its link, in the named area (the default one when unnamed). */
  async provision(
    key: IdentityKey,
    user: { email: string; firstName: string | null; lastName: string | null; language: string; area: string | null },
  ): Promise<{ area_found: boolean; user_id: string | null } | undefined> {
    const { rows } = await this.sql.query<{ area_found: boolean; user_id: string | null }>(PROVISION, [
      user.email,
      user.firstName,
      user.lastName,
      user.language,
      MICROSOFT,
      key.tid,
      key.oid,
      user.area,
    ]);
    return rows[0];
  }

  /** Stores a sign-in state (by its hash only) in the provider's table, so its expiry sweeper removes it too. */
  async storeState(model: string, state: string, payload: object, interaction: string, ttlSeconds: number): Promise<void> {
    await this.sql.query(
      `INSERT INTO oidc_model_instances (model, id, payload, uid, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [model, sha256(state), payload, interaction, ttlSeconds],
    );
  }

  /** Takes a live state once (a compare-and-set); undefined when unknown, used or expired. */
  async consumeState<T>(model: string, state: string): Promise<T | undefined> {
    const { rows } = await this.sql.query<{ payload: T }>(
      `UPDATE oidc_model_instances SET consumed_at = now()
        WHERE model = $1 AND id = $2 AND consumed_at IS NULL AND expires_at > now()
        RETURNING payload`,
      [model, sha256(state)],
    );
    return rows[0]?.payload;
  }
}
