import { z } from 'zod';
import { parseInput } from './validation.js';

/** The spec's list query: `$search`, `skip` (0), `top` (10), `orderBy` ('field asc|desc'). */
export interface ListQuery {
  search: string | null;
  skip: number;
  top: number;
  /** A trusted SQL ORDER BY clause, built only from the declared sortable columns. */
  orderBy: string;
}

export interface ListQueryOptions {
  /** API field name → SQL expression it sorts by. Anything else in `orderBy` is a 400. */
  sortable: Record<string, string>;
  /** The spec's default sort, e.g. 'name asc'. */
  defaultOrder: string;
  /** Largest page a caller may ask for. */
  maxTop?: number;
}

const ORDER = /^\s*([A-Za-z][\w.]*)(?:\s+(asc|desc))?\s*$/i;

/**
 * Reads the common list parameters from a query string. Paging, sorting and search then happen in
 * SQL; a sort field the endpoint does not declare is refused rather than interpolated.
 */
export function parseListQuery(query: Record<string, unknown>, options: ListQueryOptions): ListQuery {
  const maxTop = options.maxTop ?? 1000;
  const raw = parseInput(
    z.object({
      $search: z.string().trim().max(200).optional(),
      skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
      top: z.coerce.number().int().min(1).max(maxTop).default(10),
      orderBy: z
        .string()
        .regex(ORDER)
        .refine((value) => ORDER.exec(value)![1]!.toLowerCase() in lower(options.sortable), 'unknown sort field')
        .optional(),
    }),
    query,
  );
  const [, field, direction] = ORDER.exec(raw.orderBy ?? options.defaultOrder)!;
  const column = lower(options.sortable)[field!.toLowerCase()]!;
  return {
    search: raw.$search ? raw.$search : null,
    skip: raw.skip,
    top: raw.top,
    orderBy: `${column} ${direction?.toLowerCase() === 'desc' ? 'DESC' : 'ASC'}`,
  };
}

function lower(sortable: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(sortable).map(([k, v]) => [k.toLowerCase(), v]));
}

/** `%term%` for ILIKE, with the pattern characters of the term escaped. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
