import { AppError, GLOBAL_TENANT_ID } from '@gatehouse/core';
import { findTarget, mayGrantRoles, mayOfferRole, type Authority, type Target } from '@gatehouse/core/access';
import type { Queryable } from '../../db.js';

/** The refusals of rank, worded as the tenant page words them. */
const OUTRANKED: string[] = ['users.manage_god_only', 'users.manage_admin_only'];

/** A role of an import row, as the rules see it. */
interface RowRole {
  id: string;
  name: string;
  applicationId: string;
  byHierarchy: boolean;
}

/**
 * Why the caller may not give `target` this role in this tenant, by the rules of tenant access (the
 * user page's: the Global tenant and the Identity application's roles for administrators, God for
 * God, no role granted through the hierarchy only, never to oneself, never to someone who outranks
 * the caller); undefined when they may. An outranking user is worded as the tenant page words it.
 */
export function userGrantRefusal(authority: Authority, target: Target, tenant: { id: string; areaId: string | null }, role: RowRole): AppError | undefined {
  const decision = mayGrantRoles(authority, {
    path: 'users',
    target,
    tenants: [tenant.id === GLOBAL_TENANT_ID ? { id: GLOBAL_TENANT_ID, areaId: null } : tenant],
    roles: [{ ...role, operationRequestVisible: false, serviceManagerVisible: false }],
  });
  if (decision.ok) return undefined;
  if (OUTRANKED.includes(decision.code)) return new AppError('tenants.target_outranks', decision.status);
  return new AppError(decision.code, decision.status, decision.params ?? {});
}

/** Whether the caller may give this role of this application at all (in a tenant of theirs other than Global). */
export function mayGrantRole(authority: Authority, applicationId: string, roleName: string): boolean {
  return mayOfferRole(authority, 'users', { id: '', name: roleName, applicationId, byHierarchy: false, operationRequestVisible: false, serviceManagerVisible: false });
}

/** The user as the rules see them (their Identity roles everywhere); undefined when they do not exist. */
export function userTarget(db: Queryable, userId: string): Promise<Target | undefined> {
  return findTarget(db, { type: 'User', id: userId });
}
