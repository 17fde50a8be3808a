import type { OperationRequestRole, identityPermissionsSchema, operationRequestSchema } from '@gatehouse/contracts';
import type { z } from 'zod';
import { AppError, GLOBAL_TENANT_ID, type AppContext, type IdentityType, type ListQuery } from '@gatehouse/core';
import type { Mailer } from '@gatehouse/core/mail';
import type { EntityManager } from 'typeorm';
import { findCreatingApplication, findRoleOrigins, roleOfferRefusal, type AccessChanges, type AccessRole, type TenantAccess } from '@gatehouse/core/access';
import { tenantAccess } from '../../access.js';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { Queryable } from '../../db.js';
import { notify } from '../notifications/notify.js';
import { publishUserEvents, visibleUser } from '../users/access.js';
import { sendInvitation } from '../users/service.js';
import { approverActor, assertConsults, assertMayDecide, consults, listedTenants, mayApprove, mayDecide, requestActorOf, type RequestActor } from './access.js';
import {
  clearDraft,
  decideWaiting,
  findAdministrators,
  findRequestGroup,
  findHeldRoles,
  findRequest,
  findRequestRoles,
  findTargetUser,
  findTenantApprovers,
  findTenantTitle,
  findVisibleRoles,
  findWaitingRequestId,
  insertHistory,
  insertRequest,
  listHistory,
  listRequests,
  updateWaitingPayload,
  type ApproverRow,
  type RequestRow,
  type RequestableRole,
} from './repository.js';
import type { AdminContext } from '../../admin-context.js';

/** Identity-application roles no operation request ever gives, whatever their flags. */
/** With no approving consultant in a tenant, at most this many administrators are told of its requests. */
const ADMINISTRATORS_TOLD = 50;

interface Identity {
  type: IdentityType;
  id: string;
}

/** What a create call asks for. */
export interface NewRequest {
  tenantId: string;
  identityType: IdentityType;
  identityId: string;
  isInheritable: boolean;
  roles: string[];
  autoApprove: boolean;
  /** Permission (the wizard) unless told: BulkInsert for the rows of an uploaded file. */
  type?: 'Permission' | 'BulkInsert';
}

/** What the list filters on besides the page. */
export interface RequestListFilter {
  tenantId?: string;
  status?: RequestRow['status'];
  onlyUser: boolean;
  external: boolean;
}

/** A request as the service answers it (dates as Dates; the route's schema writes them out). */
type OperationRequest = z.input<typeof operationRequestSchema>;
type IdentityPermissions = z.input<typeof identityPermissionsSchema>;

/** A refusal met while applying a request: the change is undone and the request rolled back with this reason. */
class RollBackError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** What applying changed, for the log and the notifications. */
interface Applied {
  added: RequestableRole[];
  removed: RequestableRole[];
  draftCleared: boolean;
}

const fieldError = (field: string, code: 'operationRequests.role_not_found' | 'operationRequests.role_not_requestable' | 'operationRequests.role_by_hierarchy', params = {}) =>
  new AppError(code, 400, params, [{ field, code }]);

/**
 * Operation requests: a consultant asks for the complete set of operation-request roles of a user
 * or group in a tenant; someone else who may approve there applies it (four eyes), or the
 * requester, when they may approve, applies it at once (auto-approve). Every decision is a
 * compare-and-set on the waiting status, so two deciders racing decide exactly once.
 */
export class OperationRequestsService {
  constructor(
    private readonly context: AdminContext,
    private readonly mailer: Mailer = context.mailer,
    private readonly access: TenantAccess = tenantAccess(context),
  ) {}

  private get db() {
    return this.context.dataSource;
  }

  actor(caller: Caller, language: string): Promise<RequestActor> {
    return requestActorOf(this.context, caller, language);
  }

  async list(actor: RequestActor, filter: RequestListFilter, query: ListQuery): Promise<{ items: OperationRequest[]; count: number }> {
    if (filter.tenantId) assertConsults(actor, filter.tenantId);
    const tenantIds = filter.tenantId ? [filter.tenantId] : listedTenants(actor);
    const page = await listRequests(
      this.db,
      { tenantIds, status: filter.status ?? null, createdById: filter.onlyUser ? actor.userId : null, external: filter.external },
      query,
    );
    return { items: await this.present(actor, page.rows), count: page.count };
  }

  /** The request if the actor may see it (a consultant of its tenant, or its requester); else the same 404 as a missing one. */
  private async visible(actor: RequestActor, id: string, db: Queryable = this.db, lock = false): Promise<RequestRow> {
    const row = await findRequest(db, id, lock);
    if (!row || !(consults(actor, row.tenant_id) || row.created_by_id === actor.userId)) throw new AppError('operationRequests.not_found', 404);
    return row;
  }

  async get(actor: RequestActor, id: string): Promise<OperationRequest> {
    return (await this.present(actor, [await this.visible(actor, id)]))[0]!;
  }

  async history(actor: RequestActor, id: string) {
    await this.visible(actor, id);
    const rows = await listHistory(this.db, id);
    return { items: rows.map((row) => ({ id: row.id, email: row.email, date: row.date, requestType: row.request_type, status: row.status })) };
  }

  /** Checks the tenant and the identity of a new request; answers the tenant's title and the identity's display name. */
  private async checkTarget(actor: RequestActor, tenantId: string, identity: Identity): Promise<{ tenantTitle: string; displayName: string }> {
    const tenantTitle = await findTenantTitle(this.db, tenantId);
    if (tenantTitle === undefined) throw new AppError('operationRequests.tenant_not_found', 404);
    assertConsults(actor, tenantId);
    if (tenantId === GLOBAL_TENANT_ID) throw new AppError('operationRequests.global_tenant', 400, {}, [{ field: 'tenantId', code: 'operationRequests.global_tenant' }]);
    if (identity.type === 'Group') {
      const group = await findRequestGroup(this.db, identity.id);
      if (!group) throw new AppError('operationRequests.identity_not_found', 404);
      if (group.isUsersGroup) throw new AppError('operationRequests.users_group', 400, {}, [{ field: 'identityId', code: 'operationRequests.users_group' }]);
      return { tenantTitle, displayName: group.name };
    }
    const user = await findTargetUser(this.db, identity.id);
    if (!user) throw new AppError('operationRequests.identity_not_found', 404);
    return { tenantTitle, displayName: user.displayName };
  }

  /**
   * The requested roles, checked: each exists (a role of a deleted application does not), is
   * flagged for operation requests, is not God or Administrator, and is not granted through the
   * hierarchy only.
   */
  private async checkRoles(db: Queryable, roleIds: string[], lock = false): Promise<RequestableRole[]> {
    const ids = [...new Set(roleIds)];
    const roles = await findRequestRoles(db, ids, lock);
    if (roles.length !== ids.length) throw fieldError('roles', 'operationRequests.role_not_found');
    for (const role of roles) {
      const refusal = requestRoleRefusal(role);
      if (refusal) throw refusal;
    }
    return roles;
  }

  /**
   * Creates a waiting request (201); a second one for the same identity and tenant is refused by
   * the database (409: edit the first). With autoApprove, by someone who may approve, it is applied
   * at once (its history shows both steps); by anyone else, 403 and nothing is created.
   */
  async create(actor: RequestActor, body: NewRequest): Promise<OperationRequest> {
    const identity: Identity = { type: body.identityType, id: body.identityId };
    const target = await this.checkTarget(actor, body.tenantId, identity);
    const roles = await this.checkRoles(this.db, body.roles);
    if (body.autoApprove) {
      if (!mayApprove(actor, body.tenantId)) throw new AppError('operationRequests.auto_approve_forbidden', 403);
      // Auto-approving is approving: never roles for oneself or one's group, refused before anything is stored.
      assertMayDecide(actor, { tenant_id: body.tenantId, created_by_id: null, identity_type: identity.type, identity_id: identity.id });
    }
    const type = body.type ?? 'Permission';
    const id = await this.db.transaction(async (em) => {
      const created = await insertRequest(em, {
        tenantId: body.tenantId,
        identity,
        payload: { roles: roles.map((role) => role.roleId), isInheritable: body.isInheritable },
        createdById: actor.userId,
        type,
      });
      await insertHistory(em, { requestId: created, status: 'WaitingForApprover', requestType: type, actorId: actor.userId, actorEmail: actor.email });
      return created;
    });
    if (body.autoApprove) {
      await this.apply(actor, (await findRequest(this.db, id))!);
    } else {
      await this.tellApprovers(actor, { id, tenantId: body.tenantId, tenantTitle: target.tenantTitle, targetName: target.displayName });
    }
    return this.get(actor, id);
  }

  /**
   * A request adding `roles` to those the identity already holds in the tenant: the request sets the
   * identity's operation-request roles there to exactly its list once approved, so the list keeps
   * those it holds there of every application, and the membership's inheritance stays as it is
   * (the roles of other applications depend on it). Nothing is asked when it holds them all.
   */
  async createAdding(
    actor: RequestActor,
    body: { tenantId: string; identityType: IdentityType; identityId: string; roles: string[]; isInheritable: boolean },
  ): Promise<{ request?: OperationRequest }> {
    const held = await findHeldRoles(this.db, body.tenantId, { type: body.identityType, id: body.identityId });
    if (body.roles.every((roleId) => held.own.has(roleId))) return {};
    const kept = (await findRequestRoles(this.db, [...held.own])).filter((role) => role.operationRequestVisibility).map((role) => role.roleId);
    const request = await this.create(actor, {
      tenantId: body.tenantId,
      identityType: body.identityType,
      identityId: body.identityId,
      isInheritable: held.isInheritable ?? body.isInheritable,
      roles: [...new Set([...kept, ...body.roles])],
      autoApprove: false,
    });
    return { request };
  }

  /** Changes the roles (and inheritance) of a waiting request: its requester only. */
  async edit(actor: RequestActor, id: string, body: { roles: string[]; isInheritable?: boolean }): Promise<OperationRequest> {
    const row = await this.visible(actor, id);
    if (row.created_by_id !== actor.userId) throw new AppError('operationRequests.not_requester', 403);
    if (row.status !== 'WaitingForApprover') throw alreadyDecided(row.status);
    const roles = await this.checkRoles(this.db, body.roles);
    const payload = { roles: roles.map((role) => role.roleId), isInheritable: body.isInheritable ?? row.payload.isInheritable };
    if (!(await updateWaitingPayload(this.db, id, payload))) throw alreadyDecided((await findRequest(this.db, id))!.status);
    // A new version waits: the approvers look at it again (an approval of the old one is refused).
    await this.tellApprovers(actor, { id, tenantId: row.tenant_id, tenantTitle: row.tenant_name, targetName: row.display_name });
    return this.get(actor, id);
  }

  /**
   * Approves a waiting request and applies it; never one's own (four eyes). `version` is the one
   * the approver saw: a request its requester changed since is not applied (409), so what is
   * applied is what was approved.
   */
  async approve(me: RequestActor, id: string, version: number): Promise<OperationRequest> {
    const row = await this.visible(me, id);
    assertMayDecide(me, row);
    if (row.status !== 'WaitingForApprover') throw alreadyDecided(row.status);
    if (row.version !== version) throw changedSinceSeen();
    await this.apply(me, row, version);
    return this.get(me, id);
  }

  async reject(me: RequestActor, id: string, reason: string | null): Promise<OperationRequest> {
    const row = await this.visible(me, id);
    assertMayDecide(me, row);
    if (row.status !== 'WaitingForApprover') throw alreadyDecided(row.status);
    await this.decide(me, row, 'Rejected', reason || null);
    return this.get(me, id);
  }

  /** Cancels a waiting request: its requester only. */
  async cancel(me: RequestActor, id: string): Promise<OperationRequest> {
    const row = await this.visible(me, id);
    if (row.created_by_id !== me.userId) throw new AppError('operationRequests.not_requester', 403);
    if (row.status !== 'WaitingForApprover') throw alreadyDecided(row.status);
    await this.decide(me, row, 'Cancelled', null);
    return this.get(me, id);
  }

  /** Approves or rejects each request on its own: one refused leaves the others decided. */
  async inBulk(actor: RequestActor, ids: string[], decision: 'approve' | 'reject', reason: string | null, versions: Record<string, number> = {}) {
    const items = [];
    for (const id of [...new Set(ids)]) {
      try {
        const version = versions[id];
        if (decision === 'approve' && version === undefined) throw changedSinceSeen();
        const decided = decision === 'approve' ? await this.approve(actor, id, version!) : await this.reject(actor, id, reason);
        items.push({ id, status: decided.status });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        items.push({ id, error: { code: error.code, message: this.context.i18n.t(error.code, { lng: actor.language, ...error.params }) as string } });
      }
    }
    return { items };
  }

  /** Rejects or cancels: the compare-and-set, then the history row, in one transaction; the requester is told of a rejection. */
  private async decide(actor: RequestActor, row: RequestRow, status: 'Rejected' | 'Cancelled', reason: string | null): Promise<void> {
    await this.db.transaction(async (em) => {
      if (!(await decideWaiting(em, row.id, status, reason))) throw alreadyDecided((await findRequest(em, row.id))!.status);
      await insertHistory(em, { requestId: row.id, status, requestType: row.type, actorId: actor.userId, actorEmail: actor.email });
    });
    if (status === 'Rejected') await this.tellRequester(row, 'operationRequests.notify_rejected');
  }

  /**
   * Applies a waiting request in one transaction: the compare-and-set to Applied (the loser of a
   * race gets 409), the identity's operation-request roles in the tenant set to exactly the
   * requested ones by the grant rules, a draft user made a user, the history and the system log.
   * When a rule refuses or something requested is gone, nothing of it stays: in a new transaction
   * the request is rolled back with the reason, and the caller gets 409 with it.
   */
  private async apply(actor: RequestActor, row: RequestRow, version: number = row.version): Promise<void> {
    let applied: Applied;
    try {
      applied = await this.access.transaction(async (changes) => {
        const { em } = changes;
        if (!(await decideWaiting(em, row.id, 'Applied', null, version))) {
          const now = (await findRequest(em, row.id))!;
          throw now.status === 'WaitingForApprover' ? changedSinceSeen() : alreadyDecided(now.status);
        }
        const result = await this.setRoles(changes, actor, row);
        await insertHistory(em, { requestId: row.id, status: 'Applied', requestType: 'ApproveOperationRequest', actorId: actor.userId, actorEmail: actor.email });
        await writeSystemLog(em, {
          operation: 'ApproveOperationRequest',
          userId: actor.userId,
          userName: actor.userName,
          tenantId: row.tenant_id,
          tenantName: row.tenant_name,
          metadata: {
            operationRequestId: row.id,
            tenantId: row.tenant_id,
            identityType: row.identity_type,
            identityId: row.identity_id,
            ...(row.identity_type === 'User' ? { targetUserId: row.identity_id } : { targetGroupId: row.identity_id }),
            targetName: row.display_name,
            rolesAdded: result.added.map(logRole),
            rolesRemoved: result.removed.map(logRole),
            ...(result.draftCleared ? { draftCleared: true } : {}),
          },
        });
        return result;
      });
    } catch (error) {
      const reason = error instanceof RollBackError ? error.reason : error instanceof AppError && error.status < 500 && error.code !== 'operationRequests.already_decided' && error.code !== 'operationRequests.changed_since_seen' ? this.message(actor, error) : undefined;
      if (reason === undefined) throw error;
      await this.rollBack(actor, row, reason);
      throw new AppError('operationRequests.rolled_back', 409, { reason });
    }
    await this.announce(actor, row, applied);
  }

  /** The message of a refusal, in the decider's language (the reason the request keeps). */
  private message(actor: RequestActor, error: AppError): string {
    return this.context.i18n.t(error.code, { lng: actor.language, ...error.params }) as string;
  }

  private async rollBack(actor: RequestActor, row: RequestRow, reason: string): Promise<void> {
    const rolledBack = await this.db.transaction(async (em) => {
      if (!(await decideWaiting(em, row.id, 'RollBack', reason.slice(0, 1000)))) return false;
      await insertHistory(em, { requestId: row.id, status: 'RollBack', requestType: 'ApproveOperationRequest', actorId: actor.userId, actorEmail: actor.email });
      return true;
    });
    if (rolledBack) await this.tellRequester(row, 'operationRequests.notify_rolled_back');
  }

  /**
   * Sets the identity's own operation-request roles in the tenant to exactly the requested set, by
   * the rules of tenant access (the approver gives them: never to themself or a group they belong
   * to, never to someone who outranks them); roles of other visibility stay. A draft user becomes a user.
   */
  private async setRoles(changes: AccessChanges, actor: RequestActor, row: RequestRow): Promise<Applied> {
    const { em } = changes;
    const missing = (code: 'operationRequests.reason_role_missing' | 'operationRequests.reason_identity_missing') =>
      new RollBackError(this.context.i18n.t(code, { lng: actor.language }) as string);
    try {
      await this.checkRoles(em, row.payload.roles ?? [], true);
    } catch (error) {
      if (error instanceof AppError && error.code === 'operationRequests.role_not_found') throw missing('operationRequests.reason_role_missing');
      throw error;
    }
    const identity = { type: row.identity_type, id: row.identity_id };
    const group = row.identity_type === 'Group' ? await findRequestGroup(em, row.identity_id) : undefined;
    const exists = row.identity_type === 'User' ? await findTargetUser(em, row.identity_id, true) : group;
    if (!exists) throw missing('operationRequests.reason_identity_missing');
    if (group?.isUsersGroup) throw new AppError('operationRequests.users_group', 400);
    const tenant = { id: row.tenant_id, title: row.tenant_name, areaId: null };
    const change = await changes.set(approverActor(actor, row.id), {
      identity,
      tenant,
      roleIds: row.payload.roles ?? [],
      within: (role: AccessRole) => role.operationRequestVisible,
      isInheritable: row.payload.isInheritable ?? true,
    });
    const draftCleared = row.identity_type === 'User' && (await clearDraft(em, row.identity_id));
    return { added: change.added.map(requestableOf), removed: change.removed.map(requestableOf), draftCleared };
  }

  /**
   * After an applied request: a user no longer a draft is announced (and, when a business
   * application created the account through the external API, mailed the invitation to choose a
   * password, which waited for the approval), and the requester told (tenant access announced the roles).
   */
  private async announce(actor: RequestActor, row: RequestRow, applied: Applied): Promise<void> {
    if (applied.draftCleared) {
      publishUserEvents(this.context, row.identity_id, ['user.changed']);
      if (await findCreatingApplication(this.db, row.identity_id)) {
        const user = await visibleUser(this.db, { areaIds: null, isAdministrator: true, isGod: false }, row.identity_id);
        await sendInvitation(this.context, this.mailer, user, { userId: actor.userId, userName: actor.userName }).catch((error: Error) =>
          this.context.logger.warn({ err: error.message, userId: row.identity_id }, 'invitation after an approved request failed'),
        );
      }
    }
    await this.tellRequester(row, 'operationRequests.notify_applied');
  }

  /** Tells the requester (unless they decided it themselves) what became of their request; never fails the decision. */
  private async tellRequester(row: RequestRow, code: 'operationRequests.notify_applied' | 'operationRequests.notify_rejected' | 'operationRequests.notify_rolled_back'): Promise<void> {
    if (!row.created_by_id) return;
    try {
      const requester = await findTargetUser(this.db, row.created_by_id);
      if (!requester) return;
      const params = { target: row.display_name, tenant: row.tenant_name };
      await notify(this.context, requester.id, { type: 'OperationRequest', message: { key: code, params }, language: requester.language });
    } catch (error) {
      this.context.logger.warn({ err: (error as Error).message, operationRequestId: row.id }, 'operation request notification failed');
    }
  }

  /**
   * Tells each approver of the tenant (its approving consultants; administrators when it has none)
   * that a request waits: a notification and a mail, each in the approver's language. The requester
   * is never among them (they cannot approve their own). A failure is logged, never the request's.
   */
  private async tellApprovers(actor: RequestActor, request: { id: string; tenantId: string; tenantTitle: string; targetName: string }): Promise<void> {
    try {
      let approvers = (await findTenantApprovers(this.db, request.tenantId)).filter((a) => a.id !== actor.userId);
      if (approvers.length === 0) approvers = (await findAdministrators(this.db, ADMINISTRATORS_TOLD)).filter((a) => a.id !== actor.userId);
      for (const approver of approvers) await this.tellApprover(actor, approver, request);
    } catch (error) {
      this.context.logger.warn({ err: (error as Error).message, operationRequestId: request.id }, 'telling the approvers failed');
    }
  }

  private async tellApprover(actor: RequestActor, approver: ApproverRow, request: { tenantTitle: string; targetName: string }): Promise<void> {
    const params = { requester: actor.displayName, target: request.targetName, tenant: request.tenantTitle };
    await notify(this.context, approver.id, { type: 'OperationRequest', message: { key: 'operationRequests.notify_waiting', params }, language: approver.language });
    await this.mailer.send({ to: approver.email, template: 'operation-request', language: approver.language, params: { name: approver.display_name, ...params } });
  }

  /** `GET /permissions`: the identity's operation-request roles in the tenant as the wizard shows them. */
  async permissions(actor: RequestActor, tenantId: string, identity: Identity): Promise<IdentityPermissions> {
    await this.checkTarget(actor, tenantId, identity);
    const [roles, held, waitingId, origins] = await Promise.all([
      findVisibleRoles(this.db),
      findHeldRoles(this.db, tenantId, identity),
      findWaitingRequestId(this.db, tenantId, identity),
      findRoleOrigins(this.db, tenantId, identity.type, [identity.id]),
    ]);
    const applications = [...byApplication(roles)].map(([applicationId, appRoles]) => ({
      applicationId,
      applicationName: appRoles[0]!.applicationName,
      roles: appRoles.map((role) => {
        const own = held.own.has(role.roleId);
        const inherited = held.byHierarchy.has(role.roleId);
        return {
          roleId: role.roleId,
          roleName: role.roleName,
          held: own && inherited ? ('Both' as const) : own ? ('Own' as const) : inherited ? ('ByHierarchy' as const) : null,
          editable: !role.byHierarchy && !(inherited && !own),
          origins: origins.find((o) => o.roleId === role.roleId)?.origins ?? [],
        };
      }),
    }));
    const waiting = waitingId ? (await this.present(actor, [(await findRequest(this.db, waitingId))!]))[0]! : null;
    return { identityType: identity.type, identityId: identity.id, tenantId, isInheritable: held.isInheritable ?? true, applications, waitingRequest: waiting };
  }

  /** Requests as the table shows them: their roles by name, who may approve them, what the caller may do. */
  private async present(actor: RequestActor, rows: RequestRow[]): Promise<OperationRequest[]> {
    const roleIds = [...new Set(rows.flatMap((row) => row.payload.roles ?? []))];
    const roles = new Map((await findRequestRoles(this.db, roleIds)).map((role) => [role.roleId, role]));
    const approvers = new Map<string, string[]>();
    for (const tenantId of new Set(rows.map((row) => row.tenant_id))) {
      approvers.set(tenantId, (await findTenantApprovers(this.db, tenantId)).map((a) => a.display_name));
    }
    return rows.map((row) => ({
      id: row.id,
      type: row.type,
      status: row.status,
      displayName: row.display_name,
      email: row.email,
      identityType: row.identity_type,
      identityId: row.identity_id,
      tenantId: row.tenant_id,
      tenantName: row.tenant_name,
      modificationDate: row.modified_on,
      createdByDisplayName: row.created_by_display_name,
      isMine: row.created_by_id === actor.userId,
      canApprove: row.status === 'WaitingForApprover' && mayDecide(actor, row).ok,
      approvers: (approvers.get(row.tenant_id) ?? []).filter((name, index, all) => all.indexOf(name) === index),
      roles: (row.payload.roles ?? []).flatMap((id): OperationRequestRole[] => {
        const role = roles.get(id);
        return role ? [{ roleId: role.roleId, roleName: role.roleName, applicationId: role.applicationId, applicationName: role.applicationName }] : [];
      }),
      isInheritable: row.payload.isInheritable ?? true,
      version: row.version,
      reason: row.reason,
    }));
  }
}

/**
 * Why a role cannot be part of a request (undefined when it can): not flagged for operation
 * requests, God or Administrator of the Identity application, or granted through the hierarchy only.
 */
export function requestRoleRefusal(role: RequestableRole): AppError | undefined {
  const refusal = roleOfferRefusal('operationRequest', {
    id: role.roleId,
    name: role.roleName,
    applicationId: role.applicationId,
    byHierarchy: role.byHierarchy,
    operationRequestVisible: role.operationRequestVisibility,
    serviceManagerVisible: false,
  });
  return refusal && new AppError(refusal.code, refusal.status, refusal.params ?? {}, [{ field: 'roles', code: refusal.code }]);
}

/** The request changed after the approver looked at it: they look again before deciding. */
function changedSinceSeen(): AppError {
  return new AppError('operationRequests.changed_since_seen', 409);
}

function alreadyDecided(status: string): AppError {
  return new AppError('operationRequests.already_decided', 409, { status });
}

const logRole = (role: RequestableRole) => ({ roleId: role.roleId, roleName: role.roleName, applicationId: role.applicationId });

/** A role tenant access changed, as requests name it (by the application's display name). */
const requestableOf = (role: AccessRole): RequestableRole => ({
  roleId: role.id,
  roleName: role.name,
  applicationId: role.applicationId,
  applicationName: role.applicationDisplayName,
  operationRequestVisibility: role.operationRequestVisible,
  byHierarchy: role.byHierarchy,
});

function byApplication(roles: RequestableRole[]): Map<string, RequestableRole[]> {
  const groups = new Map<string, RequestableRole[]>();
  for (const role of roles) groups.set(role.applicationId, [...(groups.get(role.applicationId) ?? []), role]);
  return groups;
}
