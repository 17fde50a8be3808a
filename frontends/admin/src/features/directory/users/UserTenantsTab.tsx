import ApartmentOutlined from '@ant-design/icons/ApartmentOutlined';
import { BreakableText, ReadableTable, RoleTag, identifying } from '@gatehouse/frontend-shared';
import type { ColumnsType } from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import { useUserTenantsQuery, type TenantRole, type UserTenant } from '../api/users-api';
import { ErrorAlert } from '../components/ErrorAlert';
import { useDirectoryTranslation } from '../use-directory-translation';

/** The colour of a role of the Global tenant (which applies everywhere); others take their origin's. */
export const GLOBAL_ROLE_COLOR = 'gold';

function RoleBadge({ role }: { role: TenantRole }) {
  const { t } = useDirectoryTranslation();
  const tag = (
    <span className="directory-role-badge" data-global={role.isGlobal}>
      <RoleTag application={role.applicationDisplayName} role={role.roleName} origins={role.origins} color={role.isGlobal ? GLOBAL_ROLE_COLOR : undefined} />
    </span>
  );
  return role.isGlobal ? <Tooltip title={t('userTenants.globalRole')}>{tag}</Tooltip> : tag;
}

/** The Tenants tab: each tenant the user belongs to, with the roles held there. */
export function UserTenantsTab({ userId }: { userId: string }) {
  const { t } = useDirectoryTranslation();
  const { data, isFetching, error } = useUserTenantsQuery(userId);

  const columns: ColumnsType<UserTenant> = [
    identifying({
      key: 'tenantName',
      title: t('userTenants.tenant'),
      render: (_, tenant) => (
        <>
          <BreakableText text={tenant.isGlobal ? t('common.global') : tenant.tenantName} />{' '}
          {tenant.hierarchyType === 'ByHierarchy' ? (
            <Tooltip title={t('userTenants.inherited')}>
              <ApartmentOutlined aria-label={t('userTenants.inherited')} />
            </Tooltip>
          ) : null}
        </>
      ),
    }),
    {
      key: 'roles',
      title: t('userTenants.roles'),
      render: (_, tenant) => tenant.roles.map((role) => <RoleBadge key={`${role.applicationId}-${role.roleId}`} role={role} />),
    },
  ];

  return (
    <>
      <ErrorAlert error={error} />
      <ReadableTable<UserTenant>
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
