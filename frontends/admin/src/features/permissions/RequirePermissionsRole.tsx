import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useCurrentUser } from '../../auth/use-current-user';
import { mayViewPermissions } from './access';

/** Shows the Permissions pages to those the spec lets in; sends anybody else to the console's home. */
export function RequirePermissionsRole({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  if (!mayViewPermissions(user.roles)) return <Navigate to="/" replace />;
  return <>{children}</>;
}
