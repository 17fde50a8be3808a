import { AppError, type AppContext } from '@gatehouse/core';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { findTenantForUpdate, findUserName, updateTwoModeAuth, type TenantTwoModeAuth } from './repository.js';

/** Tenant administration. */
export class TenantsService {
  constructor(private readonly context: AppContext) {}

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
