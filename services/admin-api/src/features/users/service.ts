import {
  AppError,
  GLOBAL_TENANT_ID,
  IDENTITY_APPLICATION_ID,
  checkPasswordRules,
  consumeUserToken,
  generatePassword,
  isRecentPassword,
  issueUserToken,
  loadPasswordPolicy,
  resolveEffectiveRoles,
  revokeUserTokens,
  storeNewPassword,
  type AppContext,
  type FieldError,
  type HierarchyType,
  type ListQuery,
  type Mailer,
  type PasswordPolicy,
} from '@gatehouse/core';
import type { EntityManager } from 'typeorm';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { assertInScope, inScope, type CallerScope } from '../../auth/scope.js';
import type { Queryable } from '../../db.js';
import {
  addMembershipRoles,
  areaExists,
  deleteProviderSessions,
  deleteUser,
  ensureOwnMembership,
  findApplications,
  findMemberships,
  findRoleGrants,
  findRoles,
  findTenant,
  findTenantAreas,
  findUserDetail,
  findUserForUpdate,
  findUserGroups,
  findUserName,
  findUserState,
  insertUser,
  listUsers,
  lockUser,
  logUnlocked,
  markPasswordTemporary,
  removeOwnApplicationRoles,
  removeOwnRole,
  unlock,
  updateUser,
  userNameTaken,
  type ApplicationRow,
  type RoleGrantRow,
  type RoleRow,
  type UserDetailRow,
  type UserListRow,
  type UserStateRow,
} from './repository.js';
import type { ApplicationAccess, NewUserInput, UpdateUserInput, UserDetail, UserListItem } from './schema.js';

/** An invitation link works for a week (it is read in a mailbox, not at once like a reset link). */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;
/** The product's name in mails (the portal shows the same). */
const PRODUCT_NAME = 'Gatehouse';

/** Who makes a change, as the system log records it. */
export interface Actor {
  userId: string;
  userName: string | null;
}

export interface CreateUserOptions {
  /** The caller's areas (null: every area); a user into another area is refused. Default: every area. */
  areaIds?: string[] | null;
  /** The password policy, when the caller already loaded it (a bulk import: once per file). */
  policy?: PasswordPolicy;
  /**
   * Without a password in the input, store none instead of hashing a generated one nobody will
   * ever know (a bulk import: one argon2 hash per row would make 10,000 rows take minutes). Either
   * way the user cannot sign in with a password until the invitation or a reset sets one.
   */
  withoutGeneratedPassword?: boolean;
}

const hierarchyType = (own: boolean, byHierarchy: boolean): HierarchyType => (own && byHierarchy ? 'Both' : own ? 'Own' : 'ByHierarchy');

export const toListItem = (row: UserListRow): UserListItem => ({
  id: row.id,
  userName: row.user_name,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  areaId: row.area_id,
  areaName: row.area_name,
  validateScopes: row.validate_scopes,
  locked: row.locked,
  draft: row.draft,
  modifiedOn: row.modified_on,
  language: row.language,
});

const toDetail = (row: UserDetailRow): UserDetail => ({
  ...toListItem(row),
  jobTitle: row.job_title,
  manager: row.manager,
  teams: Array.isArray(row.teams) ? row.teams.map(String) : [],
  emailVerified: row.email_verified,
  twoFactorEnabled: row.two_factor_enabled,
  lastLoginAt: row.last_login_at,
  createdAt: row.created_at,
});

const validationError = (errors: FieldError[]) => new AppError('errors.validation', 400, {}, errors);

/**
 * Creates one user: checks what the schema cannot (area, scope, unique user name, password rules),
 * hashes the password (or a random one satisfying the policy, which nobody ever sees: the user sets
 * their own through the invitation), inserts the user and writes the CreateUser system log row.
 * Runs in the caller's transaction (`db`), so the Excel import can call it per row inside a
 * savepoint. Sends nothing: mails go after the commit (UsersService.invite).
 */
export async function createUser(
  context: AppContext,
  db: EntityManager,
  input: NewUserInput,
  actor: Actor,
  options: CreateUserOptions = {},
): Promise<UserDetail> {
  const areaIds = options.areaIds ?? null;
  const areaId = input.areaId.toLowerCase();
  if (areaIds && !areaIds.includes(areaId)) {
    throw new AppError('users.area_out_of_scope', 403, {}, [{ field: 'areaId', code: 'users.area_out_of_scope' }]);
  }
  const policy = options.policy ?? (await loadPasswordPolicy(db));
  const errors: FieldError[] = [];
  const passwordGiven = Boolean(input.password || input.confirmPassword);
  if (passwordGiven) {
    if (!input.password) errors.push({ field: 'password', code: 'users.password_required' });
    else errors.push(...checkPasswordRules(input.password, policy, 'password'));
    if (!input.confirmPassword) errors.push({ field: 'confirmPassword', code: 'users.confirm_password_required' });
    else if (input.password && input.confirmPassword !== input.password) errors.push({ field: 'confirmPassword', code: 'users.passwords_mismatch' });
  }
  if (!(await areaExists(db, areaId))) errors.push({ field: 'areaId', code: 'users.area_not_found' });
  if (errors.length) throw validationError(errors);
  if (await userNameTaken(db, input.userName)) {
    throw new AppError('errors.user_name_in_use', 409, {}, [{ field: 'userName', code: 'errors.user_name_in_use' }]);
  }

  const passwordHash = input.password
    ? await context.passwords.hash(input.password)
    : options.withoutGeneratedPassword
      ? null
      : await context.passwords.hash(generatePassword(Math.max(20, policy.minLength)));
  // What the user is given, stored and logged alike.
  const profile = {
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    areaId,
    language: input.language,
    validateScopes: input.validateScopes,
  };
  const id = await insertUser(db, { userName: input.userName, ...profile, passwordHash, createdById: actor.userId });
  await writeSystemLog(db, {
    operation: 'CreateUser',
    userId: actor.userId,
    userName: actor.userName,
    metadata: {
      targetUserId: id,
      targetUserName: input.userName,
      ...profile,
      // Which way the password came, never the password.
      password: passwordGiven ? 'set' : passwordHash ? 'generated' : 'none',
    },
  });
  return toDetail((await findUserDetail(db, id))!);
}

/**
 * Refuses changes to an account whose holder outranks the caller, so nobody takes over an account
 * worth more than their own (change its e-mail, then invite it or set its password, and sign in as
 * it). Only God manages a God user. Any other Identity role beyond User (Administrator, Manager,
 * TenantAdministrator, IdentityConsultant…) takes an Administrator (or God). An AreaAdministrator
 * target is managed by an AreaAdministrator only when the caller's areas cover every area where
 * the target holds that role.
 */
async function assertMayManage(db: EntityManager, scope: CallerScope, targetId: string): Promise<void> {
  if (scope.isGod) return;
  const held = await resolveEffectiveRoles(db, targetId, { applicationId: IDENTITY_APPLICATION_ID });
  if (held.some((role) => role.roleName === 'God')) throw new AppError('users.manage_god_only', 403);
  if (scope.isAdministrator) return;
  if (held.some((role) => role.roleName !== 'User' && role.roleName !== 'AreaAdministrator')) throw new AppError('users.manage_admin_only', 403);
  const tenantIds = [...new Set(held.filter((role) => role.roleName === 'AreaAdministrator').map((role) => role.tenantId))];
  const callerAreas = scope.areaIds;
  if (tenantIds.length === 0 || callerAreas === null) return;
  if (tenantIds.includes(GLOBAL_TENANT_ID)) throw new AppError('users.manage_admin_only', 403);
  const areas = await findTenantAreas(db, tenantIds);
  if (areas.length !== tenantIds.length || areas.some((area) => !area || !callerAreas.includes(area))) {
    throw new AppError('users.manage_admin_only', 403);
  }
}

function changesOf(current: UserStateRow, next: Record<string, unknown>): Record<string, { from: unknown; to: unknown }> {
  const before: Record<string, unknown> = {
    email: current.email,
    firstName: current.first_name,
    lastName: current.last_name,
    language: current.language,
    areaId: current.area_id,
    validateScopes: current.validate_scopes,
  };
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, to] of Object.entries(next)) if (before[field] !== to) changes[field] = { from: before[field], to };
  return changes;
}

/** The users of the administration API: what the router's handlers call, one method per endpoint. */
export class UsersService {
  constructor(
    private readonly context: AppContext,
    private readonly mailer: Mailer,
  ) {}

  private get db() {
    return this.context.dataSource;
  }

  private async actor(caller: Caller, db: Queryable = this.db): Promise<Actor> {
    return { userId: caller.userId, userName: await findUserName(db, caller.userId) };
  }

  /** The user if the caller may see them: outside their areas it is the same 404 as a missing user. */
  private async visibleUser(scope: CallerScope, id: string, db: Queryable = this.db): Promise<UserStateRow> {
    const user = await findUserState(db, id);
    if (!user) throw new AppError('errors.not_found', 404);
    assertInScope(scope, user.area_id);
    return user;
  }

  /** As visibleUser, row-locked for a change inside `em`'s transaction. */
  private async userForUpdate(em: EntityManager, scope: CallerScope, id: string): Promise<UserStateRow> {
    const user = await findUserForUpdate(em, id);
    if (!user) throw new AppError('errors.not_found', 404);
    assertInScope(scope, user.area_id);
    return user;
  }

  private publish(userId: string, events: Array<'user.changed' | 'roles.changed' | 'oidc.invalidated'>): void {
    for (const event of events) {
      if (event === 'oidc.invalidated') this.context.broadcast.publish(event, { accountId: userId });
      else this.context.broadcast.publish(event, { userId });
    }
  }

  async list(scope: CallerScope, query: ListQuery, filter: { locked?: boolean; areaId?: string }): Promise<{ items: UserListItem[]; count: number }> {
    const { rows, count } = await listUsers(this.db, { search: query.search, ...filter, areaIds: scope.areaIds }, query);
    return { items: rows.map(toListItem), count };
  }

  async get(scope: CallerScope, id: string): Promise<UserDetail> {
    const row = await findUserDetail(this.db, id);
    if (!row) throw new AppError('errors.not_found', 404);
    assertInScope(scope, row.area_id);
    return toDetail(row);
  }

  /**
   * Creates the user and, when asked, sends the invitation once the user is committed. A failed
   * invitation does not undo the user: the answer says `invitationSent: false` and the invite
   * action can be used again.
   */
  async create(caller: Caller, scope: CallerScope, input: NewUserInput): Promise<UserDetail & { invitationSent?: boolean }> {
    const actor = await this.actor(caller);
    const user = await this.db.transaction((em) => createUser(this.context, em, input, actor, { areaIds: scope.areaIds }));
    if (!input.sendEmailInvite) return user;
    try {
      await this.invite(caller, scope, user.id);
      return { ...user, invitationSent: true };
    } catch (error) {
      this.context.logger.warn({ err: (error as Error).message, userId: user.id }, 'invitation of a new user failed');
      return { ...user, invitationSent: false };
    }
  }

  /**
   * Changes the editable fields. A new e-mail address is unverified, and the previous address is
   * told of the change: if someone else made it, the owner learns it where they still read mail.
   */
  async update(caller: Caller, scope: CallerScope, id: string, input: UpdateUserInput): Promise<UserDetail> {
    const actor = await this.actor(caller);
    const updated = await this.db.transaction(async (em) => {
      const current = await this.userForUpdate(em, scope, id);
      if (!inScope(scope, input.areaId.toLowerCase())) {
        throw new AppError('users.area_out_of_scope', 403, {}, [{ field: 'areaId', code: 'users.area_out_of_scope' }]);
      }
      await assertMayManage(em, scope, id);
      const next = {
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        language: input.language,
        areaId: input.areaId.toLowerCase(),
        validateScopes: input.validateScopes ?? current.validate_scopes,
      };
      const changes = changesOf(current, next);
      if (changes.areaId && !(await areaExists(em, next.areaId))) throw validationError([{ field: 'areaId', code: 'users.area_not_found' }]);
      if (Object.keys(changes).length === 0) return undefined;
      await updateUser(em, id, next, caller.userId);
      await writeSystemLog(em, {
        operation: 'UpdateUser',
        ...actor,
        metadata: { targetUserId: id, targetUserName: current.user_name, changes },
      });
      return { previous: current, emailChanged: !!changes.email };
    });
    if (updated) this.publish(id, ['user.changed']);
    if (updated?.emailChanged) await this.sendEmailChangedNotice(updated.previous);
    return this.get(scope, id);
  }

  /** Tells the previous address that the account's e-mail was changed (stored in the outbox before the answer). */
  private async sendEmailChangedNotice(previous: UserStateRow): Promise<void> {
    await this.mailer
      .send({
        to: previous.email,
        template: 'email-changed',
        language: previous.language,
        params: { name: previous.first_name ?? previous.user_name, date: new Date() },
      })
      .catch((error: Error) => this.context.logger.warn({ err: error.message, userId: previous.id }, 'email-changed mail failed'));
  }

  /** Deletes the user, their memberships and tokens, and ends their sessions. Nobody deletes their own account. */
  async remove(caller: Caller, scope: CallerScope, id: string): Promise<void> {
    if (id === caller.userId) throw new AppError('users.cannot_delete_self', 400);
    const actor = await this.actor(caller);
    await this.db.transaction(async (em) => {
      const user = await this.userForUpdate(em, scope, id);
      await assertMayManage(em, scope, id);
      const sessionsEnded = await deleteProviderSessions(em, id);
      await deleteUser(em, id);
      await writeSystemLog(em, {
        operation: 'DeleteUser',
        ...actor,
        metadata: { targetUserId: id, targetUserName: user.user_name, email: user.email, areaId: user.area_id, sessionsEnded },
      });
    });
    this.publish(id, ['oidc.invalidated', 'user.changed', 'roles.changed']);
  }

  /**
   * Mails the user a single-use link to choose their password: a PasswordReset token (the portal's
   * changePassword page consumes those) marked as an invitation, valid 7 days. A new invitation
   * replaces any earlier link. Draft (pending approval) and locked users cannot use such a link,
   * so they are not invited.
   */
  async invite(caller: Caller, scope: CallerScope, id: string): Promise<void> {
    const user = await this.visibleUser(scope, id);
    await assertMayManage(this.db.manager, scope, id);
    if (user.draft) throw new AppError('users.draft_not_invitable', 400);
    if (user.locked) throw new AppError('users.locked_not_invitable', 400);
    const actor = await this.actor(caller);
    const issued = await this.db.transaction(async (em) => {
      await assertMayManage(em, scope, id);
      await revokeUserTokens(this.context, id, 'PasswordReset', em);
      const token = await issueUserToken(
        this.context,
        { userId: id, purpose: 'PasswordReset', ttlSeconds: INVITATION_TTL_SECONDS, data: { invitation: true } },
        em,
      );
      await writeSystemLog(em, {
        operation: 'InviteUser',
        ...actor,
        metadata: { targetUserId: id, targetUserName: user.user_name, email: user.email, validDays: INVITATION_TTL_SECONDS / 86_400 },
      });
      return token;
    });
    const base = this.context.config.server.publicUrl;
    const link = new URL(`${base}/account/changePassword`);
    link.searchParams.set('identityName', user.user_name);
    link.searchParams.set('token', issued.token);
    link.searchParams.set('returnUrl', `${base}/`);
    try {
      // Stored in the outbox before anything else: a failing SMTP server leaves it there for the
      // provider's retry worker; only a failure to store it lands here.
      await this.mailer.send({
        to: user.email,
        template: 'invitation',
        language: user.language,
        params: { name: user.first_name ?? user.user_name, link: link.toString(), productName: PRODUCT_NAME },
      });
    } catch (error) {
      // A link nobody received must not stay usable.
      await consumeUserToken(this.context, issued.id).catch(() => undefined);
      this.context.logger.error({ err: (error as Error).message, userId: id }, 'invitation mail could not be queued');
      throw new AppError('users.invitation_failed', 503);
    }
  }

  /**
   * Sets the user's password under the policy (every broken rule named at once, none of the last N
   * reused), then ends the user's sessions and refresh tokens as a reset does: whoever held the old
   * password must not stay signed in. The password is temporary: the user must choose their own at
   * the next sign-in, so whoever set it does not keep knowing it. The user is told by mail. An
   * administrator changes their own password from their profile, which asks for the current one.
   * The rank check comes before the policy's: the "recently used" answer would otherwise tell a
   * caller who may not manage the account whether a guess is its current password.
   */
  async changePassword(caller: Caller, scope: CallerScope, id: string, input: { password: string; confirmPassword: string }): Promise<void> {
    if (id === caller.userId) throw new AppError('users.own_password_here', 400);
    const user = await this.visibleUser(scope, id);
    await assertMayManage(this.db.manager, scope, id);
    const policy = await loadPasswordPolicy(this.db);
    const errors: FieldError[] = checkPasswordRules(input.password, policy, 'password');
    if (input.confirmPassword !== input.password) errors.push({ field: 'confirmPassword', code: 'users.passwords_mismatch' });
    if (errors.length === 0 && (await isRecentPassword(this.db, this.context.passwords, id, input.password, policy))) {
      errors.push({ field: 'password', code: 'password.reused', params: { count: policy.historySize } });
    }
    if (errors.length) throw validationError(errors);
    const hash = await this.context.passwords.hash(input.password);
    const actor = await this.actor(caller);
    await this.db.transaction(async (em) => {
      await this.userForUpdate(em, scope, id);
      await assertMayManage(em, scope, id);
      await storeNewPassword(em, id, hash, policy);
      await markPasswordTemporary(em, id);
      const sessionsEnded = await deleteProviderSessions(em, id);
      await writeSystemLog(em, {
        operation: 'ChangeUserPassword',
        ...actor,
        metadata: { targetUserId: id, targetUserName: user.user_name, sessionsEnded },
      });
    });
    this.publish(id, ['oidc.invalidated', 'user.changed']);
    this.mailer
      .send({ to: user.email, template: 'password-changed', language: user.language, params: { name: user.first_name ?? user.user_name, date: new Date() } })
      .catch((error: Error) => this.context.logger.warn({ err: error.message, userId: id }, 'password-changed mail failed'));
  }

  /** The permanent administrative lock; the user's sessions, grants and tokens end with it. */
  async lock(caller: Caller, scope: CallerScope, id: string) {
    if (id === caller.userId) throw new AppError('users.cannot_lock_self', 400);
    const actor = await this.actor(caller);
    const user = await this.db.transaction(async (em) => {
      const current = await this.userForUpdate(em, scope, id);
      await assertMayManage(em, scope, id);
      await lockUser(em, id, caller.userId);
      const sessionsEnded = await deleteProviderSessions(em, id);
      await writeSystemLog(em, {
        operation: 'LockUser',
        ...actor,
        metadata: { targetUserId: id, targetUserName: current.user_name, wasLocked: current.locked, sessionsEnded },
      });
      return current;
    });
    this.publish(id, ['oidc.invalidated', 'user.changed']);
    return { id, userName: user.user_name, firstName: user.first_name, lastName: user.last_name, locked: true };
  }

  /**
   * Lifts the permanent lock and any temporary lockout, and clears the failure counters. The same
   * rules as for locking: nobody unlocks their own account (a locked administrator whose token still
   * works must not undo the lock), and nobody unlocks an account that outranks them.
   */
  async unlock(caller: Caller, scope: CallerScope, id: string) {
    if (id === caller.userId) throw new AppError('users.cannot_unlock_self', 400);
    const actor = await this.actor(caller);
    const user = await this.db.transaction(async (em) => {
      const current = await this.userForUpdate(em, scope, id);
      await assertMayManage(em, scope, id);
      await unlock(em, id, caller.userId);
      await logUnlocked(em, { id, userName: current.user_name }, `Unlocked by ${actor.userName ?? caller.userId}`);
      await writeSystemLog(em, {
        operation: 'UnlockUser',
        ...actor,
        metadata: { targetUserId: id, targetUserName: current.user_name, wasLocked: current.locked },
      });
      return current;
    });
    this.publish(id, ['user.changed']);
    return { id, userName: user.user_name, firstName: user.first_name, lastName: user.last_name, locked: false };
  }

  async groups(scope: CallerScope, id: string) {
    await this.visibleUser(scope, id);
    const rows = await findUserGroups(this.db, id);
    return {
      items: rows.map((row) => ({ groupId: row.group_id, groupName: row.group_name, permission: row.permission, areaName: row.area_name })),
      count: rows.length,
    };
  }

  /**
   * The tenants the user belongs to (directly or through a group), the Global tenant first, with
   * the role badges that apply there. Own: the user's own membership; ByHierarchy: through a group,
   * or roles inherited from an ancestor tenant; Both.
   */
  async tenants(scope: CallerScope, id: string) {
    await this.visibleUser(scope, id);
    const [memberships, grants] = await Promise.all([findMemberships(this.db, id), findRoleGrants(this.db, id)]);
    const items = memberships
      .map((m) => {
        const badges = grants.filter((g) => g.tenant_id === m.tenant_id);
        const isGlobal = m.tenant_id === GLOBAL_TENANT_ID;
        return {
          tenantId: m.tenant_id,
          tenantName: m.tenant_name,
          isGlobal,
          isInheritable: m.is_inheritable,
          hierarchyType: hierarchyType(m.direct, m.via_group || badges.some((b) => b.by_hierarchy)),
          roles: badges
            .slice()
            .sort((a, b) => a.application_name.localeCompare(b.application_name) || a.role_name.localeCompare(b.role_name))
            .map((b) => ({
              roleId: b.role_id,
              roleName: b.role_name,
              applicationId: b.application_id,
              applicationName: b.application_name,
              hierarchyType: hierarchyType(b.own, b.by_hierarchy),
              isGlobal,
            })),
        };
      })
      .sort((a, b) => Number(b.isGlobal) - Number(a.isGlobal) || a.tenantName.localeCompare(b.tenantName));
    return { items, count: items.length };
  }

  /** One item per application (by display name): the user's badges in it and the roles that can be picked. */
  async roles(scope: CallerScope, id: string): Promise<{ items: ApplicationAccess[] }> {
    await this.visibleUser(scope, id);
    const [applications, roles, grants] = await Promise.all([findApplications(this.db), findRoles(this.db), findRoleGrants(this.db, id)]);
    return { items: applications.map((app) => accessItem(app, roles, grants)) };
  }

  private async applicationAccess(id: string, application: ApplicationRow): Promise<ApplicationAccess> {
    const [roles, grants] = await Promise.all([findRoles(this.db, application.id), findRoleGrants(this.db, id, application.id)]);
    return accessItem(application, roles, grants);
  }

  private async application(applicationId: string): Promise<ApplicationRow> {
    const [application] = await findApplications(this.db, applicationId);
    if (!application) throw new AppError('users.application_not_found', 404);
    return application;
  }

  /**
   * Who may touch which roles, beyond the endpoint's roles: the Global tenant and the Identity
   * application's roles (which make administrators) are for Administrator and God; the God role
   * for God alone.
   */
  private assertMayGrant(scope: CallerScope, application: ApplicationRow, tenantIds: string[], roleNames: string[]): void {
    if (!scope.isAdministrator && tenantIds.includes(GLOBAL_TENANT_ID)) throw new AppError('users.global_tenant_admin_only', 403);
    if (!scope.isAdministrator && application.id === IDENTITY_APPLICATION_ID) throw new AppError('users.identity_roles_admin_only', 403);
    if (!scope.isGod && application.id === IDENTITY_APPLICATION_ID && roleNames.includes('God')) throw new AppError('users.god_role_god_only', 403);
  }

  /**
   * Adds roles of one application to the user's own membership of a tenant (the Global tenant when
   * none is given), creating the membership if needed. Roles of another application, and roles
   * flagged byHierarchy (granted only through the hierarchy), cannot be picked.
   */
  async grantRoles(
    caller: Caller,
    scope: CallerScope,
    id: string,
    applicationId: string,
    body: { tenantId?: string | null; roleIds: string[] },
  ): Promise<ApplicationAccess> {
    const user = await this.visibleUser(scope, id);
    const application = await this.application(applicationId);
    const tenantId = (body.tenantId ?? GLOBAL_TENANT_ID).toLowerCase();
    const roleIds = [...new Set(body.roleIds.map((roleId) => roleId.toLowerCase()))];
    const available = new Map((await findRoles(this.db, application.id)).map((role) => [role.id, role]));
    const picked = roleIds.map((roleId) => available.get(roleId));
    if (picked.some((role) => !role)) throw roleError('users.role_not_available');
    const roles = picked as RoleRow[];
    if (roles.some((role) => role.by_hierarchy)) throw roleError('users.role_by_hierarchy');
    this.assertMayGrant(scope, application, [tenantId], roles.map((role) => role.name));
    const tenant = await findTenant(this.db, tenantId);
    if (!tenant) throw validationError([{ field: 'tenantId', code: 'users.tenant_not_found' }]);
    const actor = await this.actor(caller);
    const added = await this.db.transaction(async (em) => {
      const memberId = await ensureOwnMembership(em, tenant.id, id);
      const addedIds = new Set(await addMembershipRoles(em, memberId, roleIds));
      const addedRoles = roles.filter((role) => addedIds.has(role.id));
      if (addedRoles.length) {
        await writeSystemLog(em, {
          operation: 'Permission',
          ...actor,
          tenantId: tenant.id,
          tenantName: tenant.title,
          metadata: {
            action: 'grant',
            targetUserId: id,
            targetUserName: user.user_name,
            applicationId: application.id,
            applicationName: application.name,
            roles: addedRoles.map((role) => ({ roleId: role.id, roleName: role.name })),
          },
        });
      }
      return addedRoles.length;
    });
    if (added) this.publish(id, ['roles.changed']);
    return this.applicationAccess(id, application);
  }

  /**
   * With `roleId`: removes that badge from the user's own membership of the tenant (Global when no
   * tenant is given); a badge the user only holds through a group or an ancestor tenant cannot be
   * removed here. Without: revokes every own role of the application in every tenant. When some of
   * the access is inherited, only an Administrator (or God) may revoke it all ("Only Admin can
   * revoke this access"), and even then only the user's own grants go: access through a group or an
   * ancestor stays (the answer then still shows hasAccess), since it belongs to the group or tenant.
   */
  async revokeRoles(
    caller: Caller,
    scope: CallerScope,
    id: string,
    applicationId: string,
    query: { roleId?: string; tenantId?: string },
  ): Promise<ApplicationAccess> {
    const user = await this.visibleUser(scope, id);
    const application = await this.application(applicationId);
    const grants = await findRoleGrants(this.db, id, application.id);
    const actor = await this.actor(caller);
    const base = { action: 'revoke', targetUserId: id, targetUserName: user.user_name, applicationId: application.id, applicationName: application.name };
    let changed: boolean;
    if (query.roleId) {
      const roleId = query.roleId.toLowerCase();
      const tenantId = (query.tenantId ?? GLOBAL_TENANT_ID).toLowerCase();
      const role = (await findRoles(this.db, application.id)).find((r) => r.id === roleId);
      if (!role) throw roleError('users.role_not_available');
      this.assertMayGrant(scope, application, [tenantId], [role.name]);
      const badge = grants.find((g) => g.tenant_id === tenantId && g.role_id === roleId);
      if (!badge) throw new AppError('users.role_not_granted', 404);
      if (!badge.own) throw new AppError('users.inherited_role_not_removable', 400);
      changed = await this.db.transaction(async (em) => {
        const removed = await removeOwnRole(em, id, tenantId, roleId);
        if (removed) {
          await writeSystemLog(em, {
            operation: 'Permission',
            ...actor,
            tenantId,
            tenantName: badge.tenant_name,
            metadata: { ...base, roles: [{ roleId, roleName: role.name, tenantId }] },
          });
        }
        return removed;
      });
    } else {
      if (!scope.isAdministrator && grants.some((g) => g.by_hierarchy)) throw new AppError('users.only_admin_revoke', 403);
      const own = grants.filter((g) => g.own);
      this.assertMayGrant(scope, application, own.map((g) => g.tenant_id), own.map((g) => g.role_name));
      changed = await this.db.transaction(async (em) => {
        const removed = await removeOwnApplicationRoles(em, id, application.id);
        if (removed.length) {
          await writeSystemLog(em, {
            operation: 'Permission',
            ...actor,
            metadata: {
              ...base,
              action: 'revokeAll',
              roles: removed.map((r) => ({ roleId: r.role_id, roleName: r.role_name, tenantId: r.tenant_id })),
            },
          });
        }
        return removed.length > 0;
      });
    }
    if (changed) this.publish(id, ['roles.changed']);
    return this.applicationAccess(id, application);
  }

  /** The User Permissions page: the user's groups, and per application the names of their effective roles. */
  async checkPermissions(scope: CallerScope, id: string) {
    await this.visibleUser(scope, id);
    const [groups, grants] = await Promise.all([findUserGroups(this.db, id), findRoleGrants(this.db, id)]);
    const byApplication = new Map<string, Set<string>>();
    for (const grant of grants) {
      const names = byApplication.get(grant.application_name) ?? new Set<string>();
      names.add(grant.role_name);
      byApplication.set(grant.application_name, names);
    }
    return {
      groups: groups.map((g) => g.group_name),
      applicationPermissions: [...byApplication.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([applicationName, names]) => ({ applicationName, roles: [...names].sort((a, b) => a.localeCompare(b)) })),
    };
  }
}

function roleError(code: 'users.role_not_available' | 'users.role_by_hierarchy'): AppError {
  return new AppError(code, 400, {}, [{ field: 'roleIds', code }]);
}

function accessItem(application: ApplicationRow, roles: RoleRow[], grants: RoleGrantRow[]): ApplicationAccess {
  const badges = grants.filter((g) => g.application_id === application.id);
  return {
    applicationId: application.id,
    applicationName: application.name,
    displayName: application.display_name,
    hasAccess: badges.length > 0,
    byHierarchy: badges.some((b) => b.by_hierarchy),
    roles: badges.map((b) => ({
      roleId: b.role_id,
      roleName: b.role_name,
      description: b.description,
      tenantId: b.tenant_id,
      tenantName: b.tenant_name,
      isGlobal: b.tenant_id === GLOBAL_TENANT_ID,
      hierarchyType: hierarchyType(b.own, b.by_hierarchy),
      removable: b.own,
    })),
    availableRoles: roles
      .filter((role) => role.application_id === application.id)
      .map((role) => ({ id: role.id, name: role.name, description: role.description, byHierarchy: role.by_hierarchy })),
  };
}
