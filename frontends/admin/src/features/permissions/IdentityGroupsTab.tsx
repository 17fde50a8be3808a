import { BreakableText, ClampedText, identifying } from '@gatehouse/frontend-shared';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { breadcrumbState } from '../../shell/PageHeader';
import { DataTable } from '../directory/components/DataTable';
import { useFeedback } from '../directory/components/feedback';
import { listTableProps, toListQuery, useListState } from '../directory/components/list-state';
import { AreaFilter } from '../directory/components/selects';
import { groupPermissionsPath, permissionsCrumb } from './crumbs';
import { IdentityBulkMenu } from './IdentityBulkMenu';
import { useTenantIdentityGroupsQuery, type TenantIdentityGroup } from './permissions-api';
import { TenantBadges } from './TenantBadges';
import { usePermissionsTranslation } from './use-permissions-translation';

/** Where the Groups tab's query is remembered. */
export const PERMISSION_GROUPS_LIST_KEY = 'IDENTITY-PERMISSIONS-GROUPS-LIST';

/** What a group's link hands the Group Details page: its trail and the group, so the page need not ask for it. */
export interface GroupNavigationState {
  breadcrumbs: ReturnType<typeof breadcrumbState>['breadcrumbs'];
  group: TenantIdentityGroup;
}

/** The Groups tab: the groups holding roles in some tenant, each opening its Group Details page. */
export function IdentityGroupsTab() {
  const { t } = usePermissionsTranslation();
  const feedback = useFeedback();
  const list = useListState(PERMISSION_GROUPS_LIST_KEY, { sort: { field: 'name', direction: 'asc' } });
  const groups = useTenantIdentityGroupsQuery(toListQuery(list[0]));

  const columns: ColumnsType<TenantIdentityGroup> = [
    identifying({
      key: 'name',
      title: t('columns.name'),
      sorter: true,
      render: (_, group) => {
        const state: GroupNavigationState = { ...breadcrumbState([permissionsCrumb(t, 'groups'), { title: group.name }]), group };
        return (
          <Link to={groupPermissionsPath(group.id)} state={state}>
            <BreakableText text={group.name} />
          </Link>
        );
      },
    }),
    { key: 'description', title: t('columns.description'), render: (_, group) => <ClampedText text={group.description} /> },
    { key: 'areaName', dataIndex: 'areaName', title: t('columns.area'), sorter: true },
    { key: 'membersCount', dataIndex: 'membersCount', title: t('columns.members'), align: 'right' },
    { key: 'tenants', title: t('columns.tenants'), render: (_, group) => <TenantBadges tenants={group.tenants} /> },
  ];

  return (
    <>
      <DataTable<TenantIdentityGroup>
        label={t('page.groups')}
        rowKey="id"
        columns={columns}
        {...listTableProps(list, groups)}
        filters={<AreaFilter list={list} label={t('columns.area')} placeholder={t('page.allAreas')} />}
        toolbar={<IdentityBulkMenu kind="groups" feedback={feedback} />}
      />
      {feedback.holder}
    </>
  );
}
