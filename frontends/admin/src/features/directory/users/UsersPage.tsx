import CheckOutlined from '@ant-design/icons/CheckOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import DownOutlined from '@ant-design/icons/DownOutlined';
import FileExcelOutlined from '@ant-design/icons/FileExcelOutlined';
import LockOutlined from '@ant-design/icons/LockOutlined';
import MailOutlined from '@ant-design/icons/MailOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import UnlockOutlined from '@ant-design/icons/UnlockOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import { BreakableText, identifying, useFormatDateTime } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import type { MenuProps } from 'antd/es/menu';
import Select from 'antd/es/select';
import type { ColumnsType } from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import { useEffect, useState, type Key } from 'react';
import { useDispatch } from 'react-redux';
import { Link } from 'react-router';
import { adminApi, downloadFile } from '../../../api/admin-api';
import { useCurrentUser } from '../../../auth/use-current-user';
import { breadcrumbState } from '../../../shell/PageHeader';
import { USER_LIST_TAG } from '../api/tags';
import { useDeleteUserMutation, userUrls, useUsersQuery, type UserRow } from '../api/users-api';
import { useDirectoryAccess } from '../components/access';
import { BulkImportDialog } from '../components/BulkImportDialog';
import { usersCrumb } from '../components/crumbs';
import { errorMessage } from '../components/errors';
import { useFeedback } from '../components/feedback';
import { LIST_STORAGE_KEYS, listTableProps, toListQuery, useListState, usePageCursors } from '../components/list-state';
import { ListPage } from '../components/ListPage';
import { AreaFilter } from '../components/selects';
import { useBulkDelete } from '../components/use-bulk-delete';
import { useDirectoryTranslation } from '../use-directory-translation';
import { NewUserModal } from './NewUserModal';
import { useUserActions } from './user-actions';
import { UserStatus } from './UserStatus';

type Import = 'users' | 'userNames';

/** Where the user's choice of the list's columns is kept (the pattern of the lists' keys). */
export const USERS_COLUMNS_KEY = 'IDENTITY-USERS-COLUMNS';

/** /admin/users: the users list with its filters, imports, export, creation and deletion. */
export function UsersPage() {
  const { t } = useDirectoryTranslation();
  const formatDate = useFormatDateTime();
  const access = useDirectoryAccess();
  const me = useCurrentUser();
  const feedback = useFeedback();
  const dispatch = useDispatch();
  const list = useListState(LIST_STORAGE_KEYS.users, { sort: { field: 'modifiedOn', direction: 'desc' } });
  const [state, setState] = list;
  const query = toListQuery(state);
  const pages = usePageCursors(query, state.page);
  const users = useUsersQuery(pages.query);
  const next = users.currentData?.next;
  const recordNext = pages.record;
  useEffect(() => recordNext(next), [recordNext, next]);
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

  // The export is the whole list as filtered, searched and sorted: no page.
  const exportQuery = { ...query, skip: undefined, top: undefined };

  const exportUsers = () =>
    downloadFile(userUrls.export(exportQuery), 'Users.xlsx').then(
      () => feedback.success(t('users.exported', { fileName: 'Users.xlsx' })),
      (failure: unknown) => feedback.error(errorMessage(failure, t)),
    );

  const columns: ColumnsType<UserRow> = [
    { key: 'locked', title: t('users.status'), sorter: true, width: 80, align: 'center', render: (_, user) => <UserStatus user={user} /> },
    identifying({
      key: 'userName',
      title: t('user.userName'),
      sorter: true,
      render: (_, user) =>
        user.draft ? (
          <del className="directory-draft">
            <BreakableText text={user.userName} />
          </del>
        ) : (
          <Link to={`/users/${encodeURIComponent(user.id)}`} state={breadcrumbState([usersCrumb(t), { title: user.userName }])}>
            <BreakableText text={user.userName} />
          </Link>
        ),
    }),
    { key: 'firstName', dataIndex: 'firstName', title: t('user.firstName'), sorter: true },
    { key: 'lastName', dataIndex: 'lastName', title: t('user.lastName'), sorter: true },
    identifying({ key: 'email', dataIndex: 'email', title: t('user.email'), sorter: true }),
    { key: 'areaName', dataIndex: 'areaName', title: t('user.area'), sorter: true },
    {
      key: 'validateScopes',
      title: t('users.restricted'),
      width: 110,
      align: 'center',
      render: (_, user) => (user.validateScopes ? <CheckOutlined aria-label={t('users.restricted')} /> : null),
    },
    {
      key: 'modifiedOn',
      title: t('users.modifiedOn'),
      sorter: true,
      width: 185,
      render: (_, user) => formatDate(user.modifiedOn),
    },
  ];
  if (access.canWrite) {
    columns.push({
      key: 'actions',
      title: t('common.actions'),
      width: 104,
      fixed: 'right',
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

  return (
    <>
      <ListPage<UserRow>
        title={t('users.title')}
        rowKey="id"
        columns={columns}
        columnsStorageKey={USERS_COLUMNS_KEY}
        {...listTableProps(list, users)}
        // An administrator cannot delete their own account: it is never offered.
        selection={access.canWrite ? { selectedKeys: selected, onChange: setSelected, selectable: (user) => user.id !== me.id } : undefined}
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
            <Button icon={<FileExcelOutlined />} onClick={() => void exportUsers()}>
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
      />
      {bulkDelete.dialog}
      {feedback.holder}
    </>
  );
}
