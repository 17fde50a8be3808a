import { likePattern, type ApplicationStatus, type ClientAuthentication, type ClientType, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';

/** The SQL each sortable field of the role list sorts by. */
export const APPLICATION_ROLE_SORT = { name: 'r.name', applicationName: 'app.display_name, r.name' } as const;

export interface ApplicationRoleRow {
  id: string;
  name: string;
  description: string | null;
  by_hierarchy: boolean;
  application_id: string;
  application_name: string;
}

const FROM = 'roles r JOIN applications app ON app.id = r.application_id';
// Without an application named, the applications hidden from user lists (the product's own clients) are left out.
const WHERE = `(($1::text IS NULL AND NOT app.hide_in_user_list) OR r.application_id = $1) AND ($2::text IS NULL OR r.name ILIKE $2 OR app.display_name ILIKE $2)`;

/** A page of the roles of one application (or of all) whose role or application name matches the search, and their total. */
export async function listApplicationRoles(
  db: Queryable,
  query: ListQuery,
  applicationId: string | null,
): Promise<{ rows: ApplicationRoleRow[]; count: number }> {
  const filters = [applicationId, query.search ? likePattern(query.search) : null];
  const rows = await db.query<Array<ApplicationRoleRow & { total: string }>>(
    `SELECT r.id, r.name, r.description, r.by_hierarchy, r.application_id, app.display_name AS application_name, count(*) OVER () AS total
       FROM ${FROM}
      WHERE ${WHERE}
      ORDER BY ${query.orderBy}, r.id
      LIMIT $3 OFFSET $4`,
    [...filters, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM ${FROM} WHERE ${WHERE}`, filters);
    return Number(row!.count);
  });
  return { rows, count };
}

/** The SQL each sortable field of the applications list sorts by. */
export const APPLICATION_SORT = {
  displayName: 'a.display_name',
  name: 'a.name',
  status: 'a.status',
  type: 'a.client_type',
  modifiedOn: 'a.modified_on',
} as const;

/** An application as the list shows it, with whether the caller owns it. */
export interface ApplicationRow {
  id: string;
  name: string;
  display_name: string;
  description: string | null;
  client_type: ClientType;
  status: ApplicationStatus;
  enabled: boolean;
  prerelease: boolean;
  hide_in_user_list: boolean;
  private_url: string | null;
  public_url: string | null;
  /** OpenID Connect, or SAML 2.0 (its settings in application_saml_settings). */
  protocol: 'oidc' | 'saml';
  modified_on: Date;
  user_is_owner: boolean;
}

/** An application as its detail page shows it (never its secret, only whether it has one). */
export interface ApplicationDetailRow extends ApplicationRow {
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  icon: string | null;
  has_icon_image: boolean;
  has_secret: boolean;
  device_flow: boolean;
  require_dpop: boolean;
  require_par: boolean;
  require_signed_request_object: boolean;
  client_authentication: ClientAuthentication;
  jwks: { keys: Record<string, unknown>[] } | null;
  jwks_uri: string | null;
  fapi2: boolean;
  /** The applications it may exchange users' tokens for, by id. */
  exchange_audiences: string[];
}

export interface ApplicationOwnerRow {
  id: string;
  user_name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
}

/** The columns an application's General properties are stored in. */
export interface ApplicationFieldsRecord {
  displayName: string;
  description: string | null;
  clientType: ClientType;
  privateUrl: string | null;
  publicUrl: string | null;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  prerelease: boolean;
  hideInUserList: boolean;
  /** Undefined: unchanged (a new application is enabled). */
  enabled?: boolean;
  /** Undefined: unchanged (a new application does not allow it). */
  deviceFlow?: boolean;
  /** Undefined: unchanged (a new application does not require it). */
  requireDpop?: boolean;
  /** Undefined: unchanged (a new application does not require it). */
  requirePar?: boolean;
  /** Undefined: unchanged (a new application does not require it). */
  requireSignedRequestObject?: boolean;
  /** Undefined: unchanged (a new application uses its shared secret). */
  clientAuthentication?: ClientAuthentication;
  /** Undefined: unchanged; null: none. */
  jwks?: { keys: Record<string, unknown>[] } | null;
  /** Undefined: unchanged; null: none. */
  jwksUri?: string | null;
  /** Undefined: unchanged (a new application is not under the profile). */
  fapi2?: boolean;
  /** Undefined: unchanged (a new application exchanges none). */
  exchangeAudiences?: string[];
  icon: string | null;
  /** Undefined: the uploaded icon stays as it is; null: removed. */
  iconImage?: { data: Buffer; contentType: string } | null;
}

const SUMMARY_COLUMNS = `a.id, a.name, a.display_name, a.description, a.client_type, a.status, a.enabled, a.prerelease, a.hide_in_user_list,
       a.private_url, a.public_url, a.protocol, a.modified_on,
       EXISTS (SELECT 1 FROM application_owners o WHERE o.application_id = a.id AND o.user_id = $1) AS user_is_owner`;
const LIST_WHERE = `($2::text IS NULL OR a.display_name ILIKE $2 OR a.name ILIKE $2 OR a.description ILIKE $2) AND ($3::text IS NULL OR a.status = $3)`;

/** A page of the applications whose display name, name or description matches the search (and of one status), and their total. */
export async function listApplications(
  db: Queryable,
  query: ListQuery,
  options: { callerId: string; status: ApplicationStatus | null },
): Promise<{ rows: ApplicationRow[]; count: number }> {
  const filters = [options.callerId, query.search ? likePattern(query.search) : null, options.status];
  const rows = await db.query<Array<ApplicationRow & { total: string }>>(
    `SELECT ${SUMMARY_COLUMNS}, count(*) OVER () AS total
       FROM applications a
      WHERE ${LIST_WHERE}
      ORDER BY ${query.orderBy}, a.id
      LIMIT $4 OFFSET $5`,
    [...filters, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM applications a WHERE ${LIST_WHERE}`, filters);
    return Number(row!.count);
  });
  return { rows, count };
}

/** One application as the caller sees it; `lock` holds it until the transaction ends. */
export async function findApplication(db: Queryable, id: string, callerId: string, lock = false): Promise<ApplicationDetailRow | undefined> {
  const [row] = await db.query<ApplicationDetailRow[]>(
    `SELECT ${SUMMARY_COLUMNS}, a.redirect_uris, a.post_logout_redirect_uris, a.icon,
            a.icon_data IS NOT NULL AS has_icon_image, a.client_secret_encrypted IS NOT NULL AS has_secret, a.device_flow,
            a.require_dpop, a.require_par, a.require_signed_request_object, a.client_authentication, a.jwks, a.jwks_uri, a.fapi2,
            ARRAY(SELECT e.audience_id FROM application_exchange_audiences e WHERE e.application_id = a.id ORDER BY e.audience_id) AS exchange_audiences
       FROM applications a
      WHERE a.id = $2${lock ? ' FOR UPDATE' : ''}`,
    [callerId, id],
  );
  return row;
}

/** The owners of an application, by user name. */
export function listOwners(db: Queryable, applicationId: string): Promise<ApplicationOwnerRow[]> {
  return db.query(
    `SELECT u.id, u.user_name, u.email, u.first_name, u.last_name
       FROM application_owners o JOIN users u ON u.id = o.user_id
      WHERE o.application_id = $1
      ORDER BY u.user_name, u.id`,
    [applicationId],
  );
}

/** Whether an application already has this id, or this name, whatever the case. */
export async function findClashes(db: Queryable, id: string | null, name: string): Promise<{ id: boolean; name: boolean }> {
  const [row] = await db.query<Array<{ id_taken: boolean | null; name_taken: boolean | null }>>(
    `SELECT bool_or(lower(id) = lower($1)) AS id_taken, bool_or(lower(name) = lower($2)) AS name_taken
       FROM applications WHERE lower(id) = lower($1) OR lower(name) = lower($2)`,
    [id, name],
  );
  return { id: row?.id_taken === true, name: row?.name_taken === true };
}

/** Stores a new application (running, enabled, not first-party: its users are asked for consent). */
export async function insertApplication(
  db: Queryable,
  record: ApplicationFieldsRecord & { id: string; name: string; clientSecretEncrypted: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO applications (id, name, client_secret_encrypted, display_name, description, client_type, private_url, public_url,
                               redirect_uris, post_logout_redirect_uris, prerelease, hide_in_user_list, icon, icon_data, icon_content_type, enabled,
                               device_flow, require_dpop, require_par, require_signed_request_object, client_authentication, jwks, jwks_uri, fapi2)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22::jsonb, $23, $24)`,
    [
      record.id,
      record.name,
      record.clientSecretEncrypted,
      ...fieldValues(record),
      record.iconImage?.data ?? null,
      record.iconImage?.contentType ?? null,
      record.enabled ?? true,
      record.deviceFlow ?? false,
      record.requireDpop ?? false,
      record.requirePar ?? false,
      record.requireSignedRequestObject ?? false,
      record.clientAuthentication ?? 'client_secret_basic',
      record.jwks ? JSON.stringify(record.jwks) : null,
      record.jwksUri ?? null,
      record.fapi2 ?? false,
    ],
  );
  if (record.exchangeAudiences?.length) await replaceExchangeAudiences(db, record.id, record.exchangeAudiences);
}

/** Sets the applications one application may exchange users' tokens for. */
export async function replaceExchangeAudiences(db: Queryable, id: string, audienceIds: string[]): Promise<void> {
  await db.query('DELETE FROM application_exchange_audiences WHERE application_id = $1 AND NOT (audience_id = ANY($2::text[]))', [id, audienceIds]);
  if (audienceIds.length) {
    await db.query(
      `INSERT INTO application_exchange_audiences (application_id, audience_id)
       SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [id, audienceIds],
    );
  }
}

/** The applications of these ids that exist, as the token-exchange rules need them. */
export function applicationsByIds(db: Queryable, ids: string[]): Promise<Array<{ id: string; name: string }>> {
  return db.query('SELECT id, name FROM applications WHERE id = ANY($1::text[])', [ids]);
}

/** The General properties in the order the statements above and below list their columns. */
function fieldValues(record: ApplicationFieldsRecord): unknown[] {
  return [
    record.displayName,
    record.description,
    record.clientType,
    record.privateUrl,
    record.publicUrl,
    record.redirectUris,
    record.postLogoutRedirectUris,
    record.prerelease,
    record.hideInUserList,
    record.icon,
  ];
}

/**
 * Stores the General properties. `clientSecretEncrypted`: a new secret, null to drop it (a public
 * application), undefined to keep it.
 */
export async function updateApplication(
  db: Queryable,
  id: string,
  record: ApplicationFieldsRecord & { clientSecretEncrypted?: string | null },
): Promise<void> {
  const keepsIcon = record.iconImage === undefined;
  const keepsSecret = record.clientSecretEncrypted === undefined;
  await db.query(
    `UPDATE applications
        SET display_name = $2, description = $3, client_type = $4, private_url = $5, public_url = $6, redirect_uris = $7,
            post_logout_redirect_uris = $8, prerelease = $9, hide_in_user_list = $10, icon = $11,
            icon_data = CASE WHEN $12 THEN icon_data ELSE $13 END,
            icon_content_type = CASE WHEN $12 THEN icon_content_type ELSE $14 END,
            client_secret_encrypted = CASE WHEN $15 THEN client_secret_encrypted ELSE $16 END,
            enabled = COALESCE($17, enabled),
            device_flow = COALESCE($18, device_flow),
            require_dpop = COALESCE($19, require_dpop),
            require_par = COALESCE($20, require_par),
            require_signed_request_object = COALESCE($21, require_signed_request_object),
            client_authentication = COALESCE($22, client_authentication),
            jwks = CASE WHEN $23 THEN jwks ELSE $24::jsonb END,
            jwks_uri = CASE WHEN $25 THEN jwks_uri ELSE $26 END,
            fapi2 = COALESCE($27, fapi2),
            modified_on = now()
      WHERE id = $1`,
    [
      id,
      ...fieldValues(record),
      keepsIcon,
      record.iconImage?.data ?? null,
      record.iconImage?.contentType ?? null,
      keepsSecret,
      record.clientSecretEncrypted ?? null,
      record.enabled ?? null,
      record.deviceFlow ?? null,
      record.requireDpop ?? null,
      record.requirePar ?? null,
      record.requireSignedRequestObject ?? null,
      record.clientAuthentication ?? null,
      record.jwks === undefined,
      record.jwks ? JSON.stringify(record.jwks) : null,
      record.jwksUri === undefined,
      record.jwksUri ?? null,
      record.fapi2 ?? null,
    ],
  );
  if (record.exchangeAudiences !== undefined) await replaceExchangeAudiences(db, id, record.exchangeAudiences);
}

export async function updateStatus(db: Queryable, id: string, status: ApplicationStatus): Promise<void> {
  await db.query('UPDATE applications SET status = $2, modified_on = now() WHERE id = $1', [id, status]);
}

export async function updateSecret(db: Queryable, id: string, clientSecretEncrypted: string): Promise<void> {
  await db.query('UPDATE applications SET client_secret_encrypted = $2, modified_on = now() WHERE id = $1', [id, clientSecretEncrypted]);
}

/** Deletes an application; its owners, roles (and every grant of them), scopes, disclaimers and tokens go with it. */
export async function deleteApplication(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM applications WHERE id = $1', [id]);
}

/** Adds owners (those already owners are left as they are); answers how many were added. */
export async function insertOwners(db: Queryable, applicationId: string, userIds: string[]): Promise<number> {
  const rows = await db.query<Array<{ user_id: string }>>(
    `INSERT INTO application_owners (application_id, user_id) SELECT $1, unnest($2::uuid[])
     ON CONFLICT DO NOTHING RETURNING user_id`,
    [applicationId, userIds],
  );
  return rows.length;
}

/** Removes an owner; answers whether they were one. */
export async function deleteOwner(db: Queryable, applicationId: string, userId: string): Promise<boolean> {
  // A SELECT around the DELETE: TypeORM answers [rows, affected] for a bare DELETE … RETURNING.
  const [row] = await db.query<Array<{ removed: number }>>(
    'WITH removed AS (DELETE FROM application_owners WHERE application_id = $1 AND user_id = $2 RETURNING 1) SELECT count(*)::int AS removed FROM removed',
    [applicationId, userId],
  );
  return row!.removed > 0;
}

/** The ids among `userIds` that are users (drafts included). */
export async function existingUsers(db: Queryable, userIds: string[]): Promise<string[]> {
  const rows = await db.query<Array<{ id: string }>>('SELECT id FROM users WHERE id = ANY($1::uuid[])', [userIds]);
  return rows.map((row) => row.id);
}
