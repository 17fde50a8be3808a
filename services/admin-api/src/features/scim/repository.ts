// The SQL of SCIM provisioning: its tokens, and the users and groups of an area as SCIM reads them
// (the product's columns with what SCIM keeps beside them). Writes of users and groups go through
// their features' services; only scim_users and scim_groups are written here.
import { returnedRows } from '@gatehouse/core';
import type { Queryable } from '../../db.js';

export interface ScimTokenRow {
  id: string;
  name: string;
  area_id: string;
  area_name: string;
  expires_at: Date | null;
  last_used_at: Date | null;
  created_by: string;
  issuer_user_name: string;
  issuer_locked: boolean;
  issuer_draft: boolean;
  application: { id: string; name: string; display_name: string; status: string; enabled: boolean };
}

/** The token whose SHA-256 is `hash`, with its area, issuer and application. */
export async function findScimToken(db: Queryable, hash: string): Promise<ScimTokenRow | undefined> {
  const rows = await db.query<ScimTokenRow[]>(
    `SELECT t.id, t.name, t.area_id, ar.name AS area_name, t.expires_at, t.last_used_at, t.created_by,
            u.user_name AS issuer_user_name, u.locked AS issuer_locked, u.draft AS issuer_draft,
            json_build_object('id', a.id, 'name', a.name, 'display_name', a.display_name, 'status', a.status, 'enabled', a.enabled) AS application
       FROM scim_tokens t
       JOIN applications a ON a.id = t.application_id
       JOIN areas ar ON ar.id = t.area_id
       JOIN users u ON u.id = t.created_by
      WHERE t.token_hash = $1`,
    [hash],
  );
  return rows[0];
}

export async function touchScimToken(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE scim_tokens SET last_used_at = now() WHERE id = $1', [id]);
}

/** A user as SCIM reads it. */
export interface ScimUserRow {
  id: string;
  user_name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  job_title: string | null;
  language: string;
  locked: boolean;
  area_id: string;
  created_at: Date;
  last_modified: Date;
  external_id: string | null;
  attributes: Record<string, unknown> | null;
}

/** The FROM clause every user query shares: `u` the user, `s` what SCIM keeps. */
export const USER_FROM = 'users u LEFT JOIN scim_users s ON s.user_id = u.id';

const USER_COLUMNS = `u.id, u.user_name, u.email, u.first_name, u.last_name, u.job_title, u.language, u.locked, u.area_id, u.created_at,
  greatest(u.modified_on, coalesce(s.modified_on, u.modified_on)) AS last_modified, s.external_id, s.attributes`;

/** The expression of a user's last change (the product's columns or SCIM's). */
export const USER_LAST_MODIFIED = 'greatest(u.modified_on, coalesce(s.modified_on, u.modified_on))';

export interface PageQuery {
  /** A condition over `u` and `s` (or `g` and `s`), its parameters numbered from $2 ($1 is the area). */
  where?: { sql: string; params: unknown[] };
  orderBy?: string;
  descending?: boolean;
  offset: number;
  limit: number;
}

function conditionOf(query: PageQuery, alias: 'u' | 'g'): { sql: string; params: unknown[] } {
  const where = query.where ? ` AND (${query.where.sql})` : '';
  return { sql: `${alias}.area_id = $1${where}`, params: query.where?.params ?? [] };
}

/** A page of the area's users matching the query, and how many match in all. */
export async function listScimUsers(db: Queryable, areaId: string, query: PageQuery): Promise<{ rows: ScimUserRow[]; total: number }> {
  const condition = conditionOf(query, 'u');
  const params = [areaId, ...condition.params];
  const [{ total }] = await db.query<Array<{ total: number }>>(`SELECT count(*)::int AS total FROM ${USER_FROM} WHERE ${condition.sql}`, params);
  if (query.limit === 0) return { rows: [], total: total! };
  const direction = query.descending ? 'DESC' : 'ASC';
  const order = query.orderBy ? `${query.orderBy} ${direction} NULLS LAST, u.id` : 'u.created_at, u.id';
  const rows = await db.query<ScimUserRow[]>(
    `SELECT ${USER_COLUMNS} FROM ${USER_FROM} WHERE ${condition.sql} ORDER BY ${order} OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
    [...params, query.offset, query.limit],
  );
  return { rows, total: total! };
}

/** The user `id` if it lies in the area; with `lock`, row-locked until the transaction ends. */
export async function findScimUser(db: Queryable, areaId: string, id: string, lock = false): Promise<ScimUserRow | undefined> {
  if (!UUID.test(id)) return undefined;
  if (lock) await db.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [id]);
  const rows = await db.query<ScimUserRow[]>(`SELECT ${USER_COLUMNS} FROM ${USER_FROM} WHERE u.id = $1 AND u.area_id = $2`, [id, areaId]);
  return rows[0];
}

/** The groups of these users, in the area. */
export async function findUsersGroups(db: Queryable, areaId: string, userIds: string[]): Promise<Array<{ user_id: string; group_id: string; name: string }>> {
  if (!userIds.length) return [];
  return db.query(
    `SELECT m.user_id, g.id AS group_id, g.name FROM group_members m JOIN groups g ON g.id = m.group_id
      WHERE m.user_id = ANY($1::uuid[]) AND g.area_id = $2 ORDER BY g.name`,
    [userIds, areaId],
  );
}

/** Display names of users of the area, by id (a manager, members). */
export async function findUserNames(db: Queryable, areaId: string, ids: string[]): Promise<Map<string, { userName: string; displayName: string }>> {
  const wanted = ids.filter((id) => UUID.test(id));
  if (!wanted.length) return new Map();
  const rows = await db.query<Array<{ id: string; user_name: string; first_name: string | null; last_name: string | null }>>(
    'SELECT id, user_name, first_name, last_name FROM users WHERE id = ANY($1::uuid[]) AND area_id = $2',
    [wanted, areaId],
  );
  return new Map(rows.map((row) => [row.id, { userName: row.user_name, displayName: [row.first_name, row.last_name].filter(Boolean).join(' ') || row.user_name }]));
}

/** Writes what SCIM keeps on a user beside the product's columns. */
export async function saveScimUser(db: Queryable, userId: string, fields: { externalId: string | null; attributes: Record<string, unknown>; applicationId: string }): Promise<void> {
  await db.query(
    `INSERT INTO scim_users (user_id, external_id, attributes, application_id, modified_on) VALUES ($1, $2, $3::jsonb, $4, now())
     ON CONFLICT (user_id) DO UPDATE SET external_id = excluded.external_id, attributes = excluded.attributes, application_id = excluded.application_id,
       modified_on = CASE WHEN scim_users.external_id IS NOT DISTINCT FROM excluded.external_id AND scim_users.attributes = excluded.attributes
                          THEN scim_users.modified_on ELSE now() END`,
    [userId, fields.externalId, JSON.stringify(fields.attributes), fields.applicationId],
  );
}

/** A user's job title, the one column SCIM writes that the console leaves to the directory. */
export async function setJobTitle(db: Queryable, userId: string, title: string | null): Promise<boolean> {
  const rows = await db.query<unknown[]>(
    'UPDATE users SET job_title = $2, modified_on = now() WHERE id = $1 AND job_title IS DISTINCT FROM $2 RETURNING id',
    [userId, title],
  );
  return returnedRows(rows).length > 0;
}

/** A group as SCIM reads it. */
export interface ScimGroupRow {
  id: string;
  name: string;
  description: string | null;
  area_id: string;
  created_at: Date;
  last_modified: Date;
  external_id: string | null;
  attributes: Record<string, unknown> | null;
}

export const GROUP_FROM = 'groups g LEFT JOIN scim_groups s ON s.group_id = g.id';
export const GROUP_LAST_MODIFIED = 'greatest(g.modified_on, coalesce(s.modified_on, g.modified_on))';
const GROUP_COLUMNS = `g.id, g.name, g.description, g.area_id, g.created_at, ${GROUP_LAST_MODIFIED} AS last_modified, s.external_id, s.attributes`;

export async function listScimGroups(db: Queryable, areaId: string, query: PageQuery): Promise<{ rows: ScimGroupRow[]; total: number }> {
  const condition = conditionOf(query, 'g');
  const params = [areaId, ...condition.params];
  const [{ total }] = await db.query<Array<{ total: number }>>(`SELECT count(*)::int AS total FROM ${GROUP_FROM} WHERE ${condition.sql}`, params);
  if (query.limit === 0) return { rows: [], total: total! };
  const direction = query.descending ? 'DESC' : 'ASC';
  const order = query.orderBy ? `${query.orderBy} ${direction} NULLS LAST, g.id` : 'g.created_at, g.id';
  const rows = await db.query<ScimGroupRow[]>(
    `SELECT ${GROUP_COLUMNS} FROM ${GROUP_FROM} WHERE ${condition.sql} ORDER BY ${order} OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
    [...params, query.offset, query.limit],
  );
  return { rows, total: total! };
}

export async function findScimGroup(db: Queryable, areaId: string, id: string): Promise<ScimGroupRow | undefined> {
  if (!UUID.test(id)) return undefined;
  const rows = await db.query<ScimGroupRow[]>(`SELECT ${GROUP_COLUMNS} FROM ${GROUP_FROM} WHERE g.id = $1 AND g.area_id = $2`, [id, areaId]);
  return rows[0];
}

/** The members of these groups (users only), with their names. */
export async function findGroupsMembers(
  db: Queryable,
  groupIds: string[],
): Promise<Array<{ group_id: string; user_id: string; user_name: string; first_name: string | null; last_name: string | null }>> {
  if (!groupIds.length) return [];
  return db.query(
    `SELECT m.group_id, u.id AS user_id, u.user_name, u.first_name, u.last_name FROM group_members m JOIN users u ON u.id = m.user_id
      WHERE m.group_id = ANY($1::uuid[]) ORDER BY m.created_at, u.id`,
    [groupIds],
  );
}

/** Whether a group of the area already has this name (another than `exceptId`). */
export async function groupNameTaken(db: Queryable, areaId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await db.query<unknown[]>('SELECT 1 FROM groups WHERE area_id = $1 AND lower(name) = lower($2) AND id IS DISTINCT FROM $3::uuid', [areaId, name, exceptId ?? null]);
  return rows.length > 0;
}

export async function saveScimGroup(db: Queryable, groupId: string, fields: { externalId: string | null; attributes: Record<string, unknown>; applicationId: string }): Promise<void> {
  await db.query(
    `INSERT INTO scim_groups (group_id, external_id, attributes, application_id, modified_on) VALUES ($1, $2, $3::jsonb, $4, now())
     ON CONFLICT (group_id) DO UPDATE SET external_id = excluded.external_id, attributes = excluded.attributes, application_id = excluded.application_id,
       modified_on = CASE WHEN scim_groups.external_id IS NOT DISTINCT FROM excluded.external_id AND scim_groups.attributes = excluded.attributes
                          THEN scim_groups.modified_on ELSE now() END`,
    [groupId, fields.externalId, JSON.stringify(fields.attributes), fields.applicationId],
  );
}

/** Marks the group changed (its members changed), so that its version changes. */
export async function touchGroup(db: Queryable, groupId: string): Promise<void> {
  await db.query('UPDATE groups SET modified_on = now() WHERE id = $1', [groupId]);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ScimTokenListRow {
  id: string;
  name: string;
  area_id: string;
  area_name: string;
  token_last_chars: string;
  created_by: string;
  created_by_name: string | null;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
}

const TOKEN_LIST_COLUMNS = `t.id, t.name, t.area_id, ar.name AS area_name, t.token_last_chars, t.created_by, u.user_name AS created_by_name,
  t.created_at, t.expires_at, t.last_used_at`;

/** An application's SCIM tokens, newest first. */
export async function listScimTokens(db: Queryable, applicationId: string): Promise<ScimTokenListRow[]> {
  return db.query(
    `SELECT ${TOKEN_LIST_COLUMNS} FROM scim_tokens t JOIN areas ar ON ar.id = t.area_id LEFT JOIN users u ON u.id = t.created_by
      WHERE t.application_id = $1 ORDER BY t.created_at DESC, t.id`,
    [applicationId],
  );
}

export async function findScimTokenOf(db: Queryable, applicationId: string, id: string): Promise<ScimTokenListRow | undefined> {
  const rows = await db.query<ScimTokenListRow[]>(
    `SELECT ${TOKEN_LIST_COLUMNS} FROM scim_tokens t JOIN areas ar ON ar.id = t.area_id LEFT JOIN users u ON u.id = t.created_by
      WHERE t.application_id = $1 AND t.id = $2`,
    [applicationId, id],
  );
  return rows[0];
}

export async function insertScimToken(
  db: Queryable,
  token: { applicationId: string; areaId: string; name: string; hash: string; lastChars: string; createdBy: string; expiresAt: Date },
): Promise<string> {
  const rows = await db.query<Array<{ id: string }>>(
    `INSERT INTO scim_tokens (application_id, area_id, name, token_hash, token_last_chars, created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [token.applicationId, token.areaId, token.name, token.hash, token.lastChars, token.createdBy, token.expiresAt],
  );
  return rows[0]!.id;
}

export async function deleteScimToken(db: Queryable, applicationId: string, id: string): Promise<boolean> {
  return returnedRows(await db.query('DELETE FROM scim_tokens WHERE application_id = $1 AND id = $2 RETURNING id', [applicationId, id])).length > 0;
}

/** The application a token may be issued to: it exists; its name tells the product's own ones. */
export async function findTokenApplication(db: Queryable, id: string): Promise<{ id: string; name: string } | undefined> {
  const rows = await db.query<Array<{ id: string; name: string }>>('SELECT id, name FROM applications WHERE id = $1', [id]);
  return rows[0];
}

export async function findAreaName(db: Queryable, id: string): Promise<string | undefined> {
  const rows = await db.query<Array<{ name: string }>>('SELECT name FROM areas WHERE id = $1', [id]);
  return rows[0]?.name;
}
