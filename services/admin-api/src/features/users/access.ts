import { AppError, GLOBAL_TENANT_ID, type AppContext, type FieldError } from '@gatehouse/core';
import { enforce, findTarget, mayManageIdentity, mayResetFactors, type Authority, type Decision } from '@gatehouse/core/access';
import type { EntityManager } from 'typeorm';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { assertInScope, type CallerScope } from '../../auth/scope.js';
import type { Queryable } from '../../db.js';
import { findUserName } from '../directory/lookups.js';
import { deleteProviderSessions, findUserForUpdate, findUserState, updateUser, type UserChanges, type UserStateRow } from './repository.js';

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
 * it): the authority rules' mayManageIdentity, for the caller the endpoint's scope describes.
 */
export async function assertMayManage(db: EntityManager, scope: CallerScope, targetId: string): Promise<void> {
  const target = await findTarget(db, { type: 'User', id: targetId });
  if (!target) throw new AppError('errors.not_found', 404);
  enforce(mayManageIdentity(scopeAuthority(scope), target));
}

/**
 * The rules' verdict (mayResetFactors) on the caller resetting the user's sign-in factors: never
 * their own account, nobody outside their reach or who outranks them.
 */
export async function resetFactorsDecision(db: Queryable, caller: Caller, scope: CallerScope, targetId: string): Promise<Decision> {
  const target = await findTarget(db, { type: 'User', id: targetId });
  if (!target) throw new AppError('errors.not_found', 404);
  return mayResetFactors({ ...scopeAuthority(scope), userId: caller.userId }, target);
}

/** The caller as the rules see them, from what the endpoint's scope says of their rank and reach. */
function scopeAuthority(scope: CallerScope): Authority {
  const rank = scope.isGod ? 'God' : scope.isAdministrator ? 'Administrator' : undefined;
  return {
    kind: 'user',
    userId: null,
    applicationId: null,
    roles: rank ? [{ roleName: rank, tenantId: GLOBAL_TENANT_ID, areaId: null }] : [],
    groupIds: [],
    areaIds: scope.areaIds,
  };
}

/**
 * Ends everything the provider holds for the user (sessions, grants, codes, tokens): what a lock
 * does, whichever feature locks. The caller broadcasts `oidc.invalidated` once it has committed.
 */
export function endProviderSessions(db: Queryable, userId: string): Promise<number> {
  return deleteProviderSessions(db, userId);
}

/** Changes a user's own fields (e-mail, names, language, area): the console's edit and My Clients'. */
export function changeUserFields(db: Queryable, id: string, changes: UserChanges, modifiedById: string): Promise<void> {
  return updateUser(db, id, changes, modifiedById);
}

/** The user's current state (what changes check and record), undefined when there is none. */
export function findUserStateOf(db: Queryable, id: string): Promise<UserStateRow | undefined> {
  return findUserState(db, id);
}

export type { UserStateRow };

export type UserEvent = 'user.changed' | 'roles.changed' | 'oidc.invalidated';

/** Tells the other nodes what changed about the user (caches of accounts, roles and provider sessions). */
export function publishUserEvents(context: AppContext, userId: string, events: UserEvent[]): void {
  for (const event of events) {
    if (event === 'oidc.invalidated') context.broadcast.publish(event, { accountId: userId });
    else context.broadcast.publish(event, { userId });
  }
}
