import { READ_ONLY_USER_FIELDS, type NewUser, type PasswordChange, type UserChanges, type UserExportQuery, type UserListQuery } from '@gatehouse/contracts';
import { AppError, checkPasswordRules, consumeUserToken, generatePassword, isRecentPassword, issueUserToken, loadPasswordPolicy, revokeUserTokens, storeNewPassword, toListQuery, userWords, type AppContext, type FieldError, type Language, type PasswordPolicy } from '@gatehouse/core';
import { type Mailer } from '@gatehouse/core/mail';
import type { EntityManager } from 'typeorm';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { assertInScope, inScope, type CallerScope } from '../../auth/scope.js';
import { areaExists } from '../directory/lookups.js';
import { actorOf, assertMayManage, publishUserEvents, userForUpdate, validationError, visibleUser, type Actor } from './access.js';
import { decodeCursor, encodeCursor } from './list-cursor.js';
import { toDetail, toListItem, type UserDetailItem, type UserListItem } from './presenter.js';
import {
  USER_SORT,
  deleteProviderSessions,
  deleteUser,
  findUserDetail,
  findUserGroups,
  insertUser,
  listUsers,
  markPasswordTemporary,
  updateUser,
  userNameTaken,
  type UserChanges as ProfileColumns,
  type UserListFilter,
  type UserStateRow,
} from './repository.js';

/** An invitation link works for a week (it is read in a mailbox, not at once like a reset link). */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;
/** The product's name in mails (the portal shows the same). */
const PRODUCT_NAME = 'Gatehouse';

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
  /** The caller's language, for the reasons of a refused password. */
  language?: Language;
  /** What the CreateUser row adds about where the user came from (a provisioning client). */
  origin?: Record<string, unknown>;
}

/** The users list's search and filters (the caller's scope aside), as `GET /users` and its export read them. */
export function listFilterOf(query: UserExportQuery): Omit<UserListFilter, 'areaIds'> {
  return {
    search: query.$search ? query.$search : null,
    ...(query.locked ? { locked: query.locked === 'true' } : {}),
    ...(query.area ? { areaId: query.area } : {}),
  };
}

/** Refuses a body that tries to change a read-only field, naming each one. */
function rejectReadOnlyFields(input: UserChanges): void {
  const sent = READ_ONLY_USER_FIELDS.filter((field) => input[field] !== undefined);
  if (sent.length) throw validationError(sent.map((field) => ({ field, code: 'users.read_only_field' })));
}

/** What createUser checks beyond the schema: the password pair and its rules, the area, a free user name. */
async function checkNewUser(db: EntityManager, input: NewUser, areaId: string, policy: PasswordPolicy, language?: Language): Promise<void> {
  const errors: FieldError[] = [];
  if (input.password || input.confirmPassword) {
    if (!input.password) errors.push({ field: 'password', code: 'users.password_required' });
    else {
      const userInputs = [input.userName, input.email, input.firstName, input.lastName];
      errors.push(...(await checkPasswordRules(input.password, policy, 'password', { userInputs, language })));
    }
    if (!input.confirmPassword) errors.push({ field: 'confirmPassword', code: 'users.confirm_password_required' });
    else if (input.password && input.confirmPassword !== input.password) errors.push({ field: 'confirmPassword', code: 'users.passwords_mismatch' });
  }
  if (!(await areaExists(db, areaId))) errors.push({ field: 'areaId', code: 'users.area_not_found' });
  if (errors.length) throw validationError(errors);
  if (await userNameTaken(db, input.userName)) {
    throw new AppError('errors.user_name_in_use', 409, {}, [{ field: 'userName', code: 'errors.user_name_in_use' }]);
  }
}

/**
 * Creates one user: checks what the schema cannot (area, scope, unique user name, password rules),
 * hashes the password (or a random one satisfying the policy, which nobody ever sees: the user sets
 * their own through the invitation), inserts the user and writes the CreateUser system log row.
 * Runs in the caller's transaction (`db`), so the Excel import can call it per row inside a
 * savepoint. Sends nothing: mails go after the commit (UsersService.invite).
 */
export async function createUser(context: AppContext, db: EntityManager, input: NewUser, actor: Actor | ExternalActor, options: CreateUserOptions = {}): Promise<UserDetailItem> {
  const areaIds = options.areaIds ?? null;
  const areaId = input.areaId.toLowerCase();
  if (areaIds && !areaIds.includes(areaId)) {
    throw new AppError('users.area_out_of_scope', 403, {}, [{ field: 'areaId', code: 'users.area_out_of_scope' }]);
  }
  const policy = options.policy ?? (await loadPasswordPolicy(db));
  await checkNewUser(db, input, areaId, policy, options.language);
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
      password: input.password || input.confirmPassword ? 'set' : passwordHash ? 'generated' : 'none',
      ...options.origin,
    },
  });
  return toDetail((await findUserDetail(db, id))!);
}

/** Who makes a change that no console user makes: the external API's caller (a token's owner, else the application by its client id). */
export interface ExternalActor {
  userId: string | null;
  userName: string | null;
}

/**
 * Issues the user's invitation and mails it: a single-use PasswordReset token (the portal's
 * changePassword page consumes those) marked as an invitation, valid 7 days, replacing any earlier
 * link, with its InviteUser system log row (plus `metadata`); `check` runs first in the same
 * transaction. The caller has made sure the user may be invited (not a draft, not locked).
 */
export async function sendInvitation(
  context: AppContext,
  mailer: Mailer,
  user: UserStateRow,
  actor: Actor | ExternalActor,
  options: { check?: (em: EntityManager) => Promise<void>; metadata?: Record<string, unknown> } = {},
): Promise<void> {
  const issued = await context.dataSource.transaction(async (em) => {
    await options.check?.(em);
    await revokeUserTokens(context, user.id, 'PasswordReset', em);
    const token = await issueUserToken(context, { userId: user.id, purpose: 'PasswordReset', ttlSeconds: INVITATION_TTL_SECONDS, data: { invitation: true } }, em);
    await writeSystemLog(em, {
      operation: 'InviteUser',
      ...actor,
      metadata: { targetUserId: user.id, targetUserName: user.user_name, email: user.email, validDays: INVITATION_TTL_SECONDS / 86_400, ...options.metadata },
    });
    return token;
  });
  await mailInvitation(context, mailer, user, issued);
}

/** Queues the invitation mail; a link nobody received is consumed at once rather than left usable. */
async function mailInvitation(context: AppContext, mailer: Mailer, user: UserStateRow, issued: { id: string; token: string }): Promise<void> {
  const base = context.config.server.publicUrl;
  const link = new URL(`${base}/account/changePassword`);
  link.searchParams.set('identityName', user.user_name);
  link.searchParams.set('token', issued.token);
  link.searchParams.set('returnUrl', `${base}/`);
  try {
    // Stored in the outbox before anything else: a failing SMTP server leaves it there for the
    // provider's retry worker; only a failure to store it lands here.
    await mailer.send({
      to: user.email,
      template: 'invitation',
      language: user.language,
      params: { name: user.first_name ?? user.user_name, link: link.toString(), productName: PRODUCT_NAME },
    });
  } catch (error) {
    await consumeUserToken(context, issued.id).catch(() => undefined);
    context.logger.error({ err: (error as Error).message, userId: user.id }, 'invitation mail could not be queued');
    throw new AppError('users.invitation_failed', 503);
  }
}

/** A user's editable profile, as updateUserProfile writes it. */
export type UserProfile = ProfileColumns;

/**
 * Writes the profile of `current` (row-locked by the caller, who checked the rules and the area)
 * with its UpdateUser row (plus `origin`); answers the fields that changed, none when nothing did.
 * A new e-mail address is unverified. The caller publishes `user.changed` once committed.
 */
export async function updateUserProfile(
  em: EntityManager,
  actor: Actor,
  current: UserStateRow,
  next: UserProfile,
  origin: Record<string, unknown> = {},
): Promise<Record<string, { from: unknown; to: unknown }> | undefined> {
  const changes = changesOf(current, { ...next });
  if (Object.keys(changes).length === 0) return undefined;
  await updateUser(em, current.id, next, actor.userId);
  await writeSystemLog(em, { operation: 'UpdateUser', ...actor, metadata: { targetUserId: current.id, targetUserName: current.user_name, changes, ...origin } });
  return changes;
}

/**
 * Deletes `user` (row-locked by the caller, who checked the rules): its provider sessions end, its
 * memberships, grants and tokens go with it, and the DeleteUser row is written (plus `origin`). The
 * caller publishes `oidc.invalidated`, `user.changed` and `roles.changed` once committed.
 */
export async function deleteUserAccount(em: EntityManager, actor: Actor | ExternalActor, user: UserStateRow, origin: Record<string, unknown> = {}): Promise<void> {
  const sessionsEnded = await deleteProviderSessions(em, user.id);
  await deleteUser(em, user.id);
  await writeSystemLog(em, {
    operation: 'DeleteUser',
    ...actor,
    metadata: { targetUserId: user.id, targetUserName: user.user_name, email: user.email, areaId: user.area_id, sessionsEnded, ...origin },
  });
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

/** The users of the administration API (their accounts, invitations and passwords), one method per endpoint. */
export class UsersService {
  constructor(
    private readonly context: AppContext,
    private readonly mailer: Mailer,
  ) {}

  private get db() {
    return this.context.dataSource;
  }

  async list(scope: CallerScope, query: UserListQuery): Promise<{ items: UserListItem[]; count: number; countEstimated?: true; next?: string }> {
    const list = { filter: listFilterOf(query), sort: query.orderBy };
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor, list);
    const { rows, count, estimated, next } = await listUsers(this.db, { ...list.filter, areaIds: scope.areaIds }, toListQuery(query, USER_SORT), after);
    return {
      items: rows.map(toListItem),
      count,
      ...(estimated ? { countEstimated: true as const } : {}),
      ...(next ? { next: encodeCursor(list, next) } : {}),
    };
  }

  async get(scope: CallerScope, id: string): Promise<UserDetailItem> {
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
  async create(caller: Caller, scope: CallerScope, input: NewUser, language?: Language): Promise<UserDetailItem & { invitationSent?: boolean }> {
    const actor = await actorOf(this.db, caller);
    const user = await this.db.transaction((em) => createUser(this.context, em, input, actor, { areaIds: scope.areaIds, language }));
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
  async update(caller: Caller, scope: CallerScope, id: string, input: UserChanges): Promise<UserDetailItem> {
    rejectReadOnlyFields(input);
    const actor = await actorOf(this.db, caller);
    const updated = await this.db.transaction((em) => this.applyChanges(em, actor, scope, id, input));
    if (updated) publishUserEvents(this.context, id, ['user.changed']);
    if (updated?.emailChanged) await this.sendEmailChangedNotice(updated.previous);
    return this.get(scope, id);
  }

  /** The edit inside its transaction; undefined when nothing changed. */
  private async applyChanges(em: EntityManager, actor: Actor, scope: CallerScope, id: string, input: UserChanges) {
    const current = await userForUpdate(em, scope, id);
    if (!inScope(scope, input.areaId)) {
      throw new AppError('users.area_out_of_scope', 403, {}, [{ field: 'areaId', code: 'users.area_out_of_scope' }]);
    }
    await assertMayManage(em, scope, id);
    const next = {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      language: input.language,
      areaId: input.areaId,
      validateScopes: input.validateScopes ?? current.validate_scopes,
    };
    const changes = changesOf(current, next);
    if (changes.areaId && !(await areaExists(em, next.areaId))) throw validationError([{ field: 'areaId', code: 'users.area_not_found' }]);
    if (!(await updateUserProfile(em, actor, current, next))) return undefined;
    return { previous: current, emailChanged: !!changes.email };
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
    const actor = await actorOf(this.db, caller);
    await this.db.transaction(async (em) => {
      const user = await userForUpdate(em, scope, id);
      await assertMayManage(em, scope, id);
      await deleteUserAccount(em, actor, user);
    });
    publishUserEvents(this.context, id, ['oidc.invalidated', 'user.changed', 'roles.changed']);
  }

  /**
   * Mails the user a single-use link to choose their password: a PasswordReset token (the portal's
   * changePassword page consumes those) marked as an invitation, valid 7 days. A new invitation
   * replaces any earlier link. Draft (pending approval) and locked users cannot use such a link,
   * so they are not invited.
   */
  async invite(caller: Caller, scope: CallerScope, id: string): Promise<void> {
    const user = await visibleUser(this.db, scope, id);
    await assertMayManage(this.db.manager, scope, id);
    if (user.draft) throw new AppError('users.draft_not_invitable', 400);
    if (user.locked) throw new AppError('users.locked_not_invitable', 400);
    const actor = await actorOf(this.db, caller);
    await sendInvitation(this.context, this.mailer, user, actor, { check: (em) => assertMayManage(em, scope, id) });
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
  async changePassword(caller: Caller, scope: CallerScope, id: string, input: PasswordChange, language?: Language): Promise<void> {
    if (id === caller.userId) throw new AppError('users.own_password_here', 400);
    const user = await visibleUser(this.db, scope, id);
    await assertMayManage(this.db.manager, scope, id);
    const policy = await this.checkNewPassword(id, input, language);
    const hash = await this.context.passwords.hash(input.password);
    const actor = await actorOf(this.db, caller);
    await this.db.transaction(async (em) => {
      await userForUpdate(em, scope, id);
      await assertMayManage(em, scope, id);
      await storeNewPassword(em, id, hash, policy);
      await markPasswordTemporary(em, id);
      const sessionsEnded = await deleteProviderSessions(em, id);
      await writeSystemLog(em, { operation: 'ChangeUserPassword', ...actor, metadata: { targetUserId: id, targetUserName: user.user_name, sessionsEnded } });
    });
    publishUserEvents(this.context, id, ['oidc.invalidated', 'user.changed']);
    this.mailer
      .send({ to: user.email, template: 'password-changed', language: user.language, params: { name: user.first_name ?? user.user_name, date: new Date() } })
      .catch((error: Error) => this.context.logger.warn({ err: error.message, userId: id }, 'password-changed mail failed'));
  }

  /** The policy's verdict on a password an administrator sets: every broken rule (its strength too, against the user's own words), or a recent one. */
  private async checkNewPassword(id: string, input: PasswordChange, language?: Language): Promise<PasswordPolicy> {
    const policy = await loadPasswordPolicy(this.db);
    const userInputs = await userWords(this.db, id);
    const errors: FieldError[] = await checkPasswordRules(input.password, policy, 'password', { userInputs, language });
    if (input.confirmPassword !== input.password) errors.push({ field: 'confirmPassword', code: 'users.passwords_mismatch' });
    if (errors.length === 0 && (await isRecentPassword(this.db, this.context.passwords, id, input.password, policy))) {
      errors.push({ field: 'password', code: 'password.reused', params: { count: policy.historySize } });
    }
    if (errors.length) throw validationError(errors);
    return policy;
  }

  async groups(scope: CallerScope, id: string) {
    await visibleUser(this.db, scope, id);
    const rows = await findUserGroups(this.db, id);
    return {
      items: rows.map((row) => ({ groupId: row.group_id, groupName: row.group_name, permission: row.permission, areaName: row.area_name })),
      count: rows.length,
    };
  }
}
