import { parseInput, parseListQuery } from '@gatehouse/core';
import { USER_LIST_DEFAULT_ORDER, USER_LIST_SORTABLE, type UserListFilter } from '../repository.js';
import { listFilterSchema } from '../schema.js';

/** The sort of the users list: an API field name of USER_LIST_SORTABLE and its direction. */
export interface UserListSort {
  field: string;
  descending: boolean;
}

/** The users list's query as the export reads it: the same search, filters and sort, no paging. */
export interface UserListExportQuery {
  filter: Omit<UserListFilter, 'areaIds'>;
  /** The ORDER BY clause userListSql takes, as parseListQuery builds it. */
  orderBy: string;
  sort: UserListSort;
}

/**
 * Reads `$search`, `orderBy`, `locked` and `area` exactly as `GET /users` does (parseListQuery with
 * the list's own sortable fields and default order, the list's filter schema), so the file holds
 * what the table showed. `skip` and `top` are ignored rather than validated: the export takes
 * every page.
 */
export function parseUserListExportQuery(query: Record<string, unknown>): UserListExportQuery {
  const { skip: _skip, top: _top, ...rest } = query;
  const list = parseListQuery(rest, { sortable: USER_LIST_SORTABLE, defaultOrder: USER_LIST_DEFAULT_ORDER });
  const { locked, area } = parseInput(listFilterSchema, rest);
  // parseListQuery has validated the field; the keyset only needs its name and direction.
  const [field = '', direction] = String(rest.orderBy ?? USER_LIST_DEFAULT_ORDER).trim().split(/\s+/);
  const name = Object.keys(USER_LIST_SORTABLE).find((key) => key.toLowerCase() === field.toLowerCase())!;
  return {
    filter: {
      search: list.search,
      ...(locked ? { locked: locked === 'true' } : {}),
      ...(area ? { areaId: area.toLowerCase() } : {}),
    },
    orderBy: list.orderBy,
    sort: { field: name, descending: direction?.toLowerCase() === 'desc' },
  };
}
