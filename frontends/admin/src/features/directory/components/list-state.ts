import { tabStorage } from '@gatehouse/frontend-shared';
import { useCallback, useState } from 'react';
import type { ListQuery, ListResult } from '../../../api/admin-api';

/** The spec's page sizes; the first is the default. */
export const PAGE_SIZES = [10, 25, 50] as const;

export type SortDirection = 'asc' | 'desc';

/** What a list shows: its search, page, sort and filters (API parameter → value). */
export interface ListState {
  search: string;
  page: number;
  pageSize: number;
  /** Null: the endpoint's default order. */
  sort: { field: string; direction: SortDirection } | null;
  filters: Record<string, string>;
}

export const INITIAL_LIST_STATE: ListState = { search: '', page: 1, pageSize: PAGE_SIZES[0], sort: null, filters: {} };

/** The spec's cache key of the users list; the other lists follow its pattern. */
export const LIST_STORAGE_KEYS = {
  users: 'IDENTITY-USERS-LIST',
  groups: 'IDENTITY-GROUPS-LIST',
  areas: 'IDENTITY-AREAS-LIST',
} as const;

// Per tab: coming back from a detail page finds the list as it was left, while a new tab (or a
// colleague on the same computer the next day) starts from the defaults.
const storage = tabStorage;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A stored state, kept field by field only where it still makes sense (an older shape, a hand edit). */
export function parseListState(raw: string | null | undefined, defaults: ListState = INITIAL_LIST_STATE): ListState {
  if (!raw) return defaults;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return defaults;
  }
  if (!isRecord(value)) return defaults;
  const { search, page, pageSize, sort, filters } = value;
  return {
    search: typeof search === 'string' ? search : defaults.search,
    page: Number.isInteger(page) && (page as number) > 0 ? (page as number) : defaults.page,
    pageSize: (PAGE_SIZES as readonly unknown[]).includes(pageSize) ? (pageSize as number) : defaults.pageSize,
    sort:
      isRecord(sort) && typeof sort.field === 'string' && (sort.direction === 'asc' || sort.direction === 'desc')
        ? { field: sort.field, direction: sort.direction }
        : defaults.sort,
    filters: isRecord(filters)
      ? Object.fromEntries(Object.entries(filters).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      : defaults.filters,
  };
}

/** A list's state and its setter, as {@link useListState} returns them. */
export type ListStateHook = [ListState, (change: Partial<ListState>) => void];

/**
 * A list's state, remembered under `storageKey` when one is given, starting from `initial` (the
 * list's default sort, say). A change of search, sort, filters or page size goes back to the
 * first page.
 */
export function useListState(
  storageKey?: string,
  initial: Partial<ListState> = {},
): ListStateHook {
  const [state, setState] = useState<ListState>(() => {
    const defaults = { ...INITIAL_LIST_STATE, ...initial };
    return storageKey ? parseListState(storage()?.getItem(storageKey), defaults) : defaults;
  });

  const update = useCallback(
    (change: Partial<ListState>) => {
      setState((previous) => {
        const resetsPage = ['search', 'sort', 'filters', 'pageSize'].some((key) => key in change);
        const next = { ...previous, ...(resetsPage ? { page: 1 } : {}), ...change };
        if (storageKey) {
          try {
            storage()?.setItem(storageKey, JSON.stringify(next));
          } catch {
            // A full or blocked storage only costs the user the remembered list.
          }
        }
        return next;
      });
    },
    [storageKey],
  );

  return [state, update];
}

/** The API's list parameters for a state (empty filters left out). */
export function toListQuery(state: ListState): ListQuery {
  const query: ListQuery = {
    $search: state.search.trim() || undefined,
    skip: (state.page - 1) * state.pageSize,
    top: state.pageSize,
    orderBy: state.sort ? `${state.sort.field} ${state.sort.direction}` : undefined,
  };
  for (const [name, value] of Object.entries(state.filters)) if (value !== '') query[name] = value;
  return query;
}

/**
 * Paging by cursor, for a list whose answer names the next page (`next`, the users list): the page
 * after the one shown is asked for right after its last row, which costs the server the same however
 * deep the page, and repeats or skips no row when rows are added or removed meanwhile. Any other page
 * (a jump, going back, the first) is asked for by its number, as before. `record` takes the `next`
 * of the page shown; the cursors are forgotten when the search, sort, filters or page size change.
 */
export function usePageCursors(query: ListQuery, page: number): { query: ListQuery; record: (next: string | undefined) => void } {
  const list = JSON.stringify({ ...query, skip: undefined });
  const [known, setKnown] = useState<{ list: string; cursors: Record<number, string> }>({ list, cursors: {} });
  const cursor = known.list === list ? known.cursors[page] : undefined;
  const record = useCallback(
    (next: string | undefined) => {
      if (next === undefined) return;
      setKnown((previous) => {
        const cursors = previous.list === list ? previous.cursors : {};
        return cursors[page + 1] === next ? previous : { list, cursors: { ...cursors, [page + 1]: next } };
      });
    },
    [list, page],
  );
  return { query: cursor === undefined ? query : { ...query, skip: undefined, cursor }, record };
}

/** What a list query answers, as far as the table is concerned. */
export interface ListQueryResult<T> {
  data?: ListResult<T>;
  isFetching: boolean;
  error?: unknown;
}

/** The table props of a list: its state and setter, and the answer for the page it shows. */
export function listTableProps<T>([state, onStateChange]: ListStateHook, { data, isFetching, error }: ListQueryResult<T>) {
  return { state, onStateChange, data, loading: isFetching, error };
}
