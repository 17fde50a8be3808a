import type { ExternalEntity, ExternalUserRoles, Sort } from '@gatehouse/contracts';
import { AppError, likePattern, resolveEffectiveRoles, toListQuery, type AppContext, type HierarchyType } from '@gatehouse/core';
import type { z } from 'zod';
import type { externalRemovedRolesSchema, externalRoleHolderSchema, externalLockedUserSchema } from '@gatehouse/contracts';
import {
  applicationAuthority,
  applicationLockEffect,
  blockApplicationAccess,
  enforce,
  findCreatingApplication,
  findRoleGrants,
  holdsRolesOutside,
  lockTarget,
  type AccessActor,
  type Authority,
  type TenantAccess,
} from '@gatehouse/core/access';
import { tenantAccess } from '../../access.js';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Queryable } from '../../db.js';
import type { ExternalCaller } from './caller.js';
import {
  HOLDER_SORT,
  deleteApplicationGrants,
  deleteProviderData,
  findApplicationRoles,
  findDescendants,
  findOwnApplicationRoleIds,
  findOwnApplicationTenants,
  findVisibleTenant,
  holdsApplicationRole,
  listRoleHolders,
  listVisibleRoots,
  listVisibleTenants,
  lockAccount,
  type ApplicationRole,
  type EntityRow,
  type VisibleTenant,
} from './repository.js';
import { findUserStateOf } from '../users/access.js';
import type { AdminContext } from '../../admin-context.js';

type RemovedRoles = z.input<typeof externalRemovedRolesSchema>;
type RoleHolder = z.input<typeof externalRoleHolderSchema>;
type LockedUser = z.input<typeof externalLockedUserSchema>;

/** Who a change is made by, as the system log names it: the token's owner, else the application (its client id). */
export function systemLogActor(caller: ExternalCaller): { userId: string | null; userName: string } {
  return { userId: caller.userId, userName: caller.userName ?? caller.application.name };
}

/** What every system log row of an external call carries in its metadata. */
export function externalOrigin(caller: ExternalCaller): Record<string, unknown> {
  return { via: 'externalApi', application: caller.application.name, applicationId: caller.application.id };
}

/** The application as the actor of a change of access (tenant access's `external` path). */
export function applicationActor(caller: ExternalCaller, authority: Authority): AccessActor {
  return { authority, path: 'external', log: systemLogActor(caller), origin: { application: caller.application.name, applicationId: caller.application.id } };
}

const hierarchyOf = (own: boolean, byHierarchy: boolean): HierarchyType => (own && byHierarchy ? 'Both' : own ? 'Own' : 'ByHierarchy');

/** Answers 404 (external.role_not_found, naming it) for a reference to no role of the application. */
function roleNotFound(reference: string, field?: string): AppError {
  return new AppError('external.role_not_found', field ? 400 : 404, { role: reference }, field ? [{ field, code: 'external.role_not_found', params: { role: reference } }] : []);
}

/**
 * The roles a list of references (ids or names) names among the application's, in the order
 * given: a reference to a role of another application is the same refusal as one to no role at all.
 */
export async function resolveRoles(db: Queryable, caller: ExternalCaller, references: string[], field?: string): Promise<ApplicationRole[]> {
  const found = await findApplicationRoles(db, caller.application.id, references);
  const roles = new Map<string, ApplicationRole>();
  for (const reference of references) {
    const role = found.find((r) => r.reference === reference);
    if (!role) throw roleNotFound(reference, field);
    roles.set(role.id, role);
  }
  return [...roles.values()];
}

/** The tenant if the application sees it; otherwise the same 404 as a tenant that does not exist. */
export async function visibleTenant(db: Queryable, caller: ExternalCaller, tenantId: string): Promise<VisibleTenant> {
  const tenant = await findVisibleTenant(db, caller.application.id, tenantId);
  if (!tenant) throw new AppError('external.tenant_not_found', 404);
  return tenant;
}

/**
 * The external API's reads and changes, each bounded by the calling application: its roles only,
 * in the tenants where they are held and those below them, on users who hold one of them. A user
 * holding none is not found, so an application learns nothing of the rest of the directory.
 */
export class ExternalService {
  constructor(
    private readonly context: AdminContext,
    private readonly access: TenantAccess = tenantAccess(context),
  ) {}

  private get db() {
    return this.context.dataSource;
  }

  /** The user, if they hold a role of the application; otherwise 404. */
  private async knownUser(caller: ExternalCaller, userId: string) {
    const user = await findUserStateOf(this.db, userId);
    if (!user || !(await holdsApplicationRole(this.db, caller.application.id, userId))) throw new AppError('external.user_not_found', 404);
    return user;
  }

  /** GetRoles: per tenant where the user is a member (or one of their groups), the application's roles that apply there; or in one tenant. */
  async roles(caller: ExternalCaller, userId: string, tenantId: string | undefined): Promise<ExternalUserRoles> {
    const user = await this.knownUser(caller, userId);
    const answer = { userId: user.id, userName: user.user_name, email: user.email };
    if (tenantId) {
      const tenant = await visibleTenant(this.db, caller, tenantId);
      const roles = await resolveEffectiveRoles(this.db, userId, { tenantId, applicationId: caller.application.id });
      const held = roles.map((role) => ({ roleId: role.roleId, roleName: role.roleName, hierarchyType: role.hierarchyType }));
      return { ...answer, tenants: held.length ? [{ tenantId: tenant.id, tenantName: tenant.title, roles: held }] : [] };
    }
    const grants = await findRoleGrants(this.db, userId, caller.application.id);
    const tenants = new Map<string, ExternalUserRoles['tenants'][number]>();
    for (const grant of grants) {
      const tenant = tenants.get(grant.tenant_id) ?? { tenantId: grant.tenant_id, tenantName: grant.tenant_name, roles: [] };
      tenant.roles.push({ roleId: grant.role_id, roleName: grant.role_name, hierarchyType: hierarchyOf(grant.own, grant.by_hierarchy) });
      tenants.set(grant.tenant_id, tenant);
    }
    return { ...answer, tenants: [...tenants.values()] };
  }

  /**
   * RemoveRolesInTenant: the user's own roles of the application in the tenant (all, or those
   * named) go, by the rules of tenant access, in one transaction with the system log row; the
   * membership goes with its last role. Roles of other applications stay, as do the application's
   * roles held through a group or a tenant above, which belong to those (answered as `remaining`).
   */
  async removeRoles(caller: ExternalCaller, userId: string, tenantId: string, references: string[] | undefined): Promise<RemovedRoles> {
    await this.knownUser(caller, userId);
    const tenant = await visibleTenant(this.db, caller, tenantId);
    const only = references ? (await resolveRoles(this.db, caller, references, 'roles')).map((role) => role.id) : null;
    const actor = applicationActor(caller, await applicationAuthority(this.db, caller.application.id, caller.userId));
    const change = await this.access.transaction(async (changes) => {
      const roleIds = await findOwnApplicationRoleIds(changes.em, tenantId, userId, caller.application.id, only);
      return changes.revoke(actor, { identity: { type: 'User', id: userId }, tenant: { id: tenant.id, title: tenant.title, areaId: tenant.area_id }, roleIds });
    });
    const remaining = await resolveEffectiveRoles(this.db, userId, { tenantId, applicationId: caller.application.id });
    return {
      userId,
      tenantId,
      removed: change.removed.map((role) => ({ roleId: role.id, roleName: role.name })).sort((a, b) => a.roleName.localeCompare(b.roleName) || a.roleId.localeCompare(b.roleId)),
      remaining: remaining.map((role) => ({ roleId: role.roleId, roleName: role.roleName, hierarchyType: role.hierarchyType })),
    };
  }

  /** GetUserWithRole: a page of the role's holders, in the tenant when one is given. */
  async roleHolders(
    caller: ExternalCaller,
    reference: string,
    query: { tenantId?: string; $search?: string; skip: number; top: number; orderBy: Sort<keyof typeof HOLDER_SORT> },
  ): Promise<{ items: RoleHolder[]; count: number }> {
    const [role] = await resolveRoles(this.db, caller, [reference]);
    if (query.tenantId) await visibleTenant(this.db, caller, query.tenantId);
    const page = toListQuery(query, HOLDER_SORT);
    const { rows, count } = await listRoleHolders(this.db, role!.id, {
      tenantId: query.tenantId ?? null,
      search: page.search ? likePattern(page.search) : null,
      skip: page.skip,
      top: page.top,
      orderBy: page.orderBy,
    });
    const items = rows.map((row) => ({
      id: row.id,
      userName: row.user_name,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      locked: row.locked,
      draft: row.draft,
      tenants: [...row.tenants].sort((a, b) => a.tenantName.localeCompare(b.tenantName) || a.tenantId.localeCompare(b.tenantId)),
    }));
    return { items, count };
  }

  /**
   * LockUser, on a user the application serves, never its token's owner nor an account holding an
   * Identity role beyond User (tenant access): an account the application created and that holds
   * nothing else is locked (its sessions, grants and tokens end with it, on every node); any other
   * account keeps its access to everything else, and loses the application's: the application's
   * own roles of it go, its grants and tokens of the application end, and the provider refuses it
   * that application's sign-in from then on.
   */
  async lock(caller: ExternalCaller, userId: string): Promise<LockedUser> {
    const user = await this.knownUser(caller, userId);
    const applicationId = caller.application.id;
    const authority = await applicationAuthority(this.db, applicationId, caller.userId);
    const actor = applicationActor(caller, authority);
    const scope = await this.access.transaction(async (changes) => {
      const target = await lockTarget(changes.em, { type: 'User', id: userId });
      if (!target) throw new AppError('external.user_not_found', 404);
      const facts = {
        servedByApplication: true,
        createdByApplication: (await findCreatingApplication(changes.em, userId)) === applicationId,
        holdsElsewhere: await holdsRolesOutside(changes.em, userId, applicationId),
      };
      const decision = applicationLockEffect(authority, { ...target, ...facts });
      enforce(decision);
      if (decision.ok && decision.effect === 'account') {
        await lockAccount(changes.em, userId, caller.userId);
        await deleteProviderData(changes.em, userId);
      } else {
        for (const tenant of await findOwnApplicationTenants(changes.em, userId, applicationId)) {
          const roleIds = await findOwnApplicationRoleIds(changes.em, tenant.id, userId, applicationId, null);
          await changes.revoke(actor, { identity: { type: 'User', id: userId }, tenant, roleIds });
        }
        await blockApplicationAccess(changes.em, applicationId, userId);
        await deleteApplicationGrants(changes.em, userId, caller.application.name);
      }
      const lockScope = decision.ok ? decision.effect! : 'application';
      await writeSystemLog(changes.em, {
        operation: 'LockUser',
        ...systemLogActor(caller),
        metadata: { targetUserId: userId, targetUserName: user.user_name, wasLocked: user.locked, scope: lockScope, ...externalOrigin(caller) },
      });
      return lockScope;
    });
    this.context.broadcast.publish('oidc.invalidated', { accountId: userId });
    if (scope === 'account') this.context.broadcast.publish('user.changed', { userId });
    if (scope === 'account' && !user.locked) this.context.metrics.lockouts.inc({ cause: 'application', kind: 'permanent' });
    return { id: user.id, userName: user.user_name, locked: scope === 'account', wasLocked: user.locked, scope };
  }

  /** GetEntities: the visible tenants, flat (by title) or as trees under the topmost visible ones. */
  async entities(
    caller: ExternalCaller,
    query: { view: 'flat' | 'tree'; $search?: string; skip: number; top: number; orderBy: Sort<'title'> },
  ): Promise<{ items: ExternalEntity[]; count: number }> {
    const direction = query.orderBy.direction === 'desc' ? 'DESC' : 'ASC';
    if (query.view === 'flat') {
      const search = query.$search ? likePattern(query.$search) : null;
      const { rows, count } = await listVisibleTenants(this.db, caller.application.id, { search, skip: query.skip, top: query.top, direction });
      return { items: rows.map((row) => entityOf(row)), count };
    }
    if (query.$search) throw new AppError('external.search_flat_only', 400, {}, [{ field: '$search', code: 'external.search_flat_only' }]);
    const { rows, count } = await listVisibleRoots(this.db, caller.application.id, { skip: query.skip, top: query.top, direction });
    const below = await findDescendants(this.db, rows.map((row) => row.id));
    return { items: treesOf(rows, below), count };
  }
}

const entityOf = (row: EntityRow): ExternalEntity => ({
  id: row.id,
  title: row.title,
  parentId: row.parent_id,
  areaId: row.area_id,
  areaName: row.area_name,
  children: [],
});

/** The roots with, under each, the tenants below it (each list by title, as they were read). */
function treesOf(roots: EntityRow[], below: EntityRow[]): ExternalEntity[] {
  const nodes = new Map<string, ExternalEntity>();
  for (const row of [...roots, ...below]) nodes.set(row.id, entityOf(row));
  for (const row of below) if (row.parent_id) nodes.get(row.parent_id)?.children.push(nodes.get(row.id)!);
  return roots.map((row) => nodes.get(row.id)!);
}
