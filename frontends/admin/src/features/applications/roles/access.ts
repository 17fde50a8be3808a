import { useCurrentUser } from '../../../auth/use-current-user';
import { mayCall } from '../../../auth/console-access';

/** Whether the signed-in administrator may change roles and their scopes (others read them). */
export function useCanChangeRoles(): boolean {
  return mayCall(useCurrentUser(), 'appRoles.create');
}
