import CheckOutlined from '@ant-design/icons/CheckOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { BreakableText, ClampedText, identifying } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { useState } from 'react';
import { Link } from 'react-router';
import { breadcrumbState } from '../../../shell/PageHeader';
import { DataTable } from '../../directory/components/DataTable';
import { errorMessage } from '../../directory/components/errors';
import { useFeedback, type Feedback } from '../../directory/components/feedback';
import { listTableProps, toListQuery, useListState } from '../../directory/components/list-state';
import { useDirectoryTranslation } from '../../directory/use-directory-translation';
import { useCanChangeRoles } from './access';
import { useApplicationRolesQuery, useDeleteAppRoleMutation, type AppRole } from './app-roles-api';
import { applicationCrumbs, rolePath } from './crumbs';
import { NewRoleModal } from './NewRoleModal';
import { useApplicationRolesTranslation, type ApplicationRolesT } from './use-application-roles-translation';
import './app-roles.css';

/** Asks before deleting a role, saying how many hold it (they lose it), then deletes it. */
function useDeleteRole(applicationId: string, feedback: Feedback) {
  const { t } = useApplicationRolesTranslation();
  const { t: common } = useDirectoryTranslation();
  const [remove] = useDeleteAppRoleMutation();
  return async (role: AppRole) => {
    const confirmed = await feedback.confirm({
      title: t('roles.deleteConfirm', { name: role.name }),
      content: role.holders > 0 ? t('roles.deleteHeld', { count: role.holders }) : t('roles.deleteUnheld'),
      okText: common('common.delete'),
      danger: true,
    });
    if (!confirmed) return;
    const result = await remove({ appId: applicationId, roleId: role.id });
    if (result.error) feedback.error(errorMessage(result.error, common));
    else feedback.success(t('roles.deleted', { name: role.name }));
  };
}

function roleColumns(t: ApplicationRolesT, applicationId: string): ColumnsType<AppRole> {
  const check = (on: boolean, label: string) => (on ? <CheckOutlined aria-label={label} /> : null);
  return [
    identifying({
      key: 'name',
      title: t('roles.name'),
      sorter: true,
      render: (_, role) => (
        <span className="app-roles-name">
          <Link
            to={rolePath(applicationId, role.id)}
            aria-label={t('roles.open', { name: role.name })}
            state={breadcrumbState([...applicationCrumbs(t, applicationId, role.applicationName), { title: role.name }])}
          >
            <BreakableText text={role.name} />
          </Link>
          {role.system ? (
            <Tooltip title={t('roles.systemHelp')}>
              <Tag>{t('roles.system')}</Tag>
            </Tooltip>
          ) : null}
        </span>
      ),
    }),
    { key: 'description', title: t('roles.description'), sorter: true, render: (_, role) => <ClampedText text={role.description} /> },
    { key: 'byHierarchy', title: t('roles.byHierarchy'), width: 130, align: 'center', render: (_, role) => check(role.byHierarchy, t('roles.byHierarchy')) },
    { key: 'holders', dataIndex: 'holders', title: t('roles.holders'), width: 110, align: 'right' },
    { key: 'scopesCount', dataIndex: 'scopesCount', title: t('roles.scopes'), width: 100, align: 'right' },
  ];
}

/** An application's Roles tab: its roles (by name), New role and delete for administrators, links to each role. */
export function ApplicationRolesTab({ applicationId }: { applicationId: string }) {
  const { t } = useApplicationRolesTranslation();
  const { t: common } = useDirectoryTranslation();
  const canChange = useCanChangeRoles();
  const feedback = useFeedback();
  const list = useListState(undefined, { sort: { field: 'name', direction: 'asc' } });
  const roles = useApplicationRolesQuery({ appId: applicationId, query: toListQuery(list[0]) });
  const [creating, setCreating] = useState(false);
  const deleteRole = useDeleteRole(applicationId, feedback);

  const columns = roleColumns(t, applicationId);
  if (canChange) {
    columns.push({
      key: 'actions',
      title: common('common.actions'),
      width: 88,
      render: (_, role) => (
        <Tooltip title={role.system ? t('roles.systemHelp') : undefined}>
          <Button type="text" danger icon={<DeleteOutlined />} disabled={role.system} aria-label={t('roles.delete', { name: role.name })} onClick={() => void deleteRole(role)} />
        </Tooltip>
      ),
    });
  }

  return (
    <>
      <DataTable<AppRole>
        label={t('roles.title')}
        rowKey="id"
        columns={columns}
        {...listTableProps(list, roles)}
        toolbar={
          canChange ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              {t('roles.newRole')}
            </Button>
          ) : null
        }
      />
      {creating ? (
        <NewRoleModal
          applicationId={applicationId}
          onClose={() => setCreating(false)}
          onCreated={(role) => {
            setCreating(false);
            feedback.success(t('roles.created', { name: role.name }));
          }}
        />
      ) : null}
      {feedback.holder}
    </>
  );
}
