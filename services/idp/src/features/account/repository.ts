import { sqlClient, type AppContext } from '@gatehouse/core';

/** Everything a sign-in needs of the account, read once, by its normalized user name. */
export interface SignInAccount {
  id: string;
  userName: string;
  passwordHash: string | null;
  draft: boolean;
  locked: boolean;
  lockoutEnd: Date | null;
  email: string;
  language: string;
  firstName: string | null;
  passwordChangedAt: Date | null;
  totpEnabledAt: Date | null;
  /** Asked by the user, by an enrolled authenticator app, or by any tenant the user belongs to (directly or through a group). */
  secondFactorRequired: boolean;
  /** The passkeys the user holds. */
  passkeyCount: number;
  /** The user has a recovery code not used yet. */
  hasRecoveryCodes: boolean;
  /** A tenant of the user (directly or through a group) accepts only a passkey (or Microsoft) as the second factor. */
  phishingResistantOnly: boolean;
}

/** The tenants of the user, directly or through a group, that have `rule`. */
const tenantRule = (rule: string) => `EXISTS (
    SELECT 1 FROM tenant_members tm JOIN tenants t ON t.id = tm.tenant_id
     WHERE ${rule}
       AND (tm.user_id = u.id OR tm.group_id IN (SELECT group_id FROM group_members WHERE user_id = u.id))
  )`;

// A tenant that accepts only phishing-resistant factors asks for a second factor too.
const ACCOUNT_COLUMNS = `
  u.id, u.user_name, u.password_hash, u.draft, u.locked, u.lockout_end, u.email, u.language, u.first_name,
  u.password_changed_at, u.totp_enabled_at,
  u.two_factor_enabled OR u.totp_enabled_at IS NOT NULL
    OR ${tenantRule('(t.required_two_mode_authentification OR t.phishing_resistant_only)')} AS second_factor_required,
  (SELECT count(*)::int FROM user_passkeys p WHERE p.user_id = u.id) AS passkey_count,
  EXISTS (SELECT 1 FROM user_recovery_codes c WHERE c.user_id = u.id AND c.used_at IS NULL) AS has_recovery_codes,
  ${tenantRule('t.phishing_resistant_only')} AS phishing_resistant_only`;

function toAccount(row: Record<string, unknown> | undefined): SignInAccount | undefined {
  if (!row) return undefined;
  return {
    id: row.id as string,
    userName: row.user_name as string,
    passwordHash: row.password_hash as string | null,
    draft: row.draft as boolean,
    locked: row.locked as boolean,
    lockoutEnd: row.lockout_end as Date | null,
    email: row.email as string,
    language: row.language as string,
    firstName: row.first_name as string | null,
    passwordChangedAt: row.password_changed_at as Date | null,
    totpEnabledAt: row.totp_enabled_at as Date | null,
    secondFactorRequired: row.second_factor_required as boolean,
    passkeyCount: row.passkey_count as number,
    hasRecoveryCodes: row.has_recovery_codes as boolean,
    phishingResistantOnly: row.phishing_resistant_only as boolean,
  };
}

/** The account of a user name (one prepared-shape query on the hot path, no ORM mapping). */
export async function findSignInAccount(context: AppContext, normalizedUserName: string): Promise<SignInAccount | undefined> {
  const { rows } = await sqlClient(context.dataSource, { prepare: !context.pglite }).query<Record<string, unknown>>(
    `SELECT ${ACCOUNT_COLUMNS} FROM users u WHERE u.normalized_user_name = $1`,
    [normalizedUserName],
    'sign_in_account',
  );
  return toAccount(rows[0]);
}

/** The same account by id, for the steps after the password (their token names the user). */
export async function findSignInAccountById(context: AppContext, userId: string): Promise<SignInAccount | undefined> {
  const [row] = await context.dataSource.query(`SELECT ${ACCOUNT_COLUMNS} FROM users u WHERE u.id = $1`, [userId]);
  return toAccount(row);
}

/** The account's lock as it stands now. */
export async function readLockState(context: AppContext, userId: string): Promise<{ locked: boolean; lockoutEnd: Date | null }> {
  const [row] = await context.dataSource.query('SELECT locked, lockout_end FROM users WHERE id = $1', [userId]);
  return { locked: Boolean(row?.locked), lockoutEnd: (row?.lockout_end as Date | null | undefined) ?? null };
}

/** Replaces a password hash made with older parameters. */
export async function storeRehashedPassword(context: AppContext, userId: string, hash: string): Promise<void> {
  await context.dataSource.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, hash]);
}

/** Merges a new code's hash and expiry into what a second-factor step holds (its resend count is kept). */
export async function storeSignInCode(context: AppContext, tokenId: string, code: { codeHash: string; codeExpiresAt: number }): Promise<void> {
  await context.dataSource.query('UPDATE user_tokens SET context = context || $2::jsonb WHERE id = $1', [tokenId, JSON.stringify(code)]);
}

/** Claims one resend for a step, `interval` ms after the last mail and within `max`, in one compare-and-set. */
export async function claimCodeResend(context: AppContext, tokenId: string, limits: { intervalMs: number; max: number }): Promise<boolean> {
  const now = Date.now();
  const result = await context.dataSource.query(
    `UPDATE user_tokens SET context = context || jsonb_build_object('sentAt', $2::bigint, 'resends', COALESCE((context->>'resends')::int, 0) + 1)
      WHERE id = $1 AND consumed_at IS NULL AND COALESCE((context->>'sentAt')::bigint, 0) <= $3 AND COALESCE((context->>'resends')::int, 0) < $4`,
    [tokenId, now, now - limits.intervalMs, limits.max],
  );
  return Number(result[1]) === 1;
}

/** Who a mail about the account goes to, and in which language. */
export interface MailRecipient {
  id: string;
  user_name: string;
  email: string;
  language: string;
  first_name: string | null;
  draft: boolean;
  locked: boolean;
}

export async function findMailRecipient(context: AppContext, where: { userId: string } | { userName: string }): Promise<MailRecipient | undefined> {
  const [column, value] = 'userId' in where ? ['id', where.userId] : ['normalized_user_name', where.userName.trim().toLowerCase()];
  const [row] = await context.dataSource.query(
    `SELECT id, user_name, email, language, first_name, draft, locked FROM users WHERE ${column} = $1`,
    [value],
  );
  return row;
}
