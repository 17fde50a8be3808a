import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { BreakableText, ReadableTable, identifying } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { Link } from 'react-router';
import { breadcrumbState } from '../../../shell/PageHeader';
import {
  useAddUserToGroupMutation,
  useRemoveUserFromGroupMutation,
  useUserGroupsQuery,
  type UserDetail,
  type UserGroup,
} from '../api/users-api';
import { AddMembershipDialog } from '../components/AddMembershipDialog';
import { deleteColumn } from '../components/columns';
import { ErrorAlert } from '../components/ErrorAlert';
import type { Feedback } from '../components/feedback';
import { GroupSelect } from '../components/selects';
import { groupsCrumb } from '../components/crumbs';
import { useDirectoryTranslation } from '../use-directory-translation';

export interface UserGroupsTabProps {
  user: Pick<UserDetail, 'id' | 'userName'>;
  readOnly: boolean;
  feedback: Feedback;
}

/** The "Member of" tab: the user's groups, with adding and removal. */
export function UserGroupsTab({ user, readOnly, feedback }: UserGroupsTabProps) {
  const { t } = useDirectoryTranslation();
  const { data, isFetching, error } = useUserGroupsQuery(user.id);
  const [remove] = useRemoveUserFromGroupMutation();
  const [adding, setAdding] = useState(false);
  const [removeError, setRemoveError] = useState<unknown>();

  const removeFrom = async (group: UserGroup) => {
    const confirmed = await feedback.confirm({
      title: t('userGroups.removeConfirm', { userName: user.userName, groupName: group.groupName }),
      okText: t('common.remove'),
      danger: true,
    });
    if (!confirmed) return;
    const result = await remove({ userId: user.id, groupId: group.groupId });
    setRemoveError(result.error);
  };

  const columns: ColumnsType<UserGroup> = [
    identifying({
      key: 'groupName',
      title: t('userGroups.group'),
      render: (_, group) => (
        <Link to={`/groups/${encodeURIComponent(group.groupId)}`} state={breadcrumbState([groupsCrumb(t), { title: group.groupName }])}>
          <BreakableText text={group.groupName} />
        </Link>
      ),
    }),
    { key: 'permission', title: t('permission.label'), render: (_, group) => t(group.permission === 'Owner' ? 'permission.owner' : 'permission.reader') },
    { key: 'areaName', dataIndex: 'areaName', title: t('userGroups.area') },
  ];
  if (!readOnly) {
    columns.push(deleteColumn(t, (group) => t('userGroups.remove', { groupName: group.groupName }), (group) => void removeFrom(group)));
  }

  return (
    <>
      {readOnly ? null : (
        <div className="directory-section-actions">
          <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {t('userGroups.addToGroup')}
          </Button>
        </div>
      )}
      <ErrorAlert error={error ?? removeError} />
      <ReadableTable<UserGroup>
        rowKey="groupId"
        size="small"
        columns={columns}
        dataSource={data?.items ?? []}
        loading={isFetching}
        pagination={false}
        locale={{ emptyText: t('userGroups.empty') }}
      />
      {adding ? (
        <AddToGroupDialog
          userId={user.id}
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            feedback.success(t('userGroups.added'));
          }}
        />
      ) : null}
    </>
  );
}

function AddToGroupDialog({ userId, onAdded, onClose }: { userId: string; onAdded: () => void; onClose: () => void }) {
  const { t } = useDirectoryTranslation();
  const [add, { isLoading }] = useAddUserToGroupMutation();
  return (
    <AddMembershipDialog
      title={t('userGroups.dialogTitle')}
      name="add-to-group"
      side={{ field: 'groupId', label: t('userGroups.group'), requiredMessage: t('userGroups.groupRequired'), select: <GroupSelect /> }}
      loading={isLoading}
      add={(values) => add({ userId, ...values })}
      onAdded={onAdded}
      onClose={onClose}
    />
  );
}
