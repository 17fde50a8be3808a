import { isApproverCategory } from '@gatehouse/contracts';
import { AppError, GLOBAL_TENANT_ID, type AppContext } from '@gatehouse/core';
import { enforce, isAdministrator, isGod, mayApproveRequest, type AccessActor, type Authority, type Decision } from '@gatehouse/core/access';
import { callerAuthority } from '../../access.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { Queryable } from '../../db.js';
import { findCallerProfile, type RequestRow } from './repository.js';

/**
 * Who handles operation requests, worked out once per call: administrators (Administrator or God)
 * consult for every tenant; anyone else for the tenants where they hold IdentityConsultant
 * effectively (own, through a group, inherited from an ancestor, or in the Global tenant: every
 * tenant). The tenants come from the database, never from the token, so a consultant of one
 * tenant who is a service manager of another reaches the first only.
 */
export interface RequestActor {
  /** Null for an application asking through the external API with its own credentials: no user asks. */
  userId: string | null;
  displayName: string;
  email: string | null;
  userName: string | null;
  /** The language of the call, for messages written into answers and records. */
  language: string;
  isAdministrator: boolean;
  isGod: boolean;
  /** Whether the internal category is an approver's. */
  approverCategory: boolean;
  /** Every tenant (administrators, or IdentityConsultant held in the Global tenant). */
  consultsAll: boolean;
  consultedTenantIds: ReadonlySet<string>;
  /** The actor as the rules of tenant access see them (every area: requests are bounded by tenant instead). */
  authority: Authority;
}

export async function requestActorOf(context: AppContext, caller: Caller, language: string): Promise<RequestActor> {
  const [profile, authority] = await Promise.all([findCallerProfile(context.dataSource, caller.userId), callerAuthority(context.dataSource, caller, { areaIds: null })]);
  // The directory as it is now (a role taken away since counts at once), of the roles the token carries.
  const administrator = isAdministrator(authority);
  const consulted = authority.roles.filter((role) => role.roleName === 'IdentityConsultant').map((role) => role.tenantId);
  return {
    userId: caller.userId,
    displayName: profile.displayName,
    email: profile.email,
    userName: profile.userName,
    language,
    isAdministrator: administrator,
    isGod: isGod(authority),
    approverCategory: isApproverCategory(profile.category),
    consultsAll: administrator || consulted.includes(GLOBAL_TENANT_ID),
    consultedTenantIds: new Set(consulted),
    authority,
  };
}

/** Whether the actor consults for the tenant (sees and creates its requests). */
export function consults(actor: RequestActor, tenantId: string): boolean {
  return actor.consultsAll || actor.consultedTenantIds.has(tenantId);
}

/** Whether the actor may approve (or reject, or auto-approve) requests on the tenant. */
export function mayApprove(actor: RequestActor, tenantId: string): boolean {
  return actor.isAdministrator || (actor.approverCategory && consults(actor, tenantId));
}

/** The tenants whose requests the actor lists (null: every tenant). */
export function listedTenants(actor: RequestActor): string[] | null {
  return actor.consultsAll ? null : [...actor.consultedTenantIds];
}

export function assertConsults(actor: RequestActor, tenantId: string): void {
  if (!consults(actor, tenantId)) throw new AppError('operationRequests.tenant_forbidden', 403);
}

/**
 * Whether the actor may approve or reject the request (tenant access): an administrator or an
 * approving consultant of its tenant, never its requester, nor the person or a member of the group
 * it gives roles to.
 */
export function mayDecide(actor: RequestActor, row: Pick<RequestRow, 'tenant_id' | 'created_by_id' | 'identity_type' | 'identity_id'>): Decision {
  return mayApproveRequest(
    { ...actor.authority, approverCategory: actor.approverCategory, consults: (tenantId) => consults(actor, tenantId) },
    { tenantId: row.tenant_id, requesterId: row.created_by_id, target: { type: row.identity_type, id: row.identity_id } },
  );
}

export function assertMayDecide(actor: RequestActor, row: Pick<RequestRow, 'tenant_id' | 'created_by_id' | 'identity_type' | 'identity_id'>): void {
  enforce(mayDecide(actor, row));
}

/** The actor applying a request, as tenant access records them. */
export function approverActor(actor: RequestActor, requestId: string): AccessActor {
  return { authority: actor.authority, path: 'operationRequest', log: { userId: actor.userId, userName: actor.userName }, origin: { operationRequestId: requestId } };
}
