import type { ErrorCode } from '@gatehouse/contracts';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../context.js';
import type { IdentityType } from '../domain/constants.js';
import { AppError } from '../errors/app-error.js';
import { writeSystemLog } from '../logging/audit.js';
import { targetOf } from './facts.js';
import { mayGrantRoles, mayRevokeRoles, type AccessPath, type Authority, type Decision, type RoleChangeFacts } from './policy.js';
import {
  addMembershipRoles,
  deleteEmptyMembership,
  findAccessRoles,
  findGroupMemberIds,
  findMembershipRoleIds,
  lockIdentity,
  lockMembership,
  lockOrCreateMembership,
  removeMembershipRoles,
  setMembershipInheritable,
  unblockApplicationAccess,
  type AccessRole,
  type IdentityRecord,
} from './repository.js';

/** Who changes access, and how the change reached the product. */
export interface AccessActor {
  authority: Authority;
  path: AccessPath;
  /** Whom the system log names as making the change. */
  log: { userId: string | null; userName: string | null };
  /** What the log row carries besides (the operation request, the calling application…). */
  origin?: Record<string, unknown>;
}

export interface AccessTenant {
  id: string;
  title: string;
  areaId: string | null;
}

export interface IdentityRef {
  type: IdentityType;
  id: string;
}

/** What one grant, revocation or setting changed in one membership. */
export interface AccessChange {
  identity: IdentityRecord;
  tenant: AccessTenant;
  added: AccessRole[];
  removed: AccessRole[];
  membershipCreated: boolean;
  membershipRemoved: boolean;
  /** The membership's inheritance, when it was created or changed. */
  isInheritable?: boolean;
  /** Whether anything changed at all. */
  changed: boolean;
}

/** A user told of the roles they were given, once the change committed. */
export interface GrantNotice {
  user: { id: string; language: string | null };
  tenantTitle: string;
  grants: Array<{ applicationName: string; roleNames: string[] }>;
}

/** What the product does once access changed: tell the user (a notification); never fails the change. */
export interface AccessEvents {
  rolesGranted?(notice: GrantNotice): Promise<void>;
}

/** How each path names a role that does not exist (or is not one it may see). */
const UNKNOWN_ROLE: Record<AccessPath, { code: ErrorCode; field: string }> = {
  users: { code: 'users.role_not_available', field: 'roleIds' },
  groups: { code: 'groups.role_not_found', field: 'roleIds' },
  operationRequest: { code: 'operationRequests.role_not_found', field: 'roles' },
  serviceManager: { code: 'serviceManager.role_not_found', field: 'roles' },
  external: { code: 'external.role_not_found', field: 'roles' },
  bootstrap: { code: 'users.role_not_available', field: 'roleIds' },
};

/** Past this many members of a group, one "everyone's roles changed" beats a message per member. */
const PER_USER_ANNOUNCEMENT_LIMIT = 200;

/** Throws a refusal of the rules as the API answers it. */
export function enforce(decision: Decision): void {
  if (decision.ok) return;
  const errors = decision.field ? [{ field: decision.field, code: decision.code, params: decision.params }] : [];
  throw new AppError(decision.code, decision.status, decision.params ?? {}, errors);
}

const logRole = (role: AccessRole) => ({ roleId: role.id, roleName: role.name, applicationId: role.applicationId, applicationName: role.applicationName });

/**
 * The grants and revocations of one transaction: each checks the rules (access/policy.ts) against
 * the directory as the transaction sees it, with the identity's row locked, applies the change,
 * writes one `Permission` log row, and is remembered for the announcement after the commit.
 */
export class AccessChanges {
  constructor(
    /** The transaction: the caller's other statements of the same change go through it too. */
    readonly em: EntityManager,
    private readonly made: AccessChange[] = [],
  ) {}

  /** What this transaction changed so far. */
  get changes(): readonly AccessChange[] {
    return this.made;
  }

  /**
   * Gives the identity roles in the tenant: its own membership there is created (with
   * `isInheritable`, else `newMembershipInheritable`, inheritable by default) or kept (its
   * inheritance changes only when `isInheritable` is given).
   */
  async grant(
    actor: AccessActor,
    change: { identity: IdentityRef; tenant: AccessTenant; roleIds: readonly string[]; isInheritable?: boolean; newMembershipInheritable?: boolean },
  ): Promise<AccessChange> {
    const identity = await this.identity(change.identity);
    const roles = await this.roles(actor.path, change.roleIds);
    await this.check(actor, identity, change.tenant, roles, []);
    const inheritableIfNew = change.isInheritable ?? change.newMembershipInheritable ?? true;
    const membership = await lockOrCreateMembership(this.em, change.tenant.id, identity.type, identity.id, inheritableIfNew);
    const inheritableChanged = !membership.created && change.isInheritable !== undefined && change.isInheritable !== membership.isInheritable;
    if (inheritableChanged) await setMembershipInheritable(this.em, membership.id, change.isInheritable!);
    const added = new Set(await addMembershipRoles(this.em, membership.id, roles.map((role) => role.id)));
    await this.unblock(actor, identity, roles);
    return this.record(actor, 'grant', {
      identity,
      tenant: change.tenant,
      added: roles.filter((role) => added.has(role.id)),
      removed: [],
      membershipCreated: membership.created,
      membershipRemoved: false,
      ...(membership.created || inheritableChanged ? { isInheritable: membership.created ? inheritableIfNew : change.isInheritable } : {}),
    });
  }

  /**
   * Takes roles from the identity's own membership of the tenant (those it holds of `roleIds`; all
   * it holds when none are named); the membership goes with its last role. `inherited` says the
   * identity also holds the access by hierarchy, which only an administrator takes away.
   */
  async revoke(actor: AccessActor, change: { identity: IdentityRef; tenant: AccessTenant; roleIds?: readonly string[]; inherited?: boolean }): Promise<AccessChange> {
    const identity = await this.identity(change.identity);
    const membership = await lockMembership(this.em, change.tenant.id, identity.type, identity.id);
    const held = membership ? await findMembershipRoleIds(this.em, membership.id) : [];
    const ids = change.roleIds ? held.filter((id) => change.roleIds!.includes(id)) : held;
    const roles = await findAccessRoles(this.em, ids);
    await this.check(actor, identity, change.tenant, [], roles, change.inherited);
    const removed = new Set(membership ? await removeMembershipRoles(this.em, membership.id, ids) : []);
    const membershipRemoved = membership && removed.size ? await deleteEmptyMembership(this.em, membership.id) : false;
    return this.record(actor, 'revoke', {
      identity,
      tenant: change.tenant,
      added: [],
      removed: roles.filter((role) => removed.has(role.id)),
      membershipCreated: false,
      membershipRemoved,
    });
  }

  /**
   * Sets the identity's own roles in the tenant among those `within` selects to exactly `roleIds`
   * (adds the missing ones, takes away the others; roles outside the selection stay), and its
   * inheritance when given. An empty membership goes; none is created for nothing.
   */
  async set(
    actor: AccessActor,
    change: { identity: IdentityRef; tenant: AccessTenant; roleIds: readonly string[]; within: (role: AccessRole) => boolean; isInheritable?: boolean },
  ): Promise<AccessChange> {
    const identity = await this.identity(change.identity);
    const wanted = await this.roles(actor.path, [...new Set(change.roleIds)]);
    const existing = await lockMembership(this.em, change.tenant.id, identity.type, identity.id);
    const held = existing ? await findAccessRoles(this.em, await findMembershipRoleIds(this.em, existing.id)) : [];
    const toAdd = wanted.filter((role) => !held.some((h) => h.id === role.id));
    const toRemove = held.filter((role) => change.within(role) && !wanted.some((w) => w.id === role.id));
    await this.check(actor, identity, change.tenant, toAdd, toRemove);
    if (!existing && toAdd.length === 0) return this.record(actor, 'set', { identity, tenant: change.tenant, added: [], removed: [], membershipCreated: false, membershipRemoved: false });
    const membership = existing ? { ...existing, created: false } : await lockOrCreateMembership(this.em, change.tenant.id, identity.type, identity.id, change.isInheritable ?? true);
    const inheritableChanged = !membership.created && change.isInheritable !== undefined && change.isInheritable !== membership.isInheritable;
    if (inheritableChanged) await setMembershipInheritable(this.em, membership.id, change.isInheritable!);
    const added = new Set(await addMembershipRoles(this.em, membership.id, toAdd.map((role) => role.id)));
    const removed = new Set(await removeMembershipRoles(this.em, membership.id, toRemove.map((role) => role.id)));
    const membershipRemoved = await deleteEmptyMembership(this.em, membership.id);
    await this.unblock(actor, identity, toAdd);
    return this.record(actor, 'set', {
      identity,
      tenant: change.tenant,
      added: toAdd.filter((role) => added.has(role.id)),
      removed: toRemove.filter((role) => removed.has(role.id)),
      membershipCreated: membership.created,
      membershipRemoved,
      ...(membership.created || inheritableChanged ? { isInheritable: change.isInheritable ?? true } : {}),
    });
  }

  /**
   * A person giving a user one of an application's roles (an administrator on the user page, an
   * approver of a request) gives back the access that application ended (LockUser).
   */
  private async unblock(actor: AccessActor, identity: IdentityRecord, roles: readonly AccessRole[]): Promise<void> {
    if (identity.type !== 'User' || (actor.path !== 'users' && actor.path !== 'operationRequest')) return;
    for (const applicationId of new Set(roles.map((role) => role.applicationId))) await unblockApplicationAccess(this.em, applicationId, identity.id);
  }

  /** The identity, locked; a missing one is the same 404 as one the caller may not see. */
  private async identity(ref: IdentityRef): Promise<IdentityRecord> {
    const identity = await lockIdentity(this.em, ref.type, ref.id);
    if (!identity) throw new AppError('errors.not_found', 404);
    return identity;
  }

  /** The roles asked for, each of which must exist (a role deleted meanwhile is refused by name of the path). */
  private async roles(path: AccessPath, ids: readonly string[]): Promise<AccessRole[]> {
    const unique = [...new Set(ids)];
    const roles = await findAccessRoles(this.em, unique, true);
    if (roles.length !== unique.length) {
      const { code, field } = UNKNOWN_ROLE[path];
      throw new AppError(code, 400, {}, [{ field, code }]);
    }
    return roles;
  }

  /** Asks the rules about the roles to add and to take away. */
  private async check(actor: AccessActor, identity: IdentityRecord, tenant: AccessTenant, adding: AccessRole[], removing: AccessRole[], inherited = false): Promise<void> {
    if (actor.authority.kind === 'system' || (adding.length === 0 && removing.length === 0)) return;
    const target = await targetOf(this.em, identity);
    const facts = (roles: AccessRole[]): RoleChangeFacts => ({ path: actor.path, target, tenants: [tenant], roles });
    if (adding.length) enforce(mayGrantRoles(actor.authority, facts(adding)));
    if (removing.length) enforce(mayRevokeRoles(actor.authority, { ...facts(removing), inherited }));
  }

  /** Writes the change's log row (when something changed) and remembers it for the announcement. */
  private async record(actor: AccessActor, action: 'grant' | 'revoke' | 'set', change: Omit<AccessChange, 'changed'>): Promise<AccessChange> {
    const changed = change.added.length > 0 || change.removed.length > 0 || change.membershipCreated || change.membershipRemoved || change.isInheritable !== undefined;
    const result = { ...change, changed };
    if (!changed) return result;
    const { identity, tenant } = change;
    await writeSystemLog(this.em, {
      operation: 'Permission',
      ...actor.log,
      tenantId: tenant.id,
      tenantName: tenant.title,
      metadata: {
        action,
        via: actor.path,
        identityType: identity.type,
        ...(identity.type === 'User' ? { targetUserId: identity.id, targetUserName: identity.name } : { targetGroupId: identity.id, targetGroupName: identity.name }),
        added: change.added.map(logRole),
        removed: change.removed.map(logRole),
        ...(change.membershipCreated ? { membershipCreated: true } : {}),
        ...(change.membershipRemoved ? { membershipRemoved: true } : {}),
        ...(change.isInheritable !== undefined ? { isInheritable: change.isInheritable } : {}),
        ...actor.origin,
      },
    });
    this.made.push(result);
    return result;
  }
}

/**
 * Tenant access: memberships and role grants of users and groups. Every change goes through an
 * AccessChanges of one transaction and is announced once it commits: every node drops what it
 * cached of the identities' roles, and a user given roles is told.
 */
export class TenantAccess {
  constructor(
    private readonly context: AppContext,
    private readonly events: AccessEvents = {},
  ) {}

  /** Runs `work` in one transaction; what its AccessChanges changed is announced after the commit. */
  async transaction<T>(work: (changes: AccessChanges) => Promise<T>): Promise<T> {
    let changes: AccessChanges | undefined;
    const result = await this.context.dataSource.transaction((em) => work((changes = new AccessChanges(em))));
    await this.announce(changes!.changes);
    return result;
  }

  /** Changes inside a transaction the caller runs; the caller announces them after its commit. */
  within(em: EntityManager): AccessChanges {
    return new AccessChanges(em);
  }

  /** Tells every node whose roles changed, then each user given roles. Never fails: the change is made. */
  async announce(changes: readonly AccessChange[]): Promise<void> {
    const made = changes.filter((change) => change.changed);
    const userIds = new Set<string>();
    for (const change of made) {
      if (change.identity.type === 'User') userIds.add(change.identity.id);
      else for (const member of await findGroupMemberIds(this.context.dataSource, change.identity.id)) userIds.add(member);
    }
    if (userIds.size > PER_USER_ANNOUNCEMENT_LIMIT) this.context.broadcast.publish('roles.changed', {});
    else for (const userId of userIds) this.context.broadcast.publish('roles.changed', { userId });
    for (const change of made) {
      if (change.identity.type !== 'User' || change.added.length === 0) continue;
      await this.tell(change).catch((error: Error) => this.context.logger.warn({ err: error.message, userId: change.identity.id }, 'telling a user of their new roles failed'));
    }
  }

  private async tell(change: AccessChange): Promise<void> {
    const byApplication = new Map<string, string[]>();
    for (const role of change.added) byApplication.set(role.applicationDisplayName, [...(byApplication.get(role.applicationDisplayName) ?? []), role.name]);
    await this.events.rolesGranted?.({
      user: { id: change.identity.id, language: change.identity.language },
      tenantTitle: change.tenant.title,
      grants: [...byApplication].map(([applicationName, roleNames]) => ({ applicationName, roleNames })),
    });
  }
}
