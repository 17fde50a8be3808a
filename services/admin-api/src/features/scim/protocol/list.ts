/** The query of a SCIM list (RFC 7644 §3.4.2) and its ListResponse. */
import { ScimError } from './errors.js';
import { parseFilter, validateFilter, type Filter } from './filter.js';
import { parseAttributePath, type ResourceTypeName } from './schemas.js';

export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

export type SortOrder = 'ascending' | 'descending';

export interface ListQuery {
  filter?: Filter;
  sortBy?: string;
  sortOrder: SortOrder;
  /** 1-based index of the first result. */
  startIndex: number;
  /** How many results at most, 0 for only `totalResults`. */
  count: number;
  attributes?: string[];
  excludedAttributes?: string[];
}

export interface ListQueryOptions {
  /** The largest page the server gives; a larger `count` is cut to it. */
  maxCount: number;
  /** The page size without `count`; `maxCount` when not given. */
  defaultCount?: number;
  /** When given, the filter is also checked against this type's schemas. */
  resourceType?: ResourceTypeName;
}

export interface ListResponse<T> {
  schemas: [typeof LIST_RESPONSE_SCHEMA];
  totalResults: number;
  Resources: T[];
  startIndex: number;
  itemsPerPage: number;
}

const invalidValue = (detail: string) => new ScimError(400, 'invalidValue', detail);

/** Every value given for a parameter; its name is case-insensitive. */
function parameter(query: Record<string, unknown>, name: string): unknown[] {
  return Object.entries(query)
    .filter(([key]) => key.toLowerCase() === name.toLowerCase())
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]))
    .filter((value) => value !== undefined);
}

/** The one value of a parameter ; a parameter given twice is refused. */
function single(query: Record<string, unknown>, name: string): string | number | undefined {
  const values = parameter(query, name);
  if (values.length > 1) throw invalidValue(`the parameter ${name} is given more than once`);
  const [value] = values;
  if (value === undefined || typeof value === 'string' || typeof value === 'number') return value;
  throw invalidValue(`the parameter ${name} is not a string`);
}

function integer(query: Record<string, unknown>, name: string): number | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (!/^[+-]?\d+$/.test(text)) throw invalidValue(`${name} must be an integer, not ${JSON.stringify(value)}`);
  return Math.max(Math.min(Number(text), Number.MAX_SAFE_INTEGER), Number.MIN_SAFE_INTEGER);
}

/** A comma-separated list of attribute names (repeated parameters and JSON arrays add to it). */
function names(query: Record<string, unknown>, name: string): string[] | undefined {
  const values = parameter(query, name);
  if (values.length === 0) return undefined;
  if (values.some((value) => typeof value !== 'string')) throw invalidValue(`${name} must be a comma-separated list of attribute names`);
  const list = values.flatMap((value) => (value as string).split(',')).map((item) => item.trim()).filter(Boolean);
  const wrong = list.find((item) => !parseAttributePath(item) && !/^urn:[A-Za-z0-9:._%-]+$/i.test(item));
  if (wrong !== undefined) throw invalidValue(`${name}: "${wrong}" is not an attribute name`);
  return list;
}

function sortOrder(query: Record<string, unknown>): SortOrder {
  const value = single(query, 'sortOrder');
  if (value === undefined) return 'ascending';
  const order = String(value).toLowerCase();
  if (order !== 'ascending' && order !== 'descending') throw invalidValue(`sortOrder must be "ascending" or "descending", not ${JSON.stringify(value)}`);
  return order;
}

function filterOf(query: Record<string, unknown>, resourceType: ResourceTypeName | undefined): Filter | undefined {
  const text = single(query, 'filter');
  if (text === undefined) return undefined;
  if (typeof text !== 'string') throw new ScimError(400, 'invalidFilter', 'the filter is not a string');
  const filter = parseFilter(text);
  if (resourceType) validateFilter(filter, resourceType);
  return filter;
}

/**
 * The list parameters of a query string (or of a POST /.search body, §3.4.3): `filter` parsed,
 * `sortOrder` ascending by default, `startIndex` 1-based with values below 1 taken as 1 (§3.4.2.4),
 * `count` negative taken as 0 and cut to `maxCount`, `attributes` and `excludedAttributes` split on
 * commas and mutually exclusive (§3.9). A wrong value is ScimError(400, 'invalidValue'), a wrong
 * filter ScimError(400, 'invalidFilter').
 */
export function parseListQuery(query: Record<string, unknown>, options: ListQueryOptions): ListQuery {
  const sortBy = single(query, 'sortBy');
  if (sortBy !== undefined && (typeof sortBy !== 'string' || !parseAttributePath(sortBy.trim()))) {
    throw invalidValue(`sortBy must be an attribute name, not ${JSON.stringify(sortBy)}`);
  }
  const attributes = names(query, 'attributes');
  const excludedAttributes = names(query, 'excludedAttributes');
  if (attributes && excludedAttributes) throw invalidValue('attributes and excludedAttributes cannot be given together');
  const count = integer(query, 'count') ?? options.defaultCount ?? options.maxCount;
  const result: ListQuery = {
    sortOrder: sortOrder(query),
    startIndex: Math.max(1, integer(query, 'startIndex') ?? 1),
    count: Math.min(Math.max(0, count), options.maxCount),
  };
  const filter = filterOf(query, options.resourceType);
  if (filter) result.filter = filter;
  if (typeof sortBy === 'string') result.sortBy = sortBy.trim();
  if (attributes) result.attributes = attributes;
  if (excludedAttributes) result.excludedAttributes = excludedAttributes;
  return result;
}

/** A ListResponse (RFC 7644 §3.4.2): `itemsPerPage` is the number of resources on this page. */
export function listResponse<T>(resources: T[], totalResults: number, startIndex: number): ListResponse<T> {
  return { schemas: [LIST_RESPONSE_SCHEMA], totalResults, Resources: resources, startIndex, itemsPerPage: resources.length };
}
