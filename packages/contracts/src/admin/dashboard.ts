import { z } from 'zod';
import { defineRoute, type RouteContract } from '../route.js';

const count = z.number().int().min(0);

/** The dashboard's count tiles (spec: Dashboard summary). */
export const dashboardSummarySchema = z.object({
  usersCount: count,
  groupsCount: count,
  appsCount: count,
  areasCount: count,
  /** Tenants anyone created: the Global tenant is not counted. */
  tenantsCount: count,
});
export type DashboardSummary = z.output<typeof dashboardSummarySchema>;

export const dashboardRoutes = {
  base: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/dashboard/base',
    endpoint: 'dashboard.base',
    access: 'roles',
    summary: 'The counts of users, groups, applications, areas and tenants',
    response: dashboardSummarySchema,
  }),
} satisfies Record<string, RouteContract>;
