import { resolveEffectiveRoles, type AppContext, type EffectiveRole } from '@gatehouse/core';

type Db = AppContext['dataSource'];

/** Sign-ins listed: the last this many… */
export const SIGN_IN_LIMIT = 100;
/** …of at most this many days. */
export const SIGN_IN_DAYS = 90;

/** What the account itself holds. */
export interface ProfileRow {
  user_name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone_number: string | null;
  job_title: string | null;
  manager: string | null;
  teams: string[];
  language: string;
  area_name: string | null;
  user_type: number;
  internal_category: string | null;
  email_verified: boolean;
  draft: boolean;
  locked: boolean;
  totp_enabled_at: Date | null;
  password_changed_at: Date | null;
  last_login_at: Date | null;
  created_at: Date;
  modified_on: Date;
  picture_updated_at: Date | null;
}

export interface LinkedAccountRow {
  provider: string;
  email: string | null;
}

export interface MembershipRow extends EffectiveRole {
  tenantTitle: string | null;
  applicationDisplayName: string | null;
}

export interface GroupRow {
  name: string;
  permission: string;
  created_at: Date;
}

export interface DisclaimerRow {
  application: string;
  accepted_at: Date;
}

export interface SignInRow {
  date: Date;
  result: string;
  authentication_provider: string;
  ip: string | null;
  user_agent: string | null;
}

export interface RightsRequestRow {
  /** YYYY-MM-DD: a calendar date, not an instant. */
  request_date: string;
  request_type: string;
  rights: string[];
  created_at: Date;
}

/** The user's own row (undefined once the account is deleted). */
export async function findProfile(db: Db, userId: string): Promise<ProfileRow | undefined> {
  const [row]: ProfileRow[] = await db.query(
    `SELECT u.user_name, u.email, u.first_name, u.last_name, u.phone_number, u.job_title, u.manager, u.teams, u.language,
            a.name AS area_name, u.user_type, u.internal_category, u.email_verified, u.draft, u.locked, u.totp_enabled_at,
            u.password_changed_at, u.last_login_at, u.created_at, u.modified_on, p.updated_at AS picture_updated_at
       FROM users u
       LEFT JOIN areas a ON a.id = u.area_id
       LEFT JOIN user_avatars p ON p.user_id = u.id
      WHERE u.id = $1`,
    [userId],
  );
  return row;
}

/** The Microsoft accounts linked to the user. */
export async function findLinkedAccounts(db: Db, userId: string): Promise<LinkedAccountRow[]> {
  return db.query('SELECT provider, email FROM user_external_logins WHERE user_id = $1 ORDER BY created_at', [userId]);
}

/** The display names of the user's favourite applications. */
export async function findFavouriteApplications(db: Db, userId: string): Promise<string[]> {
  const rows: Array<{ name: string }> = await db.query(
    `SELECT a.display_name AS name FROM user_favorite_applications f JOIN applications a ON a.id = f.application_id
      WHERE f.user_id = $1 ORDER BY a.display_name`,
    [userId],
  );
  return rows.map((row) => row.name);
}

/** The user's roles in every tenant (their own, through a group, or inherited), with names to show. */
export async function findMemberships(db: Db, userId: string): Promise<MembershipRow[]> {
  const roles = await resolveEffectiveRoles(db, userId);
  if (roles.length === 0) return [];
  const names: Array<{ kind: 'tenant' | 'application'; id: string; name: string }> = await db.query(
    `SELECT 'tenant' AS kind, id::text AS id, title AS name FROM tenants WHERE id = ANY($1::uuid[])
     UNION ALL
     SELECT 'application', id, display_name FROM applications WHERE id = ANY($2::varchar[])`,
    [[...new Set(roles.map((r) => r.tenantId))], [...new Set(roles.map((r) => r.applicationId))]],
  );
  const nameOf = (kind: string, id: string) => names.find((n) => n.kind === kind && n.id === id)?.name ?? null;
  const rows = roles.map((role) => ({ ...role, tenantTitle: nameOf('tenant', role.tenantId), applicationDisplayName: nameOf('application', role.applicationId) }));
  const text = (value: string | null) => value ?? '';
  return rows.sort(
    (a, b) =>
      text(a.tenantTitle).localeCompare(text(b.tenantTitle)) ||
      text(a.applicationDisplayName).localeCompare(text(b.applicationDisplayName)) ||
      a.roleName.localeCompare(b.roleName),
  );
}

/** The groups the user belongs to, with their permission in each. */
export async function findGroups(db: Db, userId: string): Promise<GroupRow[]> {
  return db.query(
    `SELECT g.name, gm.permission, gm.created_at FROM group_members gm JOIN groups g ON g.id = gm.group_id
      WHERE gm.user_id = $1 ORDER BY g.name`,
    [userId],
  );
}

/** The disclaimers the user accepted, newest first. */
export async function findAcceptedDisclaimers(db: Db, userId: string): Promise<DisclaimerRow[]> {
  return db.query(
    `SELECT a.display_name AS application, da.accepted_at
       FROM disclaimer_acceptances da
       JOIN disclaimers d ON d.id = da.disclaimer_id
       JOIN applications a ON a.id = d.application_id
      WHERE da.user_id = $1
      ORDER BY da.accepted_at DESC`,
    [userId],
  );
}

/** The account's sign-ins (and refusals), newest first: the last SIGN_IN_LIMIT of SIGN_IN_DAYS days. */
export async function findRecentSignIns(db: Db, userId: string): Promise<SignInRow[]> {
  return db.query(
    `SELECT date, result, authentication_provider, ip, user_agent FROM authentication_logs
      WHERE user_id = $1 AND date >= now() - make_interval(days => $2)
      ORDER BY date DESC LIMIT $3`,
    [userId, SIGN_IN_DAYS, SIGN_IN_LIMIT],
  );
}

/** The data-protection requests the user sent, newest first. */
export async function findRightsRequests(db: Db, userId: string): Promise<RightsRequestRow[]> {
  return db.query(
    `SELECT to_char(request_date, 'YYYY-MM-DD') AS request_date, request_type, rights, created_at
       FROM rights_requests WHERE user_id = $1 ORDER BY created_at DESC`,
    [userId],
  );
}
