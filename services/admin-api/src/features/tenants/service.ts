import type { CreateTenantBody, ErrorCode, Tenant, TenantDetail, TenantTreeNode, TwoModeAuthBody, UpdateTenantBody } from '@gatehouse/contracts';
import { AppError, GLOBAL_TENANT_ID, type AppContext, type ListQuery } from '@gatehouse/core';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { inScope, type CallerScope } from '../../auth/scope.js';
import type { Queryable } from '../../db.js';
import { findArea, findUserName } from '../directory/lookups.js';
import {
  countChildren,
  countMemberships,
  deleteTenant,
  findHierarchies,
  findTenantById,
  findTenantForUpdate,
  findTree,
  insertTenant,
  isSelfOrDescendant,
  listTenants,
  lockMoves,
  lockTenant,
  setParent,
  updateTenant,
  updateTwoModeAuth,
  type LockedTenant,
  type TenantListFilter,
  type TenantTwoModeAuth,
} from './repository.js';

const notFound = () => new AppError('errors.not_found', 404);
/** A body field naming something that does not exist, or that the caller may not use. */
export const fieldError = (field: string, code: ErrorCode, status = 400, params: Record<string, unknown> = {}) =>
  new AppError(code, status, params, [{ field, code }]);

/** The list's filters besides the paging and the caller's areas. */
export type TenantFilters = Omit<TenantListFilter, 'query' | 'areaIds'> & { includeHierarchy?: boolean };

/** The tenant if the caller may see it: outside their areas it is the same 404 as a missing tenant. */
export async function visibleTenant(db: Queryable, scope: CallerScope, id: string): Promise<Tenant> {
  const tenant = await findTenantById(db, id);
  if (!tenant || !inScope(scope, tenant.areaId)) throw notFound();
  return tenant;
}

/** The tenant, locked for a change of its own; the Global tenant belongs to nobody's tree and stays as it is. */
async function lockedTenant(db: Queryable, scope: CallerScope, id: string): Promise<LockedTenant> {
  const tenant = await lockTenant(db, id);
  if (!tenant || (tenant.id !== GLOBAL_TENANT_ID && !inScope(scope, tenant.areaId))) throw notFound();
  if (tenant.id === GLOBAL_TENANT_ID) throw new AppError('tenants.global_readonly', 409);
  return tenant;
}

/** The area a tenant goes into: it must exist, and be one of the caller's. */
async function assertArea(db: Queryable, scope: CallerScope, areaId: string) {
  const area = await findArea(db, areaId);
  if (!area) throw fieldError('areaId', 'tenants.area_not_found');
  if (!inScope(scope, area.id)) throw fieldError('areaId', 'tenants.area_forbidden', 403);
  return area;
}

/**
 * The parent a tenant goes under, locked so that it cannot be deleted before the change commits.
 * The Global tenant is no parent: its roles already apply everywhere.
 */
async function lockedParent(db: Queryable, scope: CallerScope, parentId: string, field: string): Promise<LockedTenant> {
  const parent = parentId === GLOBAL_TENANT_ID ? undefined : await lockTenant(db, parentId, 'share');
  if (!parent || !inScope(scope, parent.areaId)) throw fieldError(field, 'tenants.parent_not_found');
  return parent;
}

/**
 * Tenants and their tree. Every change runs in one transaction with its system log row; moves are
 * serialised so that two of them can never build a cycle between them.
 */
export class TenantsService {
  constructor(private readonly context: AppContext) {}

  private get db() {
    return this.context.dataSource;
  }

  /**
   * The tenants page and the pickers: title search, area, customised, creation-type and parent
   * filters, each tenant's ancestors on demand. An AreaAdministrator sees the tenants of their areas.
   */
  async list(scope: CallerScope, query: ListQuery, filters: TenantFilters = {}): Promise<{ items: Tenant[]; count: number }> {
    const { includeHierarchy, ...rest } = filters;
    const page = await listTenants(this.db, { ...rest, query, areaIds: scope.areaIds });
    if (!includeHierarchy) return page;
    const hierarchies = await findHierarchies(this.db, page.items.map((tenant) => tenant.id));
    return { items: page.items.map((tenant) => ({ ...tenant, hierarchyItems: hierarchies.get(tenant.id) ?? [] })), count: page.count };
  }

  async get(scope: CallerScope, id: string, options: { includeHierarchy?: boolean; includeHierarchyTree?: boolean } = {}): Promise<TenantDetail> {
    const tenant: TenantDetail = await visibleTenant(this.db, scope, id);
    if (options.includeHierarchy) tenant.hierarchyItems = (await findHierarchies(this.db, [id])).get(id) ?? [];
    if (options.includeHierarchyTree) tenant.tree = await findTree(this.db, id);
    return tenant;
  }

  /** The tree the tenant belongs to, from its root. */
  async hierarchyTree(scope: CallerScope, id: string): Promise<TenantTreeNode> {
    await visibleTenant(this.db, scope, id);
    const tree = await findTree(this.db, id);
    if (!tree) throw notFound();
    return tree;
  }

  /** Creates a tenant (Manual, not customised) in one of the caller's areas, under an existing parent or at the top. */
  async create(caller: Caller, scope: CallerScope, body: CreateTenantBody & { parentId: string | null }): Promise<Tenant> {
    const id = await this.db.transaction(async (em) => {
      const area = await assertArea(em, scope, body.areaId);
      const parent = body.parentId ? await lockedParent(em, scope, body.parentId, 'parentId') : undefined;
      const fields = { title: body.title, areaId: area.id, parentId: parent?.id ?? null, taxNumber: body.taxNumber ?? null, viesNumber: body.viesNumber ?? null };
      const id = await insertTenant(em, fields, caller.userId);
      await writeSystemLog(em, {
        operation: 'CreateTenant',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        tenantId: id,
        tenantName: body.title,
        metadata: { ...fields, areaName: area.name, parentTitle: parent?.title ?? null },
      });
      return id;
    });
    return (await findTenantById(this.db, id))!;
  }

  /** Changes the general properties; the tenant is then customised by a user. */
  async update(caller: Caller, scope: CallerScope, id: string, body: UpdateTenantBody): Promise<Tenant> {
    await this.db.transaction(async (em) => {
      const tenant = await lockedTenant(em, scope, id);
      const area = await assertArea(em, scope, body.areaId);
      const change = { title: body.title, areaId: area.id, taxNumber: body.taxNumber ?? null, viesNumber: body.viesNumber ?? null, groupAlias: body.groupAlias ?? null };
      await updateTenant(em, id, change, caller.userId);
      await writeSystemLog(em, {
        operation: 'UpdateTenant',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        tenantId: id,
        tenantName: body.title,
        metadata: {
          ...change,
          areaName: area.name,
          previous: { title: tenant.title, areaId: tenant.areaId, taxNumber: tenant.taxNumber, viesNumber: tenant.viesNumber, groupAlias: tenant.groupAlias },
        },
      });
    });
    return (await findTenantById(this.db, id))!;
  }

  /**
   * Deletes a tenant that has no children (they would lose their place in the tree: move or delete
   * them first); its memberships go with it, so the roles held there are announced as changed.
   */
  async remove(caller: Caller, scope: CallerScope, id: string): Promise<void> {
    const hadMembers = await this.db.transaction(async (em) => {
      const tenant = await lockedTenant(em, scope, id);
      const children = await countChildren(em, id);
      if (children > 0) throw new AppError('tenants.has_children', 409, { count: children });
      const memberships = await countMemberships(em, id);
      await deleteTenant(em, id);
      await writeSystemLog(em, {
        operation: 'DeleteTenant',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        tenantId: id,
        tenantName: tenant.title,
        metadata: { title: tenant.title, areaId: tenant.areaId, parentId: tenant.parentId, membershipsCount: memberships },
      });
      return memberships > 0;
    });
    if (hadMembers) this.context.broadcast.publish('roles.changed', {});
  }

  /**
   * Moves the tenant, with its subtree, under another parent (null: to the top). Moves take one
   * advisory lock, so each sees the tree the previous one left: two opposite moves (A under B, B
   * under A) cannot both pass the cycle check. Inherited roles follow the tree, so every user's
   * cached roles are dropped once the move commits.
   */
  async changeParent(caller: Caller, scope: CallerScope, id: string, newParentId: string | null): Promise<Tenant> {
    const moved = await this.db.transaction(async (em) => {
      await lockMoves(em);
      const tenant = await lockedTenant(em, scope, id);
      if (newParentId === id) throw fieldError('newParentId', 'tenants.cycle', 409);
      const parent = newParentId ? await lockedParent(em, scope, newParentId, 'newParentId') : undefined;
      if (parent && (await isSelfOrDescendant(em, id, parent.id))) throw fieldError('newParentId', 'tenants.cycle', 409);
      if ((parent?.id ?? null) === tenant.parentId) return false;
      const previous = tenant.parentId ? await findTenantById(em, tenant.parentId) : undefined;
      await setParent(em, id, parent?.id ?? null, caller.userId);
      await writeSystemLog(em, {
        operation: 'MoveTenant',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        tenantId: id,
        tenantName: tenant.title,
        metadata: {
          previousParentId: tenant.parentId,
          previousParentTitle: previous?.title ?? null,
          newParentId: parent?.id ?? null,
          newParentTitle: parent?.title ?? null,
        },
      });
      return true;
    });
    if (moved) this.context.broadcast.publish('roles.changed', {});
    return (await findTenantById(this.db, id))!;
  }

  /**
   * Requires (or stops requiring) a second factor from the tenant's users, and whether it must
   * resist phishing, and records who did it in the system log in the same transaction: no change
   * without its audit row. Phishing-resistant only needs the second factor: asked for without it,
   * it is refused; left out, it stays as it is while the second factor stays required.
   */
  async setTwoModeAuth(caller: Caller, tenantId: string, body: TwoModeAuthBody): Promise<TenantTwoModeAuth> {
    if (body.phishingResistantOnly && !body.enable) throw fieldError('phishingResistantOnly', 'tenants.phishing_resistant_needs_mfa');
    return this.db.transaction(async (em) => {
      const tenant = await findTenantForUpdate(em, tenantId);
      if (!tenant) throw notFound();
      const phishingResistantOnly = body.enable && (body.phishingResistantOnly ?? tenant.phishingResistantOnly);
      const updated = await updateTwoModeAuth(em, tenantId, { enable: body.enable, phishingResistantOnly }, caller.userId);
      await writeSystemLog(em, {
        operation: 'TwoModeAuth',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        tenantId: tenant.id,
        tenantName: tenant.title,
        metadata: {
          enable: body.enable,
          previous: tenant.requiredTwoModeAuthentification,
          phishingResistantOnly,
          previousPhishingResistantOnly: tenant.phishingResistantOnly,
        },
      });
      return updated;
    });
  }
}
