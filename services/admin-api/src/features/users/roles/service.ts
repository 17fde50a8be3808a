import type { ApplicationAccess, RoleGrant, RoleRevocation } from '@gatehouse/contracts';
import { AppError, GLOBAL_TENANT_ID, type AppContext } from '@gatehouse/core';
import type { AccessActor, AccessTenant, TenantAccess } from '@gatehouse/core/access';
import { callerActor, tenantAccess } from '../../../access.js';
import type { Caller } from '../../../auth/koa-admin-auth.js';
import type { CallerScope } from '../../../auth/scope.js';
import { findRoles, findTenant, type RoleRecord } from '../../directory/lookups.js';
import { validationError, visibleUser } from '../access.js';
import { findUserGroups } from '../repository.js';
import { accessItem, permissionsOf, tenantItem } from './presenter.js';
import {
  findApplications,
  findGroupsGranting,
  findGroupsGrantingByApplication,
  findMemberships,
  findRoleGrants,
  type ApplicationRow,
  type RoleGrantRow,
} from './repository.js';
import type { AdminContext } from '../../../admin-context.js';

function roleError(code: 'users.role_not_available' | 'users.role_by_hierarchy'): AppError {
  return new AppError(code, 400, {}, [{ field: 'roleIds', code }]);
}

/** The user's role access: tenant memberships and role badges, granting and revoking application roles. */
export class UserRolesService {
  constructor(
    private readonly context: AdminContext,
    private readonly access: TenantAccess = tenantAccess(context),
  ) {}

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

  /** The tenant roles go to, which must exist. */
  private async tenant(tenantId: string): Promise<AccessTenant> {
    const tenant = await findTenant(this.db, tenantId);
    if (!tenant) throw validationError([{ field: 'tenantId', code: 'users.tenant_not_found' }]);
    return tenant;
  }

  /**
   * Adds roles of one application to the user's own membership of a tenant (the Global tenant when
   * none is given), creating the membership if needed, by the rules of tenant access (who may give
   * which roles to whom). Roles of another application cannot be picked.
   */
  async grantRoles(caller: Caller, scope: CallerScope, id: string, applicationId: string, body: RoleGrant): Promise<ApplicationAccess> {
    await visibleUser(this.db, scope, id);
    const application = await this.application(applicationId);
    const roles = await this.pickRoles(application, [...new Set(body.roleIds)]);
    const tenant = await this.tenant(body.tenantId ?? GLOBAL_TENANT_ID);
    const actor = await callerActor(this.db, caller, scope, 'users');
    await this.access.transaction((changes) => changes.grant(actor, { identity: { type: 'User', id }, tenant, roleIds: roles.map((role) => role.id) }));
    return this.applicationAccess(id, application);
  }

  /**
   * Gives the user roles, of one application or several, in one tenant (the tenant's Add Member
   * dialog) by the same rules. A new own membership is inheritable unless `isInheritable` says
   * otherwise; an existing one's flag changes only when given. Answers whether the membership was
   * created and whether anything changed.
   */
  async grantTenantRoles(
    caller: Caller,
    scope: CallerScope,
    id: string,
    grant: { tenantId: string; roleIds: string[]; isInheritable?: boolean },
  ): Promise<{ created: boolean; changed: boolean }> {
    await visibleUser(this.db, scope, id);
    const tenant = await this.tenant(grant.tenantId);
    const actor = await callerActor(this.db, caller, scope, 'users');
    const change = await this.access.transaction((changes) =>
      changes.grant(actor, { identity: { type: 'User', id }, tenant, roleIds: grant.roleIds, isInheritable: grant.isInheritable }),
    );
    return { created: change.membershipCreated, changed: change.changed };
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
    await visibleUser(this.db, scope, id);
    const application = await this.application(applicationId);
    const grants = await findRoleGrants(this.db, id, application.id);
    const actor = await callerActor(this.db, caller, scope, 'users');
    if (query.roleId) await this.revokeOne(actor, id, application, grants, query.roleId, query.tenantId ?? GLOBAL_TENANT_ID);
    else await this.revokeAll(actor, id, application, grants);
    return this.applicationAccess(id, application);
  }

  /** Removes one own badge. */
  private async revokeOne(actor: AccessActor, id: string, application: ApplicationRow, grants: RoleGrantRow[], roleId: string, tenantId: string): Promise<void> {
    const role = (await findRoles(this.db, { applicationId: application.id })).find((r) => r.id === roleId);
    if (!role) throw roleError('users.role_not_available');
    const badge = grants.find((g) => g.tenant_id === tenantId && g.role_id === roleId);
    if (!badge) throw new AppError('users.role_not_granted', 404);
    if (!badge.own) throw new AppError('users.inherited_role_not_removable', 400);
    const tenant = await this.tenant(tenantId);
    await this.access.transaction((changes) => changes.revoke(actor, { identity: { type: 'User', id }, tenant, roleIds: [roleId] }));
  }

  /** Removes every own role of the application, tenant by tenant, in one transaction. */
  private async revokeAll(actor: AccessActor, id: string, application: ApplicationRow, grants: RoleGrantRow[]): Promise<void> {
    const inherited = grants.some((g) => g.by_hierarchy);
    const groups = await findGroupsGranting(this.db, id, application.id);
    const own = grants.filter((g) => g.own);
    const tenants = new Map<string, AccessTenant>();
    for (const grant of own) if (!tenants.has(grant.tenant_id)) tenants.set(grant.tenant_id, await this.tenant(grant.tenant_id));
    await this.access.transaction(async (changes) => {
      for (const tenant of tenants.values()) {
        const roleIds = own.filter((g) => g.tenant_id === tenant.id).map((g) => g.role_id);
        await changes.revoke(actor, { identity: { type: 'User', id }, tenant, roleIds, inherited });
      }
      // Checked after the rules (a refused caller learns nothing of the user's groups): the group's access would stay.
      if (own.length === 0 && inherited) await changes.revoke(actor, { identity: { type: 'User', id }, tenant: { id: GLOBAL_TENANT_ID, title: 'Global', areaId: null }, roleIds: [], inherited });
      if (groups.length) {
        const params = { application: application.display_name, groups: groups.map((name) => `"${name}"`).join(', ') };
        throw new AppError('users.access_through_group', 409, params);
      }
    });
  }
}
