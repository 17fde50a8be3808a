import type { WebhookEventType } from '@gatehouse/contracts';
import type { WebhookEventInput } from './events.js';

/** The system log's operations on users, as the events they are. Passwords are told by the password store itself. */
const USER_OPERATIONS: Record<string, WebhookEventType> = {
  CreateUser: 'user.created',
  UpdateUser: 'user.updated',
  ChangeUserName: 'user.updated',
  DeleteUser: 'user.deleted',
  LockUser: 'user.locked',
  UnlockUser: 'user.unlocked',
  AddPasskey: 'user.factors_changed',
  RemovePasskey: 'user.factors_changed',
  EnrolAuthenticatorApp: 'user.factors_changed',
  RemoveAuthenticatorApp: 'user.factors_changed',
  GenerateRecoveryCodes: 'user.factors_changed',
  UseRecoveryCode: 'user.factors_changed',
  ResetFactors: 'user.factors_changed',
};

/** The system log's operations on an application, its roles and their scopes. */
const APPLICATION_OPERATIONS = new Set([
  'CreateApplication',
  'UpdateApplication',
  'DeleteApplication',
  'ChangeApplicationStatus',
  'RegenerateApplicationSecret',
  'AddApplicationOwner',
  'RemoveApplicationOwner',
  'CreateRole',
  'UpdateRole',
  'DeleteRole',
  'CreateRoleScope',
  'UpdateRoleScope',
  'DeleteRoleScope',
]);

interface LoggedRole {
  roleId: string;
  roleName: string;
  applicationId: string;
  applicationName: string;
}

/** A system-log row as the events read it. */
export interface LoggedChange {
  operation: string;
  userId: string | null;
  userName: string | null;
  tenantId?: string | null;
  tenantName?: string | null;
  metadata?: Record<string, unknown>;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function actorOf(entry: LoggedChange) {
  return { userId: entry.userId, userName: entry.userName };
}

function userEvent(type: WebhookEventType, entry: LoggedChange): WebhookEventInput {
  const m = entry.metadata ?? {};
  const changes = m.changes && typeof m.changes === 'object' ? Object.keys(m.changes as object) : undefined;
  const applicationId = text(m.applicationId);
  return {
    type,
    data: {
      userId: text(m.targetUserId) ?? entry.userId,
      userName: text(m.targetUserName) ?? entry.userName,
      ...(changes ? { changed: changes } : {}),
      ...(type === 'user.factors_changed' ? { change: entry.operation } : {}),
      ...(text(m.scope) ? { scope: m.scope } : {}),
      actor: actorOf(entry),
    },
    ...(applicationId ? { applicationIds: [applicationId] } : {}),
  };
}

/** One event per application whose roles a grant or revocation touched. */
function permissionEvents(entry: LoggedChange): WebhookEventInput[] {
  const m = entry.metadata ?? {};
  const identity =
    m.identityType === 'Group'
      ? { identityType: 'Group', identityId: text(m.targetGroupId), identityName: text(m.targetGroupName) }
      : { identityType: 'User', identityId: text(m.targetUserId), identityName: text(m.targetUserName) };
  const events: WebhookEventInput[] = [];
  for (const [type, roles] of [
    ['role.granted', m.added],
    ['role.revoked', m.removed],
  ] as const) {
    const byApplication = new Map<string, LoggedRole[]>();
    for (const role of Array.isArray(roles) ? (roles as LoggedRole[]) : []) {
      byApplication.set(role.applicationId, [...(byApplication.get(role.applicationId) ?? []), role]);
    }
    for (const [applicationId, held] of byApplication) {
      events.push({
        type,
        data: {
          ...identity,
          tenantId: entry.tenantId ?? null,
          tenantName: entry.tenantName ?? null,
          applicationId,
          applicationName: held[0]!.applicationName,
          roles: held.map((role) => ({ id: role.roleId, name: role.roleName })),
          via: text(m.via),
          actor: actorOf(entry),
        },
        applicationIds: [applicationId],
      });
    }
  }
  return events;
}

function groupEvent(type: WebhookEventType, entry: LoggedChange): WebhookEventInput {
  const m = entry.metadata ?? {};
  return {
    type,
    data: { groupId: text(m.groupId), groupName: text(m.groupName), userId: text(m.memberId), userName: text(m.memberUserName), permission: text(m.permission), actor: actorOf(entry) },
  };
}

/** The webhook events a system-log row stands for (none for most operations). */
export function systemLogEvents(entry: LoggedChange): WebhookEventInput[] {
  const userType = USER_OPERATIONS[entry.operation];
  if (userType) return [userEvent(userType, entry)];
  if (entry.operation === 'Permission') return permissionEvents(entry);
  if (entry.operation === 'AddGroupMember') return [groupEvent('group.member_added', entry)];
  if (entry.operation === 'RemoveGroupMember') return [groupEvent('group.member_removed', entry)];
  if (APPLICATION_OPERATIONS.has(entry.operation)) {
    const m = entry.metadata ?? {};
    const applicationId = text(m.applicationId);
    return [
      {
        type: 'application.changed',
        data: { applicationId, name: text(m.name), change: entry.operation, actor: actorOf(entry) },
        ...(applicationId ? { applicationIds: [applicationId] } : {}),
      },
    ];
  }
  return [];
}
