import { AppError } from '@gatehouse/core';
import type { Context, Middleware, Next } from 'koa';
import { callerOf } from './koa-admin-auth.js';

export { ENDPOINT_ROLES, SIGNED_IN, rolesAllow, type EndpointName } from '@gatehouse/contracts';
import { ENDPOINT_ROLES, SIGNED_IN, acceptsPortalToken, rolesAllow, type EndpointName } from '@gatehouse/contracts';

/** Who manages an account, by what it holds (core access/policy.ts mayManageIdentity). */
const RANK =
  'an account holding Identity roles other than User: Administrator and God (an AreaAdministrator account: also an AreaAdministrator of all its areas); a God account: God';
/** Who fills a group, by the tenant roles its members get (core access/policy.ts mayGrantRoles, mayChangeGroupMembers). */
const GROUP_ROLES = 'a group holding Identity application roles: Administrator and God; holding the God role: God';

/**
 * What each endpoint shows or lets a caller touch beyond the role check (for the README table);
 * endpoints not named here act on everything their roles allow. The areas a call reaches come from
 * the caller's roles that open that endpoint only (scope.ts): a read-only role widens reads only.
 */
export const ENDPOINT_SCOPE: Partial<Record<EndpointName, string>> = {
  'applications.homeInfo': "the caller's own applications",
  'applications.update': "the product's own applications (Identity, portal, console) keep their type",
  'applications.setStatus': 'never Stopped for the admin console',
  'applications.delete': "owners of the application only; never the product's own applications (Identity, portal, console)",
  'me.get': "the caller's own identity and roles",
  'notifications.active': "the caller's own notifications",
  'notifications.markRead': "the caller's own notifications",
  'notifications.delete': "the caller's own notifications",
  'notifications.deleteAll': "the caller's own notifications",
  'tasks.active': "the caller's own background processes",
  'jobs.dashboardLink': "a one-time code for the caller's browser, from the console's own token only (never a personal access token); the page it opens checks the roles again on every request",
  'areas.list': 'AreaAdministrator: their areas only',
  'users.list': 'AreaAdministrator: users of their areas',
  'users.get': 'AreaAdministrator: users of their areas',
  'users.create': 'AreaAdministrator: only into their areas',
  'users.update': `AreaAdministrator: users of their areas, only into their areas; ${RANK}; the previous address is told of an e-mail change`,
  'users.delete': `AreaAdministrator: users of their areas; ${RANK}; never oneself`,
  'users.invite': `AreaAdministrator: users of their areas; ${RANK}`,
  'users.changePassword': `AreaAdministrator: users of their areas; ${RANK}; never oneself; the password must be changed at the next sign-in`,
  'users.lock': `AreaAdministrator: users of their areas; ${RANK}; nobody locks their own account`,
  'users.unlock': `AreaAdministrator: users of their areas; ${RANK}; nobody unlocks their own account`,
  'users.factors': 'AreaAdministrator: users of their areas; names and dates, never a secret',
  'users.resetFactors': `AreaAdministrator: users of their areas; ${RANK}; never oneself (My security); the user is mailed, their sessions go on`,
  'users.groups': 'AreaAdministrator: users of their areas',
  'users.tenants': 'AreaAdministrator: users of their areas',
  'users.roles': 'AreaAdministrator: users of their areas',
  'users.grantRoles': 'Global tenant and Identity application roles: Administrator and God; the God role: God',
  'users.revokeRoles': 'revoking all access when some is inherited (hierarchy or group): Administrator and God; Global tenant and Identity application roles: Administrator and God',
  'users.export': 'AreaAdministrator: users of their areas',
  'users.bulkInsert': 'AreaAdministrator: rows only into their areas',
  'groups.list': 'AreaAdministrator: groups of their areas',
  'groups.get': 'AreaAdministrator: groups of their areas',
  'groups.create': 'AreaAdministrator: only into their areas',
  'groups.update': 'AreaAdministrator: groups of their areas; the Users group: God only',
  'groups.delete': 'AreaAdministrator: groups of their areas; the Users group: God only',
  'groups.members': 'AreaAdministrator: groups of their areas',
  'groups.addMember': `owners of the group, Administrator and God; AreaAdministrator: users of their areas; ${GROUP_ROLES}`,
  'groups.updateMember': `owners of the group, Administrator and God; making an Owner of ${GROUP_ROLES}`,
  'groups.removeMember': 'owners of the group, Administrator and God',
  'groups.tenants': 'AreaAdministrator: groups of their areas',
  'groups.addTenantRoles': 'AreaAdministrator: tenants of their areas; Global tenant and Identity application roles: Administrator and God; the God role and the Users group: God only',
  'groups.removeTenant': 'AreaAdministrator: tenants of their areas; Global tenant and Identity application roles: Administrator and God; the Users group: God only',
  'groups.template': 'AreaAdministrator: groups of their areas',
  'groups.bulkInsert': `owners of the group, Administrator and God; AreaAdministrator: users of their areas; ${GROUP_ROLES}`,
  'tenants.list': 'AreaAdministrator: tenants of their areas; never the Global tenant',
  'tenants.export': 'AreaAdministrator: tenants of their areas; never the Global tenant',
  'tenants.get': 'AreaAdministrator: tenants of their areas',
  'tenants.hierarchyTree': 'AreaAdministrator: tenants of their areas',
  'tenants.update': 'never the Global tenant',
  'tenants.delete': 'tenants without children; never the Global tenant',
  'tenants.changeParent': 'never under itself or a descendant; never the Global tenant',
  'tenants.memberIdentity': 'AreaAdministrator: tenants of their areas',
  'tenants.addMember': `the Global tenant: Administrator and God; users: ${RANK}; groups: ${GROUP_ROLES}; the Users group: God only`,
  'tenants.revokeAccess': `roles held in the ancestors (includeParent): Administrator and God; Identity application roles: Administrator and God; the God role: God; users: ${RANK}; the Users group: God only`,
  'logs.authentication': "AreaAdministrator: the rows of their areas' users",
  'logs.authenticationExport': "AreaAdministrator: the rows of their areas' users; at most 100,000 rows",
  'logs.system': "AreaAdministrator: the changes made by their areas' users or in their areas' tenants",
  'logs.systemExport': "AreaAdministrator: the changes made by their areas' users or in their areas' tenants; at most 100,000 rows",
  'logs.session': "AreaAdministrator: the sessions of their areas' users",
  'logs.externalApiAccess': "AreaAdministrator: the calls of their areas' users",
  'appRoles.update': "the Identity application's own roles (God, Administrator…) keep their names",
  'appRoles.delete': "takes the role from every user and group holding it; never the Identity application's own roles",
  'operationRequests.list': 'IdentityConsultant: the tenants where they hold it (own, through a group, inherited or in the Global tenant); onlyUser: the caller\'s own requests',
  'operationRequests.create': 'IdentityConsultant: the tenants where they hold it (own, through a group, inherited or in the Global tenant); operation-request roles only, never God or Administrator, never the Users group; autoApprove: approvers only',
  'operationRequests.permissions': 'IdentityConsultant: the tenants where they hold it (own, through a group, inherited or in the Global tenant)',
  'operationRequests.createPermissions': 'IdentityConsultant: the tenants where they hold it (own, through a group, inherited or in the Global tenant); operation-request roles only, never God or Administrator, never the Users group; autoApprove: approvers only',
  'operationRequests.edit': 'the requester only, while the request waits',
  'operationRequests.approve': 'approvers: Administrator, God, or a consultant of the tenant of an approving internal category; never the request\'s own requester',
  'operationRequests.reject': 'approvers: Administrator, God, or a consultant of the tenant of an approving internal category; never the request\'s own requester',
  'operationRequests.cancel': 'the requester only, while the request waits',
  'operationRequests.approveInBulk': 'as approve, for each request; at most 100',
  'operationRequests.rejectInBulk': 'as reject, for each request; at most 100',
  'operationRequests.history': 'IdentityConsultant: the tenants where they hold it (own, through a group, inherited or in the Global tenant)',
  'operationRequests.bulkInsert':
    'IdentityConsultant: the tenants where they hold it (404 for any other), checked again when the job runs; each user\'s rows make one request, never approved by the upload; operation-request roles only',
  'operationRequests.fullBulkInsert':
    'IdentityConsultant: the tenants where they hold it (404 for any other), checked again when the job runs; new users as drafts with the My Clients rules, existing users reused; each user\'s rows make one request, never approved by the upload',
  'clients.areas': 'IdentityConsultant (anywhere): the areas but the system ones, for the users they create',
  'clients.tenants': 'IdentityConsultant: the tenants where they hold it (own, through a group, inherited or in the Global tenant); never the Global tenant itself',
  'clients.users': "IdentityConsultant: the tenants where they hold it; 404 for any other tenant",
  'clients.create': 'IdentityConsultant: the tenants where they hold it; a draft user of a non-system area, not yet a member of the tenant',
  'clients.update': "IdentityConsultant: the users of the tenants where they hold it, none holding an Identity role beyond User (administrators: any but God's, God: any)",
  'clients.invite': "IdentityConsultant: the users of the tenants where they hold it, none holding an Identity role beyond User; never a draft",
  'serviceManager.tenants': 'ServiceManager: the tenants where they hold it (own, through a group, inherited or in the Global tenant); never the Global tenant itself',
  'serviceManager.users': 'ServiceManager: the tenants where they hold it; 404 for any other tenant; never drafts',
  'serviceManager.permissions': "ServiceManager: the users of the tenants where they hold it; roles of service-manager visibility and the user's other roles there, each with why the caller may not change it",
  'serviceManager.setPermissions': "ServiceManager: the users of the tenants where they hold it (own or inherited members), none holding Administrator or God (administrators: any but God's); roles of service-manager visibility only, an Identity role only when flagged, never God",
  'keys.list': "the caller's own tokens",
  'keys.applications': 'the applications in which the caller holds a role',
  'keys.create': 'for the caller, for an application in which they hold a role; never with a personal access token; never while signed in as the user',
  'keys.delete': "the caller's own tokens; God: anyone's; never while signed in as the user",
  'dashboard.identifyAsEnabled': 'enabled for God only, where the deployment allows it',
  'dashboard.identifyAs': 'where the deployment allows it; with a console session (never a personal access token), not while already signed in as someone; never oneself, a God user, a locked or pending account',
};

/** Middleware returned by requireRole, carrying the endpoint it guards for tests that walk the routes. */
export type RoleGuard = Middleware & { readonly endpoint: EndpointName };


/** Roles of `roles` that open the endpoint (none for an endpoint open to every signed-in user). */
export function rolesGranting(endpoint: EndpointName, roles: readonly string[]): string[] {
  const allowed = ENDPOINT_ROLES[endpoint] as readonly string[] | typeof SIGNED_IN;
  return allowed === SIGNED_IN ? [] : roles.filter((role) => allowed.includes(role));
}

/** Answers 403 (errors.forbidden) unless the caller holds one of the endpoint's roles. */
export function requireRole(endpoint: EndpointName): RoleGuard {
  const openToEveryone = ENDPOINT_ROLES[endpoint] === SIGNED_IN;
  const guard = async (ctx: Context, next: Next) => {
    const caller = callerOf(ctx);
    // Administration needs the admin console's token (or a personal access token): a portal
    // session token qualifies only for the endpoints the portal itself calls.
    const tokenRefused = caller.kind === 'session_token' && !acceptsPortalToken(endpoint);
    if (!openToEveryone && (tokenRefused || !rolesAllow(endpoint, caller.roles))) {
      throw new AppError('errors.forbidden', 403);
    }
    // The caller's scope (scope.ts) comes from the roles that open this endpoint.
    ctx.state.endpoint = endpoint;
    await next();
  };
  return Object.assign(guard, { endpoint });
}
