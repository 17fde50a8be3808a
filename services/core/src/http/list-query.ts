import type { Sort } from '@gatehouse/contracts';

/** A list query ready for SQL: the contract's `listQuery` after `toListQuery`. */
export interface ListQuery {
  search: string | null;
  skip: number;
  top: number;
  /** A trusted SQL ORDER BY clause, built only from the declared sortable columns. */
  orderBy: string;
}

/**
 * The list query a contract's `listQuery` schema has validated, with its sort turned into SQL:
 * `columns` maps each declared field to the expression it sorts by.
 */
export function toListQuery<F extends string>(
  query: { $search?: string; skip: number; top: number; orderBy: Sort<F> },
  columns: Readonly<Record<F, string>>,
): ListQuery {
  return {
    search: query.$search ? query.$search : null,
    skip: query.skip,
    top: query.top,
    orderBy: `${columns[query.orderBy.field]} ${query.orderBy.direction === 'desc' ? 'DESC' : 'ASC'}`,
  };
}

/** `%term%` for ILIKE, with the pattern characters of the term escaped. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
