import { AppError, type AppContext, type ListQuery } from '@gatehouse/core';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { CallerScope } from '../../auth/scope.js';
import { findUserName } from '../directory/lookups.js';
import { findTenantForUpdate, listTenants, updateTwoModeAuth, type TenantListRecord, type TenantTwoModeAuth } from './repository.js';

/** Tenant administration. */
export class TenantsService {
  constructor(private readonly context: AppContext) {}

  /**
   * The tenants, for pickers and (later) the tenants page: title search, optional area filter. An
   * AreaAdministrator sees the tenants of their areas.
   */
  list(scope: CallerScope, query: ListQuery, areaId?: string): Promise<{ items: TenantListRecord[]; count: number }> {
    return listTenants(this.context.dataSource, { query, areaId, areaIds: scope.areaIds });
  }

  /**
   * Requires (or stops requiring) a second factor from the tenant's users, and records who did it
   * in the system log in the same transaction: no change without its audit row.
   */
  async setTwoModeAuth(caller: Caller, tenantId: string, enable: boolean): Promise<TenantTwoModeAuth> {
    return this.context.dataSource.transaction(async (em) => {
      const tenant = await findTenantForUpdate(em, tenantId);
      if (!tenant) throw new AppError('errors.not_found', 404);
      const updated = await updateTwoModeAuth(em, tenantId, enable, caller.userId);
      await writeSystemLog(em, {
        operation: 'TwoModeAuth',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        tenantId: tenant.id,
        tenantName: tenant.title,
        metadata: { enable, previous: tenant.requiredTwoModeAuthentification },
      });
      return updated;
    });
  }
}
