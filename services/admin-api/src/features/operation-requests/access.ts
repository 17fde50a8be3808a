import { isApproverCategory } from '@gatehouse/contracts';
import { AppError, GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, resolveEffectiveRoles, type AppContext } from '@gatehouse/core';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { CallerScope } from '../../auth/scope.js';
import { findCallerProfile } from './repository.js';

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
}

export async function requestActorOf(context: AppContext, caller: Caller, language: string): Promise<RequestActor> {
  const isGod = caller.roles.includes('God');
  const isAdministrator = isGod || caller.roles.includes('Administrator');
  const [profile, roles] = await Promise.all([
    findCallerProfile(context.dataSource, caller.userId),
    isAdministrator ? Promise.resolve([]) : resolveEffectiveRoles(context.dataSource, caller.userId, { applicationId: IDENTITY_APPLICATION_ID }),
  ]);
  const consulted = roles.filter((role) => role.roleName === 'IdentityConsultant').map((role) => role.tenantId);
  return {
    userId: caller.userId,
    displayName: profile.displayName,
    email: profile.email,
    userName: profile.userName,
    language,
    isAdministrator,
    isGod,
    approverCategory: isApproverCategory(profile.category),
    consultsAll: isAdministrator || consulted.includes(GLOBAL_TENANT_ID),
    consultedTenantIds: new Set(consulted),
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

/** The scope the users' and groups' grant rules see for an actor: every area, its administrator rank. */
export function grantScope(actor: RequestActor): CallerScope {
  return { areaIds: null, isAdministrator: actor.isAdministrator, isGod: actor.isGod };
}
