import { startBackgroundJobs } from '../app.js';
import type { BackgroundJobs } from '../features/jobs/runtime.js';
import { randomBytes } from 'node:crypto';
import { IDENTITY_ROLES, type AppContext, type Area, type Tenant, type User } from '@gatehouse/core';
import { buildApplication, buildGroup, buildTenant, buildUser, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { accountRouter, adminRouter } from '../app.js';
import { buildAdminWorld, xlsx, type AdminWorld, type Application } from '../testing/admin-world.js';
import { mintAccessToken } from '../testing/tokens.js';
import { makeRequestable, waitingRequest } from '../features/operation-requests/testing.js';
import { guardedRoutes } from './permissions-table.js';
import { buildSamlApplication, spMetadata } from '../features/applications/saml-testing.js';
import { ENDPOINT_ROLES, rolesAllow, type EndpointName } from './permissions.js';

/** What every case builds on: one area with a tenant (the admin world's area A), an application with roles. */
interface World {
  context: AppContext;
  area: Area;
  tenant: Tenant;
  app: Application;
  identity: Application;
}

/** One call: its method and path as the route declares them (checked), the concrete URL and payload. */
interface Call {
  route: string;
  url: string;
  body?: unknown;
  file?: Buffer;
}

const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

const user = (w: World, overrides: Partial<User> = {}) => buildUser(w.context.dataSource, { areaId: w.area.id, ...overrides });

/** A tenant of the world's area, under the world's tenant. */
const tenant = (w: World) => buildTenant(w.context.dataSource, { areaId: w.area.id, parentId: w.tenant.id });

/** A role of the world's application of its own (to change or delete), with one scope; answers its id and the scope's. */
async function appRole(w: World): Promise<{ roleId: string; scopeId: string }> {
  const [role] = await w.context.dataSource.query(`INSERT INTO roles (application_id, name) VALUES ($1, $2) RETURNING id`, [w.app.id, unique('role')]);
  const [scope] = await w.context.dataSource.query(`INSERT INTO role_scopes (role_id, scope) VALUES ($1, 'orders.read') RETURNING id`, [role.id]);
  return { roleId: role.id, scopeId: scope.id };
}

/** An application of which the caller is an owner (only owners delete one); answers its id. */
async function ownedApplication(w: World, caller: User): Promise<string> {
  const app = await buildApplication(w.context.dataSource, { clientType: 'confidential', redirectUris: ['https://owned.example.com/cb'] });
  await w.context.dataSource.query('INSERT INTO application_owners (application_id, user_id) VALUES ($1, $2)', [app.id, caller.id]);
  return app.id;
}

/** The General properties of an application, as the console's forms send them. */
const applicationFields = () => ({
  displayName: unique('Application'),
  type: 'confidential',
  privateUrl: 'https://owned.example.com/',
  redirectUris: ['https://owned.example.com/cb'],
});

/** A group of the world's area of which the caller is an Owner (group member rules also want ownership). */
async function ownedGroup(w: World, caller: User) {
  const group = await buildGroup(w.context.dataSource, { areaId: w.area.id });
  await w.context.dataSource.query(`INSERT INTO group_members (group_id, user_id, permission) VALUES ($1, $2, 'Owner')`, [group.id, caller.id]);
  return group;
}

/** A rights request sent from the portal, with one document. */
async function rightsRequest(w: World): Promise<{ id: string; fileId: string }> {
  const [request] = await w.context.dataSource.query(
    `INSERT INTO rights_requests (request_date, full_name, email, request_type, rights) VALUES ('2025-11-24', 'Ann Example', 'ann@example.com', 'Direct', '{Access}') RETURNING id`,
  );
  const [file] = await w.context.dataSource.query(
    `INSERT INTO rights_request_files (rights_request_id, file_name, content_type, size, content) VALUES ($1, 'id.pdf', 'application/pdf', 4, $2) RETURNING id`,
    [request.id, Buffer.from('%PDF')],
  );
  return { id: request.id, fileId: file.id };
}

/** A personal access token of the caller's, for the Identity application; answers its id. */
async function personalAccessToken(w: World, caller: User): Promise<string> {
  const [row] = await w.context.dataSource.query(
    `INSERT INTO personal_access_tokens (name, user_id, application_id, token_hash, token_prefix) VALUES ('ci', $1, $2, $3, 'gpat_') RETURNING id`,
    [caller.id, w.identity.id, randomBytes(32).toString('hex')],
  );
  return row.id;
}

/** A user of the world's tenant (Reader there) and a role of the world's application changeable in service-manager mode. */
async function serviceManagerTarget(w: World): Promise<{ userId: string; roleId: string }> {
  const target = await user(w);
  await grant(w.context.dataSource, { tenant: w.tenant, user: target, roles: [w.app.roleByName.Reader!] });
  const [role] = await w.context.dataSource.query(`INSERT INTO roles (application_id, name, service_manager_visibility) VALUES ($1, $2, true) RETURNING id`, [
    w.app.id,
    unique('managed'),
  ]);
  return { userId: target.id, roleId: role.id };
}

/** A webhook endpoint (global); answers its id. */
async function webhook(w: World): Promise<string> {
  const [row] = await w.context.dataSource.query(`INSERT INTO webhook_endpoints (url, events, secret_encrypted) VALUES ('https://hooks.example.com/in', '{user.created}', $1) RETURNING id`, [
    w.context.secrets.encrypt(`whsec_${randomBytes(32).toString('base64')}`),
  ]);
  return row.id;
}

/** A SCIM token of the world's application for the world's area, issued by `issuer`; answers its id. */
async function scimToken(w: World, issuer: User): Promise<string> {
  const [row] = await w.context.dataSource.query(
    `INSERT INTO scim_tokens (application_id, area_id, name, token_hash, token_last_chars, created_by) VALUES ($1, $2, 'ci', $3, 'abcd', $4) RETURNING id`,
    [w.app.id, w.area.id, randomBytes(32).toString('hex'), issuer.id],
  );
  return row.id;
}

/** One delivery of an endpoint; answers both ids. */
async function webhookDelivery(w: World): Promise<{ id: string; deliveryId: string }> {
  const id = await webhook(w);
  const [row] = await w.context.dataSource.query(
    `WITH ev AS (INSERT INTO webhook_events (type, payload) VALUES ('user.created', '{"type":"user.created","data":{}}') RETURNING id)
     INSERT INTO webhook_deliveries (endpoint_id, event_id, status) SELECT $1, ev.id, 'Failed' FROM ev RETURNING id`,
    [id],
  );
  return { id, deliveryId: row.id };
}

/** A notification of the caller's own; answers its id. */
async function notification(w: World, caller: User): Promise<string> {
  const [row] = await w.context.dataSource.query(`INSERT INTO notifications (user_id, type, description) VALUES ($1, 'PermissionAssigned', 'A') RETURNING id`, [caller.id]);
  return row.id;
}

/** A request for a new user of the world's area to get Reader in the world's tenant, waiting; by the caller unless told. */
async function operationRequest(w: World, createdBy: User): Promise<string> {
  await makeRequestable(w.context, [w.app.roleByName.Reader!.id]);
  return waitingRequest(w.context, { tenantId: w.tenant.id, userId: (await user(w)).id, roleIds: [w.app.roleByName.Reader!.id], createdById: createdBy.id });
}

/** The caller, given an internal category that approves operation requests (consultants need one). */
async function approver(w: World, caller: User): Promise<User> {
  await w.context.dataSource.query(`UPDATE users SET internal_category = 'Manager' WHERE id = $1`, [caller.id]);
  return caller;
}

/** The body of a new operation request: Reader for a new user of the world's area in the world's tenant. */
async function requestBody(w: World) {
  await makeRequestable(w.context, [w.app.roleByName.Reader!.id]);
  return { tenantId: w.tenant.id, identityType: 'User', identityId: (await user(w)).id, roles: [w.app.roleByName.Reader!.id] };
}

/**
 * A call every role allowed by ENDPOINT_ROLES must be able to make successfully, built afresh for
 * each role (a deleted user cannot be deleted twice).
 */
const CASES: Record<EndpointName, (w: World, caller: User) => Promise<Call>> = {
  'applications.homeInfo': async () => ({ route: 'GET /applications/homeInfo', url: '/applications/homeInfo' }),
  'applications.icon': async (w) => ({ route: 'GET /applications/icon/:id', url: `/applications/icon/${w.app.id}` }),
  'applications.roles': async (w) => ({ route: 'GET /applications/approles', url: `/applications/approles?applicationId=${w.app.id}` }),
  'applications.list': async () => ({ route: 'GET /applications', url: '/applications?$search=app' }),
  'applications.get': async (w) => ({ route: 'GET /applications/:id', url: `/applications/${w.app.id}` }),
  'applications.create': async () => ({ route: 'POST /applications', url: '/applications', body: { name: unique('created'), ...applicationFields() } }),
  'applications.update': async (w, caller) => ({ route: 'PUT /applications/:id', url: `/applications/${await ownedApplication(w, caller)}`, body: applicationFields() }),
  'applications.setStatus': async (w, caller) => ({
    route: 'PUT /applications/:id/:status',
    url: `/applications/${await ownedApplication(w, caller)}/Maintenance`,
  }),
  'applications.delete': async (w, caller) => ({ route: 'DELETE /applications/:id', url: `/applications/${await ownedApplication(w, caller)}` }),
  'applications.regenerateSecret': async (w, caller) => ({ route: 'POST /applications/:id/secret', url: `/applications/${await ownedApplication(w, caller)}/secret` }),
  'applications.addOwner': async (w, caller) => ({
    route: 'POST /applications/:id/owners',
    url: `/applications/${await ownedApplication(w, caller)}/owners`,
    body: { userId: (await user(w)).id },
  }),
  'applications.removeOwner': async (w, caller) => ({
    route: 'DELETE /applications/:id/owners/:userId',
    url: `/applications/${await ownedApplication(w, caller)}/owners/${caller.id}`,
  }),
  'applications.getSaml': async (w) => ({ route: 'GET /applications/:id/saml', url: `/applications/${(await buildSamlApplication(w.context.dataSource)).id}/saml` }),
  'applications.setSaml': async (w) => ({
    route: 'PUT /applications/:id/saml',
    url: `/applications/${(await buildSamlApplication(w.context.dataSource)).id}/saml`,
    body: { entityId: `urn:example:${unique('sp')}`, assertionConsumerServices: [{ url: 'https://sp.example.com/acs' }] },
  }),
  'applications.readSamlMetadata': async () => ({ route: 'POST /applications/samlMetadata', url: '/applications/samlMetadata', body: { xml: spMetadata() } }),
  'me.get': async () => ({ route: 'GET /me', url: '/me' }),
  'notifications.active': async () => ({ route: 'GET /notifications/active', url: '/notifications/active' }),
  'notifications.markRead': async () => ({ route: 'PUT /notifications', url: '/notifications', body: {} }),
  'notifications.delete': async (w, caller) => ({ route: 'DELETE /notifications/:id', url: `/notifications/${await notification(w, caller)}` }),
  'notifications.deleteAll': async () => ({ route: 'DELETE /notifications', url: '/notifications' }),
  'tasks.active': async () => ({ route: 'GET /tasks/active', url: '/tasks/active' }),
  'filestorage.downloadExcel': async (w, caller) => {
    const [file] = (await w.context.dataSource.query(
      `INSERT INTO stored_files (owner_id, file_name, media_type, bytes, expires_at) VALUES ($1, 'a.xlsx', 'application/octet-stream', $2, now() + interval '1 day') RETURNING id`,
      [caller.id, Buffer.from('x')],
    )) as Array<{ id: string }>;
    return { route: 'GET /filestorage/downloadExcel', url: `/filestorage/downloadExcel?url=${file!.id}` };
  },
  'dashboard.adminReport': async () => ({ route: 'POST /dashboard/adminReport', url: '/dashboard/adminReport', body: {} }),
  'jobs.dashboardLink': async () => ({ route: 'POST /jobs/dashboard-link', url: '/jobs/dashboard-link', body: {} }),
  'dashboard.base': async () => ({ route: 'GET /dashboard/base', url: '/dashboard/base' }),
  'dashboard.identifyAsEnabled': async () => ({ route: 'GET /dashboard/identyfyasEnabled', url: '/dashboard/identyfyasEnabled' }),
  'dashboard.identifyAs': async (w) => {
    // Off unless the deployment enables it; this world does.
    w.context.config.identifyAs.enabled = true;
    return { route: 'POST /dashboard/identifyAs/:id', url: `/dashboard/identifyAs/${(await user(w)).id}` };
  },
  'dashboard.loginLastHours': async () => ({ route: 'GET /dashboard/loginLastHours', url: '/dashboard/loginLastHours' }),
  'dashboard.adminPerApp': async () => ({ route: 'GET /dashboard/adminPerApp', url: '/dashboard/adminPerApp' }),
  'dashboard.globalAdminPerAreas': async (w) => ({
    route: 'GET /dashboard/globalAdminPerAreas',
    url: `/dashboard/globalAdminPerAreas?tenant=${w.tenant.id}&application=${w.identity.id}`,
  }),
  'dashboard.connectedPerApp': async () => ({ route: 'GET /dashboard/connectedPerApp', url: '/dashboard/connectedPerApp' }),
  'dashboard.externalApiAccess': async () => ({
    route: 'GET /dashboard/externalApiAccess',
    url: `/dashboard/externalApiAccess?startDate=${encodeURIComponent('2025-01-01 00:00:00')}&endDate=${encodeURIComponent('2025-12-31 23:59:59')}`,
  }),
  'areas.list': async () => ({ route: 'GET /areas', url: '/areas' }),

  'users.list': async () => ({ route: 'GET /users', url: '/users?$search=a&top=25' }),
  'users.get': async (w) => ({ route: 'GET /users/:id', url: `/users/${(await user(w)).id}` }),
  'users.create': async (w) => {
    const name = unique('created');
    return {
      route: 'POST /users',
      url: '/users',
      body: { userName: `${name}@example.com`, email: `${name}@example.com`, firstName: 'New', lastName: 'User', areaId: w.area.id, language: 'en' },
    };
  },
  'users.update': async (w) => ({
    route: 'PUT /users/:id',
    url: `/users/${(await user(w)).id}`,
    body: { email: `${unique('changed')}@example.com`, firstName: 'Changed', lastName: 'User', areaId: w.area.id, language: 'fr' },
  }),
  'users.delete': async (w) => ({ route: 'DELETE /users/:id', url: `/users/${(await user(w)).id}` }),
  'users.invite': async (w) => ({ route: 'POST /users/inviteUser/:id', url: `/users/inviteUser/${(await user(w)).id}` }),
  'users.changePassword': async (w) => ({
    route: 'POST /users/change-password/:userId',
    url: `/users/change-password/${(await user(w)).id}`,
    body: { password: 'Another-Str0ng-Passw0rd!', confirmPassword: 'Another-Str0ng-Passw0rd!' },
  }),
  'users.lock': async (w) => ({ route: 'GET /api/v1/account/lock/:id', url: `/api/v1/account/lock/${(await user(w)).id}` }),
  'users.unlock': async (w) => ({ route: 'GET /api/v1/account/unlock/:id', url: `/api/v1/account/unlock/${(await user(w, { locked: true })).id}` }),
  'users.factors': async (w) => ({ route: 'GET /users/:id/factors', url: `/users/${(await user(w)).id}/factors` }),
  'users.resetFactors': async (w) => ({ route: 'POST /users/:id/factors/reset', url: `/users/${(await user(w)).id}/factors/reset`, body: { kinds: ['passkeys', 'totp'] } }),
  'users.groups': async (w) => ({ route: 'GET /users/:id/groups', url: `/users/${(await user(w)).id}/groups` }),
  'users.tenants': async (w) => ({ route: 'GET /users/:id/tenants', url: `/users/${(await user(w)).id}/tenants` }),
  'users.roles': async (w) => ({ route: 'GET /users/:id/roles', url: `/users/${(await user(w)).id}/roles` }),
  'users.grantRoles': async (w) => ({
    route: 'PUT /users/:id/roles/:applicationId',
    url: `/users/${(await user(w)).id}/roles/${w.app.id}`,
    body: { tenantId: w.tenant.id, roleIds: [w.app.roleByName.Reader!.id] },
  }),
  'users.revokeRoles': async (w) => {
    const target = await user(w);
    await grant(w.context.dataSource, { tenant: w.tenant, user: target, roles: [w.app.roleByName.Reader!] });
    return { route: 'DELETE /users/:id/roles/:applicationId', url: `/users/${target.id}/roles/${w.app.id}` };
  },
  'users.checkPermissions': async (w) => ({ route: 'GET /users/check/permissions/:id', url: `/users/check/permissions/${(await user(w)).id}` }),
  'users.export': async () => ({ route: 'GET /users/export', url: '/users/export?$search=zz-none' }),
  'users.template': async () => ({ route: 'GET /users/template', url: '/users/template' }),
  'users.bulkInsert': async (w) => {
    const name = unique('imported');
    return {
      route: 'POST /users/bulk_insert',
      url: '/users/bulk_insert',
      file: await xlsx([
        ['UserName', 'Email', 'FirstName', 'LastName', 'Area', 'Language', 'SendEmailInvite'],
        [`${name}@example.com`, `${name}@example.com`, 'Imported', 'User', w.area.name, 'en', 'No'],
      ]),
    };
  },
  'users.changeUserNameTemplate': async () => ({ route: 'GET /users/changeUserNameTemplate', url: '/users/changeUserNameTemplate' }),
  'users.changeUserName': async (w) => {
    const target = await user(w);
    return {
      route: 'POST /users/changeUserName',
      url: '/users/changeUserName',
      file: await xlsx([['CurrentUserName', 'NewUserName', 'NewEmail'], [target.userName, `${unique('renamed')}@example.com`, null]]),
    };
  },

  'groups.list': async () => ({ route: 'GET /groups', url: '/groups' }),
  'groups.get': async (w) => ({ route: 'GET /groups/:id', url: `/groups/${(await buildGroup(w.context.dataSource, { areaId: w.area.id })).id}` }),
  'groups.create': async (w) => ({ route: 'POST /groups', url: '/groups', body: { name: unique('group'), areaId: w.area.id } }),
  'groups.update': async (w, caller) => ({
    route: 'PUT /groups/:id',
    url: `/groups/${(await ownedGroup(w, caller)).id}`,
    body: { name: unique('renamed'), description: 'Changed', areaId: w.area.id },
  }),
  'groups.delete': async (w, caller) => ({ route: 'DELETE /groups/:id', url: `/groups/${(await ownedGroup(w, caller)).id}` }),
  'groups.members': async (w) => ({ route: 'GET /groups/:id/users', url: `/groups/${(await buildGroup(w.context.dataSource, { areaId: w.area.id })).id}/users` }),
  'groups.addMember': async (w, caller) => ({
    route: 'POST /groups/:id/users',
    url: `/groups/${(await ownedGroup(w, caller)).id}/users`,
    body: { userId: (await user(w)).id, permission: 'Reader' },
  }),
  'groups.updateMember': async (w, caller) => {
    const group = await ownedGroup(w, caller);
    const member = await user(w);
    await w.context.dataSource.query('INSERT INTO group_members (group_id, user_id) VALUES ($1, $2)', [group.id, member.id]);
    return { route: 'PUT /groups/:id/users/:userId', url: `/groups/${group.id}/users/${member.id}`, body: { permission: 'Owner' } };
  },
  'groups.removeMember': async (w, caller) => {
    const group = await ownedGroup(w, caller);
    const member = await user(w);
    await w.context.dataSource.query('INSERT INTO group_members (group_id, user_id) VALUES ($1, $2)', [group.id, member.id]);
    return { route: 'DELETE /groups/:id/users/:userId', url: `/groups/${group.id}/users/${member.id}` };
  },
  'groups.tenants': async (w) => ({ route: 'GET /groups/:id/roles', url: `/groups/${(await buildGroup(w.context.dataSource, { areaId: w.area.id })).id}/roles` }),
  // A group the caller is not in: nobody changes the roles of a group they belong to.
  'groups.addTenantRoles': async (w) => ({
    route: 'POST /groups/:id/roles',
    url: `/groups/${(await buildGroup(w.context.dataSource, { areaId: w.area.id })).id}/roles`,
    body: { tenantId: w.tenant.id, roleIds: [w.app.roleByName.Reader!.id] },
  }),
  'groups.removeTenant': async (w) => {
    const group = await buildGroup(w.context.dataSource, { areaId: w.area.id });
    await grant(w.context.dataSource, { tenant: w.tenant, group, roles: [w.app.roleByName.Reader!] });
    return { route: 'DELETE /groups/:id/roles/:tenantId', url: `/groups/${group.id}/roles/${w.tenant.id}` };
  },
  'groups.template': async (w, caller) => ({ route: 'GET /groups/template/:groupId', url: `/groups/template/${(await ownedGroup(w, caller)).id}` }),
  'groups.bulkInsert': async (w, caller) => ({
    route: 'POST /groups/bulk_insert/:groupId',
    url: `/groups/bulk_insert/${(await ownedGroup(w, caller)).id}`,
    file: await xlsx([['UserName', 'Permission'], [(await user(w)).userName, 'Reader']]),
  }),

  'tenants.list': async () => ({ route: 'GET /tenants', url: '/tenants' }),
  'tenants.twoModeAuth': async (w) => ({
    route: 'POST /tenants/twoModeAuth/:id',
    url: `/tenants/twoModeAuth/${(await buildTenant(w.context.dataSource, { areaId: w.area.id })).id}`,
    body: { enable: true },
  }),
  'tenants.export': async () => ({ route: 'GET /tenants/export', url: '/tenants/export?$search=zz-none' }),
  'tenants.create': async (w) => ({ route: 'POST /tenants', url: '/tenants', body: { title: unique('tenant'), areaId: w.area.id, parentId: w.tenant.id } }),
  'tenants.get': async (w) => ({ route: 'GET /tenants/:id', url: `/tenants/${(await tenant(w)).id}?includeHierarchy=true&includeHierarchyTree=true` }),
  'tenants.hierarchyTree': async (w) => ({ route: 'GET /tenants/:tenantId/hierarchy-tree', url: `/tenants/${(await tenant(w)).id}/hierarchy-tree` }),
  'tenants.update': async (w) => ({ route: 'PUT /tenants/:id', url: `/tenants/${(await tenant(w)).id}`, body: { title: unique('renamed'), areaId: w.area.id } }),
  'tenants.delete': async (w) => ({ route: 'DELETE /tenants/:id', url: `/tenants/${(await tenant(w)).id}` }),
  'tenants.changeParent': async (w) => ({
    route: 'PUT /tenants/:tenantId/change-parent',
    url: `/tenants/${(await tenant(w)).id}/change-parent`,
    body: { newParentId: w.tenant.id },
  }),
  'tenants.members': async (w) => ({ route: 'GET /tenants/:id/members', url: `/tenants/${w.tenant.id}/members?includeRoles=true` }),
  'tenants.membersExport': async (w) => ({ route: 'GET /tenants/:id/members/export', url: `/tenants/${w.tenant.id}/members/export` }),
  'tenants.addMember': async (w) => ({
    route: 'POST /tenants/:id/members',
    url: `/tenants/${(await tenant(w)).id}/members`,
    body: { identityType: 'User', identityId: (await user(w)).id, roleIds: [w.app.roleByName.Reader!.id] },
  }),
  'tenants.memberIdentity': async (w) => {
    const target = await user(w);
    await grant(w.context.dataSource, { tenant: w.tenant, user: target, roles: [w.app.roleByName.Reader!] });
    return { route: 'GET /tenants/members/identity', url: `/tenants/members/identity?identityId=${target.id}&tenantId=${w.tenant.id}` };
  },
  'tenants.revokeAccess': async (w) => {
    const target = await user(w);
    await grant(w.context.dataSource, { tenant: w.tenant, user: target, roles: [w.app.roleByName.Reader!] });
    return { route: 'POST /tenants/members/revokeAccess', url: '/tenants/members/revokeAccess', body: { tenantId: w.tenant.id, userId: target.id, applicationIds: [w.app.id] } };
  },

  'tenantIdentities.users': async () => ({ route: 'GET /tenantIdentities', url: '/tenantIdentities?$search=a&top=25' }),
  'tenantIdentities.groups': async () => ({ route: 'GET /tenantIdentities/groups', url: '/tenantIdentities/groups' }),
  'tenantIdentities.group': async (w) => ({
    route: 'GET /tenantIdentities/groups/:groupId',
    url: `/tenantIdentities/groups/${(await buildGroup(w.context.dataSource, { areaId: w.area.id })).id}`,
  }),
  'tenantIdentities.groupUsers': async (w) => ({
    route: 'GET /tenantIdentities/groups/:groupId/users',
    url: `/tenantIdentities/groups/${(await buildGroup(w.context.dataSource, { areaId: w.area.id })).id}/users`,
  }),
  'tenantIdentities.usersTemplate': async () => ({ route: 'GET /tenantIdentities/template/users', url: '/tenantIdentities/template/users' }),
  'tenantIdentities.groupsTemplate': async () => ({ route: 'GET /tenantIdentities/template/groups', url: '/tenantIdentities/template/groups' }),
  'tenantIdentities.bulkInsertUsers': async (w) => ({
    route: 'POST /tenantIdentities/bulk_insert/users',
    url: '/tenantIdentities/bulk_insert/users',
    file: await xlsx([['UserName', 'Tenant', 'Application', 'Role'], [(await user(w)).userName, w.tenant.id, w.app.name, 'Reader']]),
  }),
  'tenantIdentities.bulkInsertGroups': async (w) => ({
    route: 'POST /tenantIdentities/bulk_insert/groups',
    url: '/tenantIdentities/bulk_insert/groups',
    file: await xlsx([['Group', 'Tenant', 'Application', 'Role'], [(await buildGroup(w.context.dataSource, { areaId: w.area.id })).id, w.tenant.id, w.app.name, 'Reader']]),
  }),

  // My Clients: every caller holds its role in the world's tenant, so a consultant is one of its consultants.
  'clients.areas': async () => ({ route: 'GET /clients/areas', url: '/clients/areas' }),
  'clients.tenants': async () => ({ route: 'GET /clients/tenants', url: '/clients/tenants?searchQuery=a&take=10' }),
  'clients.users': async (w) => ({ route: 'GET /clients/:tenantId/users', url: `/clients/${w.tenant.id}/users?userType=2` }),
  'clients.create': async (w) => {
    const name = unique('client');
    return {
      route: 'POST /clients/:tenantId/users',
      url: `/clients/${w.tenant.id}/users`,
      body: { userName: `${name}@example.com`, email: `${name}@example.com`, firstName: 'New', lastName: 'Client', areaId: w.area.id, language: 'en' },
    };
  },
  'clients.update': async (w) => {
    const target = await user(w);
    await grant(w.context.dataSource, { tenant: w.tenant, user: target, roles: [w.app.roleByName.Reader!] });
    return {
      route: 'PUT /clients/:tenantId/users/:id',
      url: `/clients/${w.tenant.id}/users/${target.id}`,
      body: { userName: target.userName, email: target.email, firstName: 'Changed', lastName: 'Client', areaId: w.area.id, language: 'fr' },
    };
  },
  'clients.invite': async (w) => {
    const target = await user(w);
    await grant(w.context.dataSource, { tenant: w.tenant, user: target, roles: [w.app.roleByName.Reader!] });
    return { route: 'POST /clients/:tenantId/users/:id/invite', url: `/clients/${w.tenant.id}/users/${target.id}/invite` };
  },

  'logs.authentication': async () => ({ route: 'GET /logs/authenticationlogs', url: '/logs/authenticationlogs?result=Failure' }),
  'logs.authenticationExport': async () => ({ route: 'GET /logs/authenticationlogs/export', url: '/logs/authenticationlogs/export?user=zz-none' }),
  'logs.system': async () => ({ route: 'GET /logs/systemlog', url: '/logs/systemlog?operation=CreateUser' }),
  'logs.systemExport': async () => ({ route: 'GET /logs/systemlog/export', url: '/logs/systemlog/export?user=zz-none' }),
  'logs.session': async (w) => ({ route: 'GET /logs/sessionlog', url: `/logs/sessionlog?tenant=${w.tenant.id}&includeHierarchy=true` }),
  'logs.externalApiAccess': async () => ({ route: 'GET /logs/externalApiAccessLog', url: '/logs/externalApiAccessLog?apiEntry=GetRoles' }),

  'appRoles.list': async (w) => ({ route: 'GET /app/:appId/roles', url: `/app/${w.app.id}/roles` }),
  'appRoles.get': async (w) => ({ route: 'GET /app/:appId/roles/:roleId', url: `/app/${w.app.id}/roles/${w.app.roleByName.Reader!.id}` }),
  'appRoles.create': async (w) => ({ route: 'POST /app/:appId/roles', url: `/app/${w.app.id}/roles`, body: { name: unique('role') } }),
  'appRoles.update': async (w) => ({
    route: 'PUT /app/:appId/roles/:roleId',
    url: `/app/${w.app.id}/roles/${(await appRole(w)).roleId}`,
    body: { name: unique('renamed'), description: 'Changed' },
  }),
  'appRoles.delete': async (w) => ({ route: 'DELETE /app/:appId/roles/:roleId', url: `/app/${w.app.id}/roles/${(await appRole(w)).roleId}` }),
  'appRoles.scopes': async (w) => ({ route: 'GET /app/:appId/roles/:roleId/scopes', url: `/app/${w.app.id}/roles/${(await appRole(w)).roleId}/scopes` }),
  'appRoles.createScope': async (w) => ({
    route: 'POST /app/:appId/roles/:roleId/scopes',
    url: `/app/${w.app.id}/roles/${(await appRole(w)).roleId}/scopes`,
    body: { scope: 'orders.write' },
  }),
  'appRoles.updateScope': async (w) => {
    const { roleId, scopeId } = await appRole(w);
    return { route: 'PUT /app/:appId/roles/:roleId/scopes/:scopeId', url: `/app/${w.app.id}/roles/${roleId}/scopes/${scopeId}`, body: { scope: 'orders.list' } };
  },
  'appRoles.deleteScope': async (w) => {
    const { roleId, scopeId } = await appRole(w);
    return { route: 'DELETE /app/:appId/roles/:roleId/scopes/:scopeId', url: `/app/${w.app.id}/roles/${roleId}/scopes/${scopeId}` };
  },
  'applications.users': async (w) => ({ route: 'GET /applications/:id/users', url: `/applications/${w.app.id}/users?globalRoles=false` }),
  'applications.usersWithRoles': async (w) => ({
    route: 'GET /applications/:id/usersWithRoles',
    url: `/applications/${w.app.id}/usersWithRoles?roleIds=${w.app.roleByName.Reader!.id}`,
  }),
  'applications.permissions': async (w) => ({ route: 'GET /applications/:id/permissions', url: `/applications/${w.app.id}/permissions` }),

  // Operation requests: the caller consults for the world's tenant (where every caller holds its role).
  'operationRequests.list': async (w) => ({ route: 'GET /operationRequests', url: `/operationRequests?tenantId=${w.tenant.id}` }),
  'operationRequests.create': async (w) => ({ route: 'POST /operationRequests', url: '/operationRequests', body: await requestBody(w) }),
  'operationRequests.permissions': async (w) => ({
    route: 'GET /operationRequests/permissions',
    url: `/operationRequests/permissions?identityId=${(await user(w)).id}&tenantId=${w.tenant.id}`,
  }),
  'operationRequests.createPermissions': async (w) => ({
    route: 'POST /operationRequests/permissions',
    url: `/operationRequests/permissions?tenantId=${w.tenant.id}`,
    body: await requestBody(w),
  }),
  'operationRequests.edit': async (w, caller) => ({
    route: 'PUT /operationRequests/permissions/:id',
    url: `/operationRequests/permissions/${await operationRequest(w, caller)}`,
    body: { roles: [], isInheritable: false },
  }),
  'operationRequests.approve': async (w, caller) => {
    await approver(w, caller);
    return { route: 'POST /operationRequests/approve/:id', url: `/operationRequests/approve/${await operationRequest(w, await user(w))}`, body: { version: 1 } };
  },
  'operationRequests.reject': async (w, caller) => {
    await approver(w, caller);
    return { route: 'POST /operationRequests/reject/:id', url: `/operationRequests/reject/${await operationRequest(w, await user(w))}`, body: { reason: 'No' } };
  },
  'operationRequests.cancel': async (w, caller) => ({ route: 'POST /operationRequests/cancel/:id', url: `/operationRequests/cancel/${await operationRequest(w, caller)}` }),
  'operationRequests.approveInBulk': async (w, caller) => {
    await approver(w, caller);
    const id = await operationRequest(w, await user(w));
    return { route: 'POST /operationRequests/approveInBulk', url: '/operationRequests/approveInBulk', body: { ids: [id], versions: { [id]: 1 } } };
  },
  'operationRequests.rejectInBulk': async (w, caller) => {
    await approver(w, caller);
    return { route: 'POST /operationRequests/rejectInBulk', url: '/operationRequests/rejectInBulk', body: { ids: [await operationRequest(w, await user(w))] } };
  },
  'operationRequests.history': async (w) => ({ route: 'GET /operationRequests/history/:id', url: `/operationRequests/history/${await operationRequest(w, await user(w))}` }),
  // My Clients' bulk uploads: the world's tenant is one the caller consults for.
  'operationRequests.bulkTemplate': async () => ({ route: 'GET /api/v1/profile/template/operationRequests', url: '/api/v1/profile/template/operationRequests' }),
  'operationRequests.fullBulkTemplate': async () => ({
    route: 'GET /api/v1/profile/template/fullUserWithOperationRequest',
    url: '/api/v1/profile/template/fullUserWithOperationRequest',
  }),
  'operationRequests.bulkInsert': async (w) => {
    await makeRequestable(w.context, [w.app.roleByName.Reader!.id]);
    return {
      route: 'POST /api/v1/profile/bulk_insert/operationRequests/:tenantId',
      url: `/api/v1/profile/bulk_insert/operationRequests/${w.tenant.id}`,
      file: await xlsx([['Email', 'Application', 'Role'], [(await user(w)).email, w.app.name, 'Reader']]),
    };
  },
  'operationRequests.fullBulkInsert': async (w) => {
    await makeRequestable(w.context, [w.app.roleByName.Reader!.id]);
    const name = unique('bulk');
    return {
      route: 'POST /api/v1/profile/full_bulk_insert/operationRequests/:tenantId',
      url: `/api/v1/profile/full_bulk_insert/operationRequests/${w.tenant.id}`,
      file: await xlsx([
        ['Email', 'First name', 'Last name', 'Language', 'Area', 'Application', 'Role'],
        [`${name}@client.example`, 'New', 'Client', 'en', w.area.name, w.app.name, 'Reader'],
      ]),
    };
  },
  'rightsRequests.list': async () => ({ route: 'GET /rightsRequests', url: '/rightsRequests' }),
  'rightsRequests.get': async (w) => ({ route: 'GET /rightsRequests/:id', url: `/rightsRequests/${(await rightsRequest(w)).id}` }),
  'rightsRequests.file': async (w) => {
    const { id, fileId } = await rightsRequest(w);
    return { route: 'GET /rightsRequests/:id/files/:fileId', url: `/rightsRequests/${id}/files/${fileId}` };
  },

  // A ServiceManager caller holds the role in the world's tenant.
  'serviceManager.tenants': async () => ({ route: 'GET /serviceManager/tenants', url: '/serviceManager/tenants?searchQuery=&take=10' }),
  'serviceManager.users': async (w) => ({ route: 'GET /serviceManager/:tenantId/users', url: `/serviceManager/${w.tenant.id}/users` }),
  'serviceManager.permissions': async (w) => {
    const { userId } = await serviceManagerTarget(w);
    return { route: 'GET /serviceManager/:tenantId/users/:userId/permissions', url: `/serviceManager/${w.tenant.id}/users/${userId}/permissions` };
  },
  'serviceManager.setPermissions': async (w) => {
    const { userId, roleId } = await serviceManagerTarget(w);
    return {
      route: 'PUT /serviceManager/:tenantId/users/:userId/permissions',
      url: `/serviceManager/${w.tenant.id}/users/${userId}/permissions`,
      body: { isInheritable: true, roles: [roleId] },
    };
  },

  'securityConfig.list': async () => ({ route: 'GET /securityConfig', url: '/securityConfig' }),
  'securityConfig.get': async () => ({ route: 'GET /securityConfig/:id', url: '/securityConfig/Lockout' }),
  // The defaults again: the call succeeds and the world's sign-in rules stay as they were.
  'securityConfig.update': async () => ({ route: 'PUT /securityConfig/:id', url: '/securityConfig/Lockout', body: { body: 'maxFailedAttempts: 5' } }),
  'policy.get': async () => ({ route: 'GET /policy', url: '/policy' }),
  'configuration.export': async () => ({ route: 'GET /configuration/export', url: '/configuration/export' }),
  'webhooks.list': async () => ({ route: 'GET /webhooks', url: '/webhooks' }),
  'webhooks.get': async (w) => ({ route: 'GET /webhooks/:id', url: `/webhooks/${await webhook(w)}` }),
  'webhooks.create': async () => ({ route: 'POST /webhooks', url: '/webhooks', body: { url: 'https://hooks.example.com/new', events: ['user.locked'] } }),
  'webhooks.update': async (w) => ({ route: 'PUT /webhooks/:id', url: `/webhooks/${await webhook(w)}`, body: { url: 'https://hooks.example.com/changed', events: ['user.locked'], enabled: false } }),
  'webhooks.delete': async (w) => ({ route: 'DELETE /webhooks/:id', url: `/webhooks/${await webhook(w)}` }),
  'webhooks.rotateSecret': async (w) => ({ route: 'POST /webhooks/:id/rotateSecret', url: `/webhooks/${await webhook(w)}/rotateSecret` }),
  'webhooks.deliveries': async (w) => ({ route: 'GET /webhooks/:id/deliveries', url: `/webhooks/${await webhook(w)}/deliveries` }),
  'webhooks.resend': async (w) => {
    const { id, deliveryId } = await webhookDelivery(w);
    return { route: 'POST /webhooks/:id/deliveries/:deliveryId/resend', url: `/webhooks/${id}/deliveries/${deliveryId}/resend` };
  },
  'scimTokens.list': async (w) => ({ route: 'GET /applications/:id/scimTokens', url: `/applications/${w.app.id}/scimTokens` }),
  'scimTokens.create': async (w) => ({ route: 'POST /applications/:id/scimTokens', url: `/applications/${w.app.id}/scimTokens`, body: { name: unique('scim'), areaId: w.area.id } }),
  'scimTokens.delete': async (w, caller) => ({ route: 'DELETE /applications/:id/scimTokens/:tokenId', url: `/applications/${w.app.id}/scimTokens/${await scimToken(w, caller)}` }),
  'inspector.inspect': async () => ({ route: 'POST /inspector', url: '/inspector', body: { token: 'not-a-token' } }),

  'keys.list': async () => ({ route: 'GET /api/v1/keys', url: '/api/v1/keys' }),
  'keys.all': async (w) => ({ route: 'GET /api/v1/keys/allpats', url: `/api/v1/keys/allpats?owner=${(await user(w)).id}` }),
  'keys.applications': async () => ({ route: 'GET /api/v1/keys/applications', url: '/api/v1/keys/applications' }),
  // Every caller holds its role in the Identity application, so may get a token for it.
  'keys.create': async (w) => ({ route: 'POST /api/v1/keys', url: '/api/v1/keys', body: { name: unique('pat'), applicationName: w.identity.name } }),
  'keys.delete': async (w, caller) => ({ route: 'DELETE /api/v1/keys/:id', url: `/api/v1/keys/${await personalAccessToken(w, caller)}` }),
};

describe('admin API role matrix: every endpoint with every role', function () {
  this.timeout(600_000);
  let world: AdminWorld;
  let w: World;
  let jobs: BackgroundJobs | undefined;
  /** One caller per role (and one with no role), holding that role in the world's tenant. */
  const callers = new Map<string, User>();

  before(async () => {
    world = await buildAdminWorld();
    const { context, areaA: area, tenantA: tenant, identity } = world;
    // Endpoints that queue work need this node's background jobs, as the product runs them.
    jobs = await startBackgroundJobs(context, { prefix: `gatehouse-matrix-${Date.now()}` });
    const app = await buildApplication(context.dataSource, { roles: ['Reader', 'Writer'] });
    w = { context, area, tenant, app, identity };
    for (const role of [...IDENTITY_ROLES, 'none']) {
      const caller = await user(w);
      // Held in the area's tenant, so an AreaAdministrator's scope is that area.
      if (role !== 'none') await grant(context.dataSource, { tenant, user: caller, roles: [identity.roleByName[role]!] });
      callers.set(role, caller);
    }
  });

  after(async () => {
    await jobs?.stop();
  });

  it('has a case for every endpoint, naming the route it calls', () => {
    const routes = guardedRoutes([adminRouter(world.context), accountRouter(world.context)]);
    for (const route of routes) {
      expect(CASES, `no case for ${route.endpoint}`).to.have.property(route.endpoint!);
    }
    expect(Object.keys(CASES).sort()).to.deep.equal(Object.keys(ENDPOINT_ROLES).sort());
  });

  for (const endpoint of Object.keys(ENDPOINT_ROLES) as EndpointName[]) {
    it(`${endpoint}: succeeds for ${describeRoles(endpoint)}, answers 403 to every other role`, async () => {
      const routes = guardedRoutes([adminRouter(world.context), accountRouter(world.context)]);
      const failures: string[] = [];
      for (const role of [...IDENTITY_ROLES, 'none']) {
        const caller = callers.get(role)!;
        const call = await CASES[endpoint](w, caller);
        const [method, routePath] = call.route.split(' ') as [string, string];
        const declared = routes.find((r) => r.endpoint === endpoint && r.method.split(',').includes(method) && (r.path === routePath || r.path === `/api/v1/admin${routePath}`));
        expect(declared, `${call.route} is not the route of ${endpoint}`).to.not.equal(undefined);
        const url = call.url.startsWith('/api/') ? call.url : `/api/v1/admin${call.url}`;
        let req = request(world.server)[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](url)
          .set('Authorization', `Bearer ${await mintAccessToken(w.context, world.key, { sub: caller.id, roles: role === 'none' ? [] : [role] })}`)
          .set('Accept-Language', 'en');
        if (call.file) req = req.attach('file', call.file, 'upload.xlsx');
        else if (call.body !== undefined) req = req.send(call.body as object);
        const res = await req;
        const allowed = rolesAllow(endpoint, role === 'none' ? [] : [role]);
        if (allowed && (res.status < 200 || res.status >= 300)) failures.push(`${role}: expected success, got ${res.status} ${JSON.stringify(res.body)}`);
        if (!allowed && (res.status !== 403 || res.body.message !== 'You do not have permission to perform this action')) {
          failures.push(`${role}: expected 403, got ${res.status}`);
        }
      }
      expect(failures).to.deep.equal([]);
    });
  }
});

function describeRoles(endpoint: EndpointName): string {
  const roles = ENDPOINT_ROLES[endpoint];
  return typeof roles === 'string' ? 'every signed-in user' : roles.join(', ');
}
