import ApartmentOutlined from '@ant-design/icons/ApartmentOutlined';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { useUserTenantsQuery, type TenantRole, type UserTenant } from '../api/users-api';
import { ErrorAlert } from '../components/ErrorAlert';
import { useDirectoryTranslation } from '../use-directory-translation';

/** Colours of role badges: global roles apart from those held in one tenant. */
export const ROLE_COLORS = { global: 'gold', tenant: 'blue' } as const;

function RoleBadge({ role }: { role: Pick<TenantRole, 'roleName' | 'applicationName' | 'isGlobal'> }) {
  const { t } = useDirectoryTranslation();
  const tag = (
    <Tag color={role.isGlobal ? ROLE_COLORS.global : ROLE_COLORS.tenant} data-global={role.isGlobal}>
      {role.applicationName}: {role.roleName}
    </Tag>
  );
  return role.isGlobal ? <Tooltip title={t('userTenants.globalRole')}>{tag}</Tooltip> : tag;
}

/** The Tenants tab: each tenant the user belongs to, with the roles held there. */
export function UserTenantsTab({ userId }: { userId: string }) {
  const { t } = useDirectoryTranslation();
  const { data, isFetching, error } = useUserTenantsQuery(userId);

  const columns: ColumnsType<UserTenant> = [
    {
      key: 'tenantName',
      title: t('userTenants.tenant'),
      render: (_, tenant) => (
        <>
          {tenant.isGlobal ? t('common.global') : tenant.tenantName}{' '}
          {tenant.hierarchyType === 'ByHierarchy' ? (
            <Tooltip title={t('userTenants.inherited')}>
              <ApartmentOutlined aria-label={t('userTenants.inherited')} />
            </Tooltip>
          ) : null}
        </>
      ),
    },
    {
      key: 'roles',
      title: t('userTenants.roles'),
      render: (_, tenant) => tenant.roles.map((role) => <RoleBadge key={`${role.applicationId}-${role.roleId}`} role={role} />),
    },
  ];

  return (
    <>
      <ErrorAlert error={error} />
      <Table<UserTenant>
        rowKey="tenantId"
        size="small"
        columns={columns}
        dataSource={data?.items ?? []}
        loading={isFetching}
        pagination={false}
        locale={{ emptyText: t('userTenants.empty') }}
      />
    </>
  );
}
