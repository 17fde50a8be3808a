import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import type { GroupPermission } from '@gatehouse/contracts';
import { BreakableText, identifying } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { Link } from 'react-router';
import { downloadFile } from '../../../api/admin-api';
import { breadcrumbState } from '../../../shell/PageHeader';
import {
  groupUrls,
  useAddGroupMemberMutation,
  useGroupMembersQuery,
  useRemoveGroupMemberMutation,
  useUpdateGroupMemberMutation,
  type Group,
  type GroupMember,
} from '../api/groups-api';
import { AddMembershipDialog } from '../components/AddMembershipDialog';
import { BulkImportDialog } from '../components/BulkImportDialog';
import { deleteColumn } from '../components/columns';
import { groupsCrumb } from '../components/crumbs';
import { DataTable } from '../components/DataTable';
import { errorMessage } from '../components/errors';
import type { Feedback } from '../components/feedback';
import { listTableProps, toListQuery, useListState } from '../components/list-state';
import { PermissionSelect, UserSelect } from '../components/selects';
import { useDirectoryTranslation } from '../use-directory-translation';

export interface GroupMembersProps {
  group: Pick<Group, 'id' | 'name' | 'userIsOwner'>;
  feedback: Feedback;
}

/** The Members card: the group's users; its owners add, change and remove them. */
export function GroupMembers({ group, feedback }: GroupMembersProps) {
  const { t } = useDirectoryTranslation();
  const list = useListState();
  const [state] = list;
  const members = useGroupMembersQuery({ groupId: group.id, query: toListQuery(state) });
  const [updateMember] = useUpdateGroupMemberMutation();
  const [removeMember] = useRemoveGroupMemberMutation();
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const editable = group.userIsOwner;
  const crumbs = [groupsCrumb(t), { title: group.name, to: `/groups/${encodeURIComponent(group.id)}` }];

  const changePermission = async (member: GroupMember, permission: GroupPermission) => {
    const result = await updateMember({ groupId: group.id, userId: member.userId, permission });
    if (result.error) feedback.error(errorMessage(result.error, t));
    else feedback.success(t('common.saved'));
  };

  const remove = async (member: GroupMember) => {
    const confirmed = await feedback.confirm({
      title: t('groupDetail.removeMemberConfirm', { userName: member.userName }),
      okText: t('common.remove'),
      danger: true,
    });
    if (!confirmed) return;
    const result = await removeMember({ groupId: group.id, userId: member.userId });
    if (result.error) feedback.error(errorMessage(result.error, t));
  };

  const columns: ColumnsType<GroupMember> = [
    identifying({
      key: 'userName',
      title: t('user.userName'),
      sorter: true,
      render: (_, member) => (
        <Link to={`/users/${encodeURIComponent(member.userId)}`} state={breadcrumbState([...crumbs, { title: member.userName }])}>
          <BreakableText text={member.userName} />
        </Link>
      ),
    }),
    { key: 'firstName', dataIndex: 'firstName', title: t('user.firstName') },
    { key: 'lastName', dataIndex: 'lastName', title: t('user.lastName') },
    identifying({ key: 'email', dataIndex: 'email', title: t('user.email'), sorter: true }),
    {
      key: 'permission',
      title: t('permission.label'),
      width: 180,
      fixed: 'right',
      render: (_, member) =>
        editable ? (
          <PermissionSelect
            className="directory-permission-select"
            aria-label={t('groupDetail.permissionOf', { userName: member.userName })}
            value={member.permission}
            onChange={(permission) => void changePermission(member, permission)}
          />
        ) : (
          t(member.permission === 'Owner' ? 'permission.owner' : 'permission.reader')
        ),
    },
  ];
  if (editable) {
    columns.push({
      ...deleteColumn(t, (member) => t('groupDetail.removeMember', { userName: member.userName }), (member) => void remove(member)),
      fixed: 'right',
    });
  }

  return (
    <Card title={t('groupDetail.members')}>
      <DataTable<GroupMember>
        label={t('groupDetail.members')}
        rowKey="userId"
        columns={columns}
        {...listTableProps(list, members)}
        toolbar={
          editable ? (
            <>
              <Button
                icon={<DownloadOutlined />}
                onClick={() =>
                  void downloadFile(groupUrls.template(group.id), 'GroupMembersTemplate.xlsx').catch((failure: unknown) =>
                    feedback.error(errorMessage(failure, t)),
                  )
                }
              >
                {t('groupDetail.downloadTemplate')}
              </Button>
              <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
                {t('groupDetail.uploadMembers')}
              </Button>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
                {t('groupDetail.addMember')}
              </Button>
            </>
          ) : null
        }
      />
      {adding ? (
        <AddMemberDialog
          groupId={group.id}
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            feedback.success(t('groupDetail.memberAdded'));
          }}
        />
      ) : null}
      <BulkImportDialog
        open={importing}
        title={t('groupDetail.uploadMembers')}
        uploadUrl={groupUrls.bulkInsert(group.id)}
        onClose={() => setImporting(false)}
      />
    </Card>
  );
}

/** The Add Member to Group dialog (mounted while open). */
function AddMemberDialog({ groupId, onAdded, onClose }: { groupId: string; onAdded: () => void; onClose: () => void }) {
  const { t } = useDirectoryTranslation();
  const [add, { isLoading }] = useAddGroupMemberMutation();
  return (
    <AddMembershipDialog
      title={t('groupDetail.memberDialogTitle')}
      name="add-member"
      side={{ field: 'userId', label: t('groupDetail.user'), requiredMessage: t('groupDetail.userRequired'), select: <UserSelect /> }}
      loading={isLoading}
      add={(values) => add({ groupId, ...values })}
      onAdded={onAdded}
      onClose={onClose}
    />
  );
}
