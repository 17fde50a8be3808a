import { z } from 'zod';
import { idParams, listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';

/** A tenant as the pickers list it. */
export const tenantSchema = z.object({
  id: z.string(),
  title: z.string(),
  areaId: z.string().nullable(),
  areaName: z.string().nullable(),
  parentId: z.string().nullable(),
});
export type Tenant = z.output<typeof tenantSchema>;

/** Body of `POST /tenants/twoModeAuth/{id}`. */
export const twoModeAuthBodySchema = z.strictObject({ enable: z.boolean() });
export type TwoModeAuthBody = z.output<typeof twoModeAuthBodySchema>;

/** What the MFA switch answers: the tenant as it now stands. */
export const twoModeAuthResponseSchema = z.object({
  id: z.string(),
  title: z.string(),
  requiredTwoModeAuthentification: z.boolean(),
});
export type TwoModeAuthResponse = z.output<typeof twoModeAuthResponseSchema>;

export const tenantsRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/tenants',
    endpoint: 'tenants.list',
    access: 'roles',
    summary: 'Lists the tenants of the caller’s areas for pickers (the Global tenant is not listed)',
    query: listQuery({ sortable: ['title', 'areaName', 'modifiedOn'], defaultOrder: 'title asc' }).extend({ area: z.uuid().optional() }),
    response: listPage(tenantSchema),
  }),
  twoModeAuth: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/tenants/twoModeAuth/:id',
    endpoint: 'tenants.twoModeAuth',
    access: 'roles',
    summary: 'Requires (or stops requiring) a second factor from the tenant’s users',
    params: idParams,
    body: twoModeAuthBodySchema,
    response: twoModeAuthResponseSchema,
  }),
} satisfies Record<string, RouteContract>;
