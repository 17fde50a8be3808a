import type { AppContext } from '@gatehouse/core';
import { notify } from './notify.js';

/** Roles of one application given in one grant. */
export interface GrantedRoles {
  applicationName: string;
  roleNames: string[];
}

export interface RolesGranted {
  user: { id: string; language: string };
  tenantTitle: string;
  grants: GrantedRoles[];
}

/**
 * Tells a user that roles were given to them (PermissionAssigned), in their own language: "You
 * have been given the roles Reader, Writer (CRM) in Sales". Called once the grant is committed; a
 * failure here is logged and never undoes nor fails the grant.
 */
export async function notifyRolesGranted(context: AppContext, granted: RolesGranted): Promise<void> {
  const grants = granted.grants.filter((grant) => grant.roleNames.length > 0);
  const count = grants.reduce((total, grant) => total + grant.roleNames.length, 0);
  if (count === 0) return;
  const roles = grants.map((grant) => `${grant.roleNames.join(', ')} (${grant.applicationName})`).join('; ');
  try {
    const description = context.i18n.t('notifications.permission_assigned', { lng: granted.user.language, count, roles, tenant: granted.tenantTitle }) as string;
    await notify(context, granted.user.id, { type: 'PermissionAssigned', description });
  } catch (error) {
    context.logger.warn({ err: (error as Error).message, userId: granted.user.id }, 'PermissionAssigned notification failed');
  }
}
