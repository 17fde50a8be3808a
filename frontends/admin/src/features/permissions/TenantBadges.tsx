import BranchesOutlined from '@ant-design/icons/BranchesOutlined';
import GlobalOutlined from '@ant-design/icons/GlobalOutlined';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { TenantBadge } from './permissions-api';
import { usePermissionsTranslation } from './use-permissions-translation';

/**
 * The tenants a user or a group holds roles in, as badges: the Global tenant (no id) first and in
 * its own colour, an inheritable membership marked with a branch.
 */
export function TenantBadges({ tenants }: { tenants: readonly TenantBadge[] }) {
  const { t } = usePermissionsTranslation();
  const ordered = [...tenants].sort((a, b) => Number(b.id === null) - Number(a.id === null));
  return (
    <span className="permissions-badges">
      {ordered.map((tenant) =>
        tenant.id === null ? (
          <Tag key="global" color="gold" icon={<GlobalOutlined aria-hidden />} className="permissions-badge permissions-badge--global">
            {t('badges.global')}
          </Tag>
        ) : (
          <Tag key={tenant.id} color="blue" className="permissions-badge" data-inheritable={tenant.isInheritable || undefined}>
            {tenant.title}
            {tenant.isInheritable ? (
              <Tooltip title={t('badges.inheritable')}>
                <BranchesOutlined className="permissions-badge__inheritable" role="img" aria-label={t('badges.inheritable')} />
              </Tooltip>
            ) : null}
          </Tag>
        ),
      )}
    </span>
  );
}
