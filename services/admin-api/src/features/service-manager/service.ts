import type { ServiceManagerPermissions, ServiceManagerUser } from '@gatehouse/contracts';
import { AppError, GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, resolveEffectiveRoles, resolveRoleNames, type AppContext, type ListQuery } from '@gatehouse/core';
import type { EntityManager } from 'typeorm';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { notifyRolesGranted } from '../notifications/permission-assigned.js';
import { removeRoles } from '../tenants/members-repository.js';
import { actorOf, publishUserEvents, type Actor } from '../users/access.js';
import { findUserState } from '../users/repository.js';
import { addMembershipRoles, lockOwnMembership, setOwnMembershipInheritable } from '../users/roles/repository.js';
import {
  findClientTenant,
  findHeldRoles,
  findMembershipInheritable,
  findServiceManagerRoles,
  findTenantUser,
  findVisibleMembershipRoles,
  listTenantUsers,
  listTenants,
  lockMembership,
  type ServiceManagerRoleRow,
  type TenantUserRow,
  type TenantRow,
} from './repository.js';

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

/** One service manager's change of one user's roles in one tenant. */
interface RoleChange {
  actor: Actor;
  tenant: TenantRow;
  target: TenantUserRow;
  wanted: ServiceManagerRoleRow[];
  isInheritable: boolean;
}

const roleError = (code: 'serviceManager.role_not_found' | 'serviceManager.role_not_visible' | 'serviceManager.role_by_hierarchy', name?: string) =>
  new AppError(code, 400, name === undefined ? {} : { name }, [{ field: 'roles', code, params: name === undefined ? {} : { name } }]);

/** The portal's Service Manager screen: tenants, their users, and the users' roles of service-manager visibility. */
export class ServiceManagerService {
  constructor(private readonly context: AppContext) {}

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
    const held = await findHeldRoles(this.db, tenant.id, page.items.map((user) => user.id));
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
            hierarchyType: role.hierarchy_type,
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

  /** Every application's roles of service-manager visibility, with how the user holds them in the tenant. */
  async permissions(actor: ServiceManagerActor, tenantId: string, userId: string): Promise<ServiceManagerPermissions> {
    const tenant = await this.managedTenant(actor, tenantId);
    await this.tenantUser(tenant, userId);
    return this.permissionsOf(tenant, userId);
  }

  private async permissionsOf(tenant: TenantRow, userId: string): Promise<ServiceManagerPermissions> {
    const [roles, held, inheritable] = await Promise.all([
      findServiceManagerRoles(this.db, null),
      findHeldRoles(this.db, tenant.id, [userId]),
      findMembershipInheritable(this.db, tenant.id, userId),
    ]);
    const how = new Map(held.map((role) => [role.role_id, role.hierarchy_type]));
    const applications: ServiceManagerPermissions['applications'] = [];
    for (const role of roles) {
      let application = applications.at(-1);
      if (application?.applicationId !== role.application_id) {
        application = { applicationId: role.application_id, applicationName: role.application_name, roles: [] };
        applications.push(application);
      }
      const hierarchyType = how.get(role.id) ?? null;
      application.roles.push({ roleId: role.id, roleName: role.name, held: hierarchyType, editable: hierarchyType !== 'ByHierarchy' && !role.by_hierarchy });
    }
    return { userId, tenantId: tenant.id, isInheritable: inheritable ?? true, applications };
  }

  /**
   * Sets the user's own roles of service-manager visibility in the tenant to exactly those of `body.roles`
   * (adds the missing ones, removes the others of that visibility, leaves every other role), at
   * once, in one transaction that holds the user's membership row: of two service managers
   * changing the same user at the same time, the last one's set stands whole. Logged (Permission)
   * and told to the user (PermissionAssigned) as the other grants are.
   */
  async setPermissions(
    caller: Caller,
    actor: ServiceManagerActor,
    tenantId: string,
    userId: string,
    body: { isInheritable: boolean; roles: string[] },
  ): Promise<ServiceManagerPermissions> {
    const tenant = await this.managedTenant(actor, tenantId);
    const target = await this.tenantUser(tenant, userId);
    await this.assertMayChange(actor, userId);
    const wanted = await this.pickRoles([...new Set(body.roles)]);

    const change = { actor: await actorOf(this.db, caller), tenant, target, wanted, isInheritable: body.isInheritable };
    const { added, changed } = await this.db.transaction((em) => this.applyRoles(em, change));

    if (changed) publishUserEvents(this.context, userId, ['roles.changed']);
    await this.notifyGranted(tenant, userId, added);
    return this.permissionsOf(tenant, userId);
  }

  /** The change inside its transaction, the user's membership row held from the first read: answers the roles added and whether anything changed. */
  private async applyRoles(em: EntityManager, change: RoleChange): Promise<{ added: ServiceManagerRoleRow[]; changed: boolean }> {
    const { tenant, target, wanted, isInheritable } = change;
    const existing = await lockMembership(em, tenant.id, target.id);
    const own = new Set(existing ? await findVisibleMembershipRoles(em, existing.id) : []);
    // A role the user holds only by hierarchy is shown, never sent: it is not theirs to change here.
    const inherited = new Set((await findHeldRoles(em, tenant.id, [target.id])).filter((r) => r.hierarchy_type === 'ByHierarchy').map((r) => r.role_id));
    const refused = wanted.find((role) => !own.has(role.id) && inherited.has(role.id));
    if (refused) throw roleError('serviceManager.role_by_hierarchy', refused.name);
    const toAdd = wanted.filter((role) => !own.has(role.id));
    const toRemove = [...own].filter((roleId) => !wanted.some((role) => role.id === roleId));
    if (!existing && toAdd.length === 0) return { added: [], changed: false };

    const membership = existing ?? (await lockOwnMembership(em, tenant.id, target.id, isInheritable));
    const flagChanged = !!existing && existing.is_inheritable !== isInheritable;
    if (flagChanged) await setOwnMembershipInheritable(em, membership.id, isInheritable);
    const addedIds = new Set(await addMembershipRoles(em, membership.id, toAdd.map((role) => role.id)));
    const added = toAdd.filter((role) => addedIds.has(role.id));
    const removed = toRemove.length ? await findServiceManagerRoles(em, toRemove) : [];
    await removeRoles(
      em,
      removed.map((role) => ({
        membershipId: membership.id,
        tenantId: tenant.id,
        tenantTitle: tenant.title,
        roleId: role.id,
        roleName: role.name,
        applicationId: role.application_id,
        applicationName: role.application_name,
      })),
    );
    const changed = added.length > 0 || removed.length > 0 || flagChanged;
    if (changed) {
      const names = (list: ServiceManagerRoleRow[]) => list.map((role) => ({ roleId: role.id, roleName: role.name, applicationId: role.application_id }));
      await writeSystemLog(em, {
        operation: 'Permission',
        ...change.actor,
        tenantId: tenant.id,
        tenantName: tenant.title,
        metadata: { action: 'serviceManagerSet', targetUserId: target.id, targetUserName: target.user_name, added: names(added), removed: names(removed), isInheritable },
      });
    }
    return { added, changed };
  }

  /**
   * Refuses a target who outranks the service manager: only God changes a God user's roles, only
   * an administrator an Administrator's (wherever they hold it).
   */
  private async assertMayChange(actor: ServiceManagerActor, userId: string): Promise<void> {
    const names = await resolveRoleNames(this.db, userId, IDENTITY_APPLICATION_ID);
    if (names.includes('God') && !actor.isGod) throw new AppError('serviceManager.target_outranks', 403);
    if (names.includes('Administrator') && !actor.isAdministrator) throw new AppError('serviceManager.target_outranks', 403);
  }

  /**
   * The roles asked for, each existing and of service-manager visibility (an Identity role only
   * when flagged so, the God role never) and not one granted through the hierarchy only.
   */
  private async pickRoles(roleIds: string[]): Promise<ServiceManagerRoleRow[]> {
    if (roleIds.length === 0) return [];
    const roles = await findServiceManagerRoles(this.db, roleIds);
    if (roles.length !== roleIds.length) throw roleError('serviceManager.role_not_found');
    const hidden = roles.find((role) => !role.visible);
    if (hidden) throw roleError('serviceManager.role_not_visible', hidden.name);
    const byHierarchy = roles.find((role) => role.by_hierarchy);
    if (byHierarchy) throw roleError('serviceManager.role_by_hierarchy', byHierarchy.name);
    return roles;
  }

  /** Tells the user which roles they were given (PermissionAssigned), per application; never fails the change. */
  private async notifyGranted(tenant: TenantRow, userId: string, added: ServiceManagerRoleRow[]): Promise<void> {
    if (added.length === 0) return;
    const user = await findUserState(this.db, userId);
    if (!user) return;
    const byApplication = new Map<string, string[]>();
    for (const role of added) byApplication.set(role.application_name, [...(byApplication.get(role.application_name) ?? []), role.name]);
    await notifyRolesGranted(this.context, {
      user: { id: user.id, language: user.language },
      tenantTitle: tenant.title,
      grants: [...byApplication].map(([applicationName, roleNames]) => ({ applicationName, roleNames })),
    });
  }
}
