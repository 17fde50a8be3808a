// Which SQL each SCIM attribute is, for filters and sorting: the product's columns where it has
// them (`u` users, `g` groups), the attributes SCIM keeps beside them (`s.attributes`) elsewhere.
import type { SqlColumn, SqlColumns, SqlMultiValued } from './protocol/filter.js';
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, USER_SCHEMA, type AttributeDefinition } from './protocol/schemas.js';
import { GROUP_LAST_MODIFIED, USER_LAST_MODIFIED } from './repository.js';

const text = (sql: string, caseExact = false): SqlColumn => ({ sql, type: 'string', caseExact });

/** A scalar kept in a JSON object `json` (an SQL expression) under `name`, cast to its type. */
function jsonScalar(json: string, attribute: AttributeDefinition): SqlColumn | undefined {
  const raw = `(${json}->>'${attribute.name}')`;
  switch (attribute.type) {
    case 'string':
    case 'reference':
    case 'binary':
      return text(raw, attribute.caseExact);
    case 'boolean':
      return { sql: `(CASE WHEN ${raw} IN ('true', 'false') THEN ${raw}::boolean END)`, type: 'boolean', caseExact: false };
    case 'dateTime':
      return { sql: `(CASE WHEN ${raw} ~ '^\\d{4}-\\d{2}-\\d{2}' THEN ${raw}::timestamptz END)`, type: 'dateTime', caseExact: false };
    case 'integer':
      return { sql: `(CASE WHEN ${raw} ~ '^-?\\d+$' THEN ${raw}::bigint END)`, type: 'integer', caseExact: false };
    default:
      return undefined;
  }
}

/** A multi-valued complex attribute kept as a JSON array: one row per element, aliased `e`. */
function jsonList(json: string, attribute: AttributeDefinition): SqlMultiValued {
  const subAttributes: Record<string, SqlColumn> = {};
  for (const sub of attribute.subAttributes ?? []) {
    const column = jsonScalar('e', sub);
    if (column) subAttributes[sub.name.toLowerCase()] = column;
  }
  return {
    exists: (condition) => `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${json}->'${attribute.name}') = 'array' THEN ${json}->'${attribute.name}' ELSE '[]'::jsonb END) e WHERE ${condition})`,
    subAttributes,
  };
}

/** Every attribute of `attributes` kept in the JSON object `json`, keyed `prefix` + lower-cased name. */
function jsonColumns(json: string, attributes: readonly AttributeDefinition[], prefix: string, skip: readonly string[]): SqlColumns {
  const columns: SqlColumns = {};
  for (const attribute of attributes) {
    const key = `${prefix}${attribute.name.toLowerCase()}`;
    if (skip.includes(key)) continue;
    if (attribute.type === 'complex' && attribute.multiValued) columns[key] = jsonList(json, attribute);
    else if (attribute.type === 'complex') {
      for (const sub of attribute.subAttributes ?? []) {
        const column = jsonScalar(`(${json}->'${attribute.name}')`, sub);
        if (column) columns[`${key}.${sub.name.toLowerCase()}`] = column;
      }
    } else if (!attribute.multiValued) {
      const column = jsonScalar(json, attribute);
      if (column) columns[key] = column;
    }
  }
  return columns;
}

const ENTERPRISE_KEY = ENTERPRISE_USER_SCHEMA.id.toLowerCase();

/** The account's e-mail (the primary work address) and the other addresses kept beside it. */
const USER_EMAILS: SqlMultiValued = {
  exists: (condition) =>
    `EXISTS (SELECT 1 FROM (SELECT u.email AS value, 'work'::text AS type, true AS "primary", NULL::text AS display
                UNION ALL SELECT e->>'value', e->>'type', false, e->>'display'
                  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(s.attributes->'emails') = 'array' THEN s.attributes->'emails' ELSE '[]'::jsonb END) e) em
              WHERE ${condition})`,
  subAttributes: {
    value: text('em.value'),
    type: text('em.type'),
    primary: { sql: 'em."primary"', type: 'boolean', caseExact: false },
    display: text('em.display'),
  },
};

const USER_GROUPS: SqlMultiValued = {
  exists: (condition) => `EXISTS (SELECT 1 FROM group_members gm JOIN groups gg ON gg.id = gm.group_id AND gg.area_id = u.area_id WHERE gm.user_id = u.id AND ${condition})`,
  subAttributes: {
    value: text('gm.group_id::text', true),
    display: text('gg.name'),
    type: text(`'direct'`),
  },
};

/** The schemas a user resource names: the core one, and the enterprise extension when it has some of its attributes. */
const USER_SCHEMAS: SqlMultiValued = {
  exists: (condition) =>
    `EXISTS (SELECT 1 FROM (VALUES ('${USER_SCHEMA.id}'), (CASE WHEN jsonb_typeof(s.attributes->'${ENTERPRISE_USER_SCHEMA.id}') = 'object' THEN '${ENTERPRISE_USER_SCHEMA.id}' END)) sc(value)
              WHERE sc.value IS NOT NULL AND ${condition})`,
  subAttributes: { value: text('sc.value') },
};

/** The filterable (and sortable) attributes of a user. */
export const USER_COLUMNS: SqlColumns = {
  schemas: USER_SCHEMAS,
  ...jsonColumns('s.attributes', USER_SCHEMA.attributes, '', ['username', 'name', 'displayname', 'title', 'active', 'password', 'emails', 'groups', 'preferredlanguage']),
  ...jsonColumns(`(s.attributes->'${ENTERPRISE_USER_SCHEMA.id}')`, ENTERPRISE_USER_SCHEMA.attributes, `${ENTERPRISE_KEY}:`, []),
  id: text('u.id::text', true),
  externalid: text('s.external_id', true),
  username: text('u.user_name'),
  'name.givenname': text('u.first_name'),
  'name.familyname': text('u.last_name'),
  ...Object.fromEntries(
    ['formatted', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((sub) => [`name.${sub.toLowerCase()}`, text(`(s.attributes->'name'->>'${sub}')`)]),
  ),
  displayname: text(`coalesce(s.attributes->>'displayName', nullif(concat_ws(' ', u.first_name, u.last_name), ''))`),
  title: text('u.job_title'),
  preferredlanguage: text(`coalesce(s.attributes->>'preferredLanguage', u.language)`),
  active: { sql: '(NOT u.locked)', type: 'boolean', caseExact: false },
  emails: USER_EMAILS,
  groups: USER_GROUPS,
  'meta.created': { sql: 'u.created_at', type: 'dateTime', caseExact: false },
  'meta.lastmodified': { sql: USER_LAST_MODIFIED, type: 'dateTime', caseExact: false },
  'meta.resourcetype': text(`'User'`, true),
};

const GROUP_MEMBERS: SqlMultiValued = {
  exists: (condition) => `EXISTS (SELECT 1 FROM group_members gm JOIN users mu ON mu.id = gm.user_id WHERE gm.group_id = g.id AND ${condition})`,
  subAttributes: {
    value: text('gm.user_id::text', true),
    display: text(`coalesce(nullif(concat_ws(' ', mu.first_name, mu.last_name), ''), mu.user_name)`),
    type: text(`'User'`, true),
  },
};

/** The filterable (and sortable) attributes of a group. */
export const GROUP_COLUMNS: SqlColumns = {
  ...jsonColumns('s.attributes', GROUP_SCHEMA.attributes, '', ['displayname', 'members']),
  schemas: { exists: (condition) => `EXISTS (SELECT 1 FROM (VALUES ('${GROUP_SCHEMA.id}')) sc(value) WHERE ${condition})`, subAttributes: { value: text('sc.value') } },
  id: text('g.id::text', true),
  externalid: text('s.external_id', true),
  displayname: text('g.name'),
  members: GROUP_MEMBERS,
  'meta.created': { sql: 'g.created_at', type: 'dateTime', caseExact: false },
  'meta.lastmodified': { sql: GROUP_LAST_MODIFIED, type: 'dateTime', caseExact: false },
  'meta.resourcetype': text(`'Group'`, true),
};

/** The SQL a `sortBy` names (a column of the map, not a multi-valued attribute); undefined when it is none. */
export function sortColumn(columns: SqlColumns, sortBy: string): string | undefined {
  const key = sortBy
    .trim()
    .replace(/^urn:ietf:params:scim:schemas:core:2\.0:(?:user|group):/i, '')
    .toLowerCase();
  const entry = Object.hasOwn(columns, key) ? columns[key] : undefined;
  if (entry && 'sql' in entry) return entry.sql;
  // A multi-valued attribute sorts by its primary value (RFC 7644 §3.4.2.3): the account's e-mail for emails.
  if (key === 'emails' || key === 'emails.value') return 'u.email';
  return undefined;
}
