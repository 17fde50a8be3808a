import { GLOBAL_TENANT_ID, likePattern, type GroupPermission, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';

/**
 * What `$search` looks in for users: the expression of the `users__search_trgm` GIN index, character
 * for character (see the users feature's repository), so the planner can use that index here too.
 */
const USER_SEARCH_SQL = `(u.user_name || ' ' || u.email || ' ' || coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, ''))`;

/** First and last name, or the user name when both are empty: how the Permissions page names a user. */
export const USER_DISPLAY_NAME_SQL = `coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.user_name)`;

/** A badge: one tenant where the identity holds roles; id null is the Global tenant. */
export interface TenantBadge {
  id: string | null;
  title: string;
  isInheritable: boolean;
}

interface BadgeRow {
  id: string;
  title: string;
  isInheritable: boolean;
}

/**
 * The identity's memberships that hold at least one role, as badges: Global first, then by title.
 * `owner` is the membership column naming the identity (user_id or group_id), `id` the SQL of its id.
 */
const badgesSql = (owner: 'user_id' | 'group_id', id: string) => `
  COALESCE((SELECT json_agg(json_build_object('id', t.id, 'title', t.title, 'isInheritable', tm.is_inheritable)
                            ORDER BY t.id <> '${GLOBAL_TENANT_ID}', t.title, t.id)
              FROM tenant_members tm JOIN tenants t ON t.id = tm.tenant_id
             WHERE tm.${owner} = ${id}
               AND EXISTS (SELECT 1 FROM tenant_member_roles tmr WHERE tmr.tenant_member_id = tm.id)), '[]'::json)`;

/** Whether the identity holds a role in some tenant (in the tenant given by the parameter `tenant`, when not null). */
const holdsRolesSql = (owner: 'user_id' | 'group_id', id: string, tenant: string) => `
  EXISTS (SELECT 1 FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
           WHERE tm.${owner} = ${id} AND (${tenant}::uuid IS NULL OR tm.tenant_id = ${tenant}))`;

const toBadges = (rows: BadgeRow[]): TenantBadge[] =>
  rows.map((row) => ({ id: row.id === GLOBAL_TENANT_ID ? null : row.id, title: row.title, isInheritable: row.isInheritable }));

/** The filters of both lists, the caller's scope included. */
export interface IdentityListFilter {
  query: ListQuery;
  areaId?: string;
  /** Only identities holding roles in this tenant (the all-zero id: the Global tenant). */
  tenantId?: string;
  /** The caller's areas; null for every area. */
  areaIds: string[] | null;
}

export interface IdentityUserRecord {
  id: string;
  userName: string;
  email: string;
  displayName: string;
  areaName: string | null;
  tenants: TenantBadge[];
}

interface UserRow {
  id: string;
  user_name: string;
  email: string;
  display_name: string;
  area_name: string | null;
  tenants: BadgeRow[];
  total?: string;
}

/** The users list's WHERE clause over four parameters (search pattern, area, tenant, the caller's areas) from $first. */
const userFilter = (first: number) => {
  const [search, area, tenant, areas] = [first, first + 1, first + 2, first + 3].map((n) => `$${n}`);
  return `(${search}::text IS NULL OR ${USER_SEARCH_SQL} ILIKE ${search})
      AND (${area}::uuid IS NULL OR u.area_id = ${area})
      AND (${areas}::uuid[] IS NULL OR u.area_id = ANY(${areas}))
      AND ${holdsRolesSql('user_id', 'u.id', tenant)}`;
};

const filterParams = (filter: IdentityListFilter) => [
  filter.query.search ? likePattern(filter.query.search) : null,
  filter.areaId ?? null,
  filter.tenantId ?? null,
  filter.areaIds,
];

/**
 * One page of the users who hold roles in some tenant in their own name, sorted and searched in
 * SQL, each with the tenants where they do. The page is chosen first, and only its rows' badges
 * are gathered.
 */
export async function listIdentityUsers(db: Queryable, filter: IdentityListFilter): Promise<{ items: IdentityUserRecord[]; count: number }> {
  const { query } = filter;
  const params = filterParams(filter);
  const rows = await db.query<UserRow[]>(
    `WITH page AS (
       SELECT u.id, u.user_name, u.email, ${USER_DISPLAY_NAME_SQL} AS display_name, a.name AS area_name,
              row_number() OVER (ORDER BY ${query.orderBy}, u.id) AS ordinal, count(*) OVER () AS total
         FROM users u JOIN areas a ON a.id = u.area_id
        WHERE ${userFilter(1)}
        ORDER BY ordinal
        LIMIT $5 OFFSET $6)
     SELECT p.id, p.user_name, p.email, p.display_name, p.area_name, p.total, ${badgesSql('user_id', 'p.id')} AS tenants
       FROM page p
      ORDER BY p.ordinal`,
    [...params, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM users u WHERE ${userFilter(1)}`, params);
    return Number(row!.count);
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      userName: row.user_name,
      email: row.email,
      displayName: row.display_name,
      areaName: row.area_name,
      tenants: toBadges(row.tenants),
    })),
    count,
  };
}

export interface IdentityGroupRecord {
  id: string;
  name: string;
  description: string | null;
  areaId: string | null;
  areaName: string | null;
  membersCount: number;
  tenants: TenantBadge[];
}

interface GroupRow {
  id: string;
  name: string;
  description: string | null;
  area_id: string | null;
  area_name: string | null;
  members_count: number;
  tenants: BadgeRow[];
  total?: string;
}

const groupColumns = (alias: string) => `${alias}.id, ${alias}.name, ${alias}.description, ${alias}.area_id, ${alias}.area_name,
  (SELECT count(*)::int FROM group_members gm WHERE gm.group_id = ${alias}.id) AS members_count,
  ${badgesSql('group_id', `${alias}.id`)} AS tenants`;

const toGroup = (row: GroupRow): IdentityGroupRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  areaId: row.area_id,
  areaName: row.area_name,
  membersCount: row.members_count,
  tenants: toBadges(row.tenants),
});

/** The groups list's WHERE clause over four parameters (search pattern, area, tenant, the caller's areas) from $first. */
const groupFilter = (first: number) => {
  const [search, area, tenant, areas] = [first, first + 1, first + 2, first + 3].map((n) => `$${n}`);
  return `(${search}::text IS NULL OR g.name ILIKE ${search} OR g.description ILIKE ${search})
      AND (${area}::uuid IS NULL OR g.area_id = ${area})
      AND (${areas}::uuid[] IS NULL OR g.area_id = ANY(${areas}))
      AND ${holdsRolesSql('group_id', 'g.id', tenant)}`;
};

/** One page of the groups that hold roles in some tenant, with their members count and tenants. */
export async function listIdentityGroups(db: Queryable, filter: IdentityListFilter): Promise<{ items: IdentityGroupRecord[]; count: number }> {
  const { query } = filter;
  const params = filterParams(filter);
  const rows = await db.query<GroupRow[]>(
    `WITH page AS (
       SELECT g.id, g.name, g.description, g.area_id, a.name AS area_name,
              row_number() OVER (ORDER BY ${query.orderBy}, g.id) AS ordinal, count(*) OVER () AS total
         FROM groups g JOIN areas a ON a.id = g.area_id
        WHERE ${groupFilter(1)}
        ORDER BY ordinal
        LIMIT $5 OFFSET $6)
     SELECT ${groupColumns('p')}, p.total
       FROM page p
      ORDER BY p.ordinal`,
    [...params, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM groups g WHERE ${groupFilter(1)}`, params);
    return Number(row!.count);
  });
  return { items: rows.map(toGroup), count };
}

/** One group with its members count and tenants (empty when it holds no roles); undefined when there is none. */
export async function findIdentityGroup(db: Queryable, id: string): Promise<IdentityGroupRecord | undefined> {
  const rows = await db.query<GroupRow[]>(
    `SELECT ${groupColumns('p')}
       FROM (SELECT g.id, g.name, g.description, g.area_id, a.name AS area_name FROM groups g JOIN areas a ON a.id = g.area_id WHERE g.id = $1) p`,
    [id],
  );
  return rows[0] && toGroup(rows[0]);
}

export interface GroupUserRecord {
  userId: string;
  userName: string;
  email: string;
  displayName: string;
  permission: GroupPermission;
}

interface GroupUserRow {
  user_id: string;
  user_name: string;
  email: string;
  display_name: string;
  permission: GroupPermission;
  total?: string;
}

const GROUP_USER_WHERE = `gm.group_id = $1 AND ($2::text IS NULL OR ${USER_SEARCH_SQL} ILIKE $2)`;

/** One page of the group's users. */
export async function listGroupUsers(db: Queryable, groupId: string, query: ListQuery): Promise<{ items: GroupUserRecord[]; count: number }> {
  const params = [groupId, query.search ? likePattern(query.search) : null];
  const rows = await db.query<GroupUserRow[]>(
    `SELECT u.id AS user_id, u.user_name, u.email, ${USER_DISPLAY_NAME_SQL} AS display_name, gm.permission, count(*) OVER () AS total
       FROM group_members gm JOIN users u ON u.id = gm.user_id
      WHERE ${GROUP_USER_WHERE}
      ORDER BY ${query.orderBy}, u.id
      LIMIT $3 OFFSET $4`,
    [...params, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM group_members gm JOIN users u ON u.id = gm.user_id WHERE ${GROUP_USER_WHERE}`, params);
    return Number(row!.count);
  });
  return {
    items: rows.map((row) => ({ userId: row.user_id, userName: row.user_name, email: row.email, displayName: row.display_name, permission: row.permission })),
    count,
  };
}

// ---- The tenant-roles imports and their templates ----

/** A tenant a spreadsheet row may name (by id or title). */
export interface TenantMatch {
  id: string;
  title: string;
  areaId: string | null;
}

/** The tenants whose id or title (any case) is one of `keys` (lower-cased), in one query. */
export async function findTenantsByKey(db: Queryable, keys: string[]): Promise<TenantMatch[]> {
  if (!keys.length) return [];
  const rows = await db.query<Array<{ id: string; title: string; area_id: string | null }>>(
    `SELECT id, title, area_id FROM tenants WHERE id::text = ANY($1::text[]) OR lower(title) = ANY($1::text[])`,
    [keys],
  );
  return rows.map((r) => ({ id: r.id, title: r.title, areaId: r.area_id }));
}

/** A group a row may name (by id or name). */
export interface GroupMatch {
  id: string;
  name: string;
  areaId: string;
}

/** The groups whose id or name (any case) is one of `keys` (lower-cased), in one query. */
export async function findGroupsByKey(db: Queryable, keys: string[]): Promise<GroupMatch[]> {
  if (!keys.length) return [];
  const rows = await db.query<Array<{ id: string; name: string; area_id: string }>>(
    `SELECT id, name, area_id FROM groups WHERE id::text = ANY($1::text[]) OR lower(name) = ANY($1::text[])`,
    [keys],
  );
  return rows.map((r) => ({ id: r.id, name: r.name, areaId: r.area_id }));
}

/** An identity's own membership of a tenant (a user's in their own name, or a group's), with its roles. */
export interface OwnMembership {
  isInheritable: boolean;
  roleIds: string[];
}

/** The membership of this user (`owner` user_id) or group (group_id) in the tenant; undefined when there is none. */
export async function findOwnMembership(db: Queryable, owner: 'user_id' | 'group_id', identityId: string, tenantId: string): Promise<OwnMembership | undefined> {
  const rows = await db.query<Array<{ is_inheritable: boolean; role_ids: string[] }>>(
    `SELECT tm.is_inheritable, COALESCE(array_agg(tmr.role_id::text) FILTER (WHERE tmr.role_id IS NOT NULL), '{}') AS role_ids
       FROM tenant_members tm LEFT JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
      WHERE tm.${owner} = $1 AND tm.tenant_id = $2
      GROUP BY tm.id`,
    [identityId, tenantId],
  );
  return rows[0] && { isInheritable: rows[0].is_inheritable, roleIds: rows[0].role_ids };
}

/** A tenant of the templates' list of values. */
export interface TenantValue {
  id: string;
  title: string;
}

/** The tenants of the caller's areas (null: every area) by title, the Global tenant first when asked for. */
export async function tenantValues(db: Queryable, areaIds: string[] | null, withGlobal: boolean): Promise<TenantValue[]> {
  return db.query<TenantValue[]>(
    `SELECT id, title FROM tenants
      WHERE (id = '${GLOBAL_TENANT_ID}' AND $2::boolean)
         OR (id <> '${GLOBAL_TENANT_ID}' AND ($1::uuid[] IS NULL OR area_id = ANY($1::uuid[])))
      ORDER BY id <> '${GLOBAL_TENANT_ID}', title, id`,
    [areaIds, withGlobal],
  );
}

/** A role of the templates' list of values, with its application. */
export interface RoleValue {
  applicationId: string;
  applicationName: string;
  roleName: string;
  byHierarchy: boolean;
}

/** Every role with its application, by application name then role name. */
export async function roleValues(db: Queryable): Promise<RoleValue[]> {
  const rows = await db.query<Array<{ application_id: string; application_name: string; role_name: string; by_hierarchy: boolean }>>(
    `SELECT app.id AS application_id, app.name AS application_name, r.name AS role_name, r.by_hierarchy
       FROM roles r JOIN applications app ON app.id = r.application_id
      ORDER BY app.name, r.name, r.id`,
  );
  return rows.map((r) => ({ applicationId: r.application_id, applicationName: r.application_name, roleName: r.role_name, byHierarchy: r.by_hierarchy }));
}
