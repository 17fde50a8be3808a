import { defineRoute, type RouteContract } from '../route.js';

/** "My data": everything the product keeps about the signed-in user, as a workbook. */
export const myDataRoutes = {
  download: defineRoute({
    method: 'GET',
    path: '/api/v1/profile/myData',
    endpoint: 'profile.myData',
    access: 'signed-in',
    summary:
      "The signed-in user's own data as an .xlsx (\"My data\") in their language: profile, memberships and roles, groups, accepted disclaimers, recent sign-ins and rights requests",
    produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  }),
} satisfies Record<string, RouteContract>;
