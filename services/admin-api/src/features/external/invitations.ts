import type { ExternalInvitation, ExternalInvitationAnswer, ExternalInvitationResult, Language } from '@gatehouse/contracts';
import { AppError, GLOBAL_TENANT_ID, mapDatabaseError, type AppContext } from '@gatehouse/core';
import { applicationAuthority, isApplicationAccessBlocked, roleOfferRefusal, type TenantAccess } from '@gatehouse/core/access';
import type { Mailer } from '@gatehouse/core/mail';
import type { EntityManager } from 'typeorm';
import { tenantAccess } from '../../access.js';
import type { RequestActor } from '../operation-requests/access.js';
import { OperationRequestsService } from '../operation-requests/service.js';
import { findUserStateOf, type UserStateRow } from '../users/access.js';
import { createUser, sendInvitation } from '../users/service.js';
import type { ExternalCaller } from './caller.js';
import { findInvitee, holdsApplicationRole, markInviteeCreated, type ApplicationRole, type VisibleTenant } from './repository.js';
import { applicationActor, resolveRoles, systemLogActor, visibleTenant } from './service.js';
import type { AdminContext } from '../../admin-context.js';

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
 * each invitee succeeds or fails on its own. An application acts only on the accounts it already
 * serves (holding one of its roles): those are given the roles at once (InviteUsers). Any other
 * address, whether an account exists for it or not, gets nothing the application can act on: an
 * operation request waits for the tenant's approvers (an unknown address becoming a draft user of
 * the tenant's area until then), and the answer is the same either way (`Requested`, no user id).
 */
export class ExternalInvitations {
  private readonly requests: OperationRequestsService;
  private readonly access: TenantAccess;

  constructor(
    private readonly context: AdminContext,
    private readonly mailer: Mailer = context.mailer,
  ) {
    this.access = tenantAccess(context);
    this.requests = new OperationRequestsService(context, mailer, this.access);
  }

  private get db() {
    return this.context.dataSource;
  }

  async invite(caller: ExternalCaller, tenantId: string, body: ExternalInvitation, language: Language, mode: InvitationMode): Promise<ExternalInvitationAnswer> {
    const call = await this.check(caller, tenantId, body, language);
    const items: ExternalInvitationResult[] = [];
    for (const invitee of body.users) {
      try {
        items.push(await this.inviteOne(call, invitee, mode));
      } catch (error) {
        items.push(this.failed(call, invitee, error));
      }
    }
    return { tenantId: call.tenant.id, tenantName: call.tenant.title, items };
  }

  /** One invitee: the roles at once for an account the application serves (InviteUsers), an operation request otherwise. */
  private async inviteOne(call: InvitationCall, invitee: Invitee, mode: InvitationMode): Promise<ExternalInvitationResult> {
    const found = await this.existing(invitee.email);
    const served = found ? await this.serves(call, found.id) : false;
    // Names are asked of every address the application does not serve, known or not: whether it
    // fails must not tell the application that an account exists.
    if (!served && (!invitee.firstName || !invitee.lastName)) throw new AppError('external.names_required', 400);
    if (served && mode === 'grant') return this.grantOne(call, invitee, found!);
    return this.requestOne(call, invitee, served ? found : undefined, found);
  }

  /** Whether the application serves the account: it holds one of its roles, and the application has not ended its access. */
  private async serves(call: InvitationCall, userId: string): Promise<boolean> {
    const applicationId = call.caller.application.id;
    return (await holdsApplicationRole(this.db, applicationId, userId)) && !(await isApplicationAccessBlocked(this.db, applicationId, userId));
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

  /** The call's tenant (never the Global one), roles (the application's, never one given through the hierarchy only) and distinct addresses. */
  private async check(caller: ExternalCaller, tenantId: string, body: ExternalInvitation, language: Language): Promise<InvitationCall> {
    if (tenantId === GLOBAL_TENANT_ID) throw new AppError('external.global_tenant', 400, {}, [{ field: 'tenantId', code: 'external.global_tenant' }]);
    const tenant = await visibleTenant(this.db, caller, tenantId);
    const roles = await resolveRoles(this.db, caller, body.roles, 'roles');
    for (const role of roles) {
      if (role.byHierarchy) throw new AppError('users.role_by_hierarchy', 400, {}, [{ field: 'roles', code: 'users.role_by_hierarchy' }]);
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
    return found ? findUserStateOf(this.db, found.id) : undefined;
  }

  /** A new user of the tenant's area, created in `em` by the application, a draft (pending approval) created for the tenant. */
  private async createInvitee(em: EntityManager, call: InvitationCall, invitee: Invitee): Promise<string> {
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
    await markInviteeCreated(em, user.id, call.tenant.id, call.caller.application.id);
    return user.id;
  }

  /** InviteUsers, an account the application serves: the roles added to its own membership of the tenant (created with the call's inheritance when missing). */
  private async grantOne(call: InvitationCall, invitee: Invitee, found: UserStateRow): Promise<ExternalInvitationResult> {
    const actor = applicationActor(call.caller, await applicationAuthority(this.db, call.caller.application.id, call.caller.userId));
    const change = await this.access.transaction((changes) =>
      changes.grant(actor, {
        identity: { type: 'User', id: found.id },
        tenant: { id: call.tenant.id, title: call.tenant.title, areaId: call.tenant.area_id },
        roleIds: call.roles.map((role) => role.id),
        newMembershipInheritable: call.isInheritable,
      }),
    );
    return result(invitee.email, { status: 'Granted', userId: found.id, rolesAdded: change.added.map((role) => role.name) });
  }

  /** The invitation mail of a user just created; a failure leaves the user and their roles, and says so. */
  async mailInvitation(call: InvitationCall, userId: string): Promise<boolean> {
    try {
      await sendInvitation(this.context, this.mailer, (await findUserStateOf(this.db, userId))!, systemLogActor(call.caller));
      return true;
    } catch (error) {
      this.context.logger.warn({ err: (error as Error).message, userId }, 'invitation of a user created through the external API failed');
      return false;
    }
  }

  /**
   * An operation request waiting for the tenant's approvers, for the roles (a new user is created as
   * a draft for the tenant first). A request sets the user's operation-request roles in the tenant
   * to exactly its list once approved, so the list keeps those the user already holds there, of
   * every application: the application adds, it never takes away another's. For an account the
   * application does not serve (`served` undefined), the answer says nothing of the account: no
   * user id, whether it existed or not.
   */
  private async requestOne(call: InvitationCall, invitee: Invitee, served: UserStateRow | undefined, found: UserStateRow | undefined): Promise<ExternalInvitationResult> {
    for (const role of call.roles) {
      const refusal = roleOfferRefusal('operationRequest', {
        id: role.id,
        name: role.name,
        applicationId: call.caller.application.id,
        byHierarchy: role.byHierarchy,
        operationRequestVisible: role.operationRequestVisibility,
        serviceManagerVisible: false,
      });
      if (refusal) throw new AppError(refusal.code, refusal.status, refusal.params ?? {}, [{ field: 'roles', code: refusal.code, params: refusal.params }]);
    }
    const userId = found?.id ?? (await this.db.transaction((em) => this.createInvitee(em, call, invitee)));
    const told = served ? { userId, created: false } : {};
    try {
      const outcome = await this.requests.createAdding(this.requestActor(call), {
        tenantId: call.tenant.id,
        identityType: 'User',
        identityId: userId,
        roles: call.roles.map((role) => role.id),
        isInheritable: call.isInheritable,
      });
      if (!outcome.request) return result(invitee.email, { status: 'Granted', ...told });
      return result(invitee.email, { status: 'Requested', ...told, operationRequestId: outcome.request.id });
    } catch (error) {
      // A new user stays (a draft the tenant's consultants see).
      return this.failed(call, invitee, error, told);
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
      authority: { kind: 'application', userId: caller.userId, applicationId: caller.application.id, roles: [], groupIds: [], areaIds: null },
    };
  }
}
