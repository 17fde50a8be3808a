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
  const columns = byLowerCaseName(options.sortable);
  const raw = parseInput(
    z.object({
      $search: z.string().trim().max(200).optional(),
      skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
      top: z.coerce.number().int().min(1).max(maxTop).default(10),
      orderBy: z
        .string()
        .regex(ORDER)
        .superRefine((value, ctx) => {
          // zod runs this check even when the pattern failed: such a value is refused once, above.
          const field = ORDER.exec(value)?.[1];
          if (field === undefined || columns.has(field.toLowerCase())) return;
          // Named like any closed choice: "orderBy must be one of: …".
          ctx.addIssue({ code: 'invalid_value', values: Object.keys(options.sortable), input: value });
        })
        .optional(),
    }),
    query,
  );
  const [, field, direction] = ORDER.exec(raw.orderBy ?? options.defaultOrder)!;
  const column = columns.get(field!.toLowerCase())!;
  return {
    search: raw.$search ? raw.$search : null,
    skip: raw.skip,
    top: raw.top,
    orderBy: `${column} ${direction?.toLowerCase() === 'desc' ? 'DESC' : 'ASC'}`,
  };
}

/** A Map, not an object: `constructor` or `toString` must not look like a declared field. */
function byLowerCaseName(sortable: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(sortable).map(([k, v]) => [k.toLowerCase(), v]));
}

/** `%term%` for ILIKE, with the pattern characters of the term escaped. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
