import { z } from 'zod';
import { idParams, idSchema, listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { timestampSchema } from './users.js';

const KEYS = '/api/v1/keys';

/** A token's name is at most this long. */
export const PAT_NAME_MAX_LENGTH = 200;
/** A token lives at most this many years (the console suggests exactly this). */
export const PAT_MAX_LIFETIME_YEARS = 5;

/** A personal access token as the lists show it: never its value, which is shown once, at creation. */
export const personalAccessTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  applicationId: z.string(),
  /** The application's name (its client id), as the create body names it. */
  applicationName: z.string(),
  applicationDisplayName: z.string(),
  /** The start and the last characters of the value (`gpat_…wxyz`), to tell tokens apart. */
  hint: z.string(),
  /** From this moment the token is refused. */
  expiresAt: timestampSchema.nullable(),
  /** The last call made with it (recorded at most once a minute). */
  lastDateOfUse: timestampSchema.nullable(),
  createdAt: timestampSchema,
  /** The owner: the token acts for this user, with the user's roles at the time of each call. */
  createdById: z.string(),
  createByName: z.string(),
});
export type PersonalAccessToken = z.output<typeof personalAccessTokenSchema>;

/** The answer to a creation: the token and, this once only, its value. */
export const createdPersonalAccessTokenSchema = personalAccessTokenSchema.extend({ token: z.string() });
export type CreatedPersonalAccessToken = z.output<typeof createdPersonalAccessTokenSchema>;

/** Body of `POST /api/v1/keys`. */
export const newPersonalAccessTokenSchema = z.strictObject({
  name: z.string().trim().min(1).max(PAT_NAME_MAX_LENGTH),
  /** The name of an application in which the caller holds a role. */
  applicationName: z.string().trim().min(1).max(200),
  /** An ISO 8601 date-time in the future, at most five years ahead; absent: five years from now. */
  expiresAt: z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value))
    .nullish(),
});
export type NewPersonalAccessToken = z.input<typeof newPersonalAccessTokenSchema>;

/** An application the caller may get a token for. */
export const patApplicationSchema = z.object({ id: z.string(), name: z.string(), displayName: z.string() });
export type PatApplication = z.output<typeof patApplicationSchema>;

export const PAT_SORT_FIELDS = ['name', 'applicationName', 'expiresAt', 'lastDateOfUse', 'createdAt', 'createByName'] as const;

const patListQuery = listQuery({ sortable: PAT_SORT_FIELDS, defaultOrder: 'name asc' });

export const personalAccessTokenListSchema = listPage(personalAccessTokenSchema);
export type PersonalAccessTokenList = z.output<typeof personalAccessTokenListSchema>;

export const patApplicationListSchema = listPage(patApplicationSchema);
export type PatApplicationList = z.output<typeof patApplicationListSchema>;

/** `/api/v1/keys`: personal access tokens. */
export const keysRoutes = {
  list: defineRoute({
    method: 'GET',
    path: KEYS,
    endpoint: 'keys.list',
    access: 'roles',
    summary: "The caller's personal access tokens (never their values); $search matches the name or the application",
    query: patListQuery,
    response: personalAccessTokenListSchema,
  }),
  all: defineRoute({
    method: 'GET',
    path: `${KEYS}/allpats`,
    endpoint: 'keys.all',
    access: 'roles',
    summary: "Every user's personal access tokens, filtered by owner (`owner`: a user id); $search also matches the owner's user name",
    query: patListQuery.extend({ owner: idSchema.optional() }),
    response: personalAccessTokenListSchema,
  }),
  applications: defineRoute({
    method: 'GET',
    path: `${KEYS}/applications`,
    endpoint: 'keys.applications',
    access: 'roles',
    summary: 'The applications the caller may get a personal access token for: those in which they hold a role',
    response: patApplicationListSchema,
  }),
  create: defineRoute({
    method: 'POST',
    path: KEYS,
    endpoint: 'keys.create',
    access: 'roles',
    summary: 'Creates a personal access token for the caller; the answer carries its value, shown this once only (a token cannot create another)',
    body: newPersonalAccessTokenSchema,
    required: { name: 'pats.name_required', applicationName: 'pats.application_required' },
    response: createdPersonalAccessTokenSchema,
    status: 201,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: `${KEYS}/:id`,
    endpoint: 'keys.delete',
    access: 'roles',
    summary: "Deletes one of the caller's personal access tokens (God: anyone's); it stops working at once",
    params: idParams,
  }),
} satisfies Record<string, RouteContract>;
