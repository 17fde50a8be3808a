// The facts the authority rules look at, read from the directory as it is now (never from a
// token, whose roles may be older than the last change).
import type { Queryable } from '../db/data-source.js';
import type { Authority, Target } from './policy.js';
import { findGroupIdentityRoles, findUserGroupIds, findUserIdentityRoles, lockIdentity, type IdentityRecord } from './repository.js';
import type { IdentityRef } from './grants.js';

/** The product itself (the bootstrap file): every rule allows it. */
export const SYSTEM_AUTHORITY: Authority = { kind: 'system', userId: null, applicationId: null, roles: [], groupIds: [], areaIds: null };

/** A signed-in user (the console, the portal), reaching the areas `areaIds` (null: every area) for this action. */
export async function userAuthority(db: Queryable, userId: string, areaIds: readonly string[] | null): Promise<Authority> {
  const [roles, groupIds] = await Promise.all([findUserIdentityRoles(db, userId), findUserGroupIds(db, userId)]);
  return { kind: 'user', userId, applicationId: null, roles, groupIds, areaIds };
}

/**
 * A business application calling the external API, with its own credentials or a personal access
 * token of `userId`: it has no Identity role of its own (an application never administers), but the
 * token's owner never changes their own access through it.
 */
export async function applicationAuthority(db: Queryable, applicationId: string, userId: string | null): Promise<Authority> {
  const groupIds = userId ? await findUserGroupIds(db, userId) : [];
  return { kind: 'application', userId, applicationId, roles: [], groupIds, areaIds: null };
}

/** A user or group as the rules see it: its Identity roles everywhere. */
export async function targetOf(db: Queryable, identity: IdentityRecord): Promise<Target> {
  const roles = identity.type === 'User' ? await findUserIdentityRoles(db, identity.id) : await findGroupIdentityRoles(db, identity.id);
  return { type: identity.type, id: identity.id, areaId: identity.areaId, roles, isUsersGroup: identity.isUsersGroup };
}

/** The target, its row locked until the transaction ends; undefined when it does not exist. */
export async function lockTarget(db: Queryable, ref: IdentityRef): Promise<Target | undefined> {
  const identity = await lockIdentity(db, ref.type, ref.id);
  return identity && targetOf(db, identity);
}

/** The target as it is now, without a lock (for checks ahead of a change, which checks again). */
export async function findTarget(db: Queryable, ref: IdentityRef): Promise<Target | undefined> {
  const identity = await lockIdentity(db, ref.type, ref.id, false);
  return identity && targetOf(db, identity);
}
