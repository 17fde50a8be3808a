// The authority rules at the edge: every mutating endpoint of the admin and external APIs that
// acts on a person is called by callers holding several roles at once, on targets of every rank
// (the caller themself included), and must answer what the rules (@gatehouse/core/access) decide
// for those facts, status and error code. Every other mutating endpoint is listed with where its
// rules are proven; a new mutating endpoint in neither list fails the run.
import { ALL_ROUTES } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID, type Tenant, type User } from '@gatehouse/core';
import { addMembershipRoles, findAccessRoles, findTarget, lockOrCreateMembership, mayGrantRoles, mayLock, mayManageIdentity, mayResetFactors, mayRevokeRoles, userAuthority, type Authority, type Decision, type Target } from '@gatehouse/core/access';
import { buildApplication, buildUser, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { buildAdminWorld, type AdminWorld, type Application } from '../testing/admin-world.js';
import { mintAccessToken } from '../testing/tokens.js';
import type { Caller } from './koa-admin-auth.js';
import { rolesAllow, type EndpointName } from './permissions.js';
import { scopeOf } from './scope.js';

/** Callers holding one or several Identity roles at once, where they hold them ('A': area A's tenant). */
const CALLERS: Record<string, Array<[role: string, where: 'Global' | 'A']>> = {
  God: [['God', 'Global']],
  Administrator: [['Administrator', 'Global']],
  'Administrator + AreaAdministrator': [
    ['Administrator', 'Global'],
    ['AreaAdministrator', 'A'],
  ],
  AreaAdministrator: [['AreaAdministrator', 'A']],
  'AreaAdministrator + Manager': [
    ['AreaAdministrator', 'A'],
    ['Manager', 'Global'],
  ],
  'AreaAdministrator + TenantAdministrator': [
    ['AreaAdministrator', 'A'],
    ['TenantAdministrator', 'Global'],
  ],
  Manager: [['Manager', 'Global']],
  'IdentityConsultant + ServiceManager': [
    ['IdentityConsultant', 'A'],
    ['ServiceManager', 'A'],
  ],
};

/** Targets by rank, all users of area A (within every caller's reach): what they hold, where ('B': area B's tenant). */
const TARGETS: Record<string, Array<[role: string, where: 'Global' | 'A' | 'B']>> = {
  'a plain user': [['User', 'Global']],
  'an AreaAdministrator of area A': [['AreaAdministrator', 'A']],
  'an AreaAdministrator of area B': [['AreaAdministrator', 'B']],
  'a Manager': [['Manager', 'Global']],
  'an Administrator': [['Administrator', 'Global']],
  'a God user': [['God', 'Global']],
  'the caller themself': [],
};

interface Case {
  w: AdminWorld;
  crm: Application;
  caller: User;
  target: User;
}

/** A mutating endpoint acting on a person: how to call it on the target, and which rule decides. */
interface Row {
  endpoint: EndpointName;
  /** Targets this row leaves out, with the reason. */
  skip?: Record<string, string>;
  /** How the endpoint words a refusal of the rules, where it names it its own way (the same decision). */
  words?: Record<string, string>;
  /** Prepares the target (a grant to take away…) and answers the call. */
  call(c: Case): Promise<{ method: 'get' | 'post' | 'put' | 'delete'; url: string; body?: unknown }>;
  /** The rules' decision for this caller and target. */
  decide(authority: Authority, target: Target, c: Case): Promise<Decision>;
}

const PASSWORD = 'Str0ng-and-l0ng-enough!';
const editBody = (c: Case) => ({ email: c.target.email, firstName: 'Edited', lastName: 'Name', language: 'en', areaId: c.w.areaA.id });
const readerIn = async (c: Case, tenant: Tenant) => ({
  path: 'users' as const,
  target: (await findTarget(c.w.context.dataSource, { type: 'User', id: c.target.id }))!,
  tenants: [{ id: tenant.id, areaId: tenant.areaId }],
  roles: (await findAccessRoles(c.w.context.dataSource, [c.crm.roleByName.Reader!.id])).map((role) => ({
    id: role.id,
    name: role.name,
    applicationId: role.applicationId,
    byHierarchy: false,
    operationRequestVisible: false,
    serviceManagerVisible: false,
  })),
});
const manage = async (authority: Authority, target: Target) => mayManageIdentity(authority, target);

const ROWS: Row[] = [
  { endpoint: 'users.update', call: async (c) => ({ method: 'put', url: `/api/v1/admin/users/${c.target.id}`, body: editBody(c) }), decide: manage },
  {
    endpoint: 'users.changePassword',
    call: async (c) => ({ method: 'post', url: `/api/v1/admin/users/change-password/${c.target.id}`, body: { password: PASSWORD, confirmPassword: PASSWORD } }),
    decide: manage,
    skip: { 'the caller themself': 'one’s own password is changed on the profile page, with the current one' },
  },
  { endpoint: 'users.invite', call: async (c) => ({ method: 'post', url: `/api/v1/admin/users/inviteUser/${c.target.id}` }), decide: manage },
  {
    endpoint: 'users.delete',
    call: async (c) => ({ method: 'delete', url: `/api/v1/admin/users/${c.target.id}` }),
    decide: manage,
    skip: { 'the caller themself': 'deleting one’s own account is refused before any rank (users.cannot_delete_self)' },
  },
  { endpoint: 'users.lock', call: async (c) => ({ method: 'get', url: `/api/v1/account/lock/${c.target.id}` }), decide: async (a, t) => mayLock(a, t) },
  {
    endpoint: 'users.unlock',
    call: async (c) => ({ method: 'get', url: `/api/v1/account/unlock/${c.target.id}` }),
    decide: async (a, t) => (a.userId === t.id ? { ok: false, code: 'users.cannot_unlock_self', status: 400 } : mayLock(a, t)),
  },
  {
    endpoint: 'users.resetFactors',
    call: async (c) => ({ method: 'post', url: `/api/v1/admin/users/${c.target.id}/factors/reset`, body: { kinds: ['passkeys', 'totp', 'recoveryCodes'] } }),
    decide: async (a, t) => mayResetFactors(a, t),
  },
  {
    endpoint: 'users.grantRoles',
    call: async (c) => ({ method: 'put', url: `/api/v1/admin/users/${c.target.id}/roles/${c.crm.id}`, body: { tenantId: c.w.tenantA.id, roleIds: [c.crm.roleByName.Reader!.id] } }),
    decide: async (a, _t, c) => mayGrantRoles(a, await readerIn(c, c.w.tenantA)),
  },
  {
    endpoint: 'users.revokeRoles',
    call: async (c) => {
      // Into the membership the target may already have there (an AreaAdministrator of area A).
      const membership = await lockOrCreateMembership(c.w.context.dataSource, c.w.tenantA.id, 'User', c.target.id, true);
      await addMembershipRoles(c.w.context.dataSource, membership.id, [c.crm.roleByName.Reader!.id]);
      return { method: 'delete', url: `/api/v1/admin/users/${c.target.id}/roles/${c.crm.id}?roleId=${c.crm.roleByName.Reader!.id}&tenantId=${c.w.tenantA.id}` };
    },
    decide: async (a, _t, c) => mayRevokeRoles(a, await readerIn(c, c.w.tenantA)),
  },
  {
    endpoint: 'tenants.addMember',
    call: async (c) => ({ method: 'post', url: `/api/v1/admin/tenants/${c.w.tenantA.id}/members`, body: { identityType: 'User', identityId: c.target.id, roleIds: [c.crm.roleByName.Reader!.id] } }),
    decide: async (a, _t, c) => mayGrantRoles(a, await readerIn(c, c.w.tenantA)),
    words: { 'users.manage_god_only': 'tenants.target_outranks', 'users.manage_admin_only': 'tenants.target_outranks' },
  },
];

/**
 * The other mutating endpoints, by where their authority is proven. They act on no person's rank
 * (applications, areas, tenants, roles, settings, the caller's own things), or on groups and
 * requests, whose rules the named suites attack.
 */
const PROVEN_ELSEWHERE: Record<string, string[]> = {
  'creates a person: no rank yet (users.test.ts; imports: users-excel.test.ts)': ['users.create', 'users.bulkInsert', 'clients.create'],
  'renames a user name, the same rank rule as users.update (users.test.ts, security.test.ts)': ['users.changeUserName'],
  'groups and their members: mayChangeGroupMembers and the group paths (groups.test.ts, groups-excel.test.ts, security.test.ts, policy.test.ts)': [
    'groups.create',
    'groups.update',
    'groups.delete',
    'groups.addMember',
    'groups.updateMember',
    'groups.removeMember',
    'groups.addTenantRoles',
    'groups.removeTenant',
    'groups.bulkInsert',
  ],
  'the tenant tree and its settings: no person (tenants.test.ts, hierarchy.test.ts)': ['tenants.create', 'tenants.update', 'tenants.delete', 'tenants.changeParent', 'tenants.twoModeAuth'],
  'a membership taken away across tenants: mayRevokeRoles per tenant (members.test.ts)': ['tenants.revokeAccess'],
  'imports of grants: the users and groups paths row by row (import.test.ts)': ['tenantIdentities.bulkInsertUsers', 'tenantIdentities.bulkInsertGroups'],
  'applications: mayEditApplication (applications.test.ts, policy.test.ts)': [
    'applications.create',
    'applications.update',
    'applications.setStatus',
    'applications.delete',
    'applications.regenerateSecret',
    'applications.addOwner',
    'applications.removeOwner',
    'applications.setSaml',
  ],
  'a service provider’s metadata read for the form: nothing stored, no person (saml.test.ts, role-matrix.test.ts)': ['applications.readSamlMetadata'],
  'application roles and scopes: administrators, no person (app-roles tests)': ['appRoles.create', 'appRoles.update', 'appRoles.delete', 'appRoles.createScope', 'appRoles.updateScope', 'appRoles.deleteScope'],
  'operation requests: mayApproveRequest, versions and the operationRequest path (operation-requests.test.ts, bulk.test.ts, policy.test.ts)': [
    'operationRequests.create',
    'operationRequests.createPermissions',
    'operationRequests.edit',
    'operationRequests.approveInBulk',
    'operationRequests.rejectInBulk',
    'operationRequests.approve',
    'operationRequests.reject',
    'operationRequests.cancel',
    'operationRequests.bulkInsert',
    'operationRequests.fullBulkInsert',
  ],
  'the Service Manager path: own roles and rank refused (service-manager.test.ts, policy.test.ts)': ['serviceManager.setPermissions'],
  'My Clients: mayChangeClientIdentity (clients.test.ts, policy.test.ts)': ['clients.update', 'clients.invite'],
  'signing in as someone: God only, never a God user (identify-as.test.ts)': ['dashboard.identifyAs'],
  'the external API: an application’s reach and applicationLockEffect (external.test.ts, invitations.test.ts, policy.test.ts)': [
    'external.RemoveRolesInTenant',
    'external.InviteUsers',
    'external.InviteUsersWithOperationRequest',
    'external.LockUser',
  ],
  'the caller’s own things or settings, no other person (notifications, keys, jobs, reports, security configuration, inspector tests)': [
    'dashboard.adminReport',
    'securityConfig.update',
    'inspector.inspect',
    'notifications.markRead',
    'notifications.delete',
    'notifications.deleteAll',
    'jobs.dashboardLink',
    'keys.create',
    'keys.delete',
  ],
  'webhook endpoints: no person’s access, administrators only by the roles table (webhooks.test.ts, role-matrix.test.ts)': [
    'webhooks.create',
    'webhooks.update',
    'webhooks.delete',
    'webhooks.rotateSecret',
    'webhooks.resend',
  ],
  'SCIM tokens: no person’s access, administrators only by the roles table; what a token does goes through the rules at each call (scim.test.ts, role-matrix.test.ts)': [
    'scimTokens.create',
    'scimTokens.delete',
  ],
};

/** Every endpoint that changes something, by contract: non-GET routes of the admin side, and the lock links (GET by the spec). */
function mutatingEndpoints(): Set<string> {
  const admin = (path: string) => ['/api/v1/admin', '/api/v1/external', '/api/v1/keys', '/api/v1/account/lock', '/api/v1/account/unlock', '/api/v1/profile/bulk_insert', '/api/v1/profile/full_bulk_insert'].some((prefix) => path.startsWith(prefix));
  return new Set(ALL_ROUTES.filter((route) => admin(route.path) && (route.method !== 'GET' || /\/account\/(un)?lock\//.test(route.path))).map((route) => route.endpoint));
}

describe('admin and external API authority matrix: every mutating endpoint on a person × callers × target rank', function () {
  this.timeout(600_000);
  let w: AdminWorld;
  let crm: Application;
  const tenantOf = (where: 'Global' | 'A' | 'B') => (where === 'Global' ? GLOBAL_TENANT_ID : where === 'A' ? w.tenantA : w.tenantB);

  before(async () => {
    w = await buildAdminWorld();
    crm = await buildApplication(w.context.dataSource, { roles: ['Reader'] });
  });

  /** A user of area A holding these Identity roles. */
  async function holding(roles: Array<[string, 'Global' | 'A' | 'B']>): Promise<User> {
    const user = await buildUser(w.context.dataSource, { areaId: w.areaA.id });
    for (const where of new Set(roles.map(([, where]) => where))) {
      const held = roles.filter(([, at]) => at === where).map(([role]) => w.identity.roleByName[role]!);
      await grant(w.context.dataSource, { tenant: tenantOf(where), user, roles: held });
    }
    return user;
  }

  /** The caller as the rules see them for this endpoint: the roles they hold now, of those their token carries, reaching the endpoint's areas. */
  async function authorityOf(caller: User, roles: string[], endpoint: EndpointName): Promise<Authority> {
    const scope = await scopeOf(w.context, { kind: 'access_token', userId: caller.id, roles, scopes: [], tokenId: null } as Caller, endpoint);
    const authority = await userAuthority(w.context.dataSource, caller.id, scope.areaIds);
    return { ...authority, roles: authority.roles.filter((role) => roles.includes(role.roleName)) };
  }

  it('has a row, or a named proof, for every mutating endpoint of the admin and external APIs', () => {
    const covered = new Set<string>([...ROWS.map((row) => row.endpoint), ...Object.values(PROVEN_ELSEWHERE).flat()]);
    const missing = [...mutatingEndpoints()].filter((endpoint) => !covered.has(endpoint));
    expect(missing, 'mutating endpoints with no row in the authority matrix').to.deep.equal([]);
    const stale = [...covered].filter((endpoint) => !mutatingEndpoints().has(endpoint));
    expect(stale, 'rows naming no mutating endpoint').to.deep.equal([]);
  });

  for (const row of ROWS) {
    it(`${row.endpoint}: answers what the rules decide, for ${Object.keys(CALLERS).length} callers × ${Object.keys(TARGETS).length - Object.keys(row.skip ?? {}).length} targets`, async () => {
      const wrong: string[] = [];
      for (const [callerName, callerRoles] of Object.entries(CALLERS)) {
        const roles = callerRoles.map(([role]) => role);
        for (const [targetName, targetRoles] of Object.entries(TARGETS)) {
          if (row.skip?.[targetName]) continue;
          const caller = await holding(callerRoles);
          const target = targetName === 'the caller themself' ? caller : await holding(targetRoles);
          const c: Case = { w, crm, caller, target };
          const { method, url, body } = await row.call(c);
          let expected: Decision;
          if (!rolesAllow(row.endpoint, roles)) expected = { ok: false, code: 'errors.forbidden', status: 403 };
          else expected = await row.decide(await authorityOf(caller, roles, row.endpoint), (await findTarget(w.context.dataSource, { type: 'User', id: target.id }))!, c);
          const token = await mintAccessToken(w.context, w.key, { sub: caller.id, roles });
          const req = request(w.server)[method](url).set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en');
          const res = body === undefined ? await req : await req.send(body as object);
          const codes = [res.body?.code, ...((res.body?.errors as Array<{ code: string }> | undefined) ?? []).map((e) => e.code)];
          const code = expected.ok ? undefined : (row.words?.[expected.code] ?? expected.code);
          const ok = expected.ok ? res.status >= 200 && res.status < 300 : res.status === expected.status && codes.includes(code);
          if (!ok) wrong.push(`${callerName} on ${targetName}: the rules say ${expected.ok ? 'allowed' : `${expected.status} ${expected.code}`}, the API answered ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
      expect(wrong).to.deep.equal([]);
    });
  }
});
