import { z } from 'zod';

const ORDER = /^\s*([A-Za-z][\w.]*)(?:\s+(asc|desc))?\s*$/i;

/** A list's sort, as `orderBy` names it: one declared field and a direction. */
export interface Sort<F extends string = string> {
  field: F;
  direction: 'asc' | 'desc';
}

/**
 * The spec's list query: `$search`, `skip` (0), `top` (10), `orderBy` ('field asc|desc'). Only the
 * declared fields sort (case-insensitively); anything else is a 400 naming the allowed ones.
 * Extend it with a list's own filters: `listQuery(...).extend({ area: … })`.
 */
export function listQuery<const F extends string>(options: { sortable: readonly F[]; defaultOrder: `${F} ${'asc' | 'desc'}`; maxTop?: number }) {
  const fields = new Map(options.sortable.map((field) => [field.toLowerCase(), field]));
  return z.object({
    $search: z.string().trim().max(200).optional(),
    skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
    top: z.coerce.number().int().min(1).max(options.maxTop ?? 1000).default(10),
    orderBy: z
      .string()
      .regex(ORDER)
      .superRefine((value, ctx) => {
        // zod runs this check even when the pattern failed: such a value is refused once, above.
        const field = ORDER.exec(value)?.[1];
        if (field === undefined || fields.has(field.toLowerCase())) return;
        ctx.addIssue({ code: 'invalid_value', values: [...options.sortable], input: value });
      })
      .default(options.defaultOrder)
      .transform((value): Sort<F> => {
        const [, field, direction] = ORDER.exec(value)!;
        return { field: fields.get(field!.toLowerCase())!, direction: direction?.toLowerCase() === 'desc' ? 'desc' : 'asc' };
      }),
  });
}

/** A page of a list: its items and the total the query matches. */
export function listPage<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), count: z.number().int().min(0) });
}

/**
 * A page of a list whose total may be estimated: past a threshold of matches, counting them all
 * would cost more than the page itself, and `countEstimated: true` says the count is the database's
 * estimate (the console shows it as "about …"). Absent, the count is exact.
 */
export function estimatedListPage<T extends z.ZodType>(item: T) {
  return listPage(item).extend({
    countEstimated: z.literal(true).optional().describe('Present (true) when `count` is an estimate rather than an exact count'),
  });
}

/**
 * An id in the path, the body or the query. Any 8-4-4-4-12 hex string, as PostgreSQL reads it: the
 * Global tenant's all-zero id is not an RFC 9562 UUID. Lower-cased in place rather than by a
 * transform, so that the API document still shows an answer's ids as uuids.
 */
export const idSchema = z.guid().toLowerCase();

/** Path parameters `{ id }`. */
export const idParams = z.object({ id: idSchema });
