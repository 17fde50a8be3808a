import { z } from 'zod';
import { passwordPolicySchema } from '../admin/security-config.js';
import { defineRoute, type RouteContract } from '../route.js';

/** The portal's configurable links; one left unset is not sent (and not shown). */
export const portalLinksSchema = z.object({
  helpdesk: z.string().optional(),
  termsOfUse: z.string().optional(),
  cookiePolicy: z.string().optional(),
  /** "Problems to access? Contact Us!" on the sign-in pages. */
  support: z.string().optional(),
});
export type PortalLinks = z.output<typeof portalLinksSchema>;

/** What the SPAs need before anything else, to sign in: public, nothing secret. */
export const publicConfigSchema = z.object({
  serviceUrl: z.string(),
  identityServerUrl: z.string(),
  /** The OIDC issuer. */
  authority: z.string(),
  /** The portal's client. */
  clientId: z.string(),
  /** The console's client. */
  adminClientId: z.string(),
  /** Space-separated: the portal's. */
  scopes: z.string(),
  /** Space-separated: the console's, with the admin API's scope. */
  adminScopes: z.string(),
  environment: z.string(),
  /** The login page shows the Microsoft button only when that sign-in is configured. */
  microsoftSignIn: z.boolean(),
  /**
   * Who must use the Microsoft sign-in (see `requiresGroupSignIn`): the login page hides the
   * password as the name is typed; the server refuses it anyway.
   */
  groupDomains: z.array(z.string()),
  groupDomainFragment: z.string().optional(),
  /** The password policy in force: the rules the pages show beside a new password (the server enforces them). */
  policy: passwordPolicySchema,
  links: portalLinksSchema,
  apps: z.object({ portal: z.string(), admin: z.string() }),
});
export type PublicConfig = z.output<typeof publicConfigSchema>;

export const onlineSchema = z.object({ online: z.literal(true) });

/** `GET /api/v1/online` and `GET /api/v1/config`: what the SPAs read first. */
export const configRoutes = {
  online: defineRoute({
    method: 'GET',
    path: '/api/v1/online',
    endpoint: 'config.online',
    access: 'public',
    summary: 'Answers that the API is up',
    response: onlineSchema,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/config',
    endpoint: 'config.get',
    access: 'public',
    summary: 'What the SPAs need to sign in (issuer, clients, scopes, links), and nothing secret',
    response: publicConfigSchema,
  }),
} satisfies Record<string, RouteContract>;
