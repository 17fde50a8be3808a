import type { ErrorCode } from '@gatehouse/contracts';
import type { AddGroupTenantRolesBody, Group, GroupBody, GroupTenantRoles } from '@gatehouse/contracts';
import { AppError, GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, type AppContext, type GroupPermission, type ListQuery } from '@gatehouse/core';
import { enforce, findTarget, groupHoldsRoles, mayChangeGroupMembers, type TenantAccess } from '@gatehouse/core/access';
import { callerActor, callerAuthority, tenantAccess } from '../../access.js';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { inScope, type CallerScope } from '../../auth/scope.js';
import type { Queryable } from '../../db.js';
import { findArea, findRoles, findTenant, findUserName } from '../directory/lookups.js';
import {
  deleteGroup,
  deleteMember,
  findGroup,
  findGroupMemberCount,
  findMember,
  findUser,
  insertGroup,
  insertMember,
  listGroups,
  listMembers,
  listTenantRoles,
  lockGroup,
  memberIds,
  updateGroup,
  updateMemberPermission,
  type GroupRecord,
  type MemberRecord,
  type TenantRolesRecord,
} from './repository.js';
import type { AdminContext } from '../../admin-context.js';

/** Past this many members, one "everyone's roles changed" beats a message per member. */
const PER_USER_ANNOUNCEMENT_LIMIT = 200;

const notFound = () => new AppError('errors.not_found', 404);
/** A body field naming something that does not exist, or that the caller may not see. */
const fieldError = (field: string, code: ErrorCode, status = 400) => new AppError(code, status, {}, [{ field, code }]);

/**
 * Groups, their members and their tenant roles. Every change runs in one transaction with its
 * system log row, and the members whose effective roles it changes are announced once it commits.
 */
export class GroupsService {
  constructor(
    private readonly context: AdminContext,
    private readonly access: TenantAccess = tenantAccess(context),
  ) {}

  async list(caller: Caller, scope: CallerScope, query: ListQuery, areaId?: string): Promise<{ items: Group[]; count: number }> {
    const page = await listGroups(this.context.dataSource, { callerId: caller.userId, query, areaId, areaIds: scope.areaIds });
    return { items: page.items.map((group) => present(group, scope)), count: page.count };
  }

  async get(caller: Caller, scope: CallerScope, id: string): Promise<Group> {
    return present(await visibleGroup(this.context.dataSource, caller, scope, id), scope);
  }

  /**
   * Creates the group. A creator who is not an administrator becomes its Owner: only owners manage
   * members, and an area administrator's new group would otherwise stay empty until an
   * administrator stepped in.
   */
  async create(caller: Caller, scope: CallerScope, body: GroupBody): Promise<Group> {
    const id = await this.context.dataSource.transaction(async (em) => {
      const area = await assertArea(em, scope, body.areaId);
      const id = await insertGroup(em, body);
      const creatorIsOwner = !scope.isAdministrator;
      if (creatorIsOwner) await insertMember(em, id, caller.userId, 'Owner');
      await writeSystemLog(em, {
        operation: 'CreateGroup',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        metadata: { groupId: id, name: body.name, description: body.description, areaId: area.id, areaName: area.name, creatorIsOwner },
      });
      return id;
    });
    return this.get(caller, scope, id);
  }

  async update(caller: Caller, scope: CallerScope, id: string, body: GroupBody): Promise<Group> {
    await this.context.dataSource.transaction(async (em) => {
      const group = await lockedGroup(em, caller, scope, id);
      assertUsersGroupEditable(group, scope);
      const area = group.areaId === body.areaId ? { id: group.areaId, name: group.areaName } : await assertArea(em, scope, body.areaId);
      await updateGroup(em, id, body);
      await writeSystemLog(em, {
        operation: 'UpdateGroup',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        metadata: {
          groupId: id,
          name: body.name,
          description: body.description,
          areaId: area.id,
          areaName: area.name,
          previous: { name: group.name, description: group.description, areaId: group.areaId, areaName: group.areaName },
        },
      });
    });
    return this.get(caller, scope, id);
  }

  /** Deletes the group with its members and tenant memberships. The Users group is God's alone. */
  async remove(caller: Caller, scope: CallerScope, id: string): Promise<void> {
    const affected = await this.context.dataSource.transaction(async (em) => {
      const group = await lockedGroup(em, caller, scope, id);
      assertUsersGroupEditable(group, scope);
      const members = await memberIds(em, id);
      await deleteGroup(em, id);
      await writeSystemLog(em, {
        operation: 'DeleteGroup',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        metadata: {
          groupId: id,
          name: group.name,
          areaId: group.areaId,
          areaName: group.areaName,
          membersCount: members.length,
          tenants: group.tenants,
        },
      });
      // Members of a group without tenant roles held nothing through it.
      return group.tenants.length ? members : [];
    });
    this.announce(affected);
  }

  async members(scope: CallerScope, groupId: string, query: ListQuery): Promise<{ items: MemberRecord[]; count: number }> {
    // The group's area and size only: its tenants and the caller's ownership are not the list's.
    const group = await findGroupMemberCount(this.context.dataSource, groupId);
    if (!group || !inScope(scope, group.areaId)) throw notFound();
    return listMembers(this.context.dataSource, groupId, query, group.membersCount);
  }

  /** `POST /groups/{id}/users`: the group is the path (404), the user a body field (400). */
  addMember(caller: Caller, scope: CallerScope, groupId: string, userId: string, permission: GroupPermission): Promise<MemberRecord> {
    return this.add(caller, scope, groupId, userId, permission, 'group');
  }

  /** `POST /users/{id}/groups`: the user is the path (404), the group a body field (400). */
  addUserToGroup(caller: Caller, scope: CallerScope, userId: string, groupId: string, permission: GroupPermission): Promise<MemberRecord> {
    return this.add(caller, scope, groupId, userId, permission, 'user');
  }

  async updateMember(caller: Caller, scope: CallerScope, groupId: string, userId: string, permission: GroupPermission): Promise<MemberRecord> {
    return this.context.dataSource.transaction(async (em) => {
      const group = await lockedGroup(em, caller, scope, groupId);
      assertOwner(group, scope);
      const member = await findMember(em, groupId, userId);
      if (!member) throw new AppError('groups.member_not_found', 404);
      if (member.permission === permission) return member;
      // An Owner adds members, who get the group's roles: making one takes the right to grant them.
      if (permission === 'Owner') await assertMayHandOutGroupRoles(em, caller, scope, groupId);
      await updateMemberPermission(em, groupId, userId, permission);
      await writeSystemLog(em, {
        operation: 'UpdateGroupMember',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        metadata: { groupId, groupName: group.name, memberId: userId, memberUserName: member.userName, permission, previous: member.permission },
      });
      return { ...member, permission };
    });
  }

  /**
   * Removes a member. `via: 'user'` is the user detail's route, where the user is in the path and
   * must be one the caller can see.
   */
  async removeMember(caller: Caller, scope: CallerScope, groupId: string, userId: string, via: 'group' | 'user' = 'group'): Promise<void> {
    await this.context.dataSource.transaction(async (em) => {
      if (via === 'user') await visibleUser(em, scope, userId, notFound);
      const group = await lockedGroup(em, caller, scope, groupId);
      assertOwner(group, scope);
      const member = await findMember(em, groupId, userId);
      if (!member) throw new AppError('groups.member_not_found', 404);
      await deleteMember(em, groupId, userId);
      await writeSystemLog(em, {
        operation: 'RemoveGroupMember',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        metadata: { groupId, groupName: group.name, memberId: userId, memberUserName: member.userName, permission: member.permission },
      });
    });
    this.announce([userId]);
  }

  async tenants(caller: Caller, scope: CallerScope, groupId: string): Promise<{ items: GroupTenantRoles[]; count: number }> {
    await visibleGroup(this.context.dataSource, caller, scope, groupId);
    const items = (await listTenantRoles(this.context.dataSource, groupId)).map(presentTenantRoles);
    return { items, count: items.length };
  }

  /**
   * Gives the group roles in a tenant: creates its membership there, or adds to it (roles it
   * already holds are kept; isInheritable changes only when given), by the rules of tenant access.
   * Answers whether the membership was created, and the membership as it now stands.
   */
  async addTenantRoles(caller: Caller, scope: CallerScope, groupId: string, body: AddGroupTenantRolesBody): Promise<{ created: boolean; entry: GroupTenantRoles }> {
    const tenantId = body.tenantId?.toLowerCase() ?? GLOBAL_TENANT_ID;
    const roleIds = [...new Set(body.roleIds.map((id) => id.toLowerCase()))];
    await visibleGroup(this.context.dataSource, caller, scope, groupId);
    const tenant = await assertTenant(this.context.dataSource, scope, tenantId);
    const actor = await callerActor(this.context.dataSource, caller, scope, 'groups');
    const result = await this.access.transaction(async (changes) => {
      const change = await changes.grant(actor, { identity: { type: 'Group', id: groupId }, tenant, roleIds, isInheritable: body.isInheritable });
      const [entry] = await listTenantRoles(changes.em, groupId, tenantId);
      return { created: change.membershipCreated, entry: entry! };
    });
    return { created: result.created, entry: presentTenantRoles(result.entry) };
  }

  /** Removes the group's membership in a tenant (the all-zero id: the Global tenant) with its roles, by the rules of tenant access. */
  async removeTenant(caller: Caller, scope: CallerScope, groupId: string, tenantId: string): Promise<void> {
    const group = await visibleGroup(this.context.dataSource, caller, scope, groupId);
    assertUsersGroupEditable(group, scope);
    const isGlobal = tenantId === GLOBAL_TENANT_ID;
    if (isGlobal && !scope.isAdministrator) throw new AppError('groups.global_forbidden', 403);
    const [membership] = await listTenantRoles(this.context.dataSource, groupId, tenantId);
    const tenant = membership && (await findTenant(this.context.dataSource, tenantId));
    if (!membership || !tenant || (!isGlobal && !inScope(scope, tenant.areaId))) throw new AppError('groups.membership_not_found', 404);
    const actor = await callerActor(this.context.dataSource, caller, scope, 'groups');
    await this.access.transaction((changes) => changes.revoke(actor, { identity: { type: 'Group', id: groupId }, tenant }));
  }

  /** Adds a member; `via` says which of group and user is the path (a 404) and which a body field (a 400). */
  private async add(caller: Caller, scope: CallerScope, groupId: string, userId: string, permission: GroupPermission, via: 'group' | 'user'): Promise<MemberRecord> {
    const missingGroup = via === 'group' ? notFound : () => fieldError('groupId', 'groups.group_not_found');
    const missingUser = via === 'user' ? notFound : () => fieldError('userId', 'groups.user_not_found');
    const member = await this.context.dataSource.transaction(async (em) => {
      // Whatever the path names is checked first: an unknown one is a 404 before anything else.
      const pathUser = via === 'user' ? await visibleUser(em, scope, userId, missingUser) : undefined;
      const group = await lockedGroup(em, caller, scope, groupId, missingGroup);
      assertOwner(group, scope);
      const user = pathUser ?? (await visibleUser(em, scope, userId, missingUser));
      // Checked with the group's row locked: roles added meanwhile wait for this transaction.
      await assertMayHandOutGroupRoles(em, caller, scope, groupId, { type: 'User', id: user.id });
      if (!(await insertMember(em, groupId, user.id, permission))) throw new AppError('groups.already_member', 409);
      await writeSystemLog(em, {
        operation: 'AddGroupMember',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        metadata: { groupId, groupName: group.name, memberId: user.id, memberUserName: user.userName, permission },
      });
      return (await findMember(em, groupId, user.id))!;
    });
    this.announce([member.userId]);
    return member;
  }

  /** Tells every node that these users' effective roles changed (after the change committed). */
  private announce(userIds: string[]): void {
    groupWrites.announce(this.context, userIds);
  }
}

/** Who makes a change of a group, as the system log names them. */
export interface GroupActor {
  userId: string;
  userName: string | null;
}

/**
 * The group writes a caller outside the console makes (a provisioning client), each inside the
 * caller's transaction with its system log row (plus `origin`); the caller checked the rules (the
 * area, mayChangeGroupMembers) with the group's row locked, and announces the members whose roles
 * changed once committed.
 */
export const groupWrites = {
  async create(em: Queryable, actor: GroupActor, body: GroupBody, origin: Record<string, unknown> = {}): Promise<string> {
    const area = await findArea(em, body.areaId);
    if (!area) throw fieldError('areaId', 'groups.area_not_found');
    const id = await insertGroup(em, body);
    await writeSystemLog(em, {
      operation: 'CreateGroup',
      ...actor,
      metadata: { groupId: id, name: body.name, description: body.description, areaId: area.id, areaName: area.name, creatorIsOwner: false, ...origin },
    });
    return id;
  },

  async update(em: Queryable, actor: GroupActor, group: GroupRecord, body: GroupBody, origin: Record<string, unknown> = {}): Promise<void> {
    if (group.name === body.name && group.description === body.description && group.areaId === body.areaId) return;
    await updateGroup(em, group.id, body);
    await writeSystemLog(em, {
      operation: 'UpdateGroup',
      ...actor,
      metadata: {
        groupId: group.id,
        name: body.name,
        description: body.description,
        areaId: body.areaId,
        previous: { name: group.name, description: group.description, areaId: group.areaId, areaName: group.areaName },
        ...origin,
      },
    });
  },

  /** Deletes the group; answers the members whose roles it took away (none when it held no tenant roles). */
  async remove(em: Queryable, actor: GroupActor, group: GroupRecord, origin: Record<string, unknown> = {}): Promise<string[]> {
    const members = await memberIds(em, group.id);
    await deleteGroup(em, group.id);
    await writeSystemLog(em, {
      operation: 'DeleteGroup',
      ...actor,
      metadata: { groupId: group.id, name: group.name, areaId: group.areaId, areaName: group.areaName, membersCount: members.length, tenants: group.tenants, ...origin },
    });
    return group.tenants.length ? members : [];
  },

  /** Adds a Reader member; false when they already were one. */
  async addMember(em: Queryable, actor: GroupActor, group: GroupRecord, user: { id: string; userName: string }, origin: Record<string, unknown> = {}): Promise<boolean> {
    if (!(await insertMember(em, group.id, user.id, 'Reader'))) return false;
    await writeSystemLog(em, {
      operation: 'AddGroupMember',
      ...actor,
      metadata: { groupId: group.id, groupName: group.name, memberId: user.id, memberUserName: user.userName, permission: 'Reader', ...origin },
    });
    return true;
  },

  /** Removes a member; false when they were none. */
  async removeMember(em: Queryable, actor: GroupActor, group: GroupRecord, userId: string, origin: Record<string, unknown> = {}): Promise<boolean> {
    const member = await findMember(em, group.id, userId);
    if (!member) return false;
    await deleteMember(em, group.id, userId);
    await writeSystemLog(em, {
      operation: 'RemoveGroupMember',
      ...actor,
      metadata: { groupId: group.id, groupName: group.name, memberId: userId, memberUserName: member.userName, permission: member.permission, ...origin },
    });
    return true;
  },

  /** The group with its tenants, row-locked until the transaction ends; undefined when it does not exist. */
  async lock(em: Queryable, id: string): Promise<GroupRecord | undefined> {
    if (!(await lockGroup(em, id))) return undefined;
    return findGroup(em, id, null);
  },

  /** Tells every node that these users' effective roles changed (after the change committed). */
  announce(context: AppContext, userIds: string[]): void {
    if (userIds.length > PER_USER_ANNOUNCEMENT_LIMIT) return context.broadcast.publish('roles.changed', {});
    for (const userId of userIds) context.broadcast.publish('roles.changed', { userId });
  },
};

/** The group as the API answers it: administrators own every group. */
function present(group: GroupRecord, scope: CallerScope): Group {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    areaId: group.areaId,
    areaName: group.areaName,
    tenants: group.tenants,
    membersCount: group.membersCount,
    userIsOwner: scope.isAdministrator || group.callerIsOwner,
  };
}

function presentTenantRoles(record: TenantRolesRecord): GroupTenantRoles {
  return {
    tenantId: record.tenantId === GLOBAL_TENANT_ID ? null : record.tenantId,
    tenantName: record.tenantName,
    isInheritable: record.isInheritable,
    roles: record.roles,
  };
}

/** The group, if it exists and lies in the caller's areas; otherwise the error `missing` makes (404). */
export async function visibleGroup(db: Queryable, caller: Caller, scope: CallerScope, id: string, missing = notFound): Promise<GroupRecord> {
  const group = await findGroup(db, id, caller.userId);
  if (!group || !inScope(scope, group.areaId)) throw missing();
  return group;
}

/** visibleGroup, with the group's row locked until the transaction ends. */
export async function lockedGroup(db: Queryable, caller: Caller, scope: CallerScope, id: string, missing = notFound): Promise<GroupRecord> {
  if (!(await lockGroup(db, id))) throw missing();
  return visibleGroup(db, caller, scope, id, missing);
}

async function visibleUser(db: Queryable, scope: CallerScope, id: string, missing: () => AppError) {
  const user = await findUser(db, id);
  if (!user || !inScope(scope, user.areaId)) throw missing();
  return user;
}

/** Members are added, changed and removed by the group's owners and by administrators only. */
export function assertOwner(group: GroupRecord, scope: CallerScope): void {
  if (!scope.isAdministrator && !group.callerIsOwner) throw new AppError('errors.forbidden', 403);
}

/** The Users group gives everyone their base roles: only God changes it (its members stay manageable). */
export function assertUsersGroupEditable(group: GroupRecord, scope: CallerScope): void {
  if (group.isUsersGroup && !scope.isGod) throw new AppError('groups.users_group_locked', 403);
}

/** The area a group goes into: it must exist, and be one of the caller's. */
async function assertArea(db: Queryable, scope: CallerScope, areaId: string) {
  const area = await findArea(db, areaId);
  if (!area) throw fieldError('areaId', 'groups.area_not_found');
  if (!inScope(scope, area.id)) throw fieldError('areaId', 'groups.area_forbidden', 403);
  return area;
}

/** The tenant roles go to: Global for administrators only; another tenant must lie in the caller's areas. */
async function assertTenant(db: Queryable, scope: CallerScope, tenantId: string) {
  const isGlobal = tenantId === GLOBAL_TENANT_ID;
  if (isGlobal && !scope.isAdministrator) throw fieldError('tenantId', 'groups.global_forbidden', 403);
  const tenant = await findTenant(db, tenantId);
  if (!tenant || (!isGlobal && !inScope(scope, tenant.areaId))) throw fieldError('tenantId', 'groups.tenant_not_found');
  return tenant;
}

/**
 * Joining a group gives its members the group's tenant roles, so adding a member (or making one an
 * Owner, who then adds members) takes what granting those roles directly takes (the rules of
 * tenant access): a group holding roles of the Identity application is for administrators to fill,
 * one holding God for God, and nobody adds themself to a group that holds such roles.
 */
export async function assertMayHandOutGroupRoles(db: Queryable, caller: Caller, scope: CallerScope, groupId: string, member?: { type: 'User'; id: string }): Promise<void> {
  const authority = await callerAuthority(db, caller, scope);
  const group = await findTarget(db, { type: 'Group', id: groupId });
  if (!group) throw notFound();
  const target = member && (await findTarget(db, member));
  enforce(mayChangeGroupMembers(authority, { ...group, holdsRoles: await groupHoldsRoles(db, groupId) }, target));
}
