import type { ApplicationAccess, RoleGrant, RoleRevocation } from '@gatehouse/contracts';
import { AppError, GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, type AppContext } from '@gatehouse/core';
import { writeSystemLog } from '../../../audit/system-log.js';
import type { Caller } from '../../../auth/koa-admin-auth.js';
import type { CallerScope } from '../../../auth/scope.js';
import { findRoles, findTenant, type RoleRecord, type TenantRecord } from '../../directory/lookups.js';
import { actorOf, publishUserEvents, validationError, visibleUser, type Actor } from '../access.js';
import { notifyRolesGranted } from '../../notifications/permission-assigned.js';
import { findUserGroups, type UserStateRow } from '../repository.js';
import { accessItem, permissionsOf, tenantItem } from './presenter.js';
import {
  addMembershipRoles,
  findApplications,
  findGroupsGranting,
  findGroupsGrantingByApplication,
  findMemberships,
  findRoleGrants,
  lockOwnMembership,
  removeOwnApplicationRoles,
  setOwnMembershipInheritable,
  removeOwnRole,
  type ApplicationRow,
  type RoleGrantRow,
} from './repository.js';

function roleError(code: 'users.role_not_available' | 'users.role_by_hierarchy'): AppError {
  return new AppError(code, 400, {}, [{ field: 'roleIds', code }]);
}

/**
 * Who may touch which roles, beyond the endpoint's roles: the Global tenant and the Identity
 * application's roles (which make administrators) are for Administrator and God; the God role
 * for God alone.
 */
export function assertMayGrant(scope: CallerScope, application: ApplicationRow, tenantIds: string[], roleNames: string[]): void {
  if (!scope.isAdministrator && tenantIds.includes(GLOBAL_TENANT_ID)) throw new AppError('users.global_tenant_admin_only', 403);
  if (!scope.isAdministrator && application.id === IDENTITY_APPLICATION_ID) throw new AppError('users.identity_roles_admin_only', 403);
  if (!scope.isGod && application.id === IDENTITY_APPLICATION_ID && roleNames.includes('God')) throw new AppError('users.god_role_god_only', 403);
}

/** Roles of one application given together. */
interface RoleGrantGroup {
  application: ApplicationRow;
  roles: RoleRecord[];
}

/** A change of the user's roles in one application: who changes whose, for the system log. */
interface RoleChange {
  actor: Actor;
  user: UserStateRow;
  application: ApplicationRow;
}

/** The user's role access: tenant memberships and role badges, granting and revoking application roles. */
export class UserRolesService {
  constructor(private readonly context: AppContext) {}

  private get db() {
    return this.context.dataSource;
  }

  /**
   * The tenants the user belongs to (directly or through a group), the Global tenant first, with
   * the role badges that apply there. Own: the user's own membership; ByHierarchy: through a group,
   * or roles inherited from an ancestor tenant; Both.
   */
  async tenants(scope: CallerScope, id: string) {
    await visibleUser(this.db, scope, id);
    const [memberships, grants] = await Promise.all([findMemberships(this.db, id), findRoleGrants(this.db, id)]);
    const items = memberships
      .map((membership) => tenantItem(membership, grants))
      .sort((a, b) => Number(b.isGlobal) - Number(a.isGlobal) || a.tenantName.localeCompare(b.tenantName));
    return { items, count: items.length };
  }

  /** One item per application (by display name): the user's badges in it and the roles that can be picked. */
  async roles(scope: CallerScope, id: string): Promise<{ items: ApplicationAccess[] }> {
    await visibleUser(this.db, scope, id);
    const [applications, roles, grants, groups] = await Promise.all([
      findApplications(this.db),
      findRoles(this.db),
      findRoleGrants(this.db, id),
      findGroupsGrantingByApplication(this.db, id),
    ]);
    return { items: applications.map((app) => accessItem(app, roles, grants, groups.get(app.id) ?? [])) };
  }

  /** The User Permissions page: the user's groups, and per application the names of their effective roles. */
  async checkPermissions(scope: CallerScope, id: string) {
    await visibleUser(this.db, scope, id);
    const [groups, grants] = await Promise.all([findUserGroups(this.db, id), findRoleGrants(this.db, id)]);
    return permissionsOf(groups, grants);
  }

  private async applicationAccess(id: string, application: ApplicationRow): Promise<ApplicationAccess> {
    const [roles, grants, groups] = await Promise.all([
      findRoles(this.db, { applicationId: application.id }),
      findRoleGrants(this.db, id, application.id),
      findGroupsGranting(this.db, id, application.id),
    ]);
    return accessItem(application, roles, grants, groups);
  }

  private async application(applicationId: string): Promise<ApplicationRow> {
    const [application] = await findApplications(this.db, applicationId);
    if (!application) throw new AppError('users.application_not_found', 404);
    return application;
  }

  /** The roles picked among the application's, refusing one of another application or one granted by the hierarchy only. */
  private async pickRoles(application: ApplicationRow, roleIds: string[]): Promise<RoleRecord[]> {
    const available = new Map((await findRoles(this.db, { applicationId: application.id })).map((role) => [role.id, role]));
    const picked = roleIds.map((roleId) => available.get(roleId));
    if (picked.some((role) => !role)) throw roleError('users.role_not_available');
    const roles = picked as RoleRecord[];
    if (roles.some((role) => role.byHierarchy)) throw roleError('users.role_by_hierarchy');
    return roles;
  }

  /**
   * Adds roles of one application to the user's own membership of a tenant (the Global tenant when
   * none is given), creating the membership if needed. Roles of another application, and roles
   * flagged byHierarchy (granted only through the hierarchy), cannot be picked.
   */
  async grantRoles(caller: Caller, scope: CallerScope, id: string, applicationId: string, body: RoleGrant): Promise<ApplicationAccess> {
    const user = await visibleUser(this.db, scope, id);
    const application = await this.application(applicationId);
    const tenantId = body.tenantId ?? GLOBAL_TENANT_ID;
    const roleIds = [...new Set(body.roleIds)];
    const roles = await this.pickRoles(application, roleIds);
    assertMayGrant(scope, application, [tenantId], roles.map((role) => role.name));
    const tenant = await findTenant(this.db, tenantId);
    if (!tenant) throw validationError([{ field: 'tenantId', code: 'users.tenant_not_found' }]);
    const { changed, added } = await this.addRoles(await actorOf(this.db, caller), user, tenant, [{ application, roles }]);
    if (changed) publishUserEvents(this.context, id, ['roles.changed']);
    await this.notifyGranted(user, tenant, added);
    return this.applicationAccess(id, application);
  }

  /**
   * Gives the user roles, of one application or several, in one tenant (the tenant's Add Member
   * dialog) by the rules of grantRoles: roles that exist and are not granted by the hierarchy only,
   * the Global tenant and the Identity application's roles for administrators, God for God. A new
   * own membership is inheritable unless `isInheritable` says otherwise; an existing one's flag
   * changes only when given. Answers whether the membership was created and whether anything changed.
   */
  async grantTenantRoles(
    caller: Caller,
    scope: CallerScope,
    id: string,
    grant: { tenantId: string; roleIds: string[]; isInheritable?: boolean },
  ): Promise<{ created: boolean; changed: boolean }> {
    const user = await visibleUser(this.db, scope, id);
    const roleIds = [...new Set(grant.roleIds)];
    const roles = await findRoles(this.db, { ids: roleIds });
    if (roles.length !== roleIds.length) throw roleError('users.role_not_available');
    if (roles.some((role) => role.byHierarchy)) throw roleError('users.role_by_hierarchy');
    const grants: RoleGrantGroup[] = [];
    for (const applicationId of [...new Set(roles.map((role) => role.applicationId))]) {
      const application = await this.application(applicationId);
      const picked = roles.filter((role) => role.applicationId === applicationId);
      assertMayGrant(scope, application, [grant.tenantId], picked.map((role) => role.name));
      grants.push({ application, roles: picked });
    }
    const tenant = await findTenant(this.db, grant.tenantId);
    if (!tenant) throw validationError([{ field: 'tenantId', code: 'users.tenant_not_found' }]);
    const { added, ...result } = await this.addRoles(await actorOf(this.db, caller), user, tenant, grants, grant.isInheritable);
    if (result.changed) publishUserEvents(this.context, id, ['roles.changed']);
    await this.notifyGranted(user, tenant, added);
    return result;
  }

  /** Tells the user which roles they were given (PermissionAssigned); never fails the grant. */
  private notifyGranted(user: UserStateRow, tenant: TenantRecord, added: RoleGrantGroup[]): Promise<void> {
    return notifyRolesGranted(this.context, {
      user: { id: user.id, language: user.language },
      tenantTitle: tenant.title,
      grants: added.map(({ application, roles }) => ({ applicationName: application.display_name, roleNames: roles.map((role) => role.name) })),
    });
  }

  /**
   * Adds the roles to the user's own membership of the tenant in one transaction, and logs, per
   * application, those the membership did not already have; answers those as `added`.
   */
  private async addRoles(
    actor: Actor,
    user: UserStateRow,
    tenant: TenantRecord,
    grants: RoleGrantGroup[],
    isInheritable?: boolean,
  ): Promise<{ created: boolean; changed: boolean; added: RoleGrantGroup[] }> {
    return this.db.transaction(async (em) => {
      const membership = await lockOwnMembership(em, tenant.id, user.id, isInheritable ?? true);
      const flagChanged = !membership.created && isInheritable !== undefined && isInheritable !== membership.isInheritable;
      if (flagChanged) await setOwnMembershipInheritable(em, membership.id, isInheritable);
      const addedIds = new Set(await addMembershipRoles(em, membership.id, grants.flatMap((g) => g.roles.map((role) => role.id))));
      const target = { targetUserId: user.id, targetUserName: user.user_name };
      const log = (metadata: Record<string, unknown>) =>
        writeSystemLog(em, { operation: 'Permission', ...actor, tenantId: tenant.id, tenantName: tenant.title, metadata });
      const added: RoleGrantGroup[] = [];
      for (const { application, roles } of grants) {
        const addedRoles = roles.filter((role) => addedIds.has(role.id));
        if (addedRoles.length === 0) continue;
        added.push({ application, roles: addedRoles });
        await log({
          action: 'grant',
          ...target,
          applicationId: application.id,
          applicationName: application.name,
          roles: addedRoles.map((role) => ({ roleId: role.id, roleName: role.name })),
          ...(isInheritable === undefined ? {} : { isInheritable }),
        });
      }
      if (flagChanged && addedIds.size === 0) await log({ action: 'setInheritable', ...target, isInheritable });
      return { created: membership.created, changed: membership.created || flagChanged || addedIds.size > 0, added };
    });
  }

  /**
   * With `roleId`: removes that badge from the user's own membership of the tenant (Global when no
   * tenant is given); a badge the user only holds through a group or an ancestor tenant cannot be
   * removed here. Without: revokes every own role of the application in every tenant. When some of
   * the access is inherited, only an Administrator (or God) may revoke it all ("Only Admin can
   * revoke this access"). Access that comes through a group belongs to the group: revoking would
   * leave it in place, so the revocation is refused (409, nothing removed) with a message naming
   * the groups to change.
   */
  async revokeRoles(caller: Caller, scope: CallerScope, id: string, applicationId: string, query: RoleRevocation): Promise<ApplicationAccess> {
    const user = await visibleUser(this.db, scope, id);
    const application = await this.application(applicationId);
    const grants = await findRoleGrants(this.db, id, application.id);
    const change = { actor: await actorOf(this.db, caller), user, application };
    const changed = query.roleId
      ? await this.revokeOne(change, scope, grants, query.roleId, query.tenantId ?? GLOBAL_TENANT_ID)
      : await this.revokeAll(change, scope, grants);
    if (changed) publishUserEvents(this.context, id, ['roles.changed']);
    return this.applicationAccess(id, application);
  }

  private logBase({ user, application }: RoleChange) {
    return { action: 'revoke', targetUserId: user.id, targetUserName: user.user_name, applicationId: application.id, applicationName: application.name };
  }

  /** Removes one own badge; answers whether it was there. */
  private async revokeOne(change: RoleChange, scope: CallerScope, grants: RoleGrantRow[], roleId: string, tenantId: string): Promise<boolean> {
    const role = (await findRoles(this.db, { applicationId: change.application.id })).find((r) => r.id === roleId);
    if (!role) throw roleError('users.role_not_available');
    assertMayGrant(scope, change.application, [tenantId], [role.name]);
    const badge = grants.find((g) => g.tenant_id === tenantId && g.role_id === roleId);
    if (!badge) throw new AppError('users.role_not_granted', 404);
    if (!badge.own) throw new AppError('users.inherited_role_not_removable', 400);
    return this.db.transaction(async (em) => {
      const removed = await removeOwnRole(em, change.user.id, tenantId, roleId);
      if (removed) {
        await writeSystemLog(em, {
          operation: 'Permission',
          ...change.actor,
          tenantId,
          tenantName: badge.tenant_name,
          metadata: { ...this.logBase(change), roles: [{ roleId, roleName: role.name, tenantId }] },
        });
      }
      return removed;
    });
  }

  /** Removes every own role of the application; answers whether any was removed. */
  private async revokeAll(change: RoleChange, scope: CallerScope, grants: RoleGrantRow[]): Promise<boolean> {
    if (!scope.isAdministrator && grants.some((g) => g.by_hierarchy)) throw new AppError('users.only_admin_revoke', 403);
    const own = grants.filter((g) => g.own);
    assertMayGrant(scope, change.application, own.map((g) => g.tenant_id), own.map((g) => g.role_name));
    const groups = await findGroupsGranting(this.db, change.user.id, change.application.id);
    if (groups.length) {
      const params = { application: change.application.display_name, groups: groups.map((name) => `"${name}"`).join(', ') };
      throw new AppError('users.access_through_group', 409, params);
    }
    return this.db.transaction(async (em) => {
      const removed = await removeOwnApplicationRoles(em, change.user.id, change.application.id);
      if (removed.length) {
        await writeSystemLog(em, {
          operation: 'Permission',
          ...change.actor,
          metadata: {
            ...this.logBase(change),
            action: 'revokeAll',
            roles: removed.map((r) => ({ roleId: r.role_id, roleName: r.role_name, tenantId: r.tenant_id })),
          },
        });
      }
      return removed.length > 0;
    });
  }
}
