import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { APPLICATION_STATUSES, type ApplicationStatus } from '@gatehouse/contracts';
import { BreakableText, identifying, useFormatDateTime } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Select from 'antd/es/select';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { breadcrumbState } from '../../shell/PageHeader';
import { mayCall } from '../../auth/console-access';
import { listTableProps, toListQuery, useListState, type ListStateHook } from '../directory/components/list-state';
import { ListPage } from '../directory/components/ListPage';
import { useCurrentUser } from '../../auth/use-current-user';
import { ApplicationStatusSelect, ApplicationStatusTag } from './ApplicationStatusSelect';
import { useApplicationsQuery, type ApplicationSummary, type SavedApplication } from './applications-api';
import { applicationPath, applicationsCrumb } from './crumbs';
import { NewApplicationModal } from './NewApplicationModal';
import { SecretDialog } from './SecretDialog';
import { useApplicationActions } from './use-application-actions';
import { useApplicationsTranslation } from './use-applications-translation';
import './applications.css';

/** Where the list's query is remembered (the pattern of the other lists' keys). */
export const APPLICATIONS_LIST_KEY = 'IDENTITY-APPLICATIONS-LIST';

/** /admin/applications: every application with its status dropdown, creation (Administrator) and deletion (owners). */
export default function ApplicationsPage() {
  const { t } = useApplicationsTranslation();
  const formatDateTime = useFormatDateTime();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const canManage = mayCall(user, 'applications.update');
  const list = useListState(APPLICATIONS_LIST_KEY, { sort: { field: 'displayName', direction: 'asc' } });
  const applications = useApplicationsQuery(toListQuery(list[0]));
  const actions = useApplicationActions();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<SavedApplication>();

  const open = (application: Pick<SavedApplication, 'id'>) => void navigate(applicationPath(application.id));
  const onCreated = (application: SavedApplication) => {
    setCreating(false);
    actions.feedback.success(t('list.created', { name: application.displayName }));
    if (application.sharedSecret) setCreated(application);
    else open(application);
  };

  const columns: ColumnsType<ApplicationSummary> = [
    identifying({
      key: 'displayName',
      title: t('list.displayName'),
      sorter: true,
      render: (_, application) => (
        <Link to={applicationPath(application.id)} state={breadcrumbState([applicationsCrumb(t), { title: application.displayName }])}>
          <BreakableText text={application.displayName} />
        </Link>
      ),
    }),
    { key: 'name', dataIndex: 'name', title: t('list.name'), sorter: true, render: (name: string) => <code>{name}</code> },
    {
      key: 'type',
      title: t('list.type'),
      sorter: true,
      render: (_, application) => (
        <>
          {t(`type.${application.type}`)}
          {application.prerelease ? <Tag className="applications-tag">{t('list.prerelease')}</Tag> : null}
          {application.enabled ? null : (
            <Tag className="applications-tag" color="red">
              {t('list.disabled')}
            </Tag>
          )}
        </>
      ),
    },
    {
      key: 'status',
      title: t('list.status'),
      sorter: true,
      render: (_, application) =>
        canManage ? (
          <ApplicationStatusSelect
            status={application.status}
            label={t('list.statusOf', { name: application.displayName })}
            loading={actions.changingStatus === application.id}
            onChange={(status) => void actions.setStatus(application, status)}
          />
        ) : (
          <ApplicationStatusTag status={application.status} />
        ),
    },
    { key: 'modifiedOn', title: t('list.modifiedOn'), sorter: true, render: (_, application) => formatDateTime(application.modifiedOn) },
  ];
  if (canManage) {
    columns.push({
      key: 'actions',
      title: t('common.actions'),
      width: 88,
      render: (_, application) =>
        // Only its owners may delete an application, never one of the product's own.
        application.userIsOwner && !application.system ? (
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('list.deleteApplication', { name: application.displayName })}
            onClick={() => void actions.remove(application)}
          />
        ) : null,
    });
  }

  return (
    <>
      <ListPage<ApplicationSummary>
        title={t('list.title')}
        rowKey="id"
        columns={columns}
        {...listTableProps(list, applications)}
        filters={<StatusFilter list={list} />}
        toolbar={
          canManage ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              {t('list.newApplication')}
            </Button>
          ) : null
        }
      />
      {creating ? <NewApplicationModal onClose={() => setCreating(false)} onCreated={onCreated} /> : null}
      {created?.sharedSecret ? (
        <SecretDialog
          displayName={created.displayName}
          clientId={created.name}
          secret={created.sharedSecret}
          onClose={() => {
            setCreated(undefined);
            open(created);
          }}
        />
      ) : null}
      {actions.feedback.holder}
    </>
  );
}

/** The list's filter by status (empty: every status). */
function StatusFilter({ list: [state, setState] }: { list: ListStateHook }) {
  const { t } = useApplicationsTranslation();
  return (
    <Select<ApplicationStatus>
      className="directory-filter"
      aria-label={t('list.status')}
      placeholder={t('list.allStatuses')}
      allowClear
      value={(state.filters.status || undefined) as ApplicationStatus | undefined}
      onChange={(status) => setState({ filters: { ...state.filters, status: status ?? '' } })}
      options={APPLICATION_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }))}
    />
  );
}
