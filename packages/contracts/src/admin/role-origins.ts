import { z } from 'zod';

/**
 * How an identity holds a role in a tenant: in its own name (a grant of its own membership there),
 * through a group (a grant of one of its groups' membership there), or by hierarchy (a grant of an
 * inheritable membership of a parent tenant, or of the Global tenant, its own or a group's).
 */
export const ROLE_ORIGINS = ['own', 'group', 'hierarchy'] as const;
export type RoleOriginKind = (typeof ROLE_ORIGINS)[number];

/** One way an identity holds a role in a tenant; a role held several ways has several. */
export const roleOriginSchema = z.object({
  via: z.enum(ROLE_ORIGINS),
  /** group: the group holding it; hierarchy: the group whose membership of the parent tenant holds it (null when the identity's own). */
  groupName: z.string().nullable(),
  /** hierarchy: the parent tenant (or the Global tenant) the role is inherited from; null otherwise. */
  tenantName: z.string().nullable(),
});
export type RoleOrigin = z.output<typeof roleOriginSchema>;

/** A role held in the identity's own name. */
export const OWN_ROLE_ORIGIN: RoleOrigin = Object.freeze({ via: 'own', groupName: null, tenantName: null });

/** The order origins are shown in: own first, then groups, then the hierarchy, each by name. */
export function sortRoleOrigins<T extends RoleOrigin>(origins: readonly T[]): T[] {
  const rank = (origin: RoleOrigin) => ROLE_ORIGINS.indexOf(origin.via);
  const name = (origin: RoleOrigin) => `${origin.tenantName ?? ''}\u0000${origin.groupName ?? ''}`;
  return [...origins].sort((a, b) => rank(a) - rank(b) || name(a).localeCompare(name(b)));
}
