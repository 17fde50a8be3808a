import type { ErrorCode, HierarchyType, RoleOrigin, ServiceManagerPermissions, ServiceManagerRoleReason, ServiceManagerUser } from '@gatehouse/contracts';
import { AppError, GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, resolveEffectiveRoles, type AppContext, type ListQuery } from '@gatehouse/core';
import {
  findAccessRoles,
  findRoleOrigins,
  findTarget,
  mayGrantRoles,
  mayRevokeRoles,
  type AccessRole,
  type Authority,
  type Decision,
  type RoleChangeFacts,
  type Target,
  type TenantAccess,
} from '@gatehouse/core/access';
import { callerActor, tenantAccess } from '../../access.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import {
  findClientTenant,
  findHeldRoles,
  findMembershipInheritable,
  findServiceManagerRoles,
  findTenantUser,
  listTenantUsers,
  listTenants,
  type ServiceManagerRoleRow,
  type TenantRow,
} from './repository.js';
import type { AdminContext } from '../../admin-context.js';

/**
 * Who acts in service-manager mode, worked out once per call: administrators (Administrator or God)
 * manage every tenant; anyone else the tenants where they hold ServiceManager effectively (own,
 * through a group, inherited from an ancestor, or in the Global tenant: every tenant). The tenants
 * come from the database, never from the token, so a service manager of one tenant who is a
 * consultant of another reaches the first only.
 */
export interface ServiceManagerActor {
  isAdministrator: boolean;
  isGod: boolean;
  managesAll: boolean;
  tenantIds: ReadonlySet<string>;
}

export async function serviceManagerActorOf(context: AppContext, caller: Caller): Promise<ServiceManagerActor> {
  const isGod = caller.roles.includes('God');
  const isAdministrator = isGod || caller.roles.includes('Administrator');
  const held = isAdministrator ? [] : await resolveEffectiveRoles(context.dataSource, caller.userId, { applicationId: IDENTITY_APPLICATION_ID });
  const tenantIds = held.filter((role) => role.roleName === 'ServiceManager').map((role) => role.tenantId);
  return { isAdministrator, isGod, managesAll: isAdministrator || tenantIds.includes(GLOBAL_TENANT_ID), tenantIds: new Set(tenantIds) };
}

const roleError = (code: 'serviceManager.role_not_found' | 'serviceManager.role_not_visible' | 'serviceManager.role_by_hierarchy', name?: string) =>
  new AppError(code, 400, name === undefined ? {} : { name }, [{ field: 'roles', code, params: name === undefined ? {} : { name } }]);

/** How the editor words a refusal of the rules: why this caller may not change the role. */
const REASONS: Partial<Record<ErrorCode, ServiceManagerRoleReason>> = {
  'serviceManager.role_not_visible': 'notManaged',
  'serviceManager.role_by_hierarchy': 'hierarchyOnly',
  'users.role_by_hierarchy': 'hierarchyOnly',
  'access.own_roles': 'yourOwn',
  'serviceManager.target_outranks': 'outranks',
};
const reasonOf = (decision: Decision): ServiceManagerRoleReason | null => (decision.ok ? null : (REASONS[decision.code] ?? 'notAllowed'));

const holdsOwn = (held: HierarchyType | null) => held === 'Own' || held === 'Both';

/** What the editor needs to say whether the caller may change a role of the user, and why not. */
interface ChangeRules {
  authority: Authority;
  target: Target;
  tenant: TenantRow;
}

/** The portal's Service Manager screen: tenants, their users, and the users' roles of service-manager visibility. */
export class ServiceManagerService {
  constructor(
    private readonly context: AdminContext,
    private readonly access: TenantAccess = tenantAccess(context),
  ) {}

  private get db() {
    return this.context.dataSource;
  }

  /** The tenants the actor manages, by title, paged in SQL; empty when none. */
  async tenants(actor: ServiceManagerActor, query: ListQuery): Promise<{ items: TenantRow[]; count: number }> {
    if (!actor.managesAll && actor.tenantIds.size === 0) return { items: [], count: 0 };
    return listTenants(this.db, actor.managesAll ? null : [...actor.tenantIds], query);
  }

  /** The tenant if the actor manages it; the same 404 as a missing tenant otherwise (and for the Global tenant). */
  private async managedTenant(actor: ServiceManagerActor, tenantId: string): Promise<TenantRow> {
    const tenant = await findClientTenant(this.db, tenantId);
    // The actor's tenants include every tenant an inheritable grant of ServiceManager reaches.
    if (!tenant || !(actor.managesAll || actor.tenantIds.has(tenant.id))) throw new AppError('serviceManager.tenant_not_found', 404);
    return tenant;
  }

  /** One page of the tenant's users, each with the roles they hold there. */
  async users(actor: ServiceManagerActor, tenantId: string, query: ListQuery): Promise<{ items: ServiceManagerUser[]; count: number }> {
    const tenant = await this.managedTenant(actor, tenantId);
    const page = await listTenantUsers(this.db, tenant.id, query);
    const userIds = page.items.map((user) => user.id);
    const [held, origins] = await Promise.all([findHeldRoles(this.db, tenant.id, userIds), findRoleOrigins(this.db, tenant.id, 'User', userIds)]);
    const originsOf = (userId: string, roleId: string) => origins.find((o) => o.identityId === userId && o.roleId === roleId)?.origins ?? [];
    return {
      items: page.items.map((user) => ({
        id: user.id,
        fullName: user.full_name,
        userName: user.user_name,
        email: user.email,
        roles: held
          .filter((role) => role.user_id === user.id)
          .map((role) => ({
            roleId: role.role_id,
            roleName: role.role_name,
            applicationId: role.application_id,
            applicationName: role.application_name,
            applicationDisplayName: role.application_name,
            hierarchyType: role.hierarchy_type,
            origins: originsOf(user.id, role.role_id),
          })),
      })),
      count: page.count,
    };
  }

  /** A user of the tenant; 404 for anyone else (no pending user is one yet). */
  private async tenantUser(tenant: TenantRow, userId: string) {
    const user = await findTenantUser(this.db, tenant.id, userId);
    if (!user) throw new AppError('serviceManager.user_not_found', 404);
    return user;
  }

  /**
   * Every application's roles of service-manager visibility, and every other role the user holds
   * in the tenant, with how the user holds each and why the caller may not change it, if not.
   */
  async permissions(caller: Caller, actor: ServiceManagerActor, tenantId: string, userId: string): Promise<ServiceManagerPermissions> {
    const tenant = await this.managedTenant(actor, tenantId);
    await this.tenantUser(tenant, userId);
    return this.permissionsOf(caller, tenant, userId);
  }

  private async permissionsOf(caller: Caller, tenant: TenantRow, userId: string): Promise<ServiceManagerPermissions> {
    const [held, origins, inheritable, changer, target] = await Promise.all([
      findHeldRoles(this.db, tenant.id, [userId]),
      findRoleOrigins(this.db, tenant.id, 'User', [userId]),
      findMembershipInheritable(this.db, tenant.id, userId),
      callerActor(this.db, caller, { areaIds: null }, 'serviceManager'),
      findTarget(this.db, { type: 'User', id: userId }),
    ]);
    if (!target) throw new AppError('serviceManager.user_not_found', 404);
    const roles = await findServiceManagerRoles(this.db, null, held.map((role) => role.role_id));
    const facts = new Map((await findAccessRoles(this.db, roles.map((role) => role.id))).map((role) => [role.id, role]));
    const rules: ChangeRules = { authority: changer.authority, target, tenant };
    const how = new Map(held.map((role) => [role.role_id, role.hierarchy_type]));
    const applications: ServiceManagerPermissions['applications'] = [];
    for (const role of roles) {
      let application = applications.at(-1);
      if (application?.applicationId !== role.application_id) {
        application = { applicationId: role.application_id, applicationName: role.application_name, roles: [] };
        applications.push(application);
      }
      const hierarchyType = how.get(role.id) ?? null;
      const roleOrigins = origins.find((o) => o.roleId === role.id)?.origins ?? [];
      const reason = reasonToKeep(rules, facts.get(role.id)!, role.visible, hierarchyType, roleOrigins);
      application.roles.push({ roleId: role.id, roleName: role.name, held: hierarchyType, editable: reason === null, reason, origins: roleOrigins });
    }
    return { userId, tenantId: tenant.id, isInheritable: inheritable ?? true, applications };
  }

  /**
   * Sets the user's own roles of service-manager visibility in the tenant to exactly those of
   * `body.roles` (adds the missing ones, removes the others of that visibility, leaves every other
   * role), in one transaction that holds the user's membership row, by the rules of tenant access
   * (never one's own roles, never for someone who outranks the service manager): of two service
   * managers changing the same user at the same time, the last one's set stands whole.
   */
  async setPermissions(
    caller: Caller,
    actor: ServiceManagerActor,
    tenantId: string,
    userId: string,
    body: { isInheritable: boolean; roles: string[] },
  ): Promise<ServiceManagerPermissions> {
    const tenant = await this.managedTenant(actor, tenantId);
    await this.tenantUser(tenant, userId);
    const wanted = await this.pickRoles([...new Set(body.roles)]);
    const changer = await callerActor(this.db, caller, { areaIds: null }, 'serviceManager');
    await this.access.transaction(async (changes) => {
      // A role the user holds only by hierarchy is shown, never sent: it is not theirs to change
      // here; nor is one only ever given by the hierarchy, unless it is theirs already (kept).
      const held = await findHeldRoles(changes.em, tenant.id, [userId]);
      const how = (role: ServiceManagerRoleRow) => held.find((h) => h.role_id === role.id)?.hierarchy_type ?? null;
      const inherited = wanted.find((role) => !holdsOwn(how(role)) && (role.by_hierarchy || how(role) === 'ByHierarchy'));
      if (inherited) throw roleError('serviceManager.role_by_hierarchy', inherited.name);
      await changes.set(changer, {
        identity: { type: 'User', id: userId },
        tenant: { id: tenant.id, title: tenant.title, areaId: null },
        roleIds: wanted.map((role) => role.id),
        within: (role) => role.serviceManagerVisible,
        isInheritable: body.isInheritable,
      });
    });
    return this.permissionsOf(caller, tenant, userId);
  }

  /** The roles asked for, each existing and of service-manager visibility (an Identity role only when flagged so, the God role never). */
  private async pickRoles(roleIds: string[]): Promise<ServiceManagerRoleRow[]> {
    if (roleIds.length === 0) return [];
    const roles = await findServiceManagerRoles(this.db, roleIds);
    if (roles.length !== roleIds.length) throw roleError('serviceManager.role_not_found');
    const hidden = roles.find((role) => !role.visible);
    if (hidden) throw roleError('serviceManager.role_not_visible', hidden.name);
    return roles;
  }
}

/**
 * Why the caller may not change the role (null when they may), by the checks `setPermissions`
 * makes in the same order: a role the user holds in their own name changes by being left out
 * (taken away, unless outside the screen's roles: then it stays whatever is sent); any other by
 * being sent (given), which the screen's roles, the hierarchy and then the rules decide.
 */
function reasonToKeep(rules: ChangeRules, role: AccessRole, visible: boolean, held: HierarchyType | null, origins: readonly RoleOrigin[]): ServiceManagerRoleReason | null {
  const change: RoleChangeFacts = { path: 'serviceManager', target: rules.target, tenants: [{ id: rules.tenant.id, areaId: null }], roles: [role] };
  if (holdsOwn(held)) return role.serviceManagerVisible ? reasonOf(mayRevokeRoles(rules.authority, change)) : 'notManaged';
  if (!visible) return 'notManaged';
  if (role.byHierarchy) return 'hierarchyOnly';
  if (held === 'ByHierarchy') return origins.some((origin) => origin.via === 'group') ? 'group' : 'hierarchy';
  return reasonOf(mayGrantRoles(rules.authority, change));
}
