import type { TenantIdentityGroup, TenantIdentityGroupUser, TenantIdentityUser } from '@gatehouse/contracts';
import { AppError, type AppContext, type ListQuery } from '@gatehouse/core';
import { inScope, type CallerScope } from '../../auth/scope.js';
import { findIdentityGroup, listGroupUsers, listIdentityGroups, listIdentityUsers, type IdentityGroupRecord } from './repository.js';

/** The lists' own filters. */
export interface IdentityFilters {
  area?: string;
  tenant?: string;
}

/**
 * The Permissions page: the users and the groups that hold roles in some tenant, each with those
 * tenants, within the caller's areas.
 */
export class TenantIdentitiesService {
  constructor(private readonly context: AppContext) {}

  private get db() {
    return this.context.dataSource;
  }

  users(scope: CallerScope, query: ListQuery, filters: IdentityFilters): Promise<{ items: TenantIdentityUser[]; count: number }> {
    return listIdentityUsers(this.db, { query, areaId: filters.area, tenantId: filters.tenant, areaIds: scope.areaIds });
  }

  groups(scope: CallerScope, query: ListQuery, filters: IdentityFilters): Promise<{ items: TenantIdentityGroup[]; count: number }> {
    return listIdentityGroups(this.db, { query, areaId: filters.area, tenantId: filters.tenant, areaIds: scope.areaIds });
  }

  /** One group of the caller's areas; another area's reads as unknown (404). */
  async group(scope: CallerScope, groupId: string): Promise<TenantIdentityGroup> {
    return this.visibleGroup(scope, groupId);
  }

  async groupUsers(scope: CallerScope, groupId: string, query: ListQuery): Promise<{ items: TenantIdentityGroupUser[]; count: number }> {
    await this.visibleGroup(scope, groupId);
    return listGroupUsers(this.db, groupId, query);
  }

  private async visibleGroup(scope: CallerScope, groupId: string): Promise<IdentityGroupRecord> {
    const group = await findIdentityGroup(this.db, groupId);
    if (!group || !inScope(scope, group.areaId)) throw new AppError('errors.not_found', 404);
    return group;
  }
}
