import { DEFAULT_LANGUAGE, type NewUser } from '@gatehouse/contracts';
import { AppError } from '@gatehouse/core';
import { enforce, findTarget, groupHoldsRoles, mayChangeGroupMembers, mayLock, mayManageIdentity, type Target } from '@gatehouse/core/access';
import type { EntityManager } from 'typeorm';
import { lockAccount, unlockAccount } from '../account-lock/service.js';
import { groupWrites, type GroupActor } from '../groups/service.js';
import { findUserStateOf, publishUserEvents, type Actor } from '../users/access.js';
import { renameUserAccount } from '../users/excel/change-user-name.js';
import { createUser, deleteUserAccount, updateUserProfile } from '../users/service.js';
import { GROUP_COLUMNS, USER_COLUMNS, sortColumn } from './columns.js';
import { scimOrigin, type ScimCaller } from './credentials.js';
import { ScimError } from './protocol/errors.js';
import { toSql, type Filter, type SqlColumns } from './protocol/filter.js';
import { listResponse, type ListQuery, type ListResponse } from './protocol/list.js';
import { applyPatch } from './protocol/patch.js';
import { project } from './protocol/projection.js';
import type { ScimResource } from './protocol/schemas.js';
import {
  findGroupsMembers,
  findScimGroup,
  findScimUser,
  findUserNames,
  findUsersGroups,
  groupNameTaken,
  listScimGroups,
  listScimUsers,
  saveScimGroup,
  saveScimUser,
  setJobTitle,
  touchGroup,
  type PageQuery,
  type ScimGroupRow,
  type ScimUserRow,
} from './repository.js';
import { groupFieldsOf, groupResource, resourceOfBody, standardPatch, userFieldsOf, userResource, versionOf, type GroupFields, type UserFields } from './resources.js';
import type { AdminContext } from '../../admin-context.js';

/** The largest page a list answers (ServiceProviderConfig's filter.maxResults). */
export const SCIM_MAX_RESULTS = 200;

const notFound = (type: 'User' | 'Group', id: string) => new ScimError(404, undefined, `${type} ${id} not found`);

/** A request's `If-Match` against the resource's version: `*` matches any (RFC 7232). */
function checkVersion(resource: ScimResource, ifMatch: string | undefined): void {
  if (!ifMatch) return;
  const current = versionOf(resource);
  const tags = ifMatch.split(',').map((tag) => tag.trim());
  const weak = (tag: string) => tag.replace(/^W\//, '');
  if (tags.includes('*') || tags.some((tag) => weak(tag) === weak(current))) return;
  throw new ScimError(412, undefined, `the resource changed: its version is now ${current}`);
}

/** A refusal of the rules, as a SCIM error. */
function enforceScim(decision: ReturnType<typeof mayManageIdentity>, what: string): void {
  if (!decision.ok) throw new ScimError(decision.status === 404 ? 404 : 403, undefined, `${what}: ${decision.code}`);
}

/** The list's SQL condition and order, from its filter and sortBy. */
function pageQueryOf(query: ListQuery, columns: SqlColumns, extra?: Filter): PageQuery {
  const filter = query.filter && extra ? ({ type: 'and', left: query.filter, right: extra } as Filter) : (query.filter ?? extra);
  const where = filter ? toSql(filter, columns, 1) : undefined;
  let orderBy: string | undefined;
  if (query.sortBy) {
    orderBy = sortColumn(columns, query.sortBy);
    if (!orderBy) throw new ScimError(400, 'invalidValue', `sortBy: ${query.sortBy} cannot be sorted on`);
  }
  return {
    ...(where ? { where: { sql: where.where, params: where.params } } : {}),
    ...(orderBy ? { orderBy } : {}),
    descending: query.sortOrder === 'descending',
    offset: query.startIndex - 1,
    limit: query.count,
  };
}

/** Whether the projection asked for leaves out an attribute (so that it need not be read). */
function excludes(query: Pick<ListQuery, 'attributes' | 'excludedAttributes'>, attribute: string): boolean {
  const named = (list: string[] | undefined) => list?.some((name) => name.toLowerCase().replace(/^urn:[^]*:/, '').split('.')[0] === attribute.toLowerCase());
  if (query.attributes) return !named(query.attributes);
  return !!named(query.excludedAttributes);
}

/**
 * SCIM provisioning of one area's users and groups (RFC 7644) for a provisioning client: every
 * read and write stays inside the token's area; every write goes through the authority rules for
 * an application (no account holding an Identity role beyond User, no group holding one, never
 * the token's issuer themself), the users' and groups' own services, and the system log, in one
 * transaction per request, so that a refused request changes nothing.
 */
export class ScimService {
  constructor(private readonly context: AdminContext) {}

  private get db() {
    return this.context.dataSource;
  }

  private actorOf(caller: ScimCaller): Actor & GroupActor {
    return { userId: caller.issuer.id, userName: `${caller.application.name} (SCIM)` };
  }

  // -------------------------------------------------------------------------------------------
  // Users

  async listUsers(caller: ScimCaller, query: ListQuery, baseUrl: string): Promise<ListResponse<ScimResource>> {
    const { rows, total } = await listScimUsers(this.db, caller.area.id, pageQueryOf(query, USER_COLUMNS));
    const resources = await this.userResources(caller, rows, baseUrl, excludes(query, 'groups'));
    return listResponse(
      resources.map((resource) => project(resource, 'User', query)),
      total,
      query.startIndex,
    );
  }

  async getUser(caller: ScimCaller, id: string, baseUrl: string): Promise<ScimResource> {
    const row = await findScimUser(this.db, caller.area.id, id);
    if (!row) throw notFound('User', id);
    return (await this.userResources(caller, [row], baseUrl))[0]!;
  }

  private async userResources(caller: ScimCaller, rows: ScimUserRow[], baseUrl: string, withoutGroups = false, db = this.db.manager): Promise<ScimResource[]> {
    const groups = withoutGroups ? [] : await findUsersGroups(db, caller.area.id, rows.map((row) => row.id));
    const managerIds = rows.map((row) => managerOf(row)).filter((id): id is string => !!id);
    const managers = await findUserNames(db, caller.area.id, managerIds);
    return rows.map((row) =>
      userResource(row, {
        baseUrl,
        groups: groups.filter((group) => group.user_id === row.id).map((group) => ({ id: group.group_id, name: group.name })),
        managerName: managers.get(managerOf(row) ?? '')?.displayName,
      }),
    );
  }

  /** POST /Users: a new user of the token's area, without a password (invitation, reset or organization sign-in). */
  async createUser(caller: ScimCaller, body: unknown, baseUrl: string): Promise<ScimResource> {
    const fields = userFieldsOf(resourceOfBody(body, 'User'));
    const actor = this.actorOf(caller);
    const id = await this.transaction(async (em) => {
      await this.checkManager(em, caller, fields);
      const input: NewUser = {
        userName: fields.userName,
        email: fields.email,
        firstName: fields.firstName,
        lastName: fields.lastName,
        areaId: caller.area.id,
        language: fields.language ?? DEFAULT_LANGUAGE,
        validateScopes: false,
        sendEmailInvite: false,
      };
      const created = await createUser(this.context, em, input, actor, { areaIds: [caller.area.id], withoutGeneratedPassword: true, origin: scimOrigin(caller) });
      await setJobTitle(em, created.id, fields.title);
      await saveScimUser(em, created.id, { externalId: fields.externalId, attributes: fields.attributes, applicationId: caller.application.id });
      if (!fields.active) await lockAccount(em, actor, (await findUserStateOf(em, created.id))!, scimOrigin(caller));
      return created.id;
    });
    return this.getUser(caller, id, baseUrl);
  }

  /** PUT /Users/{id}: the user as the body describes it (what it leaves out is cleared). */
  async replaceUser(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined, baseUrl: string): Promise<ScimResource> {
    const next = resourceOfBody(body, 'User');
    return this.changeUser(caller, id, ifMatch, baseUrl, () => next);
  }

  /** PATCH /Users/{id}: the operations applied to the user as it is, all or none. */
  async patchUser(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined, baseUrl: string): Promise<ScimResource> {
    return this.changeUser(caller, id, ifMatch, baseUrl, (current) => applyPatch(current, standardPatch(body), 'User'));
  }

  private async changeUser(caller: ScimCaller, id: string, ifMatch: string | undefined, baseUrl: string, change: (current: ScimResource) => ScimResource): Promise<ScimResource> {
    const actor = this.actorOf(caller);
    const origin = scimOrigin(caller);
    const events = new Set<'user.changed' | 'oidc.invalidated'>();
    await this.transaction(async (em) => {
      const row = await findScimUser(em, caller.area.id, id, true);
      if (!row) throw notFound('User', id);
      const current = (await this.userResources(caller, [row], baseUrl, false, em))[0]!;
      checkVersion(current, ifMatch);
      const target = await this.managedUser(em, caller, id);
      const fields = userFieldsOf(change(current));
      const state = (await findUserStateOf(em, id))!;
      await this.checkManager(em, caller, fields);
      if (fields.userName !== row.user_name) {
        await renameUserAccount(em, actor, state, fields.userName, origin);
        events.add('user.changed');
      }
      const profile = { email: fields.email, firstName: fields.firstName, lastName: fields.lastName, language: fields.language ?? row.language, areaId: row.area_id, validateScopes: state.validate_scopes };
      if (await updateUserProfile(em, actor, state, profile, origin)) events.add('user.changed');
      if (await setJobTitle(em, id, fields.title)) events.add('user.changed');
      await saveScimUser(em, id, { externalId: fields.externalId, attributes: fields.attributes, applicationId: caller.application.id });
      if (fields.active === row.locked) {
        enforceScim(mayLock(caller.authority, target), 'this user cannot be locked or unlocked by this client');
        if (fields.active) await unlockAccount(em, actor, state, origin);
        else {
          await lockAccount(em, actor, state, origin);
          events.add('oidc.invalidated');
        }
        events.add('user.changed');
      }
    });
    publishUserEvents(this.context, id, [...events]);
    // Only a lock ends the user's tokens here: a deactivation by the provisioning client.
    if (events.has('oidc.invalidated')) this.context.metrics.lockouts.inc({ cause: 'provisioning', kind: 'permanent' });
    return this.getUser(caller, id, baseUrl);
  }

  /** DELETE /Users/{id}: the product's deletion (sessions end, memberships and tokens go). */
  async deleteUser(caller: ScimCaller, id: string, ifMatch: string | undefined, baseUrl: string): Promise<void> {
    await this.transaction(async (em) => {
      const row = await findScimUser(em, caller.area.id, id, true);
      if (!row) throw notFound('User', id);
      if (ifMatch) checkVersion((await this.userResources(caller, [row], baseUrl, false, em))[0]!, ifMatch);
      await this.managedUser(em, caller, id);
      if (id === caller.issuer.id) throw new ScimError(403, undefined, "the token's issuer cannot be deleted through it");
      await deleteUserAccount(em, this.actorOf(caller), (await findUserStateOf(em, id))!, scimOrigin(caller));
    });
    publishUserEvents(this.context, id, ['oidc.invalidated', 'user.changed', 'roles.changed']);
  }

  /** The user as the rules see them, if this client may manage them (no Identity role beyond User). */
  private async managedUser(em: EntityManager, caller: ScimCaller, id: string): Promise<Target> {
    const target = await findTarget(em, { type: 'User', id });
    if (!target) throw notFound('User', id);
    enforceScim(mayManageIdentity(caller.authority, target), 'this user is managed by administrators only');
    return target;
  }

  /** A manager must be a user of the area. */
  private async checkManager(em: EntityManager, caller: ScimCaller, fields: UserFields): Promise<void> {
    if (!fields.managerId) return;
    const found = await findUserNames(em, caller.area.id, [fields.managerId]);
    if (!found.size) throw new ScimError(400, 'invalidValue', `manager ${fields.managerId} is not a user of this area`);
  }

  // -------------------------------------------------------------------------------------------
  // Groups

  async listGroups(caller: ScimCaller, query: ListQuery, baseUrl: string): Promise<ListResponse<ScimResource>> {
    const { rows, total } = await listScimGroups(this.db, caller.area.id, pageQueryOf(query, GROUP_COLUMNS));
    const resources = await this.groupResources(rows, baseUrl, excludes(query, 'members'));
    return listResponse(
      resources.map((resource) => project(resource, 'Group', query)),
      total,
      query.startIndex,
    );
  }

  async getGroup(caller: ScimCaller, id: string, baseUrl: string, withoutMembers = false): Promise<ScimResource> {
    const row = await findScimGroup(this.db, caller.area.id, id);
    if (!row) throw notFound('Group', id);
    return (await this.groupResources([row], baseUrl, withoutMembers))[0]!;
  }

  private async groupResources(rows: ScimGroupRow[], baseUrl: string, withoutMembers = false, db = this.db.manager): Promise<ScimResource[]> {
    const members = withoutMembers ? [] : await findGroupsMembers(db, rows.map((row) => row.id));
    return rows.map((row) =>
      groupResource(
        row,
        withoutMembers
          ? undefined
          : members
              .filter((member) => member.group_id === row.id)
              .map((member) => ({ id: member.user_id, display: [member.first_name, member.last_name].filter(Boolean).join(' ') || member.user_name })),
        baseUrl,
      ),
    );
  }

  async createGroup(caller: ScimCaller, body: unknown, baseUrl: string): Promise<ScimResource> {
    const fields = groupFieldsOf(resourceOfBody(body, 'Group'));
    const actor = this.actorOf(caller);
    const origin = scimOrigin(caller);
    const { id, added } = await this.transaction(async (em) => {
      if (await groupNameTaken(em, caller.area.id, fields.name)) throw new ScimError(409, 'uniqueness', `a group of this area is already named ${JSON.stringify(fields.name)}`);
      const id = await groupWrites.create(em, actor, { name: fields.name, description: null, areaId: caller.area.id }, origin);
      await saveScimGroup(em, id, { externalId: fields.externalId, attributes: fields.attributes, applicationId: caller.application.id });
      const added = await this.setMembers(em, caller, id, [], fields.memberIds);
      return { id, added };
    });
    groupWrites.announce(this.context, added);
    return this.getGroup(caller, id, baseUrl);
  }

  async replaceGroup(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined, baseUrl: string): Promise<ScimResource> {
    const next = resourceOfBody(body, 'Group');
    return this.changeGroup(caller, id, ifMatch, baseUrl, () => next);
  }

  async patchGroup(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined, baseUrl: string, answerBody: boolean): Promise<ScimResource | undefined> {
    return this.changeGroup(caller, id, ifMatch, baseUrl, (current) => applyPatch(current, standardPatch(body), 'Group'), answerBody);
  }

  private async changeGroup(
    caller: ScimCaller,
    id: string,
    ifMatch: string | undefined,
    baseUrl: string,
    change: (current: ScimResource) => ScimResource,
    answerBody = true,
  ): Promise<ScimResource> {
    const actor = this.actorOf(caller);
    const origin = scimOrigin(caller);
    const changed = await this.transaction(async (em) => {
      const group = await groupWrites.lock(em, id);
      const row = group && group.areaId === caller.area.id ? await findScimGroup(em, caller.area.id, id) : undefined;
      if (!group || !row) throw notFound('Group', id);
      const current = (await this.groupResources([row], baseUrl, false, em))[0]!;
      checkVersion(current, ifMatch);
      await this.checkGroup(em, caller, id, group.isUsersGroup);
      const fields: GroupFields = groupFieldsOf(change(current));
      if (fields.name.toLowerCase() !== group.name.toLowerCase() && (await groupNameTaken(em, caller.area.id, fields.name, id))) {
        throw new ScimError(409, 'uniqueness', `a group of this area is already named ${JSON.stringify(fields.name)}`);
      }
      await groupWrites.update(em, actor, group, { name: fields.name, description: group.description, areaId: group.areaId }, origin);
      await saveScimGroup(em, id, { externalId: fields.externalId, attributes: fields.attributes, applicationId: caller.application.id });
      const before = ((current.members as Array<{ value: string }> | undefined) ?? []).map((member) => member.value);
      const touched = await this.setMembers(em, caller, id, before, fields.memberIds, group.name);
      if (touched.length) await touchGroup(em, id);
      return touched;
    });
    groupWrites.announce(this.context, changed);
    return this.getGroup(caller, id, baseUrl, !answerBody);
  }

  async deleteGroup(caller: ScimCaller, id: string, ifMatch: string | undefined, baseUrl: string): Promise<void> {
    const affected = await this.transaction(async (em) => {
      const group = await groupWrites.lock(em, id);
      if (!group || group.areaId !== caller.area.id) throw notFound('Group', id);
      if (ifMatch) {
        const row = (await findScimGroup(em, caller.area.id, id))!;
        checkVersion((await this.groupResources([row], baseUrl, false, em))[0]!, ifMatch);
      }
      await this.checkGroup(em, caller, id, group.isUsersGroup);
      return groupWrites.remove(em, this.actorOf(caller), group, scimOrigin(caller));
    });
    groupWrites.announce(this.context, affected);
  }

  /** A group this client may change: not the Users group, none holding Identity roles (mayChangeGroupMembers). */
  private async checkGroup(em: EntityManager, caller: ScimCaller, id: string, isUsersGroup: boolean): Promise<void> {
    if (isUsersGroup) throw new ScimError(403, undefined, 'the Users group is changed by God only');
    const group = await findTarget(em, { type: 'Group', id });
    if (!group) throw notFound('Group', id);
    enforceScim(mayChangeGroupMembers(caller.authority, { ...group, holdsRoles: await groupHoldsRoles(em, id) }), 'this group is managed by administrators only');
  }

  /**
   * Makes the group's members `wanted` (users of the area; each one joining is checked by the rules,
   * the issuer never joins a group through their own token); answers the users added or removed.
   */
  private async setMembers(em: EntityManager, caller: ScimCaller, groupId: string, before: string[], wanted: string[], groupName?: string): Promise<string[]> {
    const actor = this.actorOf(caller);
    const origin = scimOrigin(caller);
    const current = new Set(before.map((id) => id.toLowerCase()));
    const next = new Set(wanted.map((id) => id.toLowerCase()));
    const adding = [...next].filter((id) => !current.has(id));
    const removing = [...current].filter((id) => !next.has(id));
    if (!adding.length && !removing.length) return [];
    const group = (await groupWrites.lock(em, groupId))!;
    const holdsRoles = await groupHoldsRoles(em, groupId);
    const groupTarget = (await findTarget(em, { type: 'Group', id: groupId }))!;
    const names = await findUserNames(em, caller.area.id, adding);
    for (const userId of adding) {
      const user = names.get(userId);
      if (!user) throw new ScimError(400, 'invalidValue', `member ${userId} is not a user of this area`);
      const member = (await findTarget(em, { type: 'User', id: userId }))!;
      enforceScim(mayChangeGroupMembers(caller.authority, { ...groupTarget, holdsRoles }, member), `user ${userId} cannot be added to ${groupName ?? group.name}`);
      await groupWrites.addMember(em, actor, group, { id: userId, userName: user.userName }, origin);
    }
    for (const userId of removing) await groupWrites.removeMember(em, actor, group, userId, origin);
    return [...adding, ...removing];
  }

  /** Runs `work` in one transaction: a refusal anywhere in it writes nothing (the router turns it into a SCIM error). */
  private async transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}

function managerOf(row: ScimUserRow): string | undefined {
  const enterprise = row.attributes?.['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'] as { manager?: { value?: unknown } } | undefined;
  return typeof enterprise?.manager?.value === 'string' ? enterprise.manager.value : undefined;
}

/** A product error (a refusal of users' or groups' rules) as the SCIM error a client reads. */
export function scimErrorOf(error: AppError, message: string): ScimError {
  if (error.status === 409) return new ScimError(409, 'uniqueness', message);
  if (error.status === 400) return new ScimError(400, 'invalidValue', message);
  return new ScimError(error.status, undefined, message);
}

