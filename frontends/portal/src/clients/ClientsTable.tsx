import EditOutlined from '@ant-design/icons/EditOutlined';
import LockOutlined from '@ant-design/icons/LockOutlined';
import MailOutlined from '@ant-design/icons/MailOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { BreakableText, ReadableTable, identifying, useColumnChoice, useFormatDateTime } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Select from 'antd/es/select';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../api/errors';
import { useTimedMessages } from '../account/use-timed-messages';
import { useClientUsersQuery, useInviteClientUserMutation, type ClientUser } from './clients-api';
import type { TenantOption } from './TenantSelect';
import { OPERATION_ERROR_MS, UserWizard } from './UserWizard';
import { BulkUploadMenu } from './bulk/BulkUploadMenu';

/** A draft is not submitted yet, a waiting user waits for an approval, an applied one has their access. */
const USER_STATUS_COLORS: Record<ClientUser['status'], string | undefined> = { Draft: undefined, Waiting: 'orange', Applied: 'green' };

/** The departments shown before the +N counter (spec 9). */
export const TEAMS_SHOWN = 10;
const PAGE_SIZE = 10;

/** Where the user's choice of the table's columns is kept. */
export const CLIENTS_COLUMNS_KEY = 'IDENTITY-CLIENTS-COLUMNS';

export interface ClientsTableProps {
  tenant: TenantOption | undefined;
  canAutoApprove: boolean;
  onSaved: (text: string) => void;
}

/** The first ten departments as tags, then +N. */
export function TeamTags({ teams }: { teams: readonly string[] }) {
  const rest = teams.length - TEAMS_SHOWN;
  return (
    <>
      {teams.slice(0, TEAMS_SHOWN).map((team) => (
        <Tag key={team}>{team}</Tag>
      ))}
      {rest > 0 ? <Tag>+{rest}</Tag> : null}
    </>
  );
}

/** My Clients' Clients view: the tenant's users, filtered by type, with the wizard to create or edit one. */
export function ClientsTable({ tenant, canAutoApprove, onSaved }: ClientsTableProps) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const formatDateTime = useFormatDateTime();
  const [userType, setUserType] = useState<1 | 2>();
  const [page, setPage] = useState(1);
  const [wizard, setWizard] = useState<{ user?: ClientUser }>();
  const [errors, showErrors] = useTimedMessages(OPERATION_ERROR_MS);
  const users = useClientUsersQuery({ tenantId: tenant?.id ?? '', userType, skip: (page - 1) * PAGE_SIZE, take: PAGE_SIZE }, { skip: !tenant });
  const [invite] = useInviteClientUserMutation();

  const sendInvite = async (user: ClientUser) => {
    if (!tenant) return;
    const result = await invite({ tenantId: tenant.id, id: user.id });
    if (result.error) showErrors([`${t('clients.inviteFailed')} ${failureMessage(result.error, common)}`]);
    else onSaved(t('clients.inviteSent'));
  };

  const columns: ColumnsType<ClientUser> = [
    identifying({ key: 'fullName', title: t('clients.columns.name'), dataIndex: 'fullName' }),
    identifying({
      key: 'userName',
      title: t('clients.columns.userName'),
      render: (_, user) =>
        user.locked || user.draft ? (
          <span className="clients-user--locked" title={user.draft ? t('clients.pendingApproval') : t('clients.locked')}>
            <LockOutlined aria-label={user.draft ? t('clients.pendingApproval') : t('clients.locked')} />{' '}
            <s>
              <BreakableText text={user.userName} />
            </s>
          </span>
        ) : (
          <BreakableText text={user.userName} />
        ),
    }),
    identifying({ key: 'email', title: t('clients.columns.email'), dataIndex: 'email' }),
    { key: 'jobTitle', title: t('clients.columns.jobTitle'), dataIndex: 'jobTitle' },
    { key: 'teams', title: t('clients.columns.teams'), render: (_, user) => <TeamTags teams={user.teams} /> },
    { key: 'modifiedOn', title: t('clients.columns.modifiedOn'), render: (_, user) => formatDateTime(user.modifiedOn) },
    {
      key: 'invite',
      title: t('clients.columns.invite'),
      render: (_, user) => (
        <Button type="text" icon={<MailOutlined aria-hidden />} aria-label={t('clients.invite', { name: user.fullName })} onClick={() => void sendInvite(user)} />
      ),
    },
    {
      key: 'status',
      fixed: 'right',
      title: t('clients.columns.status'),
      render: (_, user) => <Tag color={USER_STATUS_COLORS[user.status]}>{t(`clients.userStatus.${user.status}`)}</Tag>,
    },
    {
      key: 'edit',
      fixed: 'right',
      title: t('clients.columns.edit'),
      render: (_, user) => <Button type="text" icon={<EditOutlined aria-hidden />} aria-label={t('clients.edit', { name: user.fullName })} onClick={() => setWizard({ user })} />,
    },
  ];
  const choice = useColumnChoice(CLIENTS_COLUMNS_KEY, columns);

  return (
    <div className="clients-view">
      <div className="clients-view__toolbar">
        <Select<1 | 2>
          allowClear
          aria-label={t('clients.userType')}
          placeholder={t('clients.userType')}
          value={userType}
          onChange={(value) => {
            setUserType(value);
            setPage(1);
          }}
          options={[
            { value: 1, label: t('clients.internal') },
            { value: 2, label: t('clients.external') },
          ]}
        />
        <BulkUploadMenu tenantId={tenant?.id} />
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setWizard({})}>
          {t('clients.new')}
        </Button>
        {choice.chooser}
      </div>
      {errors.map((error) => (
        <Alert key={error} type="error" showIcon title={error} />
      ))}
      {users.error ? <Alert type="error" showIcon title={failureMessage(users.error, common)} /> : null}
      <ReadableTable<ClientUser>
        rowKey="id"
        columns={choice.columns}
        dataSource={tenant ? (users.data?.items ?? []) : []}
        loading={users.isFetching}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: users.data?.count ?? 0, onChange: setPage, showSizeChanger: false }}
        locale={tenant ? undefined : { emptyText: t('clients.selectTenant') }}
      />
      {wizard ? <UserWizard tenant={tenant} user={wizard.user} canAutoApprove={canAutoApprove} onClose={() => setWizard(undefined)} onSaved={onSaved} /> : null}
    </div>
  );
}
