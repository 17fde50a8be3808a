import { z } from 'zod';
import { defineRoute, type RouteContract } from '../route.js';

/** The signed-in administrator, with the roles the API judges them by (those of the token). */
export const adminMeSchema = z.object({
  id: z.string(),
  userName: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  language: z.string(),
  /** The token's roles in the Identity application, sorted, each once. */
  roles: z.array(z.string()),
});
export type AdminMe = z.output<typeof adminMeSchema>;

export const meRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/me',
    endpoint: 'me.get',
    access: 'signed-in',
    summary: 'Who the console is talking to, and the roles the API will judge them by',
    response: adminMeSchema,
  }),
} satisfies Record<string, RouteContract>;
