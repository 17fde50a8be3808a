// Who may do what to whom: the product's authority rules, as pure functions of facts the callers
// load (access/facts.ts). Every grant, revocation, lock, invitation and approval asks one of them;
// nothing else decides. The rules are listed, with the tests that prove them, in the README's
// Security section ("Authority").
import type { ErrorCode } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, type IdentityType } from '../domain/constants.js';

/** The ways a change of access reaches the product: each has its own reach and its own roles. */
export type AccessPath =
  /** The console's user page, tenant page (a user) and the user permissions import. */
  | 'users'
  /** The console's group page, tenant page (a group) and the group permissions import. */
  | 'groups'
  /** An operation request, applied when an approver approves it. */
  | 'operationRequest'
  /** The portal's Service Manager screen. */
  | 'serviceManager'
  /** The external API, on behalf of a business application. */
  | 'external'
  /** The bootstrap file, applied by the product itself at start. */
  | 'bootstrap';

/** An Identity application role held in a tenant (own, through a group, inherited or in the Global tenant). */
export interface HeldRole {
  roleName: string;
  tenantId: string;
  /** The tenant's area; null for the Global tenant and tenants without one. */
  areaId: string | null;
}

/** Who asks, with everything the rules look at. */
export interface Authority {
  kind: 'user' | 'application' | 'system';
  /** The signed-in user, or the owner of the personal access token an application calls with; null otherwise. */
  userId: string | null;
  /** The calling business application (the external API). */
  applicationId: string | null;
  /** The Identity application roles the user holds, where. */
  roles: readonly HeldRole[];
  /** The groups the user belongs to. */
  groupIds: readonly string[];
  /** The areas this action reaches (from the roles that open it); null: every area. */
  areaIds: readonly string[] | null;
}

/** Whom a change is about: a user or a group, with the Identity roles they hold everywhere. */
export interface Target {
  type: IdentityType;
  id: string;
  /** The user's or group's area. */
  areaId: string | null;
  /** Identity application roles: a user's effective ones, a group's own grants. */
  roles: readonly HeldRole[];
  /** The Users group: every user's base roles. */
  isUsersGroup?: boolean;
}

/** A role as the rules see it. */
export interface RoleFacts {
  id: string;
  name: string;
  applicationId: string;
  /** Given only through the hierarchy: never picked directly. */
  byHierarchy: boolean;
  /** May be asked for in an operation request. */
  operationRequestVisible: boolean;
  /** May be given on the Service Manager screen. */
  serviceManagerVisible: boolean;
}

export interface Refusal {
  ok: false;
  code: ErrorCode;
  status: 400 | 403 | 404 | 409;
  params?: Record<string, unknown>;
  /** The body field the refusal is about, when there is one. */
  field?: string;
}
export type Decision = { ok: true } | Refusal;

const ALLOW: Decision = { ok: true };
const refuse = (code: ErrorCode, status: Refusal['status'], extra: Omit<Refusal, 'ok' | 'code' | 'status'> = {}): Refusal => ({ ok: false, code, status, ...extra });

/** Identity application roles no operation request, service manager or application ever gives. */
const NEVER_DELEGATED = ['God', 'Administrator'];

export const isGod = (authority: Pick<Authority, 'roles'>): boolean => authority.roles.some((role) => role.roleName === 'God');
export const isAdministrator = (authority: Pick<Authority, 'roles'>): boolean =>
  authority.roles.some((role) => role.roleName === 'God' || role.roleName === 'Administrator');

/** Whether the action's reach covers an area (a record without an area: every-area callers only). */
export function reaches(authority: Pick<Authority, 'areaIds'>, areaId: string | null | undefined): boolean {
  return authority.areaIds === null || (!!areaId && authority.areaIds.includes(areaId));
}

/**
 * Whether `authority` may manage the account or group `target` (change it, lock it, set its
 * password, give or take its roles): nobody manages someone who outranks them. A God target takes
 * God. Any other Identity role beyond User takes an administrator, but an AreaAdministrator target
 * is also managed by a caller whose reach covers every area where the target holds that role. A
 * group holding Identity roles takes an administrator, one holding God takes God. A business
 * application manages only accounts holding no Identity role beyond User.
 */
export function mayManageIdentity(authority: Authority, target: Target): Decision {
  if (authority.kind === 'system') return ALLOW;
  const held = target.roles;
  const holds = (name: string) => held.some((role) => role.roleName === name);
  if (authority.kind === 'application') {
    return held.some((role) => role.roleName !== 'User') ? refuse('users.manage_admin_only', 403) : ALLOW;
  }
  if (holds('God') && !isGod(authority)) return refuse('users.manage_god_only', 403);
  if (isAdministrator(authority)) return ALLOW;
  if (target.type === 'Group') return held.length ? refuse('users.manage_admin_only', 403) : ALLOW;
  if (held.some((role) => role.roleName !== 'User' && role.roleName !== 'AreaAdministrator')) return refuse('users.manage_admin_only', 403);
  const areaAdministration = held.filter((role) => role.roleName === 'AreaAdministrator');
  if (areaAdministration.length === 0 || authority.areaIds === null) return ALLOW;
  if (areaAdministration.some((role) => role.tenantId === GLOBAL_TENANT_ID || !reaches(authority, role.areaId))) return refuse('users.manage_admin_only', 403);
  return ALLOW;
}

/**
 * Nobody changes their own roles, nor those of a group they belong to, through any path: someone
 * else who may grant them does (the product's four eyes). The bootstrap file is the product's own.
 */
function ownAccess(authority: Authority, target: Target): Refusal | undefined {
  if (authority.kind === 'system' || !authority.userId) return undefined;
  if (target.type === 'User' && target.id === authority.userId) return refuse('access.own_roles', 403);
  if (target.type === 'Group' && authority.groupIds.includes(target.id)) return refuse('access.own_group_roles', 403);
  return undefined;
}

/** Whether a role may be given or taken on this path at all, whoever asks. */
function roleOnPath(path: AccessPath, role: RoleFacts, authority: Authority): Refusal | undefined {
  const params = { name: role.name };
  const identityRole = role.applicationId === IDENTITY_APPLICATION_ID;
  switch (path) {
    case 'operationRequest':
      if (!role.operationRequestVisible || (identityRole && NEVER_DELEGATED.includes(role.name))) {
        return refuse('operationRequests.role_not_requestable', 400, { params, field: 'roles' });
      }
      return undefined;
    case 'serviceManager':
      if (!role.serviceManagerVisible || (identityRole && NEVER_DELEGATED.includes(role.name))) {
        return refuse('serviceManager.role_not_visible', 400, { params, field: 'roles' });
      }
      return undefined;
    case 'external':
      if (role.applicationId !== authority.applicationId || (identityRole && NEVER_DELEGATED.includes(role.name))) {
        return refuse('external.role_not_found', 400, { params: { role: role.name }, field: 'roles' });
      }
      return undefined;
    default:
      return undefined;
  }
}

/** How each path words the refusals of the administration roles and of rank. */
const PATH_CODES: Record<AccessPath, { global: ErrorCode; identity: ErrorCode; god: ErrorCode; outranks?: ErrorCode }> = {
  users: { global: 'users.global_tenant_admin_only', identity: 'users.identity_roles_admin_only', god: 'users.god_role_god_only' },
  groups: { global: 'groups.global_forbidden', identity: 'groups.identity_roles_forbidden', god: 'groups.god_role_forbidden' },
  operationRequest: { global: 'access.global_tenant_delegated', identity: 'users.identity_roles_admin_only', god: 'users.god_role_god_only' },
  serviceManager: { global: 'access.global_tenant_delegated', identity: 'users.identity_roles_admin_only', god: 'users.god_role_god_only', outranks: 'serviceManager.target_outranks' },
  external: { global: 'access.global_tenant_delegated', identity: 'users.identity_roles_admin_only', god: 'users.god_role_god_only' },
  bootstrap: { global: 'users.global_tenant_admin_only', identity: 'users.identity_roles_admin_only', god: 'users.god_role_god_only' },
};

/** Paths on which someone other than an administrator may be given roles of their own choosing (delegated). */
const DELEGATED: readonly AccessPath[] = ['operationRequest', 'serviceManager', 'external'];

/**
 * The Global tenant and the Identity application's roles make administrators: on the console's
 * paths only administrators give or take them, and the God role only God. The delegated paths
 * (requests, service managers, applications) never reach the Global tenant; the Identity roles
 * they may give are those flagged for them (never God or Administrator, see roleOnPath).
 */
function administrationRoles(path: AccessPath, authority: Authority, tenantIds: readonly string[], roles: readonly RoleFacts[], action: 'grant' | 'revoke' = 'grant'): Refusal | undefined {
  const codes = PATH_CODES[path];
  const global = tenantIds.includes(GLOBAL_TENANT_ID);
  // An application takes its own roles away wherever they were given, the Global tenant included.
  const ownRolesTaken = action === 'revoke' && path === 'external';
  if (global && !ownRolesTaken && DELEGATED.includes(path)) return refuse(codes.global, 400, { field: 'tenantId' });
  if (global && !ownRolesTaken && !isAdministrator(authority)) return refuse(codes.global, 403, { field: 'tenantId' });
  const identityRoles = roles.filter((role) => role.applicationId === IDENTITY_APPLICATION_ID);
  if (identityRoles.length && !DELEGATED.includes(path) && !isAdministrator(authority)) return refuse(codes.identity, 403, { field: 'roleIds' });
  if (identityRoles.some((role) => role.name === 'God') && !isGod(authority)) return refuse(codes.god, 403, { field: 'roleIds' });
  return undefined;
}

/**
 * Why a role can never be given on this path, whoever asks (given only by the hierarchy; not one
 * the path offers, never God or Administrator by delegation), in the path's words; undefined when
 * it may be. What a request checks as it is made, before an approver decides.
 */
export function roleOfferRefusal(path: AccessPath, role: RoleFacts, authority: Authority = SYSTEM_LIKE): Refusal | undefined {
  const onPath = roleOnPath(path, role, authority);
  if (onPath) return onPath;
  if (role.byHierarchy) return refuse(path === 'operationRequest' ? 'operationRequests.role_by_hierarchy' : 'users.role_by_hierarchy', 400, { params: { name: role.name }, field: path === 'operationRequest' ? 'roles' : 'roleIds' });
  return undefined;
}

/** Whoever asks, as roleOfferRefusal's default: no application of its own. */
const SYSTEM_LIKE: Authority = { kind: 'user', userId: null, applicationId: null, roles: [], groupIds: [], areaIds: null };

/**
 * Whether `authority` could give `role` on this path at all, in a tenant of its reach other than
 * the Global one, to someone it may manage: what role pickers and import templates offer.
 */
export function mayOfferRole(authority: Authority, path: AccessPath, role: RoleFacts): boolean {
  if (authority.kind === 'system') return true;
  return !role.byHierarchy && !roleOnPath(path, role, authority) && !administrationRoles(path, authority, [], [role]);
}

/** What a grant or a revocation is about. */
export interface RoleChangeFacts {
  path: AccessPath;
  target: Target;
  /** The tenants whose memberships change. */
  tenants: ReadonlyArray<{ id: string; areaId: string | null }>;
  roles: readonly RoleFacts[];
}

/** The rules a grant and a revocation share. */
function mayChangeRoles(authority: Authority, change: RoleChangeFacts, action: 'grant' | 'revoke'): Decision {
  if (authority.kind === 'system') return ALLOW;
  const own = ownAccess(authority, change.target);
  if (own) return own;
  if (!reaches(authority, change.target.areaId)) return refuse('errors.not_found', 404);
  if (change.target.isUsersGroup && !isGod(authority)) return refuse('groups.users_group_locked', 403);
  for (const role of change.roles) {
    const refused = roleOnPath(change.path, role, authority);
    if (refused) return refused;
  }
  const tenantIds = change.tenants.map((tenant) => tenant.id);
  const administration = administrationRoles(change.path, authority, tenantIds, change.roles, action);
  if (administration) return administration;
  if (change.tenants.some((tenant) => tenant.id !== GLOBAL_TENANT_ID && !reaches(authority, tenant.areaId))) return refuse('access.tenant_out_of_reach', 404, { field: 'tenantId' });
  const rank = mayManageIdentity(authority, change.target);
  const outranks = PATH_CODES[change.path].outranks;
  if (!rank.ok) return outranks ? refuse(outranks, 403) : rank;
  return ALLOW;
}

/**
 * Whether `authority` may give `target` these roles in these tenants on this path: never their
 * own or their group's; roles the path offers (requests: requestable roles; service managers:
 * their visible roles; applications: their own), never God or Administrator by delegation; the
 * Global tenant and Identity roles for administrators, God for God; tenants and targets within the
 * action's reach; targets the caller may manage.
 */
export function mayGrantRoles(authority: Authority, change: RoleChangeFacts): Decision {
  if (authority.kind !== 'system') {
    const hierarchyOnly = change.roles.find((role) => role.byHierarchy);
    if (hierarchyOnly) return refuse('users.role_by_hierarchy', 400, { params: { name: hierarchyOnly.name }, field: 'roleIds' });
  }
  return mayChangeRoles(authority, change, 'grant');
}

/**
 * Whether `authority` may take these roles from `target`: what giving them takes (but an
 * application takes its own roles away in the Global tenant too). Taking away access the target
 * also holds by hierarchy (`inherited`) takes an administrator.
 */
export function mayRevokeRoles(authority: Authority, change: RoleChangeFacts & { inherited?: boolean }): Decision {
  if (change.inherited && authority.kind !== 'system' && !isAdministrator(authority)) return refuse('users.only_admin_revoke', 403);
  return mayChangeRoles(authority, change, 'revoke');
}

/**
 * Adding a member to a group, or making one an Owner (who then adds members), hands out the
 * group's roles: what granting them takes. A group holding Identity roles is filled by
 * administrators, one holding God by God; and nobody adds themself to a group that holds roles.
 */
export function mayChangeGroupMembers(authority: Authority, group: Target & { holdsRoles: boolean }, member?: Target): Decision {
  if (authority.kind === 'system') return ALLOW;
  if (!reaches(authority, group.areaId)) return refuse('errors.not_found', 404);
  if (member && !reaches(authority, member.areaId)) return refuse('errors.not_found', 404);
  const holds = (name: string) => group.roles.some((role) => role.roleName === name);
  if (group.roles.length && !isAdministrator(authority)) return refuse('groups.identity_roles_forbidden', 403);
  if (holds('God') && !isGod(authority)) return refuse('groups.god_role_forbidden', 403);
  if (member && member.type === 'User' && member.id === authority.userId && group.holdsRoles) return refuse('access.own_group_roles', 403);
  return ALLOW;
}

/** Locking or unlocking an account: never one's own; only someone who may manage it. */
export function mayLock(authority: Authority, target: Target): Decision {
  if (authority.kind !== 'system' && authority.userId === target.id) return refuse('users.cannot_lock_self', 400);
  if (!reaches(authority, target.areaId) && authority.kind === 'user') return refuse('errors.not_found', 404);
  return mayManageIdentity(authority, target);
}

/**
 * Resetting an account's sign-in factors (passkeys, authenticator app, recovery codes), a console
 * action: never one's own (the user changes theirs in "My security", after confirming who they
 * are); only a user of the caller's reach; only someone who may manage the account. No
 * application resets anybody's factors.
 */
export function mayResetFactors(authority: Authority, target: Target): Decision {
  if (authority.kind === 'system') return ALLOW;
  if (authority.kind === 'application') return refuse('errors.forbidden', 403);
  if (target.type !== 'User') return refuse('errors.not_found', 404);
  if (authority.userId === target.id) return refuse('users.cannot_reset_own_factors', 400);
  if (!reaches(authority, target.areaId)) return refuse('errors.not_found', 404);
  return mayManageIdentity(authority, target);
}

/** What an application's LockUser does to an account, when it may act at all. */
export type ApplicationLockEffect = 'account' | 'application';

/**
 * An application's LockUser: it acts only on users inside its own grants, never on its token's
 * owner nor on an account that outranks an application. It locks the account itself only when it
 * created the account and the account holds nothing else; otherwise it ends the account's access
 * to that application alone.
 */
export function applicationLockEffect(
  authority: Authority,
  target: Target & { servedByApplication: boolean; createdByApplication: boolean; holdsElsewhere: boolean },
): Decision & { effect?: ApplicationLockEffect } {
  if (!target.servedByApplication) return refuse('external.user_not_found', 404);
  if (authority.userId === target.id) return refuse('external.lock_self', 400);
  const rank = mayManageIdentity(authority, target);
  if (!rank.ok) return rank;
  return { ok: true, effect: target.createdByApplication && !target.holdsElsewhere ? 'account' : 'application' };
}

/**
 * What a consultant (My Clients) may change of a user's identity (names, e-mail, area) or send an
 * invitation to: only users who hold no Identity role beyond User, nothing outside the tenants the
 * consultant serves, and who have never signed in; administrators any user they may manage.
 */
export function mayChangeClientIdentity(
  authority: Authority,
  target: Target & { holdsOutsideConsultedTenants: boolean; hasSignedIn: boolean },
): Decision {
  if (authority.kind === 'system') return ALLOW;
  if (isAdministrator(authority)) return mayManageIdentity(authority, target);
  if (target.roles.some((role) => role.roleName !== 'User')) return refuse('users.manage_admin_only', 403);
  if (target.holdsOutsideConsultedTenants || target.hasSignedIn) return refuse('clients.identity_owned_elsewhere', 403);
  return ALLOW;
}

/** The request an approver decides, with what the four-eyes rule looks at. */
export interface RequestFacts {
  tenantId: string;
  requesterId: string | null;
  target: Pick<Target, 'type' | 'id'>;
}

/**
 * Whether `authority` may approve or reject an operation request: an administrator, or a
 * consultant of the tenant whose internal category approves; never the request's requester, nor
 * the person (or a member of the group) the request gives roles to.
 */
export function mayApproveRequest(authority: Authority & { approverCategory: boolean; consults: (tenantId: string) => boolean }, request: RequestFacts): Decision {
  if (!(isAdministrator(authority) || (authority.approverCategory && authority.consults(request.tenantId)))) return refuse('operationRequests.not_approver', 403);
  if (request.requesterId && request.requesterId === authority.userId) return refuse('operationRequests.own_request', 403);
  const own = ownAccess(authority, { ...request.target, areaId: null, roles: [] });
  if (own) return refuse('access.own_request_target', 403);
  return ALLOW;
}

/** The product's own applications: the Identity catalogue entry, the portal and the console. */
export interface ApplicationFacts {
  id: string;
  isProductOwn: boolean;
  ownerIds: readonly string[];
}

/** A change to an application as the rules see it. */
export interface ApplicationChange {
  kind: 'update' | 'delete' | 'status' | 'secret';
  /** update: the fields the change sets to a new value. */
  fields?: readonly string[];
  /** status: the new status. */
  status?: string;
}

/** Fields (as the API names them) of the product's own applications that follow PUBLIC_URL and the product, never an API call. */
const PRODUCT_OWN_FIXED = [
  'redirectUris', 'postLogoutRedirectUris', 'type', 'grantTypes', 'deviceFlow', 'backchannelLogoutUri',
  // How the product's SPAs sign in is part of the product: a switch here would lock everyone out.
  'requirePar', 'requireSignedRequestObject', 'clientAuthentication', 'jwks', 'jwksUri', 'fapi2', 'tokenExchangeAudiences',
];

/**
 * Whether `authority` may change an application: administrators; the product's own applications
 * keep their addresses, type and grants (they follow PUBLIC_URL) and stay enabled; only an owner deletes an
 * application, and never one of the product's own; the console is never stopped.
 */
export function mayEditApplication(authority: Authority, application: ApplicationFacts, change: ApplicationChange): Decision {
  if (authority.kind === 'system') return ALLOW;
  if (!isAdministrator(authority)) return refuse('errors.forbidden', 403);
  if (change.kind === 'update' && application.isProductOwn) {
    // Disabled, one of them would leave nobody able to sign in to enable it again.
    if (change.fields?.includes('enabled')) return refuse('applications.product_own_enabled', 409, { field: 'enabled' });
    const fixed = (change.fields ?? []).find((field) => PRODUCT_OWN_FIXED.includes(field));
    if (fixed) return refuse('applications.product_own_fixed', 400, { field: fixed, params: { field: fixed } });
  }
  if (change.kind === 'delete') {
    if (application.isProductOwn) return refuse(application.id === IDENTITY_APPLICATION_ID ? 'applications.identity_undeletable' : 'applications.system_undeletable', 409);
    if (!authority.userId || !application.ownerIds.includes(authority.userId)) return refuse('applications.not_owner', 403);
  }
  return ALLOW;
}
