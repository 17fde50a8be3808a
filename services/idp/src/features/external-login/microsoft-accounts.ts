import { sqlClient, type AppContext, type SqlClient } from '@gatehouse/core';
import type { MicrosoftIdentity } from './microsoft-client.js';

/** The provider name of the links, as the authentication log also spells it. */
export const MICROSOFT = 'Microsoft';

/** What the sign-in needs of the user a Microsoft identity leads to. */
export interface LinkedUser {
  id: string;
  userName: string;
  draft: boolean;
  locked: boolean;
  lockoutEnd: Date | null;
  linkId: string;
}

interface UserRow {
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

/** Why no user could be found or made for an identity; `code` is the message's i18n key. */
export interface NoAccount {
  ok: false;
  code: 'externalLogin.no_account' | 'externalLogin.email_in_use' | 'externalLogin.provisioning_failed';
  reason: string;
  userId?: string;
}

export type AccountResult = { ok: true; user: LinkedUser; how: 'linked' | 'group-domain' | 'provisioned' } | NoAccount;

const inDomains = (email: string, domains: string[]) => {
  const domain = email.split('@')[1] ?? '';
  return domains.some((d) => domain === d || domain.endsWith(`.${d}`));
};

/**
 * Microsoft identities and the local users they lead to. An identity is known by its (tid, oid)
 * link only: its name alone never reaches an existing account, except a group-domain account whose
 * user name is that name, which the group's own tenant vouches for. The local account's e-mail
 * column never links anything.
 */
export class MicrosoftAccounts {
  private readonly sql: SqlClient;

  constructor(
    private readonly context: AppContext,
    /** Whether a user name must sign in with Microsoft (group domains and fragment). */
    private readonly isGroupUser: (email: string) => boolean,
  ) {
    this.sql = sqlClient(context.dataSource, { prepare: false });
  }

  /** The user of an identity: by its link, else by group-domain user name, else newly provisioned. */
  async resolve(identity: MicrosoftIdentity, language: string): Promise<AccountResult> {
    const linked = await this.linked(identity);
    if (linked) return { ok: true, user: linked, how: 'linked' };
    const { email } = identity;
    if (!email) return { ok: false, code: 'externalLogin.no_account', reason: 'Microsoft gave no e-mail address' };
    if (!identity.emailVerifiedByTenant) {
      return { ok: false, code: 'externalLogin.no_account', reason: 'Unlinked account whose e-mail the tenant does not vouch for' };
    }
    if (this.isGroupUser(email)) {
      const local = await this.localUser(email);
      // The first sign-in of a group-domain account links the local account of the same user name.
      if (local) {
        await this.sql.query(LINK, [local.id, MICROSOFT, identity.tid, identity.oid, email]);
        const user = await this.linked(identity);
        if (user) return { ok: true, user, how: 'group-domain' };
      }
    }
    const { autoProvisionDomains, provisionArea } = this.context.config.microsoft;
    if (!inDomains(email, autoProvisionDomains)) {
      return { ok: false, code: 'externalLogin.no_account', reason: 'No linked or matching account, and no auto-provisioning for this domain' };
    }
    const { rows } = await this.sql.query<{ area_found: boolean; user_id: string | null }>(PROVISION, [
      email,
      identity.firstName?.slice(0, 100) ?? null,
      identity.lastName?.slice(0, 100) ?? null,
      language,
      MICROSOFT,
      identity.tid,
      identity.oid,
      provisionArea ?? null,
    ]);
    const [result] = rows;
    if (!result?.area_found) {
      this.context.logger.error({ area: provisionArea ?? '(default)' }, 'Microsoft auto-provisioning: the area does not exist');
      return { ok: false, code: 'externalLogin.provisioning_failed', reason: `Provisioning area ${provisionArea ?? '(default)'} not found` };
    }
    const user = await this.linked(identity);
    if (user) return { ok: true, user, how: result.user_id ? 'provisioned' : 'linked' };
    const existing = await this.localUser(email);
    return { ok: false, code: 'externalLogin.email_in_use', reason: 'A local account has this user name but no link to this Microsoft account', userId: existing?.id };
  }

  /** The linked user, with the link's e-mail brought up to date (Microsoft's e-mail may change, the link not). */
  private async linked(identity: MicrosoftIdentity): Promise<LinkedUser | undefined> {
    const { rows } = await this.sql.query<UserRow & { link_id: string; link_email: string | null }>(LINKED_USER, [MICROSOFT, identity.tid, identity.oid]);
    const row = rows[0];
    if (!row) return undefined;
    if (identity.email && row.link_email !== identity.email) {
      await this.sql.query('UPDATE user_external_logins SET email = $2 WHERE id = $1', [row.link_id, identity.email]);
    }
    return { id: row.id, userName: row.user_name, draft: row.draft, locked: row.locked, lockoutEnd: row.lockout_end, linkId: row.link_id };
  }

  /** The local account whose user name is this name. */
  private async localUser(name: string): Promise<UserRow | undefined> {
    const { rows } = await this.sql.query<UserRow>(LOCAL_USER_BY_NAME, [name]);
    return rows[0];
  }
}
