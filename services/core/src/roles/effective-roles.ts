import type { DataSource, EntityManager } from 'typeorm';
import { GLOBAL_TENANT_ID, type HierarchyType } from '../domain/constants.js';

export interface EffectiveRole {
  tenantId: string;
  applicationId: string;
  applicationName: string;
  roleId: string;
  roleName: string;
  /** Own: granted in this tenant; ByHierarchy: from an ancestor or the Global tenant; Both. */
  hierarchyType: HierarchyType;
}

export interface EffectiveRoleQuery {
  /** Only the roles that apply in this tenant (including those inherited into it). */
  tenantId?: string;
  applicationId?: string;
}

type Db = DataSource | EntityManager;

// The user's memberships: direct, and through every group the user belongs to.
const MEMBERSHIPS = `
  memberships AS (
    SELECT tm.id, tm.tenant_id, tm.is_inheritable
      FROM tenant_members tm
     WHERE tm.user_id = $1
    UNION ALL
    SELECT tm.id, tm.tenant_id, tm.is_inheritable
      FROM tenant_members tm
      JOIN group_members gm ON gm.group_id = tm.group_id
     WHERE gm.user_id = $1
  )`;

const PROJECTION = `
  SELECT s.tenant_id AS "tenantId", r.application_id AS "applicationId", a.name AS "applicationName",
         r.id AS "roleId", r.name AS "roleName",
         CASE WHEN bool_or(s.own) AND bool_or(s.by_hierarchy) THEN 'Both'
              WHEN bool_or(s.own) THEN 'Own' ELSE 'ByHierarchy' END AS "hierarchyType"
    FROM sources s
    JOIN roles r ON r.id = s.role_id
    JOIN applications a ON a.id = r.application_id
   WHERE $2::varchar IS NULL OR r.application_id = $2
   GROUP BY s.tenant_id, r.application_id, a.name, r.id, r.name
   ORDER BY s.tenant_id, a.name, r.name`;

/**
 * Roles that apply in one tenant: granted there (Own), granted in an ancestor through an
 * inheritable membership or in the Global tenant (ByHierarchy), or both. Ancestors are walked
 * upwards, so the cost depends on the tree's depth, not its size.
 */
const IN_TENANT = `
  WITH RECURSIVE
  ancestors(id) AS (
    SELECT parent_id FROM tenants WHERE id = $3 AND parent_id IS NOT NULL
    UNION
    SELECT t.parent_id FROM ancestors x JOIN tenants t ON t.id = x.id WHERE t.parent_id IS NOT NULL
  ),
  ${MEMBERSHIPS},
  sources AS (
    SELECT $3::uuid AS tenant_id, tmr.role_id, m.tenant_id = $3 AS own, m.tenant_id <> $3 AS by_hierarchy
      FROM memberships m
      JOIN tenant_member_roles tmr ON tmr.tenant_member_id = m.id
     WHERE m.tenant_id = $3
        OR m.tenant_id = '${GLOBAL_TENANT_ID}'
        OR (m.is_inheritable AND m.tenant_id IN (SELECT id FROM ancestors))
  )
  ${PROJECTION}`;

/**
 * Roles in every tenant where the user has any: each membership's own tenant, plus every
 * descendant of an inheritable one. Roles held in the Global tenant apply everywhere and are
 * reported once, under the Global tenant, rather than copied into every tenant of the system.
 */
const ALL_TENANTS = `
  WITH RECURSIVE
  ${MEMBERSHIPS},
  grants AS (
    SELECT m.tenant_id, m.is_inheritable, tmr.role_id
      FROM memberships m
      JOIN tenant_member_roles tmr ON tmr.tenant_member_id = m.id
  ),
  inherited(tenant_id, role_id) AS (
    SELECT t.id, g.role_id
      FROM grants g JOIN tenants t ON t.parent_id = g.tenant_id
     WHERE g.is_inheritable AND g.tenant_id <> '${GLOBAL_TENANT_ID}'
    UNION
    SELECT t.id, i.role_id FROM inherited i JOIN tenants t ON t.parent_id = i.tenant_id
  ),
  sources AS (
    SELECT tenant_id, role_id, true AS own, false AS by_hierarchy FROM grants
    UNION ALL
    SELECT tenant_id, role_id, false, true FROM inherited
  )
  ${PROJECTION}`;

/** A user's effective roles per application and tenant, in one SQL query. */
export async function resolveEffectiveRoles(db: Db, userId: string, query: EffectiveRoleQuery = {}): Promise<EffectiveRole[]> {
  const applicationId = query.applicationId ?? null;
  return query.tenantId
    ? db.query(IN_TENANT, [userId, applicationId, query.tenantId])
    : db.query(ALL_TENANTS, [userId, applicationId]);
}
