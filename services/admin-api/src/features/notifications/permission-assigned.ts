import { notify } from './notify.js';
import type { AdminContext } from '../../admin-context.js';

/** Roles of one application given in one grant. */
export interface GrantedRoles {
  applicationName: string;
  roleNames: string[];
}

export interface RolesGranted {
  /** The user's saved preferred language, when known. */
  user: { id: string; language?: string | null };
  tenantTitle: string;
  grants: GrantedRoles[];
}

/**
 * Tells a user that roles were given to them (PermissionAssigned): "You have been given the roles
 * Reader, Writer (CRM) in Sales", pushed in their saved language and listed in the reader's. Called
 * once the grant is committed; a failure here is logged and never undoes nor fails the grant.
 */
export async function notifyRolesGranted(context: AdminContext, granted: RolesGranted): Promise<void> {
  const grants = granted.grants.filter((grant) => grant.roleNames.length > 0);
  const count = grants.reduce((total, grant) => total + grant.roleNames.length, 0);
  if (count === 0) return;
  const roles = grants.map((grant) => `${grant.roleNames.join(', ')} (${grant.applicationName})`).join('; ');
  try {
    await notify(context, granted.user.id, {
      type: 'PermissionAssigned',
      message: { key: 'notifications.permission_assigned', params: { count, roles, tenant: granted.tenantTitle } },
      language: granted.user.language ?? undefined,
    });
  } catch (error) {
    context.logger.warn({ err: (error as Error).message, userId: granted.user.id }, 'PermissionAssigned notification failed');
  }
}
