import { GLOBAL_TENANT_ID, type AppContext } from '@gatehouse/core';

type Db = AppContext['dataSource'];

/** What the self-service calls read of the signed-in user. */
export interface ProfileUserRow {
  id: string;
  user_name: string;
  email: string;
  language: string;
  password_hash: string | null;
  totp_secret_encrypted: string | null;
  totp_enabled_at: Date | null;
}

/** The user's account; undefined once it has been deleted. */
export async function findProfileUser(db: Db, userId: string): Promise<ProfileUserRow | undefined> {
  const [user]: ProfileUserRow[] = await db.query(
    'SELECT id, user_name, email, language, password_hash, totp_secret_encrypted, totp_enabled_at FROM users WHERE id = $1',
    [userId],
  );
  return user;
}

/** Stores a new authenticator secret (encrypted), pending its first code. */
export async function startTotpEnrolment(db: Db, userId: string, encryptedSecret: string): Promise<void> {
  await db.query('UPDATE users SET totp_secret_encrypted = $2, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1', [userId, encryptedSecret]);
}

/**
 * Turns the pending enrolment of `encryptedSecret` on, `step` being the first code's time step.
 * Only a pending enrolment is confirmed: of two parallel confirmations, one wins (false for the other).
 */
export async function confirmTotpEnrolment(db: Db, userId: string, step: number | null, encryptedSecret: string): Promise<boolean> {
  const [, confirmed] = await db.query(
    'UPDATE users SET totp_enabled_at = now(), totp_last_step = $2 WHERE id = $1 AND totp_enabled_at IS NULL AND totp_secret_encrypted = $3',
    [userId, step, encryptedSecret],
  );
  return Boolean(confirmed);
}

/** Removes the authenticator app. */
export async function removeTotp(db: Db, userId: string): Promise<void> {
  await db.query('UPDATE users SET totp_secret_encrypted = NULL, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1', [userId]);
}

/** The fields of "Your Profile" as stored. */
export interface MyProfileRow {
  id: string;
  user_name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  language: string;
  area_name: string | null;
  /** The uploaded picture's content hash (its version), null without one. */
  avatar_version: string | null;
}

/** The user's profile fields with the name of their area; undefined once the account is gone. */
export async function findMyProfile(db: Db, userId: string): Promise<MyProfileRow | undefined> {
  const [row]: MyProfileRow[] = await db.query(
    `SELECT u.id, u.user_name, u.email, u.first_name, u.last_name, u.language, a.name AS area_name,
            left(av.content_hash, 16) AS avatar_version
       FROM users u LEFT JOIN areas a ON a.id = u.area_id LEFT JOIN user_avatars av ON av.user_id = u.id
      WHERE u.id = $1`,
    [userId],
  );
  return row;
}

/** Stores the names and the preferred language the user chose; false when the account is gone. */
export async function updateMyProfile(db: Db, userId: string, changes: { firstName: string; lastName: string; language: string }): Promise<boolean> {
  const [, updated] = await db.query(
    // A language the person changes is theirs from then on (language_chosen_on); saving the form
    // with the language an administrator gave the account leaves it the administrator's.
    `UPDATE users SET first_name = $2, last_name = $3, language = $4::varchar,
            language_chosen_on = CASE WHEN language IS DISTINCT FROM $4::varchar THEN now() ELSE language_chosen_on END,
            modified_on = now(), modified_by_id = $1
      WHERE id = $1`,
    [userId, changes.firstName, changes.lastName, changes.language],
  );
  return Boolean(updated);
}

/**
 * The ids of the user's companies, a CTE named `companies` over `$1` (the user) and `$2` (the
 * Global tenant): every tenant the user is a member of, directly or through a group, and every
 * tenant below an inheritable membership. The Global tenant is no company.
 */
const COMPANIES = `
  WITH RECURSIVE
  memberships AS (
    SELECT tm.tenant_id, tm.is_inheritable FROM tenant_members tm WHERE tm.user_id = $1
    UNION ALL
    SELECT tm.tenant_id, tm.is_inheritable
      FROM tenant_members tm JOIN group_members gm ON gm.group_id = tm.group_id
     WHERE gm.user_id = $1
  ),
  reach(id, inherits) AS (
    SELECT tenant_id, bool_or(is_inheritable) FROM memberships WHERE tenant_id <> $2 GROUP BY tenant_id
    UNION
    SELECT t.id, true FROM reach r JOIN tenants t ON t.parent_id = r.id WHERE r.inherits
  ),
  companies AS (SELECT t.id, t.title FROM tenants t WHERE t.id IN (SELECT id FROM reach))`;

/** A company as listed. */
export interface CompanyRow {
  id: string;
  title: string;
}

export interface CompanyPageQuery {
  /** A LIKE pattern on the title (escaped), or null for every company. */
  pattern: string | null;
  skip: number;
  take: number;
}

/** One page of the user's companies by title, with the total the search matches. */
export async function listMyCompanies(db: Db, userId: string, query: CompanyPageQuery): Promise<{ items: CompanyRow[]; count: number }> {
  const params = [userId, GLOBAL_TENANT_ID, query.pattern];
  const rows: Array<CompanyRow & { total: string }> = await db.query(
    `${COMPANIES}
     SELECT c.id, c.title, count(*) OVER () AS total FROM companies c
      WHERE $3::text IS NULL OR c.title ILIKE $3
      ORDER BY c.title, c.id
      LIMIT $4 OFFSET $5`,
    [...params, query.take, query.skip],
  );
  if (rows.length > 0 || query.skip === 0) return { items: rows.map(({ id, title }) => ({ id, title })), count: Number(rows[0]?.total ?? 0) };
  // Past the last page: the window count has no row to ride on.
  const [total]: Array<{ count: string }> = await db.query(`${COMPANIES} SELECT count(*) FROM companies c WHERE $3::text IS NULL OR c.title ILIKE $3`, params);
  return { items: [], count: Number(total!.count) };
}

/** The user's company `tenantId`; undefined when it is no company of theirs (or does not exist). */
export async function findMyCompany(db: Db, userId: string, tenantId: string): Promise<CompanyRow | undefined> {
  const [row]: CompanyRow[] = await db.query(`${COMPANIES} SELECT c.id, c.title FROM companies c WHERE c.id = $3`, [userId, GLOBAL_TENANT_ID, tenantId]);
  return row;
}

/** How many companies the user has, the one they chose (while still theirs) and, when they have only one, that one. */
export interface CompanySummary {
  count: number;
  chosen: CompanyRow | null;
  only: CompanyRow | null;
}

export async function companySummary(db: Db, userId: string): Promise<CompanySummary> {
  const [row]: Array<{ count: number; chosen: CompanyRow | null; single: CompanyRow | null }> = await db.query(
    `${COMPANIES}
     SELECT (SELECT count(*) FROM companies)::int AS count,
            (SELECT json_build_object('id', c.id, 'title', c.title) FROM companies c JOIN users u ON u.current_company_id = c.id WHERE u.id = $1) AS chosen,
            (SELECT json_build_object('id', c.id, 'title', c.title) FROM companies c LIMIT 1) AS single`,
    [userId, GLOBAL_TENANT_ID],
  );
  return { count: row!.count, chosen: row!.chosen, only: row!.count === 1 ? row!.single : null };
}

/** The company the user works for now: the one chosen while it is still theirs, else their only one; null otherwise. */
export function currentCompanyOf(summary: CompanySummary): CompanyRow | null {
  return summary.chosen ?? summary.only;
}

/** Remembers the company the user works for now. */
export async function storeCurrentCompany(db: Db, userId: string, tenantId: string): Promise<void> {
  await db.query('UPDATE users SET current_company_id = $2 WHERE id = $1', [userId, tenantId]);
}
