import { z } from 'zod';
import { listPage, listQuery } from '../list.js';
import { homeApplicationSchema } from '../portal/applications.js';
import { defineRoute, type RouteContract } from '../route.js';

/** The home launcher's answer: the caller's applications and where customers are sent. */
export const homeInfoSchema = z.object({
  applications: listPage(homeApplicationSchema),
  /** Where customers without the Identity application are sent. */
  clientPortalAppId: z.string().nullable(),
});
export type HomeInfo = z.output<typeof homeInfoSchema>;

/** A role of an application, for role pickers. */
export const applicationRoleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  byHierarchy: z.boolean(),
  applicationId: z.string(),
  applicationName: z.string(),
});
export type ApplicationRole = z.output<typeof applicationRoleSchema>;

/** Up to 10,000 roles at once (the spec's user role list limit), of every application or of one. */
export const applicationRolesQuerySchema = listQuery({
  sortable: ['name', 'applicationName'],
  defaultOrder: 'applicationName asc',
  maxTop: 10_000,
}).extend({ applicationId: z.string().min(1).max(64).optional() });

export const applicationRolesSchema = listPage(applicationRoleSchema);
export type ApplicationRoles = z.output<typeof applicationRolesSchema>;

/** `/api/v1/admin/applications/*`. */
export const applicationsRoutes = {
  homeInfo: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/applications/homeInfo',
    endpoint: 'applications.homeInfo',
    access: 'signed-in',
    summary: "The home launcher: the caller's applications with access and favourite flags",
    response: homeInfoSchema,
  }),
  roles: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/applications/approles',
    endpoint: 'applications.roles',
    access: 'roles',
    summary: 'The roles of every application (or of one), sorted by application then role name',
    query: applicationRolesQuerySchema,
    response: applicationRolesSchema,
  }),
  icon: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/applications/icon/:id',
    endpoint: 'applications.icon',
    access: 'signed-in',
    summary: "An application's icon, for the console (fetched with its token)",
    params: z.object({ id: z.string() }),
    produces: 'image/*',
  }),
} satisfies Record<string, RouteContract>;
