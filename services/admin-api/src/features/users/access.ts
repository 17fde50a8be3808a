import { AppError, GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, resolveEffectiveRoles, type AppContext, type FieldError } from '@gatehouse/core';
import type { EntityManager } from 'typeorm';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { assertInScope, type CallerScope } from '../../auth/scope.js';
import type { Queryable } from '../../db.js';
import { findUserName } from '../directory/lookups.js';
import { findTenantAreas, findUserForUpdate, findUserState, type UserStateRow } from './repository.js';

/** Who makes a change, as the system log records it. */
export interface Actor {
  userId: string;
  userName: string | null;
}

/** The caller as the system log names them. */
export async function actorOf(db: Queryable, caller: Caller): Promise<Actor> {
  return { userId: caller.userId, userName: await findUserName(db, caller.userId) };
}

export const validationError = (errors: FieldError[]) => new AppError('errors.validation', 400, {}, errors);

/** The user if the caller may see them: outside their areas it is the same 404 as a missing user. */
export async function visibleUser(db: Queryable, scope: CallerScope, id: string): Promise<UserStateRow> {
  const user = await findUserState(db, id);
  if (!user) throw new AppError('errors.not_found', 404);
  assertInScope(scope, user.area_id);
  return user;
}

/** As visibleUser, row-locked for a change inside `em`'s transaction. */
export async function userForUpdate(em: EntityManager, scope: CallerScope, id: string): Promise<UserStateRow> {
  const user = await findUserForUpdate(em, id);
  if (!user) throw new AppError('errors.not_found', 404);
  assertInScope(scope, user.area_id);
  return user;
}

/**
 * Refuses changes to an account whose holder outranks the caller, so nobody takes over an account
 * worth more than their own (change its e-mail, then invite it or set its password, and sign in as
 * it). Only God manages a God user. Any other Identity role beyond User (Administrator, Manager,
 * TenantAdministrator, IdentityConsultant…) takes an Administrator (or God). An AreaAdministrator
 * target is managed by an AreaAdministrator only when the caller's areas cover every area where
 * the target holds that role.
 */
export async function assertMayManage(db: EntityManager, scope: CallerScope, targetId: string): Promise<void> {
  if (scope.isGod) return;
  const held = await resolveEffectiveRoles(db, targetId, { applicationId: IDENTITY_APPLICATION_ID });
  if (held.some((role) => role.roleName === 'God')) throw new AppError('users.manage_god_only', 403);
  if (scope.isAdministrator) return;
  if (held.some((role) => role.roleName !== 'User' && role.roleName !== 'AreaAdministrator')) throw new AppError('users.manage_admin_only', 403);
  const tenantIds = [...new Set(held.filter((role) => role.roleName === 'AreaAdministrator').map((role) => role.tenantId))];
  const callerAreas = scope.areaIds;
  if (tenantIds.length === 0 || callerAreas === null) return;
  if (tenantIds.includes(GLOBAL_TENANT_ID)) throw new AppError('users.manage_admin_only', 403);
  const areas = await findTenantAreas(db, tenantIds);
  if (areas.length !== tenantIds.length || areas.some((area) => !area || !callerAreas.includes(area))) {
    throw new AppError('users.manage_admin_only', 403);
  }
}

export type UserEvent = 'user.changed' | 'roles.changed' | 'oidc.invalidated';

/** Tells the other nodes what changed about the user (caches of accounts, roles and provider sessions). */
export function publishUserEvents(context: AppContext, userId: string, events: UserEvent[]): void {
  for (const event of events) {
    if (event === 'oidc.invalidated') context.broadcast.publish(event, { accountId: userId });
    else context.broadcast.publish(event, { userId });
  }
}
