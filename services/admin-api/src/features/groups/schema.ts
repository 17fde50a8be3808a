import { AppError, GROUP_PERMISSIONS, parseInput } from '@gatehouse/core';
import { z } from 'zod';

/**
 * An id in the path or the body. Any 8-4-4-4-12 hex string, as PostgreSQL reads it: the Global
 * tenant's all-zero id is not an RFC 9562 UUID.
 */
export const idSchema = z.guid();

/** Reads an id from the path; a malformed one names nothing, so it is the same 404 as an unknown one. */
export function pathId(value: string | undefined): string {
  const parsed = idSchema.safeParse(value);
  if (!parsed.success) throw new AppError('errors.not_found', 404);
  return parsed.data.toLowerCase();
}

/** Absent, null, blank or an empty list: what a form sends for a field left empty. */
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && !value.trim()) || (Array.isArray(value) && !value.length);
}

/**
 * Validates a body like parseInput, but a field listed in `messages` that was left empty answers
 * the spec's own text for it ("Please input your group name!") instead of the generic message,
 * whatever zod calls the problem (an enum reports a missing value as an invalid one).
 */
export function parseBody<T extends z.ZodType>(schema: T, input: unknown, messages: Record<string, string>): z.infer<T> {
  const body = input ?? {};
  try {
    return parseInput(schema, body);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const raw = typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const errors = error.errors.map((fe) => (messages[fe.field] && isBlank(raw[fe.field]) ? { field: fe.field, code: messages[fe.field]! } : fe));
    throw new AppError(error.code, error.status, error.params, errors);
  }
}

export const permissionSchema = z.enum(GROUP_PERMISSIONS);

/** Body of `POST /groups` and `PUT /groups/{id}`. */
export const groupBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  // An empty description is no description.
  description: z
    .string()
    .trim()
    .max(1000)
    .nullish()
    .transform((value) => value || null),
  areaId: idSchema,
});
export type GroupBody = z.infer<typeof groupBodySchema>;
export const GROUP_BODY_MESSAGES = { name: 'groups.name_required', areaId: 'groups.area_required' };

/** Body of `POST /groups/{id}/users`: the select defaults to Reader ("No"). */
export const addMemberBodySchema = z.strictObject({
  userId: idSchema,
  permission: permissionSchema.default('Reader'),
});
export const ADD_MEMBER_MESSAGES = { userId: 'groups.user_required', permission: 'groups.permission_required' };

/** Body of `POST /users/{id}/groups` (the user detail's "Add user to group" dialog). */
export const addUserToGroupBodySchema = z.strictObject({
  groupId: idSchema,
  permission: permissionSchema.default('Reader'),
});
export const ADD_USER_TO_GROUP_MESSAGES = { groupId: 'groups.group_required', permission: 'groups.permission_required' };

/** Body of `PUT /groups/{id}/users/{userId}`. */
export const updateMemberBodySchema = z.strictObject({ permission: permissionSchema });
export const UPDATE_MEMBER_MESSAGES = { permission: 'groups.permission_required' };

/**
 * Body of `POST /groups/{id}/roles`. tenantId must be given: null (or the all-zero id) is the Global
 * tenant, so a forgotten field never grants roles everywhere by default.
 */
export const addTenantRolesBodySchema = z.strictObject({
  tenantId: idSchema.nullable(),
  roleIds: z.array(idSchema).min(1).max(1000),
  isInheritable: z.boolean().optional(),
});
export type AddTenantRolesBody = z.infer<typeof addTenantRolesBodySchema>;
export const ADD_TENANT_ROLES_MESSAGES = { tenantId: 'groups.tenant_required', roleIds: 'groups.roles_required' };

/** `?area=<uuid>` on the groups list. */
export const groupListFilterSchema = z.object({ area: idSchema.optional() });

export const groupSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  areaId: z.string(),
  areaName: z.string(),
  /** id null is the Global tenant. */
  tenants: z.array(z.object({ id: z.string().nullable(), title: z.string() })),
  membersCount: z.number(),
  userIsOwner: z.boolean(),
});
export type GroupResponse = z.infer<typeof groupSchema>;
export const groupListSchema = z.object({ items: z.array(groupSchema), count: z.number() });

export const memberSchema = z.object({
  userId: z.string(),
  userName: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  groupId: z.string(),
  groupName: z.string(),
  permission: permissionSchema,
});
export type MemberResponse = z.infer<typeof memberSchema>;
export const memberListSchema = z.object({ items: z.array(memberSchema), count: z.number() });

export const tenantRolesSchema = z.object({
  /** null is the Global tenant. */
  tenantId: z.string().nullable(),
  tenantName: z.string(),
  isInheritable: z.boolean(),
  roles: z.array(z.object({ roleId: z.string(), roleName: z.string(), applicationId: z.string(), applicationName: z.string() })),
});
export type TenantRolesResponse = z.infer<typeof tenantRolesSchema>;
export const tenantRolesListSchema = z.object({ items: z.array(tenantRolesSchema), count: z.number() });
