// The authority rules against a reference model written from the specification's role rules
// (admin-console.md: roles and rights, tenants, permissions, applications; portal-and-sign-in.md:
// My Clients, Service Manager, operation requests, the external API). fast-check draws tenant
// trees, callers and targets holding several roles at once (in their own name and through
// groups), the product's own and business applications, and every action; each decision of the
// rules must be the model's. A failure prints the seed and the case to replay it.
import { expect } from 'chai';
import fc from 'fast-check';
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID } from '../domain/constants.js';
import {
  applicationLockEffect,
  mayApproveRequest,
  mayChangeClientIdentity,
  mayEditApplication,
  mayGrantRoles,
  mayLock,
  mayManageIdentity,
  mayResetFactors,
  mayRevokeRoles,
  roleOfferRefusal,
  type AccessPath,
  type Authority,
  type Decision,
  type HeldRole,
  type RoleFacts,
  type Target,
} from './policy.js';

/** Fixed, so that a run is repeatable; fast-check prints it with the failing case. */
const SEED = 20_261_129;
const RUNS = 10_000;

const IDENTITY_ROLES = ['God', 'Administrator', 'Manager', 'AreaAdministrator', 'TenantAdministrator', 'IdentityConsultant', 'ServiceManager', 'User'] as const;
const AREAS = ['area-a', 'area-b', 'area-c'];
const PATHS: AccessPath[] = ['users', 'groups', 'operationRequest', 'serviceManager', 'external', 'bootstrap'];
const CALLER_ID = 'caller';
const CALLER_GROUPS = ['group-1', 'group-2'];

// ---------------------------------------------------------------------------------------------
// What is drawn.

/** A tenant tree: the Global tenant, and tenants each in an area (or none), under a parent or at the root. */
const tenantsArb = fc
  .array(fc.record({ areaId: fc.option(fc.constantFrom(...AREAS), { nil: null }), parent: fc.nat(), inheritable: fc.boolean() }), { minLength: 1, maxLength: 6 })
  .map((drawn) => [
    { id: GLOBAL_TENANT_ID, areaId: null as string | null, parentId: null as string | null, inheritable: false },
    ...drawn.map((tenant, index) => ({
      id: `tenant-${index}`,
      areaId: tenant.areaId,
      parentId: index === 0 || tenant.parent % 3 === 0 ? null : `tenant-${tenant.parent % index}`,
      inheritable: tenant.inheritable,
    })),
  ]);
type Tenants = Array<{ id: string; areaId: string | null; parentId: string | null; inheritable: boolean }>;

/** Identity roles held in tenants of the tree: own, through a group, or inherited from an ancestor's inheritable membership. */
function heldArb(tenants: Tenants): fc.Arbitrary<HeldRole[]> {
  return fc
    .array(fc.record({ roleName: fc.constantFrom(...IDENTITY_ROLES), tenant: fc.constantFrom(...tenants), below: fc.boolean() }), { maxLength: 4 })
    .map((grants) =>
      grants.flatMap(({ roleName, tenant, below }) => {
        const held = [{ roleName, tenantId: tenant.id, areaId: tenant.areaId }];
        // Inherited: the role reaches the children of an inheritable membership too.
        if (below && tenant.inheritable) for (const child of tenants.filter((t) => t.parentId === tenant.id)) held.push({ roleName, tenantId: child.id, areaId: child.areaId });
        return held;
      }),
    );
}

const businessRoleArb: fc.Arbitrary<RoleFacts> = fc.record({
  id: fc.constantFrom('crm-reader', 'crm-writer', 'erp-reader'),
  name: fc.constantFrom('Reader', 'Writer', 'Approver'),
  applicationId: fc.constantFrom('crm', 'erp'),
  // Now and then a role given only by the hierarchy.
  byHierarchy: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
  operationRequestVisible: fc.boolean(),
  serviceManagerVisible: fc.boolean(),
});

const identityRoleArb: fc.Arbitrary<RoleFacts> = fc.record({
  id: fc.constantFrom(...IDENTITY_ROLES).map((name) => `identity-${name}`),
  name: fc.constantFrom(...IDENTITY_ROLES),
  applicationId: fc.constant(IDENTITY_APPLICATION_ID),
  byHierarchy: fc.constant(false),
  operationRequestVisible: fc.boolean(),
  serviceManagerVisible: fc.boolean(),
});

const rolesArb = fc.array(fc.oneof({ weight: 3, arbitrary: businessRoleArb }, { weight: 2, arbitrary: identityRoleArb }), { minLength: 1, maxLength: 3 });

interface World {
  tenants: Tenants;
  authority: Authority;
  target: Target;
  tenant: { id: string; areaId: string | null };
  roles: RoleFacts[];
  path: AccessPath;
  inherited: boolean;
}

const worldArb: fc.Arbitrary<World> = tenantsArb.chain((tenants) =>
  fc.record({
    tenants: fc.constant(tenants),
    authority: fc
      .record({
        kind: fc.constantFrom<Authority['kind']>('user', 'user', 'user', 'application', 'system'),
        userId: fc.constant(CALLER_ID),
        applicationId: fc.constantFrom('crm', 'erp'),
        roles: heldArb(tenants),
        groupIds: fc.subarray(CALLER_GROUPS),
        areaIds: fc.option(fc.subarray(AREAS), { nil: null }),
      })
      // An application holds no Identity role of its own (its token's owner may, but never lends them).
      .map((authority): Authority => (authority.kind === 'application' ? { ...authority, roles: [] } : authority)),
    target: fc.record({
      type: fc.constantFrom<Target['type']>('User', 'Group'),
      // The caller themself, a group the caller may belong to, or someone else.
      id: fc.constantFrom(CALLER_ID, 'group-1', 'group-2', 'someone'),
      areaId: fc.option(fc.constantFrom(...AREAS), { nil: null }),
      roles: heldArb(tenants),
      isUsersGroup: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    }),
    tenant: fc.constantFrom(...tenants).map(({ id, areaId }) => ({ id, areaId })),
    roles: rolesArb,
    path: fc.constantFrom(...PATHS),
    inherited: fc.boolean(),
  }),
);

// ---------------------------------------------------------------------------------------------
// The reference model: the spec's rules, each stated on its own. A change is allowed when none
// is broken; a refusal names one of those broken.

const isGodCaller = (a: Authority) => a.kind === 'user' && a.roles.some((r) => r.roleName === 'God');
const isAdminCaller = (a: Authority) => a.kind === 'user' && a.roles.some((r) => r.roleName === 'God' || r.roleName === 'Administrator');
const reachesArea = (a: Authority, areaId: string | null) => a.areaIds === null || (areaId !== null && a.areaIds.includes(areaId));
const delegated = (path: AccessPath) => path === 'operationRequest' || path === 'serviceManager' || path === 'external';

/**
 * Rank (spec: "nobody manages someone who outranks them"): God 4, any administration role but
 * User and AreaAdministrator 3, AreaAdministrator 2, nothing beyond User 1. A group: God 4, any
 * Identity role 3, none 1.
 */
function rankOf(target: Target): number {
  const names = target.roles.map((r) => r.roleName);
  if (names.includes('God')) return 4;
  if (target.type === 'Group') return names.length ? 3 : 1;
  if (names.some((n) => n !== 'User' && n !== 'AreaAdministrator')) return 3;
  return names.includes('AreaAdministrator') ? 2 : 1;
}

/** The refusals of rank the model expects (empty: the caller may manage the target). */
function rankBreaks(a: Authority, target: Target): string[] {
  if (a.kind === 'system') return [];
  const rank = rankOf(target);
  if (a.kind === 'application') return target.roles.some((r) => r.roleName !== 'User') ? ['users.manage_admin_only'] : [];
  if (rank === 4) return isGodCaller(a) ? [] : ['users.manage_god_only'];
  if (isAdminCaller(a)) return [];
  if (rank === 3) return ['users.manage_admin_only'];
  if (rank === 2) {
    // An AreaAdministrator is managed by a caller whose reach covers every area where they hold it.
    const areas = target.roles.filter((r) => r.roleName === 'AreaAdministrator');
    if (a.areaIds === null) return [];
    return areas.every((r) => r.tenantId !== GLOBAL_TENANT_ID && reachesArea(a, r.areaId)) ? [] : ['users.manage_admin_only'];
  }
  return [];
}

const GLOBAL_CODES: Record<AccessPath, string> = {
  users: 'users.global_tenant_admin_only',
  groups: 'groups.global_forbidden',
  operationRequest: 'access.global_tenant_delegated',
  serviceManager: 'access.global_tenant_delegated',
  external: 'access.global_tenant_delegated',
  bootstrap: 'users.global_tenant_admin_only',
};
const IDENTITY_CODES: Record<AccessPath, string> = { ...GLOBAL_CODES, users: 'users.identity_roles_admin_only', groups: 'groups.identity_roles_forbidden', operationRequest: 'users.identity_roles_admin_only', serviceManager: 'users.identity_roles_admin_only', external: 'users.identity_roles_admin_only', bootstrap: 'users.identity_roles_admin_only' };
const GOD_CODES: Record<AccessPath, string> = { users: 'users.god_role_god_only', groups: 'groups.god_role_forbidden', operationRequest: 'users.god_role_god_only', serviceManager: 'users.god_role_god_only', external: 'users.god_role_god_only', bootstrap: 'users.god_role_god_only' };

/** Every rule a grant or revocation of `roles` to `target` in `tenant` on `path` breaks. */
function modelBreaks(w: World, action: 'grant' | 'revoke'): string[] {
  const a = w.authority;
  if (a.kind === 'system') return [];
  const broken: string[] = [];
  const identity = w.roles.filter((r) => r.applicationId === IDENTITY_APPLICATION_ID);
  const neverDelegated = (r: RoleFacts) => r.applicationId === IDENTITY_APPLICATION_ID && (r.name === 'God' || r.name === 'Administrator');
  // Roles given by the hierarchy alone are never picked.
  if (action === 'grant' && w.roles.some((r) => r.byHierarchy)) broken.push('users.role_by_hierarchy');
  // Taking away what the target also holds by hierarchy: administrators only.
  if (action === 'revoke' && w.inherited && !isAdminCaller(a)) broken.push('users.only_admin_revoke');
  // Four eyes: never one's own roles, nor those of one's group.
  if (w.target.type === 'User' && w.target.id === a.userId) broken.push('access.own_roles');
  if (w.target.type === 'Group' && a.groupIds.includes(w.target.id)) broken.push('access.own_group_roles');
  if (!reachesArea(a, w.target.areaId)) broken.push('errors.not_found');
  if (w.target.isUsersGroup && !isGodCaller(a)) broken.push('groups.users_group_locked');
  // What each path may give at all.
  for (const role of w.roles) {
    if (w.path === 'operationRequest' && (!role.operationRequestVisible || neverDelegated(role))) broken.push('operationRequests.role_not_requestable');
    if (w.path === 'serviceManager' && (!role.serviceManagerVisible || neverDelegated(role))) broken.push('serviceManager.role_not_visible');
    if (w.path === 'external' && (role.applicationId !== a.applicationId || neverDelegated(role))) broken.push('external.role_not_found');
  }
  // The Global tenant: administrators, and never by delegation.
  // (An application takes its own roles away wherever they were given.)
  const ownRolesTaken = action === 'revoke' && w.path === 'external';
  if (w.tenant.id === GLOBAL_TENANT_ID && !ownRolesTaken && (delegated(w.path) || !isAdminCaller(a))) broken.push(GLOBAL_CODES[w.path]);
  // The Identity application's roles make administrators: administrators give them on the console's paths.
  if (identity.length && !delegated(w.path) && !isAdminCaller(a)) broken.push(IDENTITY_CODES[w.path]);
  if (identity.some((r) => r.name === 'God') && !isGodCaller(a)) broken.push(GOD_CODES[w.path]);
  if (w.tenant.id !== GLOBAL_TENANT_ID && !reachesArea(a, w.tenant.areaId)) broken.push('access.tenant_out_of_reach');
  const rank = rankBreaks(a, w.target);
  if (rank.length) broken.push(w.path === 'serviceManager' ? 'serviceManager.target_outranks' : rank[0]!);
  return broken;
}

/** The rules' decision agrees with the model: allowed exactly when nothing is broken, refused naming a broken rule. */
function agrees(decision: Decision, broken: string[], what: string): void {
  if (broken.length === 0) expect(decision, what).to.deep.equal({ ok: true });
  else {
    expect(decision.ok, `${what}: the model refuses (${broken.join(', ')})`).to.equal(false);
    expect(broken, what).to.include(decision.ok ? '' : decision.code);
  }
}

const facts = (w: World) => ({ path: w.path, target: w.target, tenants: [w.tenant], roles: w.roles });
const property = (predicate: (w: World) => void) => fc.assert(fc.property(worldArb, predicate), { seed: SEED, numRuns: RUNS });

describe('the authority rules (access/policy.ts) against the spec’s reference model', function () {
  this.timeout(120_000);

  it(`grants roles exactly as the model does, over ${RUNS} drawn worlds (seed ${SEED})`, () => {
    property((w) => agrees(mayGrantRoles(w.authority, facts(w)), modelBreaks(w, 'grant'), `grant on ${w.path}`));
  });

  it(`revokes roles exactly as the model does, over ${RUNS} drawn worlds (seed ${SEED})`, () => {
    property((w) => agrees(mayRevokeRoles(w.authority, { ...facts(w), inherited: w.inherited }), modelBreaks(w, 'revoke'), `revoke on ${w.path}`));
  });

  it('never lets anyone but the product itself change their own roles or their group’s, on any path', () => {
    property((w) => {
      if (w.authority.kind === 'system') return;
      const own = { ...w.target, type: 'User' as const, id: CALLER_ID };
      expect(mayGrantRoles(w.authority, { ...facts(w), target: own }).ok).to.equal(false);
      expect(mayRevokeRoles(w.authority, { ...facts(w), target: own }).ok).to.equal(false);
      for (const groupId of w.authority.groupIds) expect(mayGrantRoles(w.authority, { ...facts(w), target: { ...w.target, type: 'Group', id: groupId } }).ok).to.equal(false);
    });
  });

  it('gives God only through God, and Administrator or the Global tenant never by delegation', () => {
    property((w) => {
      const decision = mayGrantRoles(w.authority, facts(w));
      if (!decision.ok || w.authority.kind === 'system') return;
      if (w.roles.some((r) => r.applicationId === IDENTITY_APPLICATION_ID && r.name === 'God')) expect(isGodCaller(w.authority)).to.equal(true);
      if (delegated(w.path)) {
        expect(w.tenant.id).to.not.equal(GLOBAL_TENANT_ID);
        expect(w.roles.some((r) => r.applicationId === IDENTITY_APPLICATION_ID && (r.name === 'God' || r.name === 'Administrator'))).to.equal(false);
      }
      if (w.path === 'external') expect(w.roles.every((r) => r.applicationId === w.authority.applicationId)).to.equal(true);
    });
  });

  it('offers on each delegated path only the roles it may give, whoever asks: what a request checks as it is made', () => {
    property((w) => {
      for (const role of w.roles) {
        const never = role.applicationId === IDENTITY_APPLICATION_ID && (role.name === 'God' || role.name === 'Administrator');
        const requestable = role.operationRequestVisible && !never && !role.byHierarchy;
        expect(roleOfferRefusal('operationRequest', role) === undefined, `${role.name} requestable`).to.equal(requestable);
        const manageable = role.serviceManagerVisible && !never && !role.byHierarchy;
        expect(roleOfferRefusal('serviceManager', role) === undefined, `${role.name} on the Service Manager screen`).to.equal(manageable);
      }
    });
  });

  it(`manages, locks and unlocks exactly as the model ranks, over ${RUNS} drawn worlds`, () => {
    property((w) => {
      agrees(mayManageIdentity(w.authority, w.target), rankBreaks(w.authority, w.target), 'manage');
      const lockBreaks = [
        ...(w.authority.kind !== 'system' && w.authority.userId === w.target.id ? ['users.cannot_lock_self'] : []),
        ...(w.authority.kind === 'user' && !reachesArea(w.authority, w.target.areaId) ? ['errors.not_found'] : []),
        ...rankBreaks(w.authority, w.target),
      ];
      agrees(mayLock(w.authority, w.target), lockBreaks, 'lock');
    });
  });

  it(`resets sign-in factors exactly as the model ranks, never one's own nor by an application, over ${RUNS} drawn worlds`, () => {
    property((w) => {
      const a = w.authority;
      let broken: string[] = [];
      if (a.kind === 'application') broken = ['errors.forbidden'];
      else if (a.kind === 'user') {
        broken = [
          ...(w.target.type !== 'User' ? ['errors.not_found'] : []),
          ...(w.target.type === 'User' && w.target.id === a.userId ? ['users.cannot_reset_own_factors'] : []),
          ...(!reachesArea(a, w.target.areaId) ? ['errors.not_found'] : []),
          ...rankBreaks(a, w.target),
        ];
      }
      agrees(mayResetFactors(a, w.target), broken, 'reset factors');
    });
  });

  describe('resetting sign-in factors, case by case', () => {
    const held = (roleName: string, tenantId = GLOBAL_TENANT_ID, areaId: string | null = null): HeldRole => ({ roleName, tenantId, areaId });
    const caller = (roles: HeldRole[], areaIds: string[] | null = null): Authority => ({ kind: 'user', userId: CALLER_ID, applicationId: null, roles, groupIds: [], areaIds });
    const user = (roles: HeldRole[], areaId = 'area-a', id = 'someone'): Target => ({ type: 'User', id, areaId, roles });
    const administrator = caller([held('Administrator')]);
    const areaAdministrator = caller([held('AreaAdministrator', 'tenant-a', 'area-a')], ['area-a']);

    it('lets an Administrator reset a user, and God a God user', () => {
      expect(mayResetFactors(administrator, user([held('User')]))).to.deep.equal({ ok: true });
      expect(mayResetFactors(caller([held('God')]), user([held('God')]))).to.deep.equal({ ok: true });
    });

    it('refuses an Administrator a God user (403), and everybody their own account (400)', () => {
      expect(mayResetFactors(administrator, user([held('God')]))).to.deep.include({ ok: false, code: 'users.manage_god_only', status: 403 });
      expect(mayResetFactors(caller([held('God')]), user([held('God')], 'area-a', CALLER_ID))).to.deep.include({ ok: false, code: 'users.cannot_reset_own_factors', status: 400 });
    });

    it('keeps an AreaAdministrator to plain users of their areas: another area is not found, an administrator outranks them', () => {
      expect(mayResetFactors(areaAdministrator, user([held('User')]))).to.deep.equal({ ok: true });
      expect(mayResetFactors(areaAdministrator, user([held('User')], 'area-b'))).to.deep.include({ ok: false, code: 'errors.not_found', status: 404 });
      expect(mayResetFactors(areaAdministrator, user([held('Administrator')]))).to.deep.include({ ok: false, code: 'users.manage_admin_only', status: 403 });
      expect(mayResetFactors(areaAdministrator, user([held('Manager')]))).to.deep.include({ ok: false, code: 'users.manage_admin_only', status: 403 });
    });

    it('is never an application’s to do, even for a plain user', () => {
      const application: Authority = { kind: 'application', userId: null, applicationId: 'crm', roles: [], groupIds: [], areaIds: null };
      expect(mayResetFactors(application, user([held('User')]))).to.deep.include({ ok: false, status: 403 });
    });
  });

  it('lets an application lock an account only when it created it and the account holds nothing else; else it ends that application’s access only', () => {
    fc.assert(
      fc.property(worldArb, fc.boolean(), fc.boolean(), fc.boolean(), (w, served, created, elsewhere) => {
        const authority = { ...w.authority, kind: 'application' as const, roles: [] };
        const target = { ...w.target, type: 'User' as const, servedByApplication: served, createdByApplication: created, holdsElsewhere: elsewhere };
        const result = applicationLockEffect(authority, target);
        const broken = [...(!served ? ['external.user_not_found'] : []), ...(authority.userId === target.id ? ['external.lock_self'] : []), ...rankBreaks(authority, target)];
        if (broken.length) {
          expect(result.ok).to.equal(false);
          expect(broken).to.include(result.ok ? '' : result.code);
        } else expect(result).to.deep.equal({ ok: true, effect: created && !elsewhere ? 'account' : 'application' });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('lets a consultant change the e-mail of, or invite, only users known to their clients alone who never signed in', () => {
    fc.assert(
      fc.property(worldArb, fc.boolean(), fc.boolean(), (w, outside, signedIn) => {
        const target = { ...w.target, type: 'User' as const, holdsOutsideConsultedTenants: outside, hasSignedIn: signedIn };
        const decision = mayChangeClientIdentity(w.authority, target);
        let broken: string[];
        if (w.authority.kind === 'system') broken = [];
        else if (isAdminCaller(w.authority)) broken = rankBreaks(w.authority, target);
        else if (target.roles.some((r) => r.roleName !== 'User')) broken = ['users.manage_admin_only'];
        else broken = outside || signedIn ? ['clients.identity_owned_elsewhere'] : [];
        agrees(decision, broken, 'client identity');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('lets an approver decide a request only when they approve there, and never their own or one giving roles to them or their group', () => {
    fc.assert(
      fc.property(
        worldArb,
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom<string | null>(CALLER_ID, 'someone', null),
        (w, approverCategory, consults, requesterId) => {
          const authority = { ...w.authority, kind: 'user' as const, approverCategory, consults: () => consults };
          const request = { tenantId: w.tenant.id, requesterId, target: { type: w.target.type, id: w.target.id } };
          const broken = [
            ...(!(isAdminCaller(authority) || (approverCategory && consults)) ? ['operationRequests.not_approver'] : []),
            ...(requesterId === CALLER_ID ? ['operationRequests.own_request'] : []),
            ...((w.target.type === 'User' && w.target.id === CALLER_ID) || (w.target.type === 'Group' && authority.groupIds.includes(w.target.id)) ? ['access.own_request_target'] : []),
          ];
          agrees(mayApproveRequest(authority, request), broken, 'approve');
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('keeps the product’s own applications’ addresses, type and grants fixed and them enabled, and lets only an owner delete a business application', () => {
    const FIELDS = ['displayName', 'description', 'redirectUris', 'postLogoutRedirectUris', 'type', 'privateUrl', 'icon', 'enabled'];
    fc.assert(
      fc.property(
        worldArb,
        fc.constantFrom(IDENTITY_APPLICATION_ID, 'portal', 'admin-console', 'crm'),
        fc.constantFrom<'update' | 'delete'>('update', 'delete'),
        fc.subarray(FIELDS),
        fc.boolean(),
        (w, id, kind, fields, owner) => {
          const productOwn = id !== 'crm';
          const application = { id, isProductOwn: productOwn, ownerIds: owner ? [CALLER_ID] : [] };
          const broken: string[] = [];
          if (w.authority.kind !== 'system') {
            if (!isAdminCaller(w.authority)) broken.push('errors.forbidden');
            if (kind === 'update' && productOwn && fields.some((f) => ['redirectUris', 'postLogoutRedirectUris', 'type'].includes(f))) broken.push('applications.product_own_fixed');
            if (kind === 'update' && productOwn && fields.includes('enabled')) broken.push('applications.product_own_enabled');
            if (kind === 'delete' && productOwn) broken.push(id === IDENTITY_APPLICATION_ID ? 'applications.identity_undeletable' : 'applications.system_undeletable');
            if (kind === 'delete' && !productOwn && !owner) broken.push('applications.not_owner');
          }
          agrees(mayEditApplication(w.authority, application, { kind, fields }), broken, `${kind} ${id}`);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
