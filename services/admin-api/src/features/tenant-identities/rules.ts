import { AppError } from '@gatehouse/core';
import type { DataSource } from 'typeorm';
import type { CallerScope } from '../../auth/scope.js';
import { assertMayManage } from '../users/access.js';
import { assertMayGrant } from '../users/roles/service.js';

/** assertMayManage's refusals, worded as the tenant page words them. */
const OUTRANKED: string[] = ['users.manage_god_only', 'users.manage_admin_only'];

/**
 * Why the caller may not give a user this role in this tenant, by the rules of the user page's
 * role switches (the Global tenant and the Identity application's roles for administrators, God
 * for God, no role granted through the hierarchy only); undefined when they may.
 */
export function userGrantRefusal(
  scope: CallerScope,
  application: { id: string; name: string; displayName: string },
  tenantId: string,
  role: { name: string; byHierarchy: boolean },
): AppError | undefined {
  if (role.byHierarchy) return new AppError('users.role_by_hierarchy', 400);
  try {
    assertMayGrant(scope, { id: application.id, name: application.name, display_name: application.displayName }, [tenantId], [role.name]);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  return undefined;
}

/** Whether the caller may give this role of this application at all (in a tenant of theirs other than Global). */
export function mayGrantRole(scope: CallerScope, applicationId: string, roleName: string): boolean {
  return userGrantRefusal(scope, { id: applicationId, name: '', displayName: '' }, '', { name: roleName, byHierarchy: false }) === undefined;
}

/**
 * Why the caller may not change the roles of this user: the tenant page's rule, that the user does
 * not outrank the caller (assertMayManage: God is God's, other administration roles administrators').
 */
export async function outrankingRefusal(db: DataSource, scope: CallerScope, userId: string): Promise<AppError | undefined> {
  try {
    await assertMayManage(db.manager, scope, userId);
    return undefined;
  } catch (error) {
    if (error instanceof AppError && OUTRANKED.includes(error.code)) return new AppError('tenants.target_outranks', error.status);
    throw error;
  }
}
