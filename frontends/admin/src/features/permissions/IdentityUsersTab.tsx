import { BreakableText, identifying } from '@gatehouse/frontend-shared';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { breadcrumbState } from '../../shell/PageHeader';
import { DataTable } from '../directory/components/DataTable';
import { useFeedback } from '../directory/components/feedback';
import { listTableProps, toListQuery, useListState } from '../directory/components/list-state';
import { AreaFilter } from '../directory/components/selects';
import { permissionsCrumb } from './crumbs';
import { IdentityBulkMenu } from './IdentityBulkMenu';
import { useTenantIdentityUsersQuery, type TenantIdentityUser } from './permissions-api';
import { TenantBadges } from './TenantBadges';
import { usePermissionsTranslation } from './use-permissions-translation';

/** Where the Users tab's query is remembered. */
export const PERMISSION_USERS_LIST_KEY = 'IDENTITY-PERMISSIONS-USERS-LIST';

/** The Users tab: the users holding roles in some tenant, each with those tenants as badges. */
export function IdentityUsersTab() {
  const { t } = usePermissionsTranslation();
  const feedback = useFeedback();
  const list = useListState(PERMISSION_USERS_LIST_KEY, { sort: { field: 'userName', direction: 'asc' } });
  const users = useTenantIdentityUsersQuery(toListQuery(list[0]));

  const columns: ColumnsType<TenantIdentityUser> = [
    identifying({
      key: 'userName',
      title: t('columns.userName'),
      sorter: true,
      render: (_, user) => (
        <Link to={`/users/${encodeURIComponent(user.id)}`} state={breadcrumbState([permissionsCrumb(t, 'users'), { title: user.userName }])}>
          <BreakableText text={user.userName} />
        </Link>
      ),
    }),
    { key: 'displayName', dataIndex: 'displayName', title: t('columns.name'), sorter: true },
    identifying({ key: 'email', dataIndex: 'email', title: t('columns.email'), sorter: true }),
    { key: 'areaName', dataIndex: 'areaName', title: t('columns.area'), sorter: true },
    { key: 'tenants', title: t('columns.tenants'), render: (_, user) => <TenantBadges tenants={user.tenants} /> },
  ];

  return (
    <>
      <DataTable<TenantIdentityUser>
        label={t('page.users')}
        rowKey="id"
        columns={columns}
        {...listTableProps(list, users)}
        filters={<AreaFilter list={list} label={t('columns.area')} placeholder={t('page.allAreas')} />}
        toolbar={<IdentityBulkMenu kind="users" feedback={feedback} />}
      />
      {feedback.holder}
    </>
  );
}
