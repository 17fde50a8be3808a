import type { IdentityRole } from '@gatehouse/contracts';

/** Roles of the Identity application the console looks at. */
export const Roles = {
  God: 'God',
  Administrator: 'Administrator',
  AreaAdministrator: 'AreaAdministrator',
  TenantAdministrator: 'TenantAdministrator',
  Manager: 'Manager',
} as const satisfies Record<string, IdentityRole>;

/**
 * Whether `roles` grants one of `wanted`. God holds every Administrator right (the admin API
 * treats it so), so a check for Administrator passes for God too.
 */
export function grants(roles: readonly string[], ...wanted: string[]): boolean {
  return wanted.some((role) => roles.includes(role) || (role === Roles.Administrator && roles.includes(Roles.God)));
}
