import { BreakableText, identifying } from '@gatehouse/frontend-shared';
import Card from 'antd/es/card';
import Skeleton from 'antd/es/skeleton';
import type { ColumnsType } from 'antd/es/table';
import { Link, useLocation, useParams } from 'react-router';
import { breadcrumbState, PageHeader } from '../../shell/PageHeader';
import { useBackTo } from '../directory/components/crumbs';
import { DataTable } from '../directory/components/DataTable';
import { ErrorAlert } from '../directory/components/ErrorAlert';
import { listTableProps, toListQuery, useListState } from '../directory/components/list-state';
import { groupPermissionsPath, permissionsCrumb, permissionsPath } from './crumbs';
import type { GroupNavigationState } from './IdentityGroupsTab';
import { useTenantIdentityGroupQuery, useTenantIdentityGroupUsersQuery, type TenantIdentityGroup, type TenantIdentityGroupUser } from './permissions-api';
import { TenantBadges } from './TenantBadges';
import { usePermissionsTranslation } from './use-permissions-translation';
import './permissions.css';

/** The group the opening link carried, when it is this page's group. */
function groupFromState(state: unknown, groupId: string): TenantIdentityGroup | undefined {
  const group = (state as Partial<GroupNavigationState> | null)?.group;
  return group && typeof group === 'object' && group.id === groupId && typeof group.name === 'string' && Array.isArray(group.tenants) ? group : undefined;
}

/**
 * /admin/permissions/{identityId}: "Group Details - {name}", the group's tenants as badges and its
 * users. The group comes with the link from the Groups tab, else from the API (an address typed or
 * shared).
 */
export default function GroupPermissionsPage() {
  return <GroupPermissions />;
}

function GroupPermissions() {
  const { identityId = '' } = useParams();
  const { t } = usePermissionsTranslation();
  const location = useLocation();
  const carried = groupFromState(location.state, identityId);
  const fetched = useTenantIdentityGroupQuery(identityId, { skip: carried !== undefined });
  const group = carried ?? fetched.data;
  const backTo = useBackTo(permissionsPath('groups'));

  if (!group) {
    return (
      <>
        <PageHeader title={t('group.loadingTitle')} breadcrumbs={[permissionsCrumb(t, 'groups'), { title: t('group.loadingTitle') }]} back={backTo} />
        {fetched.isLoading ? <Skeleton active /> : <ErrorAlert error={fetched.error} />}
      </>
    );
  }

  const title = t('group.title', { name: group.name });
  return (
    <>
      <PageHeader title={title} breadcrumbs={[permissionsCrumb(t, 'groups'), { title: group.name }]} back={backTo} />
      <Card title={t('group.tenants')} className="permissions-tenants">
        {group.tenants.length ? <TenantBadges tenants={group.tenants} /> : t('group.noTenants')}
      </Card>
      <GroupUsers group={group} />
    </>
  );
}

function GroupUsers({ group }: { group: TenantIdentityGroup }) {
  const { t } = usePermissionsTranslation();
  const list = useListState(undefined, { sort: { field: 'userName', direction: 'asc' } });
  const users = useTenantIdentityGroupUsersQuery({ groupId: group.id, query: toListQuery(list[0]) });
  const trail = [permissionsCrumb(t, 'groups'), { title: group.name, to: groupPermissionsPath(group.id) }];

  const columns: ColumnsType<TenantIdentityGroupUser> = [
    identifying({
      key: 'userName',
      title: t('columns.userName'),
      sorter: true,
      render: (_, user) => (
        <Link to={`/users/${encodeURIComponent(user.userId)}`} state={breadcrumbState([...trail, { title: user.userName }])}>
          <BreakableText text={user.userName} />
        </Link>
      ),
    }),
    { key: 'displayName', dataIndex: 'displayName', title: t('columns.name'), sorter: true },
    identifying({ key: 'email', dataIndex: 'email', title: t('columns.email'), sorter: true }),
    { key: 'permission', title: t('columns.permission'), render: (_, user) => t(`permission.${user.permission}`) },
  ];

  return (
    <Card title={t('group.users')}>
      <DataTable<TenantIdentityGroupUser> label={t('group.users')} rowKey="userId" columns={columns} {...listTableProps(list, users)} />
    </Card>
  );
}
