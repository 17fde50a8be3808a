import { GLOBAL_TENANT_ID, likePattern, type GroupPermission, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';

/** A group as the admin API answers it, plus what the rules need to know about it. */
export interface GroupRecord {
  id: string;
  name: string;
  description: string | null;
  areaId: string;
  areaName: string;
  /** The tenants where the group holds roles; id null is the Global tenant. */
  tenants: Array<{ id: string | null; title: string }>;
  membersCount: number;
  /** Whether the caller is an Owner member (administrators are owners of every group on top of this). */
  callerIsOwner: boolean;
  /** Named Users (any case) and holding a Global membership: read-only for everyone but God. */
  isUsersGroup: boolean;
}

interface GroupRow {
  id: string;
  name: string;
  description: string | null;
  area_id: string;
  area_name: string;
  members_count: number;
  caller_is_owner: boolean;
  tenants: Array<{ id: string; title: string }>;
  total?: string;
}

// $1 is always the caller's id.
const GROUP_COLUMNS = `
  g.id, g.name, g.description, g.area_id, a.name AS area_name,
  (SELECT count(*)::int FROM group_members gm WHERE gm.group_id = g.id) AS members_count,
  EXISTS (SELECT 1 FROM group_members o WHERE o.group_id = g.id AND o.user_id = $1 AND o.permission = 'Owner') AS caller_is_owner,
  COALESCE((SELECT json_agg(json_build_object('id', t.id, 'title', t.title) ORDER BY t.id <> '${GLOBAL_TENANT_ID}', t.title, t.id)
              FROM tenant_members tm JOIN tenants t ON t.id = tm.tenant_id
             WHERE tm.group_id = g.id), '[]'::json) AS tenants`;

const toGroup = (row: GroupRow): GroupRecord => {
  const tenants = row.tenants.map((t) => ({ id: t.id === GLOBAL_TENANT_ID ? null : t.id, title: t.title }));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    areaId: row.area_id,
    areaName: row.area_name,
    tenants,
    membersCount: row.members_count,
    callerIsOwner: row.caller_is_owner,
    isUsersGroup: row.name.toLowerCase() === 'users' && tenants.some((t) => t.id === null),
  };
};

export interface GroupListFilter {
  callerId: string;
  query: ListQuery;
  areaId?: string;
  /** The caller's areas; null for every area. */
  areaIds: string[] | null;
}

/** The list's WHERE clause over three parameters (search pattern, area, the caller's areas) from $first. */
const groupFilter = (first: number) => {
  const [search, area, areas] = [first, first + 1, first + 2].map((n) => `$${n}`);
  return `(${search}::text IS NULL OR g.name ILIKE ${search} OR g.description ILIKE ${search})
      AND (${area}::uuid IS NULL OR g.area_id = ${area})
      AND (${areas}::uuid[] IS NULL OR g.area_id = ANY(${areas}))`;
};

/** One page of groups, sorted and searched in SQL, with the total of the whole selection. */
export async function listGroups(db: Queryable, filter: GroupListFilter): Promise<{ items: GroupRecord[]; count: number }> {
  const { query } = filter;
  const params = [query.search ? likePattern(query.search) : null, filter.areaId ?? null, filter.areaIds];
  const rows = await db.query<GroupRow[]>(
    `SELECT ${GROUP_COLUMNS}, count(*) OVER () AS total
       FROM groups g JOIN areas a ON a.id = g.area_id
      WHERE ${groupFilter(2)}
      ORDER BY ${query.orderBy}, g.id
      LIMIT $5 OFFSET $6`,
    [filter.callerId, ...params, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM groups g WHERE ${groupFilter(1)}`, params);
    return Number(row!.count);
  });
  return { items: rows.map(toGroup), count };
}

export async function findGroup(db: Queryable, id: string, callerId: string | null): Promise<GroupRecord | undefined> {
  const rows = await db.query<GroupRow[]>(`SELECT ${GROUP_COLUMNS} FROM groups g JOIN areas a ON a.id = g.area_id WHERE g.id = $2`, [callerId, id]);
  return rows[0] && toGroup(rows[0]);
}

/**
 * What the members list needs of the group: its area (the caller's scope) and its number of
 * members (the list's total without a search); undefined when there is no such group.
 */
export async function findGroupMemberCount(db: Queryable, id: string): Promise<{ areaId: string; membersCount: number } | undefined> {
  const rows = await db.query<Array<{ area_id: string; members_count: number }>>(
    `SELECT g.area_id, (SELECT count(*)::int FROM group_members gm WHERE gm.group_id = g.id) AS members_count FROM groups g WHERE g.id = $1`,
    [id],
  );
  return rows[0] && { areaId: rows[0].area_id, membersCount: rows[0].members_count };
}

/**
 * Locks the group's row until the transaction ends, so changes to one group (its members, its
 * tenants, the Users-group check) happen one after the other; answers whether it exists.
 */
export async function lockGroup(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(`SELECT id FROM groups WHERE id = $1 FOR UPDATE`, [id]);
  return rows.length > 0;
}

export async function insertGroup(db: Queryable, fields: { name: string; description: string | null; areaId: string }): Promise<string> {
  const rows = await db.query<Array<{ id: string }>>(`INSERT INTO groups (name, description, area_id) VALUES ($1, $2, $3) RETURNING id`, [
    fields.name,
    fields.description,
    fields.areaId,
  ]);
  return rows[0]!.id;
}

export async function updateGroup(db: Queryable, id: string, fields: { name: string; description: string | null; areaId: string }): Promise<void> {
  await db.query(`UPDATE groups SET name = $2, description = $3, area_id = $4, modified_on = now() WHERE id = $1`, [
    id,
    fields.name,
    fields.description,
    fields.areaId,
  ]);
}

/** Deletes the group; its members and tenant memberships (with their roles) go with it (ON DELETE CASCADE). */
export async function deleteGroup(db: Queryable, id: string): Promise<void> {
  await db.query(`DELETE FROM groups WHERE id = $1`, [id]);
}

/** The ids of the group's members: whose effective roles change with the group's. */
export async function memberIds(db: Queryable, groupId: string): Promise<string[]> {
  const rows = await db.query<Array<{ user_id: string }>>(`SELECT user_id FROM group_members WHERE group_id = $1`, [groupId]);
  return rows.map((r) => r.user_id);
}

export interface MemberRecord {
  userId: string;
  userName: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  groupId: string;
  groupName: string;
  permission: GroupPermission;
}

interface MemberRow {
  user_id: string;
  user_name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  group_id: string;
  group_name: string;
  permission: GroupPermission;
}

const MEMBER_COLUMNS = `u.id AS user_id, u.user_name, u.email, u.first_name, u.last_name, g.id AS group_id, g.name AS group_name, gm.permission`;
const MEMBER_FROM = `group_members gm JOIN users u ON u.id = gm.user_id JOIN groups g ON g.id = gm.group_id`;

const toMember = (row: MemberRow): MemberRecord => ({
  userId: row.user_id,
  userName: row.user_name,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  groupId: row.group_id,
  groupName: row.group_name,
  permission: row.permission,
});

/**
 * One page of the group's members, and their number. The page's ids come first (a "deferred
 * join"), from indexes alone: for a large group, the users in the order of the sort (user name or
 * e-mail), each looked up in the group, until the page is full; for a small one, its members,
 * sorted; by permission, the group's members in that order. Only those rows are then read whole.
 * `memberCount`, when the caller already has it (the group as visibleGroup reads it), is the total
 * without a search.
 */
export async function listMembers(db: Queryable, groupId: string, query: ListQuery, memberCount?: number): Promise<{ items: MemberRecord[]; count: number }> {
  const search = query.search ? likePattern(query.search) : null;
  const where = `gm.group_id = $1 AND ($2::text IS NULL OR u.user_name ILIKE $2 OR u.email ILIKE $2)`;
  // Page and total apart rather than count(*) OVER (), which reads every member before the page.
  const rows = await db.query<MemberRow[]>(
    `SELECT ${MEMBER_COLUMNS}
       FROM (SELECT gm.user_id FROM group_members gm JOIN users u ON u.id = gm.user_id
              WHERE ${where}
              ORDER BY ${query.orderBy}, u.id
              LIMIT $3 OFFSET $4) page
       JOIN group_members gm ON gm.group_id = $1 AND gm.user_id = page.user_id
       JOIN users u ON u.id = gm.user_id
       JOIN groups g ON g.id = gm.group_id
      ORDER BY ${query.orderBy}, u.id`,
    [groupId, search, query.top, query.skip],
  );
  const items = rows.map(toMember);
  // A short page is the last one: the total is known without counting.
  if (items.length < query.top && (items.length > 0 || query.skip === 0)) return { items, count: query.skip + items.length };
  if (!search && memberCount !== undefined) return { items, count: memberCount };
  const [row] = search
    ? await db.query<Array<{ count: string }>>(`SELECT count(*) FROM group_members gm JOIN users u ON u.id = gm.user_id WHERE ${where}`, [groupId, search])
    : await db.query<Array<{ count: string }>>(`SELECT count(*) FROM group_members WHERE group_id = $1`, [groupId]);
  return { items, count: Number(row!.count) };
}

export async function findMember(db: Queryable, groupId: string, userId: string): Promise<MemberRecord | undefined> {
  const rows = await db.query<MemberRow[]>(`SELECT ${MEMBER_COLUMNS} FROM ${MEMBER_FROM} WHERE gm.group_id = $1 AND gm.user_id = $2`, [groupId, userId]);
  return rows[0] && toMember(rows[0]);
}

export interface UserRecord {
  id: string;
  userName: string;
  areaId: string;
}

export async function findUser(db: Queryable, id: string): Promise<UserRecord | undefined> {
  const rows = await db.query<Array<{ id: string; user_name: string; area_id: string }>>(`SELECT id, user_name, area_id FROM users WHERE id = $1`, [id]);
  return rows[0] && { id: rows[0].id, userName: rows[0].user_name, areaId: rows[0].area_id };
}

/** Adds the member unless already there; answers false when the user already was a member. */
export async function insertMember(db: Queryable, groupId: string, userId: string, permission: GroupPermission): Promise<boolean> {
  const rows = await db.query<unknown[]>(
    `INSERT INTO group_members (group_id, user_id, permission) VALUES ($1, $2, $3) ON CONFLICT (group_id, user_id) DO NOTHING RETURNING user_id`,
    [groupId, userId, permission],
  );
  return rows.length > 0;
}

export async function updateMemberPermission(db: Queryable, groupId: string, userId: string, permission: GroupPermission): Promise<void> {
  await db.query(`UPDATE group_members SET permission = $3 WHERE group_id = $1 AND user_id = $2`, [groupId, userId, permission]);
}

export async function deleteMember(db: Queryable, groupId: string, userId: string): Promise<void> {
  await db.query(`DELETE FROM group_members WHERE group_id = $1 AND user_id = $2`, [groupId, userId]);
}

export interface TenantRolesRecord {
  membershipId: string;
  /** The real id, the Global tenant's all-zero id included (the API answers null for it). */
  tenantId: string;
  tenantName: string;
  isInheritable: boolean;
  roles: Array<{ roleId: string; roleName: string; applicationId: string; applicationName: string; applicationDisplayName: string }>;
}

interface TenantRolesRow {
  id: string;
  tenant_id: string;
  tenant_name: string;
  is_inheritable: boolean;
  roles: TenantRolesRecord['roles'];
}

/** The group's tenant memberships with their roles: Global first, then by tenant name. */
export async function listTenantRoles(db: Queryable, groupId: string, tenantId?: string): Promise<TenantRolesRecord[]> {
  const rows = await db.query<TenantRolesRow[]>(
    `SELECT tm.id, tm.tenant_id, t.title AS tenant_name, tm.is_inheritable,
            COALESCE((SELECT json_agg(json_build_object('roleId', r.id, 'roleName', r.name, 'applicationId', app.id, 'applicationName', app.name, 'applicationDisplayName', app.display_name)
                                      ORDER BY app.name, r.name, r.id)
                        FROM tenant_member_roles tmr
                        JOIN roles r ON r.id = tmr.role_id
                        JOIN applications app ON app.id = r.application_id
                       WHERE tmr.tenant_member_id = tm.id), '[]'::json) AS roles
       FROM tenant_members tm JOIN tenants t ON t.id = tm.tenant_id
      WHERE tm.group_id = $1 AND ($2::uuid IS NULL OR tm.tenant_id = $2)
      ORDER BY tm.tenant_id <> '${GLOBAL_TENANT_ID}', t.title, t.id`,
    [groupId, tenantId ?? null],
  );
  return rows.map((row) => ({
    membershipId: row.id,
    tenantId: row.tenant_id,
    tenantName: row.tenant_name,
    isInheritable: row.is_inheritable,
    roles: row.roles,
  }));
}

