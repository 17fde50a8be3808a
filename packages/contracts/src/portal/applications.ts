import { z } from 'zod';
import { APPLICATION_STATUSES } from '../domain.js';
import { listPage } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';

/** An application as the home launcher shows it. */
export const homeApplicationSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  publicUrl: z.string().nullable(),
  /** Where a user with access opens it: its own address, or for a SAML application the identity provider's launch address (IdP-initiated sign-in). */
  privateUrl: z.string().nullable(),
  prerelease: z.boolean(),
  status: z.enum(APPLICATION_STATUSES),
  /** The user holds a role in it; otherwise it is listed for its public page ("Ask us!"). */
  hasAccess: z.boolean(),
  isUserFavorite: z.boolean(),
});
export type HomeApplication = z.output<typeof homeApplicationSchema>;

/** The applications a user may open. */
export const userApplicationsSchema = listPage(homeApplicationSchema);
export type UserApplications = z.output<typeof userApplicationsSchema>;

/** `/api/v1/applications/*` on the identity host: icons, status, and a user's applications. */
export const portalApplicationsRoutes = {
  icon: defineRoute({
    method: 'GET',
    path: '/api/v1/applications/icon/:appId',
    endpoint: 'applications.publicIcon',
    access: 'public',
    summary: "An application's icon (its own, else the default); public, since an <img> sends no token",
    params: z.object({ appId: z.string() }),
    produces: 'image/*',
  }),
  status: defineRoute({
    method: 'GET',
    path: '/api/v1/applications/status/:name',
    endpoint: 'applications.status',
    access: 'public',
    summary: "An application's status as plain text: Running, Maintenance or Stopped",
    params: z.object({ name: z.string() }),
    produces: 'text/plain',
    examples: { params: { name: 'billing' }, response: 'Running' },
  }),
  info: defineRoute({
    method: 'GET',
    path: '/api/v1/applications/info/:userId',
    endpoint: 'applications.info',
    access: 'signed-in',
    summary: "The applications a user may open: the user's own, or any user's for an Administrator",
    params: z.object({ userId: z.string() }),
    response: userApplicationsSchema,
  }),
} satisfies Record<string, RouteContract>;
