import { z } from 'zod';
import { listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';

export const areaSchema = z.object({ id: z.string(), name: z.string(), default: z.boolean(), system: z.boolean() });
export type Area = z.output<typeof areaSchema>;

export const areaListSchema = listPage(areaSchema);
export type AreaList = z.output<typeof areaListSchema>;

/** `/api/v1/admin/areas`: the areas, read-only. */
export const areasRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/areas',
    endpoint: 'areas.list',
    access: 'roles',
    summary: 'Lists the areas the caller reaches (an area administrator: their own)',
    query: listQuery({ sortable: ['name', 'default', 'system'], defaultOrder: 'name asc' }),
    response: areaListSchema,
  }),
} satisfies Record<string, RouteContract>;
