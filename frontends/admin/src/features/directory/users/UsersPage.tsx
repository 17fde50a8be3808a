import CheckOutlined from '@ant-design/icons/CheckOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import DownOutlined from '@ant-design/icons/DownOutlined';
import FileExcelOutlined from '@ant-design/icons/FileExcelOutlined';
import LockOutlined from '@ant-design/icons/LockOutlined';
import MailOutlined from '@ant-design/icons/MailOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import UnlockOutlined from '@ant-design/icons/UnlockOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import type { MenuProps } from 'antd/es/menu';
import Select from 'antd/es/select';
import type { ColumnsType } from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import { useState, type Key } from 'react';
import { useDispatch } from 'react-redux';
import { Link } from 'react-router';
import { adminApi, downloadFile } from '../../../api/admin-api';
import { breadcrumbState } from '../../../shell/PageHeader';
import { USER_LIST_TAG } from '../api/tags';
import { useDeleteUserMutation, userUrls, useUsersQuery, type UserRow } from '../api/users-api';
import { useDirectoryAccess } from '../components/access';
import { BulkImportDialog } from '../components/BulkImportDialog';
import { usersCrumb } from '../components/crumbs';
import { errorMessage } from '../components/errors';
import { useFeedback } from '../components/feedback';
import { formatDateTime } from '../components/format';
import { LIST_STORAGE_KEYS, listTableProps, toListQuery, useListState } from '../components/list-state';
import { ListPage } from '../components/ListPage';
import { AreaFilter } from '../components/selects';
import { useBulkDelete } from '../components/use-bulk-delete';
import { useDirectoryTranslation } from '../use-directory-translation';
import { NewUserModal } from './NewUserModal';
import { useUserActions } from './user-actions';
import { UserStatus } from './UserStatus';

type Import = 'users' | 'userNames';

/** /admin/users: the users list with its filters, imports, export, creation and deletion. */
export function UsersPage() {
  const { t, i18n } = useDirectoryTranslation();
  const access = useDirectoryAccess();
  const feedback = useFeedback();
  const dispatch = useDispatch();
  const list = useListState(LIST_STORAGE_KEYS.users, { sort: { field: 'modifiedOn', direction: 'desc' } });
  const [state, setState] = list;
  const query = toListQuery(state);
  const users = useUsersQuery(query);
  const [selected, setSelected] = useState<Key[]>([]);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState<Import | null>(null);
  const actions = useUserActions(feedback);
  const [deleteUser] = useDeleteUserMutation();
  const reload = () => dispatch(adminApi.util.invalidateTags([USER_LIST_TAG, 'Dashboard']));
  const bulkDelete = useBulkDelete({
    feedback,
    remove: (id) => deleteUser(id).unwrap(),
    onFinished: () => {
      setSelected([]);
      reload();
    },
  });

  const download = (url: string, fileName: string) =>
    downloadFile(url, fileName).catch((failure: unknown) => feedback.error(errorMessage(failure, t)));

  const columns: ColumnsType<UserRow> = [
    { key: 'locked', title: t('users.status'), sorter: true, width: 80, align: 'center', render: (_, user) => <UserStatus user={user} /> },
    {
      key: 'userName',
      title: t('user.userName'),
      sorter: true,
      render: (_, user) =>
        user.draft ? (
          <del className="directory-draft">{user.userName}</del>
        ) : (
          <Link to={`/users/${encodeURIComponent(user.id)}`} state={breadcrumbState([usersCrumb(t), { title: user.userName }])}>
            {user.userName}
          </Link>
        ),
    },
    { key: 'firstName', dataIndex: 'firstName', title: t('user.firstName'), sorter: true },
    { key: 'lastName', dataIndex: 'lastName', title: t('user.lastName'), sorter: true },
    { key: 'email', dataIndex: 'email', title: t('user.email'), sorter: true },
    { key: 'areaName', dataIndex: 'areaName', title: t('user.area'), sorter: true },
    {
      key: 'validateScopes',
      title: t('users.restricted'),
      align: 'center',
      render: (_, user) => (user.validateScopes ? <CheckOutlined aria-label={t('users.restricted')} /> : null),
    },
    {
      key: 'modifiedOn',
      title: t('users.modifiedOn'),
      sorter: true,
      render: (_, user) => formatDateTime(user.modifiedOn, i18n.language),
    },
  ];
  if (access.canWrite) {
    columns.push({
      key: 'actions',
      title: t('common.actions'),
      render: (_, user) => (
        <span className="directory-row-actions">
          {user.draft ? null : (
            <Tooltip title={t('users.invite')}>
              <Button type="text" icon={<MailOutlined />} aria-label={t('users.invite')} onClick={() => void actions.sendInvitation(user)} />
            </Tooltip>
          )}
          {user.locked ? (
            <Tooltip title={t('users.unlock')}>
              <Button type="text" icon={<UnlockOutlined />} aria-label={t('users.unlock')} onClick={() => void actions.unlock(user)} />
            </Tooltip>
          ) : (
            <Tooltip title={t('users.lock')}>
              <Button type="text" icon={<LockOutlined />} aria-label={t('users.lock')} onClick={() => void actions.lock(user)} />
            </Tooltip>
          )}
        </span>
      ),
    });
  }

  const uploadMenu: MenuProps['items'] = [
    { key: 'upload', label: t('users.uploadUsers'), onClick: () => setImporting('users') },
    { key: 'template', label: t('users.downloadTemplate'), onClick: () => void download(userUrls.template, 'UsersTemplate.xlsx') },
    ...(access.isAdministrator
      ? [
          { type: 'divider' as const },
          { key: 'userNames', label: t('users.changeUserNames'), onClick: () => setImporting('userNames') },
          {
            key: 'userNamesTemplate',
            label: t('users.downloadChangeUserNamesTemplate'),
            onClick: () => void download(userUrls.changeUserNameTemplate, 'ChangeUserNamesTemplate.xlsx'),
          },
        ]
      : []),
  ];

  // The export is the whole list as filtered, searched and sorted: no page.
  const exportQuery = { ...query, skip: undefined, top: undefined };

  return (
    <>
      <ListPage<UserRow>
        title={t('users.title')}
        rowKey="id"
        columns={columns}
        {...listTableProps(list, users)}
        selection={access.canWrite ? { selectedKeys: selected, onChange: setSelected } : undefined}
        filters={
          <>
            <Select<string>
              className="directory-filter"
              aria-label={t('users.status')}
              value={state.filters.locked ?? ''}
              onChange={(locked) => setState({ filters: { ...state.filters, locked } })}
              options={[
                { value: '', label: t('users.allStatuses') },
                { value: 'true', label: t('users.locked') },
                { value: 'false', label: t('users.unlocked') },
              ]}
            />
            <AreaFilter list={list} label={t('user.area')} placeholder={t('users.allAreas')} />
          </>
        }
        toolbar={
          <>
            <Button icon={<FileExcelOutlined />} onClick={() => void download(userUrls.export(exportQuery), 'Users.xlsx')}>
              {t('users.export')}
            </Button>
            {access.canWrite ? (
              <>
                <Dropdown trigger={['click']} menu={{ items: uploadMenu }}>
                  <Button icon={<UploadOutlined />}>
                    {t('users.bulkUpload')} <DownOutlined aria-hidden />
                  </Button>
                </Dropdown>
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  disabled={!selected.length}
                  onClick={() => void bulkDelete.start(selected.map(String))}
                >
                  {selected.length ? t('users.deleteCount', { count: selected.length }) : t('users.deleteSelected')}
                </Button>
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
                  {t('users.newUser')}
                </Button>
              </>
            ) : null}
          </>
        }
      />
      {creating ? (
        <NewUserModal
          onClose={() => setCreating(false)}
          onCreated={(user) => {
            setCreating(false);
            feedback.success(t('users.created', { userName: user.userName }));
          }}
        />
      ) : null}
      <BulkImportDialog
        open={importing !== null}
        title={importing === 'userNames' ? t('users.changeUserNames') : t('users.uploadUsers')}
        uploadUrl={importing === 'userNames' ? userUrls.changeUserName : userUrls.bulkInsert}
        onClose={() => setImporting(null)}
        onImported={reload}
      />
      {bulkDelete.dialog}
      {feedback.holder}
    </>
  );
}
