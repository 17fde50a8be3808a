import { AppError, LANGUAGES, parseInput } from '@gatehouse/core';
import { z } from 'zod';

/**
 * An id in the path, the body or the query. Any 8-4-4-4-12 hex string, as PostgreSQL reads it: the
 * Global tenant's all-zero id is not an RFC 9562 UUID.
 */
export const idSchema = z.guid();

/** Reads an id from the path; a malformed one names nothing, so it is the same 404 as an unknown one. */
export function pathId(value: string | undefined): string {
  const parsed = idSchema.safeParse(value);
  if (!parsed.success) throw new AppError('errors.not_found', 404);
  return parsed.data.toLowerCase();
}

/** An application id in the path (`applications.id` is free text of up to 64 characters). */
export function pathApplicationId(value: string | undefined): string {
  if (!value || value.length > 64) throw new AppError('errors.not_found', 404);
  return value;
}

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * Validates a body like parseInput, but a field listed in `messages` that is missing or blank answers
 * the spec's own text for it ("Please input your username!") instead of a generic one, whatever
 * check zod reports first for it (an enum reports an invalid value, not a missing one).
 */
export function parseBody<T extends z.ZodType>(schema: T, input: unknown, messages: Record<string, string>): z.infer<T> {
  const body = (input ?? {}) as Record<string, unknown>;
  try {
    return parseInput(schema, body);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const errors = error.errors.map((fe) =>
      messages[fe.field] && blank(body[fe.field]) ? { field: fe.field, code: messages[fe.field]! } : fe,
    );
    throw new AppError(error.code, error.status, error.params, errors);
  }
}

const text = (max: number) => z.string().trim().min(1).max(max);
// pipe: a blank address is reported once, as missing, not also as malformed.
const email = text(256).pipe(z.email());
// Passwords are never trimmed: every character counts.
const password = z.string().max(256);

/** Body of `POST /users` (and one row of the Excel bulk import). */
export const newUserSchema = z.strictObject({
  userName: text(256),
  email,
  firstName: text(100),
  lastName: text(100),
  areaId: idSchema,
  language: z.enum(LANGUAGES),
  validateScopes: z.boolean().default(false),
  sendEmailInvite: z.boolean().default(false),
  /** With confirmPassword when "Create Password" is ticked; otherwise a random password is generated. */
  password: password.nullish(),
  confirmPassword: password.nullish(),
});
export type NewUserInput = z.infer<typeof newUserSchema>;

export const NEW_USER_MESSAGES: Record<string, string> = {
  userName: 'users.user_name_required',
  email: 'users.email_required',
  firstName: 'users.first_name_required',
  lastName: 'users.last_name_required',
  areaId: 'users.area_required',
  language: 'users.language_required',
};

/** Body of `PUT /users/{id}`. */
export const updateUserSchema = z.strictObject({
  email,
  firstName: text(100),
  lastName: text(100),
  language: z.enum(LANGUAGES),
  areaId: idSchema,
  validateScopes: z.boolean().optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserSchema>;
export const UPDATE_USER_MESSAGES = NEW_USER_MESSAGES;

/**
 * Shown on the edit form but read-only there (spec 5): a body that sets one is refused naming it,
 * rather than silently ignored, so a client never believes it changed them.
 */
export const READ_ONLY_FIELDS = ['userName', 'jobTitle', 'manager', 'teams'] as const;

/** Refuses a body that tries to change a read-only field, naming each one. */
export function rejectReadOnlyFields(input: unknown): void {
  if (!input || typeof input !== 'object') return;
  const sent = READ_ONLY_FIELDS.filter((field) => field in input);
  if (sent.length) {
    throw new AppError(
      'errors.validation',
      400,
      {},
      sent.map((field) => ({ field, code: 'users.read_only_field' })),
    );
  }
}

/** Body of `POST /users/change-password/{userId}`. */
export const changePasswordSchema = z.strictObject({
  password: password.min(1),
  confirmPassword: password.min(1),
});
export const CHANGE_PASSWORD_MESSAGES = {
  password: 'users.new_password_required',
  confirmPassword: 'users.password_confirmation_required',
};

/** Query of `GET /users` beyond the list contract. */
export const listFilterSchema = z.object({
  locked: z.enum(['true', 'false']).optional(),
  area: idSchema.optional(),
});

/** Body of `PUT /users/{id}/roles/{applicationId}`; no tenant means the Global tenant. */
export const grantRolesSchema = z.strictObject({
  tenantId: idSchema.nullish(),
  roleIds: z.array(idSchema).min(1).max(1000),
});

/** Query of `DELETE /users/{id}/roles/{applicationId}`: one badge, or (no roleId) every own role of the application. */
export const revokeRolesQuerySchema = z.object({
  roleId: idSchema.optional(),
  tenantId: idSchema.optional(),
});

// What the endpoints answer: declared, so a column added to a query never leaks by accident.

export const userListItemSchema = z.object({
  id: z.string(),
  userName: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  areaId: z.string(),
  areaName: z.string(),
  validateScopes: z.boolean(),
  locked: z.boolean(),
  draft: z.boolean(),
  modifiedOn: z.date(),
  language: z.string(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

export const userListSchema = z.object({ items: z.array(userListItemSchema), count: z.number().int() });

export const userDetailSchema = userListItemSchema.extend({
  jobTitle: z.string().nullable(),
  manager: z.string().nullable(),
  teams: z.array(z.string()),
  emailVerified: z.boolean(),
  twoFactorEnabled: z.boolean(),
  lastLoginAt: z.date().nullable(),
  createdAt: z.date(),
});
export type UserDetail = z.infer<typeof userDetailSchema>;

/** What `POST /users` answers: the user, and whether the invitation went out when one was asked for. */
export const createdUserSchema = userDetailSchema.extend({ invitationSent: z.boolean().optional() });

/** The lock and unlock answers: the user, as the confirmation shows it. */
export const lockResultSchema = z.object({
  success: z.literal(true),
  user: z.object({ id: z.string(), userName: z.string(), firstName: z.string().nullable(), lastName: z.string().nullable(), locked: z.boolean() }),
});

export const messageResultSchema = z.object({ success: z.literal(true), message: z.string() });

export const userGroupsSchema = z.object({
  items: z.array(z.object({ groupId: z.string(), groupName: z.string(), permission: z.string(), areaName: z.string() })),
  count: z.number().int(),
});

const hierarchyTypeSchema = z.enum(['Own', 'ByHierarchy', 'Both']);

export const userTenantsSchema = z.object({
  items: z.array(
    z.object({
      tenantId: z.string(),
      tenantName: z.string(),
      isGlobal: z.boolean(),
      isInheritable: z.boolean(),
      hierarchyType: hierarchyTypeSchema,
      roles: z.array(
        z.object({
          roleId: z.string(),
          roleName: z.string(),
          applicationId: z.string(),
          applicationName: z.string(),
          hierarchyType: hierarchyTypeSchema,
          isGlobal: z.boolean(),
        }),
      ),
    }),
  ),
  count: z.number().int(),
});

export const applicationAccessSchema = z.object({
  applicationId: z.string(),
  applicationName: z.string(),
  displayName: z.string(),
  hasAccess: z.boolean(),
  byHierarchy: z.boolean(),
  roles: z.array(
    z.object({
      roleId: z.string(),
      roleName: z.string(),
      description: z.string().nullable(),
      tenantId: z.string(),
      tenantName: z.string(),
      isGlobal: z.boolean(),
      hierarchyType: hierarchyTypeSchema,
      removable: z.boolean(),
    }),
  ),
  availableRoles: z.array(z.object({ id: z.string(), name: z.string(), description: z.string().nullable(), byHierarchy: z.boolean() })),
});
export type ApplicationAccess = z.infer<typeof applicationAccessSchema>;

export const userRolesSchema = z.object({ items: z.array(applicationAccessSchema) });

export const permissionCheckSchema = z.object({
  groups: z.array(z.string()),
  applicationPermissions: z.array(z.object({ applicationName: z.string(), roles: z.array(z.string()) })),
});
