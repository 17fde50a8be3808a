import { z } from 'zod';
import { LANGUAGES, USER_TYPES } from '../domain.js';
import { idSchema, listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { areaSchema } from './areas.js';
import { NEW_USER_REQUIRED, operationReplySchema, userListItemSchema, userNameSchema } from './users.js';

const CLIENTS = '/api/v1/admin/clients';

/**
 * E-mail providers whose addresses a consultant may not give a new client user (spec 5): an address
 * containing one of these, anywhere and in any case, is refused as 'Invalid email address.'.
 */
export const FREE_MAIL_PROVIDERS = ['yahoo', 'gmail', 'hotmail'] as const;

/** Whether an e-mail address is one of a free-mail provider's (case-insensitive, subdomains and country domains too). */
export function isFreeMailAddress(email: string): boolean {
  const address = email.toLowerCase();
  return FREE_MAIL_PROVIDERS.some((provider) => address.includes(provider));
}

/** The area whose users, besides the default area's, carry a work position, a manager and departments (spec 5). */
export const CLIENT_PROFILE_AREA_NAME = 'Customers';

/** The fields a client user has only in the default area (or the Customers area). */
export const CLIENT_PROFILE_FIELDS = ['jobTitle', 'manager', 'teams'] as const;

/** A user's type as the Clients filter names it: 1 internal (the group's own staff), 2 external. */
export const clientUserTypeSchema = z.union([z.literal(USER_TYPES.Internal), z.literal(USER_TYPES.External)]);

const text = (max: number) => z.string().trim().min(1).max(max);
// pipe: a blank address is reported once, as missing, not also as malformed.
const email = text(256).pipe(z.email());
/** An optional text: blank counts as none. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));

/** The portal's own names for the list parameters (searchQuery, take) next to the product's ($search, top). */
const portalListParams = {
  searchQuery: z.string().trim().max(200).optional(),
  take: z.coerce.number().int().min(1).max(1000).optional(),
};

/** Query of `GET /clients/tenants`: the tenant selector, ordered by title. */
export const clientTenantsQuerySchema = listQuery({ sortable: ['title'], defaultOrder: 'title asc', maxTop: 1000 }).extend(portalListParams);
export type ClientTenantsQuery = z.output<typeof clientTenantsQuerySchema>;

export const clientTenantSchema = z.object({ id: z.string(), title: z.string() });
export type ClientTenant = z.output<typeof clientTenantSchema>;

export const CLIENT_USER_SORT_FIELDS = ['fullName', 'userName', 'email', 'jobTitle', 'modifiedOn'] as const;
export type ClientUserSortField = (typeof CLIENT_USER_SORT_FIELDS)[number];

/** Query of `GET /clients/{tenantId}/users`: the list query and the user type filter. */
export const clientUsersQuerySchema = listQuery({ sortable: CLIENT_USER_SORT_FIELDS, defaultOrder: 'modifiedOn desc', maxTop: 1000 }).extend({
  ...portalListParams,
  userType: z.coerce.number().pipe(clientUserTypeSchema).optional(),
});
export type ClientUsersQuery = z.output<typeof clientUsersQuerySchema>;

/**
 * Where the user stands in the tenant: Draft, created here and pending approval with no request
 * submitted for them yet; Waiting, a request for them waits for an approval (an operation request
 * WaitingForApprover); Applied, their access is as requested.
 */
export const CLIENT_USER_STATUSES = ['Draft', 'Waiting', 'Applied'] as const;

/** A user of a client tenant, as the Clients table and the user step of the wizard show it. */
export const clientUserSchema = userListItemSchema.omit({ validateScopes: true }).extend({
  /** First and last name, else the e-mail. */
  fullName: z.string(),
  phoneNumber: z.string().nullable(),
  jobTitle: z.string().nullable(),
  manager: z.string().nullable(),
  /** Departments; the table shows the first 10 and a +N counter. */
  teams: z.array(z.string()),
  hasPendingOperationRequest: z.boolean(),
  status: z.enum(CLIENT_USER_STATUSES),
  userType: clientUserTypeSchema,
  /** Whether the user has ever signed in (their user name is then fixed). */
  hasSignedIn: z.boolean(),
});
export type ClientUser = z.output<typeof clientUserSchema>;

/** Body of `POST /clients/{tenantId}/users` and `PUT /clients/{tenantId}/users/{id}` (spec 3, "User (new or edit, self-service)"). */
export const clientUserBodySchema = z.strictObject({
  /** The login name: the e-mail address. */
  userName: userNameSchema,
  areaId: idSchema,
  firstName: text(100),
  lastName: text(100),
  language: z.enum(LANGUAGES),
  email,
  phoneNumber: optionalText(50),
  /** Work position: the default area's (or the Customers area's) users only. */
  jobTitle: optionalText(200),
  /** The default area's (or the Customers area's) users only. */
  manager: optionalText(200),
  /** Departments: the default area's (or the Customers area's) users only. */
  teams: z.array(text(100)).max(100).nullish(),
});
export type ClientUserBody = z.output<typeof clientUserBodySchema>;

/** The spec's message for each missing field of the self-service user form. */
export const CLIENT_USER_REQUIRED = NEW_USER_REQUIRED;

export const clientTenantParams = z.object({ tenantId: idSchema });
export const clientUserParams = z.object({ tenantId: idSchema, id: idSchema });

/**
 * `/api/v1/admin/clients`: the portal's My Clients for consultants (the tenants where they hold
 * IdentityConsultant, every tenant for administrators): the tenant selector, the tenant's users,
 * and new users pending approval.
 */
export const clientsRoutes = {
  areas: defineRoute({
    method: 'GET', path: `${CLIENTS}/areas`, endpoint: 'clients.areas', access: 'roles',
    summary: 'The areas a client user may be put in (every area but the system ones), by name: the area choice of the user step',
    response: listPage(areaSchema),
  }),
  tenants: defineRoute({
    method: 'GET', path: `${CLIENTS}/tenants`, endpoint: 'clients.tenants', access: 'roles',
    summary: 'The tenants the caller consults for (every tenant for administrators), by title; searchQuery ($search) matches the title, take (top) pages',
    query: clientTenantsQuerySchema,
    response: listPage(clientTenantSchema),
  }),
  users: defineRoute({
    method: 'GET', path: `${CLIENTS}/:tenantId/users`, endpoint: 'clients.users', access: 'roles',
    summary: "The tenant's users: its own user members, users with a request waiting in it, and the drafts created for it; 404 outside the caller's tenants",
    params: clientTenantParams, query: clientUsersQuerySchema,
    response: listPage(clientUserSchema),
  }),
  create: defineRoute({
    method: 'POST', path: `${CLIENTS}/:tenantId/users`, endpoint: 'clients.create', access: 'roles',
    summary: 'Creates a user for the tenant, pending approval (a draft) until an operation request for it is approved; internal when the e-mail is of a group domain',
    params: clientTenantParams, body: clientUserBodySchema, required: CLIENT_USER_REQUIRED,
    response: clientUserSchema, status: 201,
  }),
  update: defineRoute({
    method: 'PUT', path: `${CLIENTS}/:tenantId/users/:id`, endpoint: 'clients.update', access: 'roles',
    summary: "Changes a user of the tenant (the user name only until they first sign in); 404 for a user outside the tenant",
    params: clientUserParams, body: clientUserBodySchema, required: CLIENT_USER_REQUIRED,
    response: clientUserSchema,
  }),
  invite: defineRoute({
    method: 'POST', path: `${CLIENTS}/:tenantId/users/:id/invite`, endpoint: 'clients.invite', access: 'roles',
    summary: 'Mails a user of the tenant a 7-day link to choose their password; 409 while the user is pending approval',
    params: clientUserParams, response: operationReplySchema,
  }),
} satisfies Record<string, RouteContract>;
