// Users and groups as SCIM resources (RFC 7643), and SCIM resources as the product's fields: which
// attribute is which column, what is kept beside them, and each resource's version.
import { createHash } from 'node:crypto';
import { LANGUAGES, type Language } from '@gatehouse/contracts';
import { z } from 'zod';
import { ScimError } from './protocol/errors.js';
import { memberOf } from './protocol/filter.js';
import { PATCH_OP_SCHEMA, applyPatch } from './protocol/patch.js';
import { ENTERPRISE_USER_SCHEMA_ID, GROUP_SCHEMA_ID, USER_SCHEMA_ID, type ResourceTypeName, type ScimResource } from './protocol/schemas.js';
import type { ScimGroupRow, ScimUserRow } from './repository.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const invalidValue = (detail: string) => new ScimError(400, 'invalidValue', detail);

/** The version of a resource (RFC 7644 §3.14): a weak tag of everything but its `meta`. */
export function versionOf(resource: ScimResource): string {
  const { meta: _meta, ...content } = resource;
  return `W/"${createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 22)}"`;
}

/** `meta` with the version of the resource as it is without it. */
function withMeta(resource: Json, meta: { resourceType: ResourceTypeName; created: Date; lastModified: Date; location: string }): ScimResource {
  const version = versionOf(resource);
  return {
    ...resource,
    meta: { resourceType: meta.resourceType, created: meta.created.toISOString(), lastModified: meta.lastModified.toISOString(), location: meta.location, version },
  };
}

// ---------------------------------------------------------------------------------------------
// Users

/** What a user resource needs beyond its row: its groups, its manager's name, where it lives. */
export interface UserExtras {
  groups: Array<{ id: string; name: string }>;
  managerName?: string;
  baseUrl: string;
}

/** Attributes the product keeps in its own columns (or computes): never stored beside them. */
const USER_OWN_ATTRIBUTES = ['schemas', 'id', 'meta', 'externalId', 'userName', 'active', 'title', 'groups', 'password'];

/**
 * The user as a SCIM resource: `userName`, `name.givenName`/`familyName`, the account's e-mail as
 * the primary work address, `title` (the job title), `active` (not locked by an administrator),
 * the groups of the area, the enterprise extension, and whatever else the client sent, as sent.
 */
export function userResource(row: ScimUserRow, extras: UserExtras): ScimResource {
  const kept = structuredClone(row.attributes ?? {}) as Json;
  const extraEmails = Array.isArray(kept.emails) ? (kept.emails as Json[]) : [];
  delete kept.emails;
  const storedName = isObject(kept.name) ? kept.name : {};
  delete kept.name;
  const enterprise = isObject(kept[ENTERPRISE_USER_SCHEMA_ID]) ? (kept[ENTERPRISE_USER_SCHEMA_ID] as Json) : undefined;
  delete kept[ENTERPRISE_USER_SCHEMA_ID];
  const name = { ...storedName, ...(row.last_name ? { familyName: row.last_name } : {}), ...(row.first_name ? { givenName: row.first_name } : {}) };
  const displayName = typeof kept.displayName === 'string' ? kept.displayName : [row.first_name, row.last_name].filter(Boolean).join(' ') || undefined;
  const resource: Json = {
    schemas: enterprise ? [USER_SCHEMA_ID, ENTERPRISE_USER_SCHEMA_ID] : [USER_SCHEMA_ID],
    id: row.id,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    userName: row.user_name,
    name,
    ...kept,
    ...(displayName ? { displayName } : {}),
    ...(row.job_title ? { title: row.job_title } : {}),
    ...(typeof kept.preferredLanguage === 'string' ? {} : { preferredLanguage: row.language }),
    active: !row.locked,
    emails: [{ value: row.email, type: 'work', primary: true }, ...extraEmails.map((email) => ({ ...email, primary: false }))],
    ...(extras.groups.length
      ? { groups: extras.groups.map((group) => ({ value: group.id, $ref: `${extras.baseUrl}/Groups/${group.id}`, display: group.name, type: 'direct' })) }
      : {}),
  };
  if (enterprise) {
    const manager = isObject(enterprise.manager) ? enterprise.manager : undefined;
    resource[ENTERPRISE_USER_SCHEMA_ID] = {
      ...enterprise,
      ...(manager && typeof manager.value === 'string'
        ? {
            manager: {
              value: manager.value,
              $ref: `${extras.baseUrl}/Users/${manager.value}`,
              ...(extras.managerName ? { displayName: extras.managerName } : {}),
            },
          }
        : {}),
    };
  }
  return withMeta(resource, { resourceType: 'User', created: row.created_at, lastModified: row.last_modified, location: `${extras.baseUrl}/Users/${row.id}` });
}

/** What a SCIM user resource says of the product's fields. */
export interface UserFields {
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  /** The product's language the client's preferredLanguage or locale names, if one. */
  language?: Language;
  title: string | null;
  active: boolean;
  externalId: string | null;
  /** What is kept beside the columns, as the client sent it. */
  attributes: Json;
  managerId?: string;
}

const emailSchema = z.email();

/** The product's language that `tag` (`fr`, `pt-BR`, `en-US`, `de_CH`) names, if any. */
export function languageOf(tag: unknown): Language | undefined {
  if (typeof tag !== 'string' || !tag.trim()) return undefined;
  const normalized = tag.trim().replace('_', '-').split(',')[0]!.split(';')[0]!.trim();
  const exact = LANGUAGES.find((language) => language.toLowerCase() === normalized.toLowerCase());
  if (exact) return exact;
  const base = normalized.split('-')[0]!.toLowerCase();
  if (base === 'pt') return normalized.toLowerCase() === 'pt-br' ? 'pt-BR' : 'pt-PT';
  return LANGUAGES.find((language) => language === base);
}

/** The e-mail-shaped user name, the account's e-mail (the primary address, else the first, else the user name) and the names. */
function identityOf(resource: ScimResource) {
  const userName = memberOf(resource, 'userName');
  if (typeof userName !== 'string' || !userName.trim()) throw invalidValue('userName is required');
  if (!emailSchema.safeParse(userName.trim()).success) throw invalidValue(`userName must be an e-mail address (users sign in with it), not ${JSON.stringify(userName)}`);
  const emails = memberOf(resource, 'emails');
  const list = Array.isArray(emails) ? (emails.filter(isObject) as Json[]) : [];
  const primary = list.find((email) => memberOf(email, 'primary') === true) ?? list[0];
  const email = typeof primary?.value === 'string' ? primary.value.trim() : userName.trim();
  if (!emailSchema.safeParse(email).success) throw invalidValue(`emails: ${JSON.stringify(email)} is not an e-mail address`);
  if (email.length > 256 || userName.trim().length > 256) throw invalidValue('userName and e-mail addresses have at most 256 characters');
  const name = memberOf(resource, 'name');
  const givenName = isObject(name) ? memberOf(name, 'givenName') : undefined;
  const familyName = isObject(name) ? memberOf(name, 'familyName') : undefined;
  if (typeof givenName !== 'string' || !givenName.trim()) throw invalidValue('name.givenName is required (the product names every user)');
  if (typeof familyName !== 'string' || !familyName.trim()) throw invalidValue('name.familyName is required (the product names every user)');
  if (givenName.trim().length > 100 || familyName.trim().length > 100) throw invalidValue('name.givenName and name.familyName have at most 100 characters');
  return { userName: userName.trim(), email, emails: list, primary, firstName: givenName.trim(), lastName: familyName.trim() };
}

/**
 * What is kept beside the columns: every attribute but the product's own, the names' other parts,
 * the other e-mail addresses, the enterprise extension with its manager as `{ value }`; not what
 * the product shows by itself (the names joined, its own language code).
 */
function keptAttributes(resource: ScimResource, identity: ReturnType<typeof identityOf>, language: Language | undefined): { attributes: Json; managerId?: string } {
  const attributes: Json = {};
  for (const [key, value] of Object.entries(resource)) {
    if (USER_OWN_ATTRIBUTES.some((own) => own.toLowerCase() === key.toLowerCase())) continue;
    const lower = key.toLowerCase();
    if (lower === 'name' && isObject(value)) {
      const { givenName: _g, familyName: _f, ...rest } = value;
      if (Object.keys(rest).length) attributes.name = rest;
    } else if (lower === 'emails') {
      const others = identity.emails.filter((item) => item !== identity.primary).map(({ primary: _p, ...rest }) => rest);
      if (others.length) attributes.emails = others;
    } else if (lower === 'displayname' && value === `${identity.firstName} ${identity.lastName}`) {
      continue;
    } else if (lower === 'preferredlanguage' && value === language) {
      continue;
    } else if (lower !== ENTERPRISE_USER_SCHEMA_ID.toLowerCase()) {
      attributes[key] = value;
    }
  }
  const enterpriseKey = Object.keys(resource).find((key) => key.toLowerCase() === ENTERPRISE_USER_SCHEMA_ID.toLowerCase());
  if (!enterpriseKey || !isObject(resource[enterpriseKey])) return { attributes };
  const enterprise = { ...(resource[enterpriseKey] as Json) };
  const manager = memberOf(enterprise, 'manager');
  const managerId = isObject(manager) && typeof memberOf(manager, 'value') === 'string' && memberOf(manager, 'value') ? (memberOf(manager, 'value') as string) : undefined;
  if (managerId) enterprise.manager = { value: managerId };
  else delete enterprise.manager;
  if (Object.keys(enterprise).length) attributes[ENTERPRISE_USER_SCHEMA_ID] = enterprise;
  return { attributes, ...(managerId ? { managerId } : {}) };
}

/**
 * The product's fields of a user resource (after the request was applied): the user name must be
 * an e-mail address (the product signs in by e-mail); the account's e-mail is the primary address,
 * else the first, else the user name; given and family names are required. A password is never
 * taken: users set theirs by invitation or reset, or sign in with their organization's account.
 */
export function userFieldsOf(resource: ScimResource): UserFields {
  if (memberOf(resource, 'password') !== undefined) {
    throw invalidValue('password is not accepted: a provisioned user sets their own password (invitation or reset) or signs in with their organization');
  }
  const roles = memberOf(resource, 'roles');
  if (Array.isArray(roles) && roles.length) {
    throw new ScimError(400, 'mutability', 'roles are given in the console, by operation requests or by an application, never by provisioning');
  }
  const identity = identityOf(resource);
  const title = memberOf(resource, 'title');
  if (typeof title === 'string' && title.length > 200) throw invalidValue('title has at most 200 characters');
  const externalId = memberOf(resource, 'externalId');
  if (typeof externalId === 'string' && externalId.length > 256) throw invalidValue('externalId has at most 256 characters');
  const active = memberOf(resource, 'active');
  const language = languageOf(memberOf(resource, 'preferredLanguage')) ?? languageOf(memberOf(resource, 'locale'));
  const { attributes, managerId } = keptAttributes(resource, identity, language);
  return {
    userName: identity.userName,
    email: identity.email,
    firstName: identity.firstName,
    lastName: identity.lastName,
    ...(language ? { language } : {}),
    title: typeof title === 'string' && title.trim() ? title.trim() : null,
    active: active === undefined ? true : active === true,
    externalId: typeof externalId === 'string' && externalId ? externalId : null,
    attributes,
    ...(managerId ? { managerId } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Groups

export interface GroupMember {
  id: string;
  display: string;
}

const GROUP_OWN_ATTRIBUTES = ['schemas', 'id', 'meta', 'externalId', 'displayName', 'members'];

/** The group as a SCIM resource: `displayName` its name, its user members; with `members: undefined`, none listed (excluded by the request). */
export function groupResource(row: ScimGroupRow, members: GroupMember[] | undefined, baseUrl: string): ScimResource {
  const kept = structuredClone(row.attributes ?? {}) as Json;
  const resource: Json = {
    schemas: [GROUP_SCHEMA_ID],
    id: row.id,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    displayName: row.name,
    ...kept,
    ...(members?.length ? { members: members.map((member) => ({ value: member.id, $ref: `${baseUrl}/Users/${member.id}`, type: 'User', display: member.display })) } : {}),
  };
  return withMeta(resource, { resourceType: 'Group', created: row.created_at, lastModified: row.last_modified, location: `${baseUrl}/Groups/${row.id}` });
}

export interface GroupFields {
  name: string;
  externalId: string | null;
  memberIds: string[];
  attributes: Json;
}

/** The product's fields of a group resource: its name (`displayName`), its user members. */
export function groupFieldsOf(resource: ScimResource): GroupFields {
  const displayName = memberOf(resource, 'displayName');
  if (typeof displayName !== 'string' || !displayName.trim()) throw invalidValue('displayName is required');
  if (displayName.trim().length > 200) throw invalidValue('displayName has at most 200 characters');
  const externalId = memberOf(resource, 'externalId');
  if (typeof externalId === 'string' && externalId.length > 256) throw invalidValue('externalId has at most 256 characters');
  const members = memberOf(resource, 'members');
  const memberIds: string[] = [];
  for (const member of Array.isArray(members) ? members : []) {
    if (!isObject(member) || typeof memberOf(member, 'value') !== 'string') throw invalidValue('each member needs a value, the id of a user');
    const type = memberOf(member, 'type');
    if (typeof type === 'string' && type.toLowerCase() === 'group') throw invalidValue('a group cannot be a member of a group here: add its users');
    memberIds.push((memberOf(member, 'value') as string).toLowerCase());
  }
  const attributes: Json = {};
  for (const [key, value] of Object.entries(resource)) {
    if (!GROUP_OWN_ATTRIBUTES.some((own) => own.toLowerCase() === key.toLowerCase())) attributes[key] = value;
  }
  return { name: displayName.trim(), externalId: typeof externalId === 'string' && externalId ? externalId : null, memberIds: [...new Set(memberIds)], attributes };
}

// ---------------------------------------------------------------------------------------------
// Requests

/** A schema Microsoft Entra names on every group it sends, with no attribute of its own: accepted and ignored. */
const MICROSOFT_MARKERS = ['http://schemas.microsoft.com/2006/11/resourcemanagement/adscim/2.0/group'];

/**
 * A PATCH body with Microsoft Entra's known departures from RFC 7644 made standard: sub-attributes
 * sent as null (`"$ref": null` in members) are absent, and the enterprise manager sent as its id
 * alone is `{ "value": id }`. Everything else (capitalised `op`, booleans as "True"/"False", add or
 * replace without a path) the PATCH itself accepts.
 */
export function standardPatch(body: unknown): unknown {
  if (!isObject(body) || !Array.isArray(body.Operations)) return body;
  const operations = body.Operations.map((operation: unknown) => {
    if (!isObject(operation)) return operation;
    let value = operation.value;
    if (Array.isArray(value)) value = value.map((item) => (isObject(item) ? Object.fromEntries(Object.entries(item).filter(([, v]) => v !== null)) : item));
    const path = typeof operation.path === 'string' ? operation.path.toLowerCase() : '';
    if (path === `${ENTERPRISE_USER_SCHEMA_ID}:manager`.toLowerCase() && typeof value === 'string') value = { value };
    return { ...operation, value };
  });
  return { ...body, Operations: operations };
}

/** What a client may not set, and a server ignores in a POST or PUT body (RFC 7644 §3.3, §3.5.1). */
const IGNORED_ON_WRITE: Record<ResourceTypeName, string[]> = { User: ['schemas', 'id', 'meta', 'groups'], Group: ['schemas', 'id', 'meta'] };

/**
 * A POST or PUT body as a resource of `type`: its `schemas` must name the type's core schema and
 * only its extensions; read-only attributes are ignored; every other attribute is checked against
 * the schema (a name it does not know, a value of the wrong type, a read-only sub-attribute: 400).
 */
export function resourceOfBody(body: unknown, type: ResourceTypeName): ScimResource {
  if (!isObject(body)) throw new ScimError(400, 'invalidSyntax', 'the body is not a JSON object');
  const schemas = memberOf(body, 'schemas');
  const core = type === 'User' ? USER_SCHEMA_ID : GROUP_SCHEMA_ID;
  const allowed = type === 'User' ? [USER_SCHEMA_ID, ENTERPRISE_USER_SCHEMA_ID] : [GROUP_SCHEMA_ID];
  if (!Array.isArray(schemas) || !schemas.some((schema) => typeof schema === 'string' && schema.toLowerCase() === core.toLowerCase())) {
    throw new ScimError(400, 'invalidSyntax', `schemas must name ${core}`);
  }
  const unknown = schemas.find(
    (schema) => typeof schema !== 'string' || (!allowed.some((known) => known.toLowerCase() === schema.toLowerCase()) && !MICROSOFT_MARKERS.includes(schema.toLowerCase())),
  );
  if (unknown !== undefined) throw new ScimError(400, 'invalidSyntax', `the schema ${JSON.stringify(unknown)} is not one of a ${type}`);
  const value: Json = {};
  for (const [key, item] of Object.entries(body)) {
    if (IGNORED_ON_WRITE[type].some((ignored) => ignored.toLowerCase() === key.toLowerCase())) continue;
    value[key] = item;
  }
  return applyPatch({ schemas: [core] }, { schemas: [PATCH_OP_SCHEMA], Operations: [{ op: 'replace', value }] }, type);
}
