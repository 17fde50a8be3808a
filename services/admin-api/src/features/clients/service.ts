import {
  CLIENT_PROFILE_AREA_NAME,
  CLIENT_PROFILE_FIELDS,
  USER_TYPES,
  isFreeMailAddress,
  requiresGroupSignIn,
  type ClientTenantsQuery,
  type ClientUserBody,
  type ClientUsersQuery,
} from '@gatehouse/contracts';
import { AppError, GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, resolveEffectiveRoles, securitySettings, type AppContext, type FieldError } from '@gatehouse/core';
import type { Mailer } from '@gatehouse/core/mail';
import type { z } from 'zod';
import type { clientUserSchema } from '@gatehouse/contracts';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { CallerScope } from '../../auth/scope.js';
import type { Queryable } from '../../db.js';
import { enforce, findTarget, holdsRolesOutsideTenants, mayChangeClientIdentity, mayManageIdentity } from '@gatehouse/core/access';
import { callerAuthority } from '../../access.js';
import { actorOf, changeUserFields, publishUserEvents, validationError } from '../users/access.js';
import { createUser, UsersService } from '../users/service.js';
import { clientTenantExists, listClientAreas } from '../directory/lookups.js';
import {
  completeCreationLog,
  findAreaRules,
  findClientUser,
  listClientTenants,
  listClientUsers,
  lockClientUser,
  markCreatedForTenant,
  updateClientProfile,
  userNameTakenByOther,
  type AreaRules,
  type ClientUserRow,
} from './repository.js';

/** A user of the list as the server builds it (dates stay Dates until the response schema writes them). */
type ClientUserItem = z.input<typeof clientUserSchema>;

const CONSULTANT_ROLE = 'IdentityConsultant';

const isAdministrator = (caller: Caller) => caller.roles.includes('Administrator') || caller.roles.includes('God');

const toClientUser = (row: ClientUserRow): ClientUserItem => ({
  id: row.id,
  fullName: row.full_name,
  userName: row.user_name,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  areaId: row.area_id,
  areaName: row.area_name,
  language: row.language,
  phoneNumber: row.phone_number,
  jobTitle: row.job_title,
  manager: row.manager,
  teams: Array.isArray(row.teams) ? row.teams.map(String) : [],
  modifiedOn: row.modified_on,
  locked: row.locked,
  draft: row.draft,
  hasPendingOperationRequest: row.waiting,
  status: row.waiting ? 'Waiting' : row.draft ? 'Draft' : 'Applied',
  userType: row.user_type === USER_TYPES.Internal ? USER_TYPES.Internal : USER_TYPES.External,
  hasSignedIn: row.has_signed_in,
});

/** The portal's names (searchQuery, take) win over the product's ($search, top) when both are sent. */
const pageOf = (query: ClientTenantsQuery | ClientUsersQuery) => ({
  search: (query.searchQuery ?? query.$search) || null,
  skip: query.skip,
  top: query.take ?? query.top,
});

/** Whether the area's users carry a work position, a manager and departments (spec 5). */
const hasProfileFields = (area: AreaRules) => area.isDefault || area.name.toLowerCase() === CLIENT_PROFILE_AREA_NAME.toLowerCase();

/**
 * The scope UsersService takes for a My Clients call. The tenant check is done
 * here; what remains is rank: an administrator manages any account but a God user's (God: any), a
 * consultant only accounts that hold no Identity role beyond User (no areas: an AreaAdministrator
 * target is refused as well).
 */
const rankScope = (caller: Caller, areaId: string | null): CallerScope =>
  isAdministrator(caller)
    ? { areaIds: null, isAdministrator: true, isGod: caller.roles.includes('God') }
    : { areaIds: areaId ? [areaId] : [], isAdministrator: false, isGod: false };

/** What a consultant gives a user beyond the fields every user has. */
interface ProfileChange {
  phoneNumber: string | null;
  jobTitle: string | null;
  manager: string | null;
  teams: string[];
}

/**
 * My Clients: consultants (IdentityConsultant held in a tenant, through a group, inherited from an
 * ancestor through an inheritable membership, or in the Global tenant) manage the users of their
 * client tenants; Administrators and God act as consultants of every tenant.
 */
export class ClientsService {
  private readonly users: UsersService;

  constructor(
    private readonly context: AppContext,
    private readonly mailer: Mailer,
  ) {
    this.users = new UsersService(context, mailer);
  }

  private get db() {
    return this.context.dataSource;
  }

  /**
   * The tenants where the caller is a consultant: null for every tenant (an administrator, or
   * IdentityConsultant held in the Global tenant); otherwise the tenants of the core's effective
   * roles (own and group memberships, and every descendant of an inheritable one).
   */
  private async consultedTenantIds(caller: Caller): Promise<string[] | null> {
    if (isAdministrator(caller)) return null;
    const held = (await resolveEffectiveRoles(this.db, caller.userId, { applicationId: IDENTITY_APPLICATION_ID })).filter((role) => role.roleName === CONSULTANT_ROLE);
    if (held.some((role) => role.tenantId === GLOBAL_TENANT_ID)) return null;
    return [...new Set(held.map((role) => role.tenantId))];
  }

  /**
   * The tenant, if the caller is one of its consultants; otherwise the same 404 as a tenant that does
   * not exist, so a caller learns nothing of tenants outside their scope.
   */
  private async consultedTenant(caller: Caller, tenantId: string): Promise<{ id: string; title: string }> {
    const tenant = await clientTenantExists(this.db, tenantId);
    if (!tenant) throw new AppError('errors.not_found', 404);
    if (isAdministrator(caller)) return tenant;
    const held = await resolveEffectiveRoles(this.db, caller.userId, { tenantId, applicationId: IDENTITY_APPLICATION_ID });
    if (!held.some((role) => role.roleName === CONSULTANT_ROLE)) throw new AppError('errors.not_found', 404);
    return tenant;
  }

  async areas() {
    const items = await listClientAreas(this.db);
    return { items, count: items.length };
  }

  async tenants(caller: Caller, query: ClientTenantsQuery) {
    const ids = await this.consultedTenantIds(caller);
    return listClientTenants(this.db, ids, pageOf(query));
  }

  async list(caller: Caller, tenantId: string, query: ClientUsersQuery): Promise<{ items: ClientUserItem[]; count: number }> {
    await this.consultedTenant(caller, tenantId);
    const { rows, count } = await listClientUsers(this.db, tenantId, { ...pageOf(query), userType: query.userType, sort: query.orderBy });
    return { items: rows.map(toClientUser), count };
  }

  /**
   * Creates a user for the tenant with the users feature's createUser (unique user name, area,
   * CreateUser log row), then makes it a draft created for the tenant: it cannot sign in ('User
   * pending approval.') and is not a member of the tenant until an operation request for it is
   * approved. Internal when its e-mail is of a group domain, external otherwise.
   */
  async create(caller: Caller, tenantId: string, input: ClientUserBody): Promise<ClientUserItem> {
    const tenant = await this.consultedTenant(caller, tenantId);
    const area = await this.checkInput(this.db, input, null);
    const userType = await this.userTypeOf(input.email);
    const actor = await actorOf(this.db, caller);
    const profile = profileOf(input, area);
    const id = await this.db.transaction(async (em) => {
      const user = await createUser(
        this.context,
        em,
        { ...input, areaId: area.id, validateScopes: false, sendEmailInvite: false, password: null, confirmPassword: null },
        actor,
        // No password at all until the invitation sets one (and none while pending approval).
        { withoutGeneratedPassword: true },
      );
      await markCreatedForTenant(em, user.id, tenant.id);
      await updateClientProfile(em, user.id, { userName: input.userName, ...profile, userType });
      await completeCreationLog(em, actor.userId, user.id, tenant, { ...profile, userType, draft: true, tenantId: tenant.id });
      return user.id;
    });
    return toClientUser((await findClientUser(this.db, tenant.id, id))!);
  }

  /**
   * Changes a user of the tenant: the same rules as at creation, the user name only until the user
   * has first signed in, a free-mail address only if it was already theirs. A new e-mail address is
   * unverified and the previous one is told, as with the console's edit.
   */
  async update(caller: Caller, tenantId: string, id: string, input: ClientUserBody): Promise<ClientUserItem> {
    const tenant = await this.consultedTenant(caller, tenantId);
    const actor = await actorOf(this.db, caller);
    // Read before the transaction: nothing may query another connection while it holds one.
    const typeOfNewEmail = await this.userTypeOf(input.email);
    const consulted = await this.consultedTenantIds(caller);
    const outcome = await this.db.transaction(async (em) => {
      const current = await lockClientUser(em, tenant.id, id);
      if (!current) throw new AppError('errors.not_found', 404);
      const emailChanged = input.email.toLowerCase() !== current.email.toLowerCase();
      await this.assertMayChange(em, caller, current, consulted, emailChanged);
      const area = await this.checkInput(em, input, current);
      if (input.userName !== current.user_name && (await userNameTakenByOther(em, input.userName, id))) {
        throw new AppError('errors.user_name_in_use', 409, {}, [{ field: 'userName', code: 'errors.user_name_in_use' }]);
      }
      const userType = emailChanged ? typeOfNewEmail : current.user_type;
      const profile = profileOf(input, area, current);
      const changes = changesOf(current, { ...input, areaId: area.id, ...profile, userType });
      if (Object.keys(changes).length === 0) return { emailChanged: false, current };
      const base = { email: input.email, firstName: input.firstName, lastName: input.lastName, language: input.language, areaId: area.id };
      await changeUserFields(em, id, { ...base, validateScopes: current.validate_scopes }, actor.userId);
      await updateClientProfile(em, id, { userName: input.userName, ...profile, userType });
      await writeSystemLog(em, {
        operation: 'UpdateUser',
        ...actor,
        tenantId: tenant.id,
        tenantName: tenant.title,
        metadata: { targetUserId: id, targetUserName: current.user_name, tenantId: tenant.id, changes },
      });
      return { emailChanged, current, changed: true };
    });
    if ('changed' in outcome) publishUserEvents(this.context, id, ['user.changed']);
    if (outcome.emailChanged) await this.sendEmailChangedNotice(outcome.current);
    return toClientUser((await findClientUser(this.db, tenant.id, id))!);
  }

  /**
   * Mails the invitation (the users feature's: a 7-day single-use link to choose a password). A user
   * pending approval is refused with 409: the approval of their request makes them invitable.
   */
  async invite(caller: Caller, tenantId: string, id: string): Promise<void> {
    await this.consultedTenant(caller, tenantId);
    const user = await findClientUser(this.db, tenantId, id);
    if (!user) throw new AppError('errors.not_found', 404);
    if (user.draft) throw new AppError('clients.draft_not_invitable', 409);
    await this.assertMayChange(this.db, caller, user, await this.consultedTenantIds(caller), true);
    await this.users.invite(caller, rankScope(caller, user.area_id), id);
  }

  /**
   * Nobody changes an account that outranks them (a consultant: accounts holding nothing beyond
   * User). A consultant changes the e-mail address of, or invites, only a user who holds nothing
   * outside the consultant's clients and has never signed in: otherwise a new address and an
   * invitation would hand them someone else's account. Administrators: anyone they may manage.
   */
  private async assertMayChange(db: Queryable, caller: Caller, user: ClientUserRow, consulted: string[] | null, identity: boolean): Promise<void> {
    const authority = await callerAuthority(db, caller, { areaIds: isAdministrator(caller) ? null : [] });
    const target = await findTarget(db, { type: 'User', id: user.id });
    if (!target) throw new AppError('errors.not_found', 404);
    enforce(mayManageIdentity(authority, target));
    if (!identity) return;
    const holdsOutsideConsultedTenants = consulted !== null && (await holdsRolesOutsideTenants(db, user.id, consulted));
    enforce(mayChangeClientIdentity(authority, { ...target, holdsOutsideConsultedTenants, hasSignedIn: user.has_signed_in }));
  }

  /**
   * The checks beyond the schema, every broken rule named at once: the area (an existing, non-system
   * one), the free-mail refusal (for a new address), and the default-area-only fields.
   */
  private async checkInput(db: Queryable, input: ClientUserBody, current: ClientUserRow | null): Promise<AreaRules> {
    const errors: FieldError[] = [];
    const area = await findAreaRules(db, input.areaId);
    if (!area) errors.push({ field: 'areaId', code: 'users.area_not_found' });
    else if (area.isSystem) errors.push({ field: 'areaId', code: 'clients.area_not_allowed' });
    if (isFreeMailAddress(input.email) && input.email.toLowerCase() !== current?.email.toLowerCase()) {
      errors.push({ field: 'email', code: 'validation.invalid_email' });
    }
    if (isFreeMailAddress(input.userName) && input.userName.toLowerCase() !== current?.user_name.toLowerCase()) {
      errors.push({ field: 'userName', code: 'validation.invalid_email' });
    }
    if (current && current.has_signed_in && input.userName !== current.user_name) {
      errors.push({ field: 'userName', code: 'clients.user_name_fixed' });
    }
    if (area && !hasProfileFields(area)) {
      const sent = profileFieldsOf(input);
      const kept = current ? profileFieldsOf({ jobTitle: current.job_title, manager: current.manager, teams: toTeams(current.teams) }) : undefined;
      for (const field of CLIENT_PROFILE_FIELDS) {
        // The form sends back what it loaded: a value kept as it was is not a change.
        if (sent[field] !== null && sent[field] !== kept?.[field]) errors.push({ field, code: 'clients.profile_field_not_allowed', params: { field } });
      }
    }
    if (errors.length) throw validationError(errors);
    return area!;
  }

  /** 1 (internal) when the e-mail is of one of the group's domains (the GroupDomains security setting), 2 otherwise. */
  private async userTypeOf(email: string): Promise<number> {
    const { domains, domainFragment } = (await securitySettings(this.context).get()).GroupDomains;
    return requiresGroupSignIn(email, { groupDomains: domains, groupDomainFragment: domainFragment ?? undefined }) ? USER_TYPES.Internal : USER_TYPES.External;
  }

  /** Tells the previous address that the account's e-mail was changed. */
  private async sendEmailChangedNotice(previous: ClientUserRow): Promise<void> {
    await this.mailer
      .send({ to: previous.email, template: 'email-changed', language: previous.language, params: { name: previous.first_name ?? previous.user_name, date: new Date() } })
      .catch((error: Error) => this.context.logger.warn({ err: error.message, userId: previous.id }, 'email-changed mail failed'));
  }
}

const toTeams = (teams: unknown): string[] => (Array.isArray(teams) ? teams.map(String) : []);

/** The default-area-only fields as compared: null when empty, teams as one string. */
function profileFieldsOf(input: { jobTitle?: string | null; manager?: string | null; teams?: string[] | null }): Record<(typeof CLIENT_PROFILE_FIELDS)[number], string | null> {
  return {
    jobTitle: input.jobTitle || null,
    manager: input.manager || null,
    teams: input.teams?.length ? JSON.stringify(input.teams) : null,
  };
}

/** The self-service fields to store: outside the default and Customers areas, those the user already had (checkInput refused any change). */
function profileOf(input: ClientUserBody, area: AreaRules, current?: ClientUserRow): ProfileChange {
  const profile = hasProfileFields(area) || !current
    ? { jobTitle: input.jobTitle ?? null, manager: input.manager ?? null, teams: [...new Set(input.teams ?? [])] }
    : { jobTitle: current.job_title, manager: current.manager, teams: toTeams(current.teams) };
  return { phoneNumber: input.phoneNumber ?? null, ...profile };
}

/** What an edit changes, field by field, for the UpdateUser log row. */
function changesOf(current: ClientUserRow, next: ClientUserBody & ProfileChange & { userType: number }): Record<string, { from: unknown; to: unknown }> {
  const pairs: Array<[string, unknown, unknown]> = [
    ['userName', current.user_name, next.userName],
    ['email', current.email, next.email],
    ['firstName', current.first_name, next.firstName],
    ['lastName', current.last_name, next.lastName],
    ['language', current.language, next.language],
    ['areaId', current.area_id, next.areaId],
    ['phoneNumber', current.phone_number, next.phoneNumber],
    ['jobTitle', current.job_title, next.jobTitle],
    ['manager', current.manager, next.manager],
    ['teams', JSON.stringify(toTeams(current.teams)), JSON.stringify(next.teams)],
    ['userType', current.user_type, next.userType],
  ];
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, from, to] of pairs) if (from !== to) changes[field] = { from, to };
  if (changes.teams) changes.teams = { from: toTeams(current.teams), to: next.teams };
  return changes;
}

