import type { ExternalInvitation, ExternalInvitationAnswer, ExternalInvitationResult, Language } from '@gatehouse/contracts';
import { AppError, GLOBAL_TENANT_ID, mapDatabaseError, type AppContext } from '@gatehouse/core';
import type { Mailer } from '@gatehouse/core/mail';
import type { EntityManager } from 'typeorm';
import { writeSystemLog } from '../../audit/system-log.js';
import { adminMailer } from '../../mail.js';
import { markCreatedForTenant } from '../clients/repository.js';
import { notifyRolesGranted } from '../notifications/permission-assigned.js';
import type { RequestActor } from '../operation-requests/access.js';
import { findHeldRoles, findRequestRoles } from '../operation-requests/repository.js';
import { OperationRequestsService } from '../operation-requests/service.js';
import { publishUserEvents } from '../users/access.js';
import { findUserState, type UserStateRow } from '../users/repository.js';
import { addMembershipRoles, lockOwnMembership } from '../users/roles/repository.js';
import { createUser, sendInvitation } from '../users/service.js';
import type { ExternalCaller } from './caller.js';
import { findInvitee, type ApplicationRole, type VisibleTenant } from './repository.js';
import { externalOrigin, resolveRoles, systemLogActor, visibleTenant } from './service.js';

type Invitee = ExternalInvitation['users'][number];

/** InviteUsers gives the roles; InviteUsersWithOperationRequest asks the tenant's approvers for them. */
export type InvitationMode = 'grant' | 'request';

/** What one invitation call works with, checked once for all its invitees. */
interface InvitationCall {
  caller: ExternalCaller;
  tenant: VisibleTenant;
  roles: ApplicationRole[];
  isInheritable: boolean;
  language: Language;
}

const result = (email: string, fields: Partial<ExternalInvitationResult> & Pick<ExternalInvitationResult, 'status'>): ExternalInvitationResult => ({
  email,
  userId: null,
  created: false,
  invitationSent: false,
  rolesAdded: [],
  operationRequestId: null,
  error: null,
  ...fields,
});

/**
 * Invitations by e-mail into a tenant the application sees, with roles of the application: the
 * whole call is checked first (tenant, roles, duplicate addresses: a 4xx and nothing done), then
 * each invitee succeeds or fails on its own, its changes in a transaction of their own. An address
 * is an existing user's when it is a user name, else the one user's e-mail; otherwise a new user
 * of the tenant's area is created (with the names given), with no password until they choose one.
 * An existing membership keeps its own inheritance: the roles of other applications depend on it.
 */
export class ExternalInvitations {
  private readonly requests: OperationRequestsService;

  constructor(
    private readonly context: AppContext,
    private readonly mailer: Mailer = adminMailer(context),
  ) {
    this.requests = new OperationRequestsService(context, mailer);
  }

  private get db() {
    return this.context.dataSource;
  }

  async invite(caller: ExternalCaller, tenantId: string, body: ExternalInvitation, language: Language, mode: InvitationMode): Promise<ExternalInvitationAnswer> {
    const call = await this.check(caller, tenantId, body, language, mode);
    const items: ExternalInvitationResult[] = [];
    for (const invitee of body.users) {
      try {
        items.push(mode === 'grant' ? await this.grantOne(call, invitee) : await this.requestOne(call, invitee));
      } catch (error) {
        items.push(this.failed(call, invitee, error));
      }
    }
    return { tenantId: call.tenant.id, tenantName: call.tenant.title, items };
  }

  /**
   * An invitee refused (a 4xx of its own, a database refusal such as a waiting request included),
   * in the call's language; anything else fails the call.
   */
  private failed(call: InvitationCall, invitee: Invitee, thrown: unknown, fields: Partial<ExternalInvitationResult> = {}): ExternalInvitationResult {
    const error = thrown instanceof AppError ? thrown : mapDatabaseError(thrown);
    if (!error || error.status >= 500) throw thrown;
    const message = this.context.i18n.t(error.code, { lng: call.language, ...error.params }) as string;
    return result(invitee.email, { ...fields, status: 'Failed', error: { code: error.code, message } });
  }

  /** The call's tenant (never the Global one), roles (the application's, grantable, requestable when asked) and distinct addresses. */
  private async check(caller: ExternalCaller, tenantId: string, body: ExternalInvitation, language: Language, mode: InvitationMode): Promise<InvitationCall> {
    if (tenantId === GLOBAL_TENANT_ID) throw new AppError('external.global_tenant', 400, {}, [{ field: 'tenantId', code: 'external.global_tenant' }]);
    const tenant = await visibleTenant(this.db, caller, tenantId);
    const roles = await resolveRoles(this.db, caller, body.roles, 'roles');
    for (const role of roles) {
      if (role.byHierarchy) throw new AppError('users.role_by_hierarchy', 400, {}, [{ field: 'roles', code: 'users.role_by_hierarchy' }]);
      if (mode === 'request' && !role.operationRequestVisibility) {
        throw new AppError('operationRequests.role_not_requestable', 400, { name: role.name }, [{ field: 'roles', code: 'operationRequests.role_not_requestable', params: { name: role.name } }]);
      }
    }
    const seen = new Set<string>();
    const duplicates = body.users.flatMap((invitee, index) => {
      const email = invitee.email.toLowerCase();
      if (seen.has(email)) return [{ field: `users.${index}.email`, code: 'external.duplicate_invitee' as const }];
      seen.add(email);
      return [];
    });
    if (duplicates.length) throw new AppError('errors.validation', 400, {}, duplicates);
    return { caller, tenant, roles, isInheritable: body.isInheritable, language };
  }

  /** The invitee's account: the existing user, or undefined for a new one (refused when the address is several users'). */
  private async existing(email: string): Promise<UserStateRow | undefined> {
    const found = await findInvitee(this.db, email);
    if (found === 'ambiguous') throw new AppError('external.ambiguous_email', 409);
    return found ? findUserState(this.db, found.id) : undefined;
  }

  /** A new user of the tenant's area, created in `em`; a draft (pending approval, created for the tenant) when asked. */
  private async createInvitee(em: EntityManager, call: InvitationCall, invitee: Invitee, draft: boolean): Promise<string> {
    if (!invitee.firstName || !invitee.lastName) throw new AppError('external.names_required', 400);
    const input = {
      userName: invitee.email,
      email: invitee.email,
      firstName: invitee.firstName,
      lastName: invitee.lastName,
      areaId: call.tenant.area_id!,
      language: invitee.language ?? call.language,
      validateScopes: false,
      sendEmailInvite: false,
      password: null,
      confirmPassword: null,
    };
    const user = await createUser(this.context, em, input, systemLogActor(call.caller), { withoutGeneratedPassword: true });
    if (draft) await markCreatedForTenant(em, user.id, call.tenant.id);
    return user.id;
  }

  /** InviteUsers, one invitee: the roles added to their own membership of the tenant; a new user is also mailed an invitation. */
  private async grantOne(call: InvitationCall, invitee: Invitee): Promise<ExternalInvitationResult> {
    const found = await this.existing(invitee.email);
    const { userId, added } = await this.db.transaction(async (em) => {
      const id = found?.id ?? (await this.createInvitee(em, call, invitee, false));
      return { userId: id, added: await this.grant(em, call, id, found?.user_name ?? invitee.email) };
    });
    if (added.length) publishUserEvents(this.context, userId, ['roles.changed']);
    const rolesAdded = added.map((role) => role.name);
    if (found) {
      const grants = [{ applicationName: call.caller.application.displayName, roleNames: rolesAdded }];
      await notifyRolesGranted(this.context, { user: { id: found.id, language: found.language }, tenantTitle: call.tenant.title, grants });
      return result(invitee.email, { status: 'Granted', userId, rolesAdded });
    }
    return result(invitee.email, { status: 'Created', userId, created: true, rolesAdded, invitationSent: await this.mailInvitation(call, userId) });
  }

  /** Adds the roles to the user's own membership of the tenant (created with the call's inheritance when missing); answers those added. */
  private async grant(em: EntityManager, call: InvitationCall, userId: string, userName: string): Promise<ApplicationRole[]> {
    const membership = await lockOwnMembership(em, call.tenant.id, userId, call.isInheritable);
    const addedIds = new Set(await addMembershipRoles(em, membership.id, call.roles.map((role) => role.id)));
    const added = call.roles.filter((role) => addedIds.has(role.id));
    if (added.length === 0) return added;
    const { application } = call.caller;
    await writeSystemLog(em, {
      operation: 'Permission',
      ...systemLogActor(call.caller),
      tenantId: call.tenant.id,
      tenantName: call.tenant.title,
      metadata: {
        action: 'grant',
        targetUserId: userId,
        targetUserName: userName,
        applicationId: application.id,
        applicationName: application.name,
        roles: added.map((role) => ({ roleId: role.id, roleName: role.name })),
        ...(membership.created ? { isInheritable: call.isInheritable } : {}),
        ...externalOrigin(call.caller),
      },
    });
    return added;
  }

  /** The invitation mail of a user just created; a failure leaves the user and their roles, and says so. */
  private async mailInvitation(call: InvitationCall, userId: string): Promise<boolean> {
    try {
      await sendInvitation(this.context, this.mailer, (await findUserState(this.db, userId))!, systemLogActor(call.caller), { metadata: externalOrigin(call.caller) });
      return true;
    } catch (error) {
      this.context.logger.warn({ err: (error as Error).message, userId }, 'invitation of a user created through the external API failed');
      return false;
    }
  }

  /**
   * InviteUsersWithOperationRequest, one invitee: an operation request, waiting for the tenant's
   * approvers, for the roles (a new user is created as a draft for the tenant first). A request sets
   * the user's operation-request roles in the tenant to exactly its list once approved, so the list
   * keeps those the user already holds there, of every application: the application adds, it never
   * takes away another's. Nothing is asked for a user who already holds every role.
   */
  private async requestOne(call: InvitationCall, invitee: Invitee): Promise<ExternalInvitationResult> {
    const found = await this.existing(invitee.email);
    const userId = found?.id ?? (await this.db.transaction((em) => this.createInvitee(em, call, invitee, true)));
    const held = await findHeldRoles(this.db, call.tenant.id, { type: 'User', id: userId });
    if (found && call.roles.every((role) => held.own.has(role.id))) return result(invitee.email, { status: 'Granted', userId });
    const kept = (await findRequestRoles(this.db, [...held.own])).filter((role) => role.operationRequestVisibility).map((role) => role.roleId);
    try {
      const request = await this.requests.create(this.requestActor(call), {
        tenantId: call.tenant.id,
        identityType: 'User',
        identityId: userId,
        // The membership's inheritance stays as it is: the roles of other applications depend on it.
        isInheritable: held.isInheritable ?? call.isInheritable,
        roles: [...new Set([...kept, ...call.roles.map((role) => role.id)])],
        autoApprove: false,
      });
      return result(invitee.email, { status: 'Requested', userId, created: !found, operationRequestId: request.id });
    } catch (error) {
      // A new user stays (a draft the tenant's consultants see): the answer names it.
      return this.failed(call, invitee, error, { userId, created: !found });
    }
  }

  /**
   * The application as the requester of its operation requests: it consults for this tenant only,
   * approves nothing, and is named by its display name (with the token's owner, who then also
   * sees and may cancel the request in the portal).
   */
  private requestActor(call: InvitationCall): RequestActor {
    const { caller } = call;
    return {
      userId: caller.userId,
      displayName: caller.userName ? `${caller.userName} (${caller.application.displayName})` : caller.application.displayName,
      email: caller.userName,
      userName: caller.userName ?? caller.application.name,
      language: call.language,
      isAdministrator: false,
      isGod: false,
      approverCategory: false,
      consultsAll: false,
      consultedTenantIds: new Set([call.tenant.id]),
    };
  }
}
