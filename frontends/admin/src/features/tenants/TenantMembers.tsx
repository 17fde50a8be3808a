import FileExcelOutlined from '@ant-design/icons/FileExcelOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import StopOutlined from '@ant-design/icons/StopOutlined';
import TeamOutlined from '@ant-design/icons/TeamOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import type { HierarchyType, IdentityType } from '@gatehouse/contracts';
import { BreakableText, RoleTag, identifying } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Switch from 'antd/es/switch';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { useState } from 'react';
import { useCurrentUser } from '../../auth/use-current-user';
import { useJobQueuedNotice } from '../../shell/use-job-queued-notice';
import { mayCall } from '../../auth/console-access';
import { DataTable } from '../directory/components/DataTable';
import { errorMessage } from '../directory/components/errors';
import type { Feedback } from '../directory/components/feedback';
import { listTableProps, toListQuery, useListState, type ListState } from '../directory/components/list-state';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { AddTenantMemberDialog } from './AddTenantMemberDialog';
import { RevokeAccessDialog } from './RevokeAccessDialog';
import { useExportTenantMembersMutation, useTenantMembersQuery, type TenantDetail, type TenantMember } from './tenants-api';
import { useTenantsTranslation } from './use-tenants-translation';

const HIERARCHY_COLORS: Record<HierarchyType, string> = { Own: 'green', ByHierarchy: 'orange', Both: 'blue' };

/** A user's or a group's icon, named for assistive technologies and on hover. */
function IdentityIcon({ type, label }: { type: IdentityType; label: string }) {
  const Icon = type === 'Group' ? TeamOutlined : UserOutlined;
  return (
    <Tooltip title={label}>
      <Icon role="img" aria-label={label} />
    </Tooltip>
  );
}

/** Whether the list leaves out the users whose roles here come only from the Global tenant (the default). */
const excludesGlobal = (state: ListState) => state.filters.excludeUserGlobal !== 'false';

/** The members list's API parameters: its state, with every member's roles. */
export function membersQueryOf(state: ListState) {
  return { ...toListQuery(state), includeRoles: true, excludeUserGlobal: excludesGlobal(state) };
}

export interface TenantMembersProps {
  tenant: Pick<TenantDetail, 'id' | 'title'>;
  feedback: Feedback;
}

/**
 * The Members tab (Administrators): the users and groups with roles in the tenant, their own and
 * those they hold by hierarchy, with the Include Users Global switch, the export, Add member and
 * each member's Revoke access.
 */
export function TenantMembers({ tenant, feedback }: TenantMembersProps) {
  const { t } = useTenantsTranslation();
  const { t: td } = useDirectoryTranslation();
  const user = useCurrentUser();
  const canAdd = mayCall(user, 'tenants.addMember');
  const canRevoke = mayCall(user, 'tenants.revokeAccess');
  const list = useListState();
  const [state, setState] = list;
  const members = useTenantMembersQuery({ id: tenant.id, query: membersQueryOf(state) });
  const [adding, setAdding] = useState(false);
  const [revoking, setRevoking] = useState<TenantMember>();

  const [startExport, exporting] = useExportTenantMembersMutation();
  const queued = useJobQueuedNotice();

  // Written in the background: the file comes with a notification.
  const exportMembers = async () => {
    const result = await startExport({ id: tenant.id, excludeUserGlobal: excludesGlobal(state) });
    if (result.error) feedback.error(errorMessage(result.error, td));
    else queued.show(t('exportQueued.title'), t('exportQueued.text'));
  };

  const columns: ColumnsType<TenantMember> = [
    identifying({
      key: 'displayName',
      title: t('members.name'),
      sorter: true,
      render: (_, member) => (
        <span className="tenants-member">
          <span className="tenants-member__name">
            <IdentityIcon type={member.identityType} label={t(`identityType.${member.identityType}`)} /> <BreakableText text={member.displayName} />
          </span>
          {member.email ? (
            <span className="tenants-member__email">
              <BreakableText text={member.email} />
            </span>
          ) : null}
        </span>
      ),
    }),
    {
      key: 'hierarchyType',
      title: t('members.access'),
      sorter: true,
      width: 150,
      render: (_, member) => (
        <span className="tenants-roles">
          <Tag color={HIERARCHY_COLORS[member.hierarchyType]}>{t(`hierarchyType.${member.hierarchyType}`)}</Tag>
          {member.isInheritable ? <Tag variant="outlined">{t('members.inheritable')}</Tag> : null}
        </span>
      ),
    },
    {
      key: 'roles',
      title: t('members.roles'),
      render: (_, member) => (
        <span className="tenants-roles">
          {member.roles.map((role) => (
            <RoleTag key={`${role.applicationId}-${role.roleId}`} application={role.applicationDisplayName} role={role.roleName} origins={role.origins} />
          ))}
        </span>
      ),
    },
  ];
  if (canRevoke) {
    columns.push({
      key: 'actions',
      title: td('common.actions'),
      width: 96,
      fixed: 'right',
      render: (_, member) =>
        member.roles.length ? (
          <Tooltip title={t('members.revoke')}>
            <Button
              type="text"
              danger
              icon={<StopOutlined />}
              aria-label={t('members.revokeOf', { name: member.displayName })}
              onClick={() => setRevoking(member)}
            />
          </Tooltip>
        ) : null,
    });
  }

  return (
    <>
      <DataTable<TenantMember>
        label={t('detail.members')}
        rowKey="identityId"
        columns={columns}
        {...listTableProps(list, members)}
        filters={
          user.isAdministrator ? (
            <Tooltip title={t('members.includeGlobalHelp')}>
              <label className="tenants-flag">
                <Switch
                  checked={!excludesGlobal(state)}
                  onChange={(include) => setState({ filters: { ...state.filters, excludeUserGlobal: String(!include) } })}
                />{' '}
                {t('members.includeGlobal')}
              </label>
            </Tooltip>
          ) : null
        }
        toolbar={
          <>
            <Button icon={<FileExcelOutlined />} loading={exporting.isLoading} onClick={() => void exportMembers()}>
              {t('members.export')}
            </Button>
            {canAdd ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
                {t('members.addMember')}
              </Button>
            ) : null}
          </>
        }
      />
      {adding ? (
        <AddTenantMemberDialog
          tenantId={tenant.id}
          withGlobal={user.isAdministrator}
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            feedback.success(t('addMember.added'));
          }}
        />
      ) : null}
      {revoking ? (
        <RevokeAccessDialog
          tenantId={tenant.id}
          member={revoking}
          isAdministrator={user.isAdministrator}
          feedback={feedback}
          onClose={() => setRevoking(undefined)}
          onRevoked={() => {
            setRevoking(undefined);
            feedback.success(t('revoke.revoked'));
          }}
        />
      ) : null}
      {queued.holder}
    </>
  );
}
