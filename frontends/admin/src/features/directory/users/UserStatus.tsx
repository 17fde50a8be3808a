import EditOutlined from '@ant-design/icons/EditOutlined';
import LockOutlined from '@ant-design/icons/LockOutlined';
import UnlockOutlined from '@ant-design/icons/UnlockOutlined';
import Tooltip from 'antd/es/tooltip';
import type { UserRow } from '../api/users-api';
import { useDirectoryTranslation } from '../use-directory-translation';

/** The spec's three user states as an icon: draft, locked or unlocked. */
export function UserStatus({ user }: { user: Pick<UserRow, 'locked' | 'draft'> }) {
  const { t } = useDirectoryTranslation();
  const [label, icon] = user.draft
    ? [t('users.draft'), <EditOutlined key="draft" className="directory-status directory-status--draft" aria-label={t('users.draft')} />]
    : user.locked
      ? [t('users.locked'), <LockOutlined key="locked" className="directory-status directory-status--locked" aria-label={t('users.locked')} />]
      : [t('users.unlocked'), <UnlockOutlined key="unlocked" className="directory-status directory-status--unlocked" aria-label={t('users.unlocked')} />];
  return <Tooltip title={label}>{icon}</Tooltip>;
}
