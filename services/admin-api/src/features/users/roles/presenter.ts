import { GLOBAL_TENANT_ID } from '@gatehouse/core';
import type { ApplicationAccess, UserTenant } from '@gatehouse/contracts';
import type { RoleRecord } from '../../directory/lookups.js';
import { hierarchyType } from '../presenter.js';
import type { UserGroupRow } from '../repository.js';
import type { ApplicationRow, MembershipRow, RoleGrantRow } from './repository.js';

/** One application of the Role access section: the user's badges in it and the roles that can be picked. */
export function accessItem(application: ApplicationRow, roles: RoleRecord[], grants: RoleGrantRow[], throughGroups: string[]): ApplicationAccess {
  const badges = grants.filter((g) => g.application_id === application.id);
  return {
    applicationId: application.id,
    applicationName: application.name,
    displayName: application.display_name,
    hasAccess: badges.length > 0,
    byHierarchy: badges.some((b) => b.by_hierarchy),
    throughGroups,
    roles: badges.map((b) => ({
      roleId: b.role_id,
      roleName: b.role_name,
      description: b.description,
      tenantId: b.tenant_id,
      tenantName: b.tenant_name,
      isGlobal: b.tenant_id === GLOBAL_TENANT_ID,
      hierarchyType: hierarchyType(b.own, b.by_hierarchy),
      removable: b.own,
      origins: b.origins,
    })),
    availableRoles: roles
      .filter((role) => role.applicationId === application.id)
      .map((role) => ({ id: role.id, name: role.name, description: role.description, byHierarchy: role.byHierarchy })),
  };
}

/** One tenant of the user's memberships, with the badges of `grants` that apply there, by application and role name. */
export function tenantItem(membership: MembershipRow, grants: RoleGrantRow[]): UserTenant {
  const badges = grants.filter((g) => g.tenant_id === membership.tenant_id);
  const isGlobal = membership.tenant_id === GLOBAL_TENANT_ID;
  return {
    tenantId: membership.tenant_id,
    tenantName: membership.tenant_name,
    isGlobal,
    isInheritable: membership.is_inheritable,
    hierarchyType: hierarchyType(membership.direct, membership.via_group || badges.some((b) => b.by_hierarchy)),
    roles: badges
      .slice()
      .sort((a, b) => a.application_display_name.localeCompare(b.application_display_name) || a.role_name.localeCompare(b.role_name))
      .map((b) => ({
        roleId: b.role_id,
        roleName: b.role_name,
        applicationId: b.application_id,
        applicationName: b.application_name,
        applicationDisplayName: b.application_display_name,
        hierarchyType: hierarchyType(b.own, b.by_hierarchy),
        isGlobal,
        origins: b.origins,
      })),
  };
}

/**
 * The User Permissions page: the user's group names and, per application, the names of their
 * effective roles, and each role in each tenant with how it is held there.
 */
export function permissionsOf(groups: UserGroupRow[], grants: RoleGrantRow[]) {
  const byApplication = new Map<string, RoleGrantRow[]>();
  for (const grant of grants) {
    const held = byApplication.get(grant.application_name);
    if (held) held.push(grant);
    else byApplication.set(grant.application_name, [grant]);
  }
  const byName = (a: string, b: string) => a.localeCompare(b);
  return {
    groups: groups.map((g) => g.group_name),
    applicationPermissions: [...byApplication.entries()]
      .sort(([a], [b]) => byName(a, b))
      .map(([applicationName, held]) => ({
        applicationName,
        roles: [...new Set(held.map((grant) => grant.role_name))].sort(byName),
        applicationDisplayName: held[0]!.application_display_name,
        grants: held
          .map((grant) => ({ roleId: grant.role_id, roleName: grant.role_name, tenantId: grant.tenant_id, tenantName: grant.tenant_name, origins: grant.origins }))
          .sort((a, b) => byName(a.roleName, b.roleName) || byName(a.tenantName, b.tenantName)),
      })),
  };
}
