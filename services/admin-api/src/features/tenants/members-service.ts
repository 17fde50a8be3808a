import type { AddTenantMemberBody, ErrorCode, RevokeAccessBody, TenantMember } from '@gatehouse/contracts';
import { AppError, GLOBAL_TENANT_ID, type AppContext, type IdentityType, type ListQuery } from '@gatehouse/core';
import type { TenantAccess } from '@gatehouse/core/access';
import { callerActor, tenantAccess } from '../../access.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { CallerScope } from '../../auth/scope.js';
import type { Queryable } from '../../db.js';
import { findRoles } from '../directory/lookups.js';
import { GroupsService } from '../groups/service.js';
import { UserRolesService } from '../users/roles/service.js';
import { MEMBER_SORT, findIdentityRolesIn, findMemberRoles, identityExists, listMembers, type MemberFilter } from './members-repository.js';
import { findAncestorIds } from './repository.js';
import { fieldError, visibleTenant } from './service.js';
import type { AdminContext } from '../../admin-context.js';

/**
 * The tenant pages word the users' and groups' refusals in their own terms: the same rule, the
 * message of the page that applied it.
 */
const TENANT_CODES: Partial<Record<ErrorCode, ErrorCode>> = {
  'users.role_not_available': 'tenants.role_not_found',
  'groups.role_not_found': 'tenants.role_not_found',
  'users.global_tenant_admin_only': 'tenants.global_forbidden',
  'groups.global_forbidden': 'tenants.global_forbidden',
  'users.identity_roles_admin_only': 'tenants.identity_roles_forbidden',
  'groups.identity_roles_forbidden': 'tenants.identity_roles_forbidden',
  'users.god_role_god_only': 'tenants.god_role_forbidden',
  'groups.god_role_forbidden': 'tenants.god_role_forbidden',
  'groups.users_group_locked': 'tenants.users_group_locked',
  'users.manage_god_only': 'tenants.target_outranks',
  'users.manage_admin_only': 'tenants.target_outranks',
};
/** Fields of the user and group pages' bodies, as the tenant page's bodies name them. */
const TENANT_FIELDS: Record<string, string> = { tenantId: 'global' };

/** Runs a check or a change of the users or groups feature, answering its refusals with the tenant page's codes. */
async function inTenantTerms<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = error instanceof AppError ? TENANT_CODES[error.code] : undefined;
    if (!code || !(error instanceof AppError)) throw error;
    const errors = error.errors.map((e) => ({ ...e, field: TENANT_FIELDS[e.field] ?? e.field, code: TENANT_CODES[e.code] ?? e.code }));
    throw new AppError(code, error.status, error.params, errors);
  }
}

/** Who a membership belongs to. */
interface Identity {
  type: IdentityType;
  id: string;
}

/**
 * The members of a tenant: who holds roles there, in their own name or by hierarchy (an ancestor's
 * inheritable membership, the Global tenant). Giving and taking roles goes through the users' and
 * groups' own rules (UserRolesService, GroupsService), so a role refused on those pages is refused here.
 */
export class TenantMembersService {
  private readonly userRoles: UserRolesService;
  private readonly groups: GroupsService;

  private readonly access: TenantAccess;

  constructor(private readonly context: AdminContext) {
    this.access = tenantAccess(context);
    this.userRoles = new UserRolesService(context, this.access);
    this.groups = new GroupsService(context, this.access);
  }

  private get db() {
    return this.context.dataSource;
  }

  /** One page of members; with `includeRoles` each with its roles and where they come from. */
  async list(
    scope: CallerScope,
    tenantId: string,
    query: ListQuery,
    options: { includeRoles?: boolean; excludeUserGlobal: boolean },
  ): Promise<{ items: TenantMember[]; count: number }> {
    const tenant = await visibleTenant(this.db, scope, tenantId);
    const filter = { tenantId: tenant.id, includeGlobal: !options.excludeUserGlobal };
    const page = await listMembers(this.db, filter, tenant, query);
    const roles = options.includeRoles ? await findMemberRoles(this.db, filter, page.items.map((m) => m.identityId)) : undefined;
    return { items: page.items.map((member) => ({ ...member, roles: roles?.get(member.identityId) ?? [] })), count: page.count };
  }

  /** Members with their roles, `top` of them after the first `skip` (the export reads them a batch at a time). */
  async batch(scope: CallerScope, tenantId: string, excludeUserGlobal: boolean, skip: number, top: number): Promise<TenantMember[]> {
    const query: ListQuery = { search: null, skip, top, orderBy: `${MEMBER_SORT.displayName} ASC` };
    return (await this.list(scope, tenantId, query, { includeRoles: true, excludeUserGlobal })).items;
  }

  /** One identity as a member of the tenant, with its roles there (Global's included); undefined when it holds none. */
  private async member(db: Queryable, tenant: { id: string; title: string }, identity: Identity): Promise<TenantMember | undefined> {
    const filter: MemberFilter = { tenantId: tenant.id, includeGlobal: true, identityType: identity.type, identityId: identity.id };
    const [member] = (await listMembers(db, filter, tenant, { search: null, skip: 0, top: 1, orderBy: `${MEMBER_SORT.displayName} ASC` })).items;
    if (!member) return undefined;
    return { ...member, roles: (await findMemberRoles(db, filter, [identity.id])).get(identity.id) ?? [] };
  }

  /** `GET /tenants/members/identity`: 404 when the identity holds nothing in the tenant, own or inherited. */
  async memberIdentity(scope: CallerScope, tenantId: string, identityId: string, isGroup: boolean): Promise<TenantMember> {
    const tenant = await visibleTenant(this.db, scope, tenantId);
    const member = await this.member(this.db, tenant, { type: isGroup ? 'Group' : 'User', id: identityId });
    if (!member) throw new AppError('tenants.not_member', 404);
    return member;
  }

  /**
   * Gives a user or a group roles in the tenant, or (`global`, administrators only) in the Global
   * tenant, by the rules of the user page's role switches or the group page's Add Tenant Roles
   * dialog, and refuses a user who outranks the caller. Answers whether a membership was created
   * and the member as the tenant now sees it.
   */
  async add(caller: Caller, scope: CallerScope, tenantId: string, body: AddTenantMemberBody & { global: boolean }): Promise<{ created: boolean; member: TenantMember }> {
    const tenant = await visibleTenant(this.db, scope, tenantId);
    if (body.global && !scope.isAdministrator) throw fieldError('global', 'tenants.global_forbidden', 403);
    const target = body.global ? GLOBAL_TENANT_ID : tenant.id;
    const identity: Identity = { type: body.identityType, id: body.identityId };
    if (!(await identityExists(this.db, identity.type, identity.id))) throw fieldError('identityId', 'tenants.identity_not_found');
    const roleIds = [...new Set(body.roleIds)];
    if ((await findRoles(this.db, { ids: roleIds })).length !== roleIds.length) throw fieldError('roleIds', 'tenants.role_not_found');

    const { created } = await inTenantTerms(async () => {
      if (identity.type === 'Group') return this.groups.addTenantRoles(caller, scope, identity.id, { tenantId: target, roleIds, isInheritable: body.isInheritable });
      return this.userRoles.grantTenantRoles(caller, scope, identity.id, { tenantId: target, roleIds, isInheritable: body.isInheritable });
    });
    return { created, member: (await this.member(this.db, tenant, identity))! };
  }

  /**
   * Takes away the identity's own roles of these applications in the tenant and, with
   * `includeParent` (administrators only), its inheritable grants of them in the ancestors, which
   * reach the tenant by hierarchy (and so their other descendants too), by the rules of tenant
   * access for the user or the group. Other applications' roles stay; memberships left empty are
   * deleted. Answers the member as it now stands, its roles possibly empty; 404 when it held
   * nothing in the tenant.
   */
  async revoke(caller: Caller, scope: CallerScope, body: RevokeAccessBody & { isGroup: boolean; includeParent: boolean }): Promise<TenantMember> {
    const tenant = await visibleTenant(this.db, scope, body.tenantId);
    if (body.includeParent && !scope.isAdministrator) throw new AppError('tenants.hierarchy_admin_only', 403);
    const identity: Identity = { type: body.isGroup ? 'Group' : 'User', id: body.userId };
    const before = await this.member(this.db, tenant, identity);
    if (!before) throw new AppError('tenants.not_member', 404);
    const applicationIds = [...new Set(body.applicationIds)];
    const origin = { fromTenantId: tenant.id, includeParent: body.includeParent, applicationIds };
    const actor = await callerActor(this.db, caller, scope, identity.type === 'User' ? 'users' : 'groups', origin);

    await inTenantTerms(() =>
      this.access.transaction(async (changes) => {
        const tenantIds = [tenant.id, ...(body.includeParent ? await findAncestorIds(changes.em, tenant.id) : [])];
        const held = await findIdentityRolesIn(changes.em, identity.type, identity.id, tenantIds, applicationIds);
        for (const [tenantId, roles] of groupBy(held, (role) => role.tenantId)) {
          const where = { id: tenantId, title: roles[0]!.tenantTitle, areaId: roles[0]!.tenantAreaId };
          await changes.revoke(actor, { identity, tenant: where, roleIds: roles.map((role) => role.roleId) });
        }
      }),
    );
    return (await this.member(this.db, tenant, identity)) ?? { ...before, id: null, isInheritable: false, hierarchyType: 'Own', roles: [] };
  }
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
