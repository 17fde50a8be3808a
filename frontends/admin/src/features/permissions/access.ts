import { Roles } from '../../auth/roles';

/**
 * The spec's rule for the Permissions pages: a role whose name contains Administrator or Manager
 * (Administrator, AreaAdministrator, TenantAdministrator, Manager), or God.
 */
export function mayViewPermissions(roles: readonly string[]): boolean {
  return roles.some((role) => role === Roles.God || role.includes(Roles.Administrator) || role.includes(Roles.Manager));
}
