import Result from 'antd/es/result';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from './use-current-user';

/**
 * Shows its children to a holder of one of `roles` (God counts as Administrator), else the spec's
 * 403 message. The API checks again: this only spares the user a page that would fail.
 */
export function RequireRole({ roles, children }: { roles: string[]; children: ReactNode }) {
  const { t } = useTranslation('admin');
  const user = useCurrentUser();
  if (user.hasRole(...roles)) return <>{children}</>;
  return <Result status="403" title="403" subTitle={t('common.forbidden')} />;
}
