import type { IdentityRole } from '../domain.js';

/** Any signed-in user, with any kind of token (the home launcher). */
export const SIGNED_IN = 'signed-in';

/** Full administration. God is the superset role: whatever an Administrator may do, God may too. */
const ADMIN = ['Administrator', 'God'] as const satisfies readonly IdentityRole[];
/** Who manages users and groups: administrators, and area administrators within their areas. */
const MANAGE_USERS = [...ADMIN, 'AreaAdministrator'] as const satisfies readonly IdentityRole[];
/** Who reads users and groups: the managers above plus the read-only TenantAdministrator. */
const READ_USERS = [...MANAGE_USERS, 'TenantAdministrator'] as const satisfies readonly IdentityRole[];
/** Who grants and revokes application roles (the role-access switches). */
const GRANT_ROLES = [...ADMIN, 'Manager'] as const satisfies readonly IdentityRole[];
/** Who handles operation requests: administrators, and consultants in their tenants. */
const CONSULT = [...ADMIN, 'IdentityConsultant'] as const satisfies readonly IdentityRole[];

/**
 * The one place where each admin endpoint's allowed roles are written: endpoint name → the
 * roles of the Identity application of which the caller must hold at least one. Every admin route
 * names its entry as its contract's `endpoint`, so a test can walk the whole table. What a caller then
 * sees is narrowed by {@link ENDPOINT_SCOPE}: an AreaAdministrator only their areas' users and
 * groups. The README's "Admin API permissions" table is generated from these two objects.
 */
export const ENDPOINT_ROLES = {
  'applications.homeInfo': SIGNED_IN,
  'applications.icon': SIGNED_IN,
  'applications.roles': [...READ_USERS, 'Manager'],
  // The applications themselves: administrators manage them (deleting one also takes being its owner); the read-only TenantAdministrator reads them.
  'applications.list': [...ADMIN, 'TenantAdministrator'],
  'applications.get': [...ADMIN, 'TenantAdministrator'],
  'applications.create': ADMIN,
  'applications.update': ADMIN,
  'applications.setStatus': ADMIN,
  'applications.delete': ADMIN,
  'applications.regenerateSecret': ADMIN,
  'applications.addOwner': ADMIN,
  'applications.removeOwner': ADMIN,
  // SAML applications: their settings are read like the application, changed and imported by administrators.
  'applications.getSaml': [...ADMIN, 'TenantAdministrator'],
  'applications.setSaml': ADMIN,
  'applications.readSamlMetadata': ADMIN,
  // Webhook endpoints: administrators register them and follow their deliveries.
  'webhooks.list': ADMIN,
  'webhooks.get': ADMIN,
  'webhooks.create': ADMIN,
  'webhooks.update': ADMIN,
  'webhooks.delete': ADMIN,
  'webhooks.rotateSecret': ADMIN,
  'webhooks.deliveries': ADMIN,
  'webhooks.resend': ADMIN,
  'scimTokens.list': ADMIN,
  'scimTokens.create': ADMIN,
  'scimTokens.delete': ADMIN,

  'me.get': SIGNED_IN,
  // The caller's own notifications and running processes (the console's flyout and toasts).
  'notifications.active': SIGNED_IN,
  'notifications.markRead': SIGNED_IN,
  'notifications.delete': SIGNED_IN,
  'notifications.deleteAll': SIGNED_IN,
  'tasks.active': SIGNED_IN,
  // A file a background job of the caller produced (only its owner gets it).
  'filestorage.downloadExcel': SIGNED_IN,
  'dashboard.base': [...ADMIN, 'TenantAdministrator'],
  // The dashboard's usage reports: whoever sees its count tiles.
  'dashboard.loginLastHours': [...ADMIN, 'TenantAdministrator'],
  'dashboard.adminPerApp': [...ADMIN, 'TenantAdministrator'],
  'dashboard.globalAdminPerAreas': [...ADMIN, 'TenantAdministrator'],
  'dashboard.connectedPerApp': [...ADMIN, 'TenantAdministrator'],
  'dashboard.externalApiAccess': [...ADMIN, 'TenantAdministrator'],
  'dashboard.adminReport': [...ADMIN, 'TenantAdministrator'],
  // Identify As: whoever sees the dashboard asks whether it is offered (only God gets `enabled`); only God starts one.
  'dashboard.identifyAsEnabled': [...ADMIN, 'TenantAdministrator'],
  'dashboard.identifyAs': ['God'],
  // A one-time link to the background jobs page; the page lets in the same roles, checked again on every request.
  'jobs.dashboardLink': ADMIN,

  'areas.list': [...READ_USERS, 'Manager'],

  'users.list': READ_USERS,
  'users.get': READ_USERS,
  'users.create': MANAGE_USERS,
  'users.update': MANAGE_USERS,
  'users.delete': MANAGE_USERS,
  'users.invite': MANAGE_USERS,
  'users.changePassword': MANAGE_USERS,
  'users.lock': MANAGE_USERS,
  'users.unlock': MANAGE_USERS,
  // A user's sign-in factors, and their reset: the roles that lock an account.
  'users.factors': MANAGE_USERS,
  'users.resetFactors': MANAGE_USERS,
  'users.groups': READ_USERS,
  'users.tenants': READ_USERS,
  'users.roles': READ_USERS,
  'users.grantRoles': GRANT_ROLES,
  'users.revokeRoles': GRANT_ROLES,
  'users.checkPermissions': [...READ_USERS, 'Manager'],
  'users.export': READ_USERS,
  'users.template': MANAGE_USERS,
  'users.bulkInsert': MANAGE_USERS,
  'users.changeUserNameTemplate': ADMIN,
  'users.changeUserName': ADMIN,

  'groups.list': READ_USERS,
  'groups.get': READ_USERS,
  'groups.create': MANAGE_USERS,
  'groups.update': MANAGE_USERS,
  'groups.delete': MANAGE_USERS,
  'groups.members': READ_USERS,
  'groups.addMember': MANAGE_USERS,
  'groups.updateMember': MANAGE_USERS,
  'groups.removeMember': MANAGE_USERS,
  'groups.tenants': READ_USERS,
  'groups.addTenantRoles': MANAGE_USERS,
  'groups.removeTenant': MANAGE_USERS,
  'groups.template': MANAGE_USERS,
  'groups.bulkInsert': MANAGE_USERS,

  // Tenants: administrators and managers create, change, move and delete them; the members are the administrators'.
  'tenants.list': [...READ_USERS, 'Manager'],
  'tenants.export': [...READ_USERS, 'Manager'],
  'tenants.get': [...READ_USERS, 'Manager'],
  'tenants.hierarchyTree': [...READ_USERS, 'Manager'],
  'tenants.create': GRANT_ROLES,
  'tenants.update': GRANT_ROLES,
  'tenants.delete': GRANT_ROLES,
  'tenants.changeParent': GRANT_ROLES,
  'tenants.twoModeAuth': ADMIN,
  'tenants.members': ADMIN,
  'tenants.membersExport': ADMIN,
  'tenants.addMember': ADMIN,
  'tenants.memberIdentity': [...READ_USERS, 'Manager'],
  'tenants.revokeAccess': GRANT_ROLES,

  // The Permissions page: any role containing Administrator or Manager reads it; granting is for those who grant roles.
  'tenantIdentities.users': [...READ_USERS, 'Manager'],
  'tenantIdentities.groups': [...READ_USERS, 'Manager'],
  'tenantIdentities.group': [...READ_USERS, 'Manager'],
  'tenantIdentities.groupUsers': [...READ_USERS, 'Manager'],
  'tenantIdentities.usersTemplate': GRANT_ROLES,
  'tenantIdentities.groupsTemplate': GRANT_ROLES,
  'tenantIdentities.bulkInsertUsers': GRANT_ROLES,
  'tenantIdentities.bulkInsertGroups': GRANT_ROLES,

  // The Logs page: like the Permissions page, any role containing Administrator or Manager; the exports too.
  'logs.authentication': [...READ_USERS, 'Manager'],
  'logs.authenticationExport': [...READ_USERS, 'Manager'],
  'logs.system': [...READ_USERS, 'Manager'],
  'logs.systemExport': [...READ_USERS, 'Manager'],
  'logs.session': [...READ_USERS, 'Manager'],
  'logs.externalApiAccess': [...READ_USERS, 'Manager'],

  // An application's roles, their scopes and holders: administrators change them; the read-only TenantAdministrator reads them.
  'appRoles.list': [...ADMIN, 'TenantAdministrator'],
  'appRoles.get': [...ADMIN, 'TenantAdministrator'],
  'appRoles.create': ADMIN,
  'appRoles.update': ADMIN,
  'appRoles.delete': ADMIN,
  'appRoles.scopes': [...ADMIN, 'TenantAdministrator'],
  'appRoles.createScope': ADMIN,
  'appRoles.updateScope': ADMIN,
  'appRoles.deleteScope': ADMIN,
  'applications.users': [...ADMIN, 'TenantAdministrator'],
  'applications.usersWithRoles': [...ADMIN, 'TenantAdministrator'],
  'applications.permissions': [...ADMIN, 'TenantAdministrator'],

  'rightsRequests.list': ADMIN,
  'rightsRequests.get': ADMIN,
  'rightsRequests.file': ADMIN,

  // Operation requests (the portal's My Clients): consultants, in the tenants where they hold
  // IdentityConsultant (the service checks the tenant, and who may approve); administrators everywhere.
  'operationRequests.list': CONSULT,
  'operationRequests.create': CONSULT,
  'operationRequests.permissions': CONSULT,
  'operationRequests.createPermissions': CONSULT,
  'operationRequests.edit': CONSULT,
  'operationRequests.approve': CONSULT,
  'operationRequests.reject': CONSULT,
  'operationRequests.cancel': CONSULT,
  'operationRequests.approveInBulk': CONSULT,
  'operationRequests.rejectInBulk': CONSULT,
  'operationRequests.history': CONSULT,
  // My Clients' bulk uploads: the templates, and files of requests queued for a tenant the caller consults for.
  'operationRequests.bulkTemplate': CONSULT,
  'operationRequests.fullBulkTemplate': CONSULT,
  'operationRequests.bulkInsert': CONSULT,
  'operationRequests.fullBulkInsert': CONSULT,

  // My Clients: the tenant selector, the tenant's users and new users pending approval; consultants
  // in the tenants where they hold IdentityConsultant (the service checks the tenant), administrators everywhere.
  'clients.areas': CONSULT,
  'clients.tenants': CONSULT,
  'clients.users': CONSULT,
  'clients.create': CONSULT,
  'clients.update': CONSULT,
  'clients.invite': CONSULT,

  // Service Manager (the portal): service managers, in the tenants where they hold ServiceManager
  // (the service checks the tenant and the roles), administrators everywhere.
  'serviceManager.tenants': [...ADMIN, 'ServiceManager'],
  'serviceManager.users': [...ADMIN, 'ServiceManager'],
  'serviceManager.permissions': [...ADMIN, 'ServiceManager'],
  'serviceManager.setPermissions': [...ADMIN, 'ServiceManager'],

  // Personal access tokens: one's own (the console's PAT page is the administrators'); every user's, God only.
  'keys.list': ADMIN,
  'keys.applications': ADMIN,
  'keys.create': ADMIN,
  'keys.delete': ADMIN,
  'keys.all': ['God'],

  // The security settings (password policy, lockout, token lifetimes, group domains): God only.
  'securityConfig.list': ['God'],
  'securityConfig.get': ['God'],
  'securityConfig.update': ['God'],
  // The whole configuration as a bootstrap file: it names every application, tenant and setting.
  'configuration.export': ['God'],
  // The password policy the SPAs show beside a new password.
  'policy.get': SIGNED_IN,
  'inspector.inspect': ADMIN,
} as const satisfies Record<string, readonly IdentityRole[] | typeof SIGNED_IN>;

/** The name of an admin endpoint in ENDPOINT_ROLES. */
export type EndpointName = keyof typeof ENDPOINT_ROLES;

/**
 * Whether a holder of `roles` may call `endpoint`: one of them opens it, or it is open to every
 * signed-in user. The admin API's guard and both consoles' menus, pages and buttons ask this one
 * function, so what a screen offers is what the server answers.
 */
export function rolesAllow(endpoint: EndpointName, roles: readonly string[]): boolean {
  const allowed = ENDPOINT_ROLES[endpoint] as readonly string[] | typeof SIGNED_IN;
  return allowed === SIGNED_IN || roles.some((role) => allowed.includes(role));
}

/** The group of an endpoint: the name before the dot ('notifications' of 'notifications.active'). */
export type EndpointGroup = EndpointName extends `${infer Group}.${string}` ? Group : never;

/**
 * The groups of endpoints (the name before the dot) that the portal calls with a signed-in user's
 * own token: a portal session token opens them for the roles ENDPOINT_ROLES lists. Every other
 * administration endpoint wants the console's token or a personal access token. The portal's
 * notifications: the caller's own notifications, running processes and job files.
 */
export const PORTAL_ENDPOINT_GROUPS: readonly EndpointGroup[] = ['operationRequests', 'clients', 'serviceManager', 'notifications', 'tasks', 'filestorage'];

/** Whether a portal session token may call the endpoint (with one of its roles). */
export function acceptsPortalToken(endpoint: string): boolean {
  return (PORTAL_ENDPOINT_GROUPS as readonly string[]).includes(endpoint.split('.')[0]!);
}

