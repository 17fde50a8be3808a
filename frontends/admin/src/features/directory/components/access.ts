import { mayCall } from '../../../auth/console-access';
import { useCurrentUser } from '../../../auth/use-current-user';

/** What the signed-in administrator may do on the directory pages. */
export interface DirectoryAccess {
  /**
   * Create, change and delete users and groups. A TenantAdministrator without one of these roles
   * reads only (spec: roles seen on the identity).
   */
  canWrite: boolean;
  /** Grant and revoke application roles on the user page. */
  canManageRoles: boolean;
  /** Administrator or God: revokes inherited access, offers Global, changes user names in bulk. */
  isAdministrator: boolean;
  isGod: boolean;
}

export function useDirectoryAccess(): DirectoryAccess {
  const user = useCurrentUser();
  return {
    canWrite: mayCall(user, 'users.update'),
    canManageRoles: mayCall(user, 'users.grantRoles'),
    isAdministrator: user.isAdministrator,
    isGod: user.isGod,
  };
}
