import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { BreakableText, ClampedText, identifying } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { Link } from 'react-router';
import { breadcrumbState } from '../../../shell/PageHeader';
import { useDeleteGroupMutation, useGroupsQuery, type Group } from '../api/groups-api';
import { useDirectoryAccess } from '../components/access';
import { deleteColumn } from '../components/columns';
import { groupsCrumb } from '../components/crumbs';
import { errorMessage } from '../components/errors';
import { useFeedback } from '../components/feedback';
import { LIST_STORAGE_KEYS, listTableProps, toListQuery, useListState } from '../components/list-state';
import { ListPage } from '../components/ListPage';
import { AreaFilter } from '../components/selects';
import { useDirectoryTranslation } from '../use-directory-translation';
import { GroupTenantTags } from './GroupTenantTags';
import { NewGroupModal } from './NewGroupModal';

/** /admin/groups: the groups, filterable by area, with creation and deletion. */
export function GroupsPage() {
  const { t } = useDirectoryTranslation();
  const access = useDirectoryAccess();
  const feedback = useFeedback();
  const list = useListState(LIST_STORAGE_KEYS.groups, { sort: { field: 'name', direction: 'asc' } });
  const [state] = list;
  const groups = useGroupsQuery(toListQuery(state));
  const [deleteGroup] = useDeleteGroupMutation();
  const [creating, setCreating] = useState(false);

  const remove = async (group: Group) => {
    const confirmed = await feedback.confirm({ title: t('groups.deleteConfirm', { name: group.name }), okText: t('common.delete'), danger: true });
    if (!confirmed) return;
    const result = await deleteGroup(group.id);
    if (result.error) feedback.error(errorMessage(result.error, t));
    else feedback.success(t('groups.deleted', { name: group.name }));
  };

  const columns: ColumnsType<Group> = [
    identifying({
      key: 'name',
      title: t('groups.name'),
      sorter: true,
      render: (_, group) => (
        <Link to={`/groups/${encodeURIComponent(group.id)}`} state={breadcrumbState([groupsCrumb(t), { title: group.name }])}>
          <BreakableText text={group.name} />
        </Link>
      ),
    }),
    { key: 'description', title: t('groups.description'), sorter: true, render: (_, group) => <ClampedText text={group.description} /> },
    { key: 'areaName', dataIndex: 'areaName', title: t('groups.area'), sorter: true },
    { key: 'tenants', title: t('groups.tenants'), render: (_, group) => <GroupTenantTags tenants={group.tenants} /> },
    { key: 'membersCount', dataIndex: 'membersCount', title: t('groups.members'), align: 'right' },
  ];
  if (access.canWrite) {
    columns.push(deleteColumn(t, (group) => t('groups.deleteGroup', { name: group.name }), (group) => void remove(group)));
  }

  return (
    <>
      <ListPage<Group>
        title={t('groups.title')}
        rowKey="id"
        columns={columns}
        {...listTableProps(list, groups)}
        filters={<AreaFilter list={list} label={t('groups.area')} placeholder={t('groups.allAreas')} />}
        toolbar={
          access.canWrite ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              {t('groups.newGroup')}
            </Button>
          ) : null
        }
      />
      {creating ? (
        <NewGroupModal
          onClose={() => setCreating(false)}
          onCreated={(group) => {
            setCreating(false);
            feedback.success(t('groups.created', { name: group.name }));
          }}
        />
      ) : null}
      {feedback.holder}
    </>
  );
}
