import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { OWN_ROLE_ORIGIN, type RoleOrigin } from '@gatehouse/contracts';
import { RoleTag } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { useState } from 'react';
import { useGroupRolesQuery, useRemoveGroupRolesMutation, type GroupTenantRoles as TenantRoles } from '../api/groups-api';
import { ErrorAlert } from '../components/ErrorAlert';
import type { Feedback } from '../components/feedback';
import { useDirectoryTranslation } from '../use-directory-translation';
import { AddTenantRolesDialog } from './AddTenantRolesDialog';

export interface GroupTenantRolesProps {
  groupId: string;
  /** May add and remove tenant roles. */
  editable: boolean;
  /** Offers the Global option (Administrators only). */
  withGlobal: boolean;
  feedback: Feedback;
}

const OWN_GRANT: readonly RoleOrigin[] = [OWN_ROLE_ORIGIN];

/** The Tenants card of a group: the roles it grants in each tenant (or globally). */
export function GroupTenantRoles({ groupId, editable, withGlobal, feedback }: GroupTenantRolesProps) {
  const { t } = useDirectoryTranslation();
  const { data, error } = useGroupRolesQuery(groupId);
  const [removeRoles] = useRemoveGroupRolesMutation();
  const [adding, setAdding] = useState(false);
  const [removeError, setRemoveError] = useState<unknown>();
  const nameOf = (entry: TenantRoles) => (entry.tenantId === null ? t('common.global') : entry.tenantName);

  const remove = async (entry: TenantRoles) => {
    const confirmed = await feedback.confirm({
      title: t('groupDetail.removeTenantConfirm', { tenant: nameOf(entry) }),
      okText: t('common.remove'),
      danger: true,
    });
    if (!confirmed) return;
    const result = await removeRoles({ groupId, tenantId: entry.tenantId });
    setRemoveError(result.error);
  };

  return (
    <Card
      title={t('groupDetail.tenants')}
      extra={
        editable ? (
          <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {t('groupDetail.addTenantRoles')}
          </Button>
        ) : null
      }
    >
      <ErrorAlert error={error ?? removeError} className="directory-form-error" />
      {data && !data.items.length ? <Empty description={t('groupDetail.noTenants')} /> : null}
      <ul className="directory-tenant-roles">
        {(data?.items ?? []).map((entry) => (
          <li key={entry.tenantId ?? 'global'}>
            <Tag
              color={entry.tenantId === null ? 'gold' : 'blue'}
              closable={editable ? { 'aria-label': t('groupDetail.removeTenant', { tenant: nameOf(entry) }) } : false}
              onClose={(event) => {
                // The tag goes when the server has removed the roles, not before.
                event.preventDefault();
                void remove(entry);
              }}
            >
              {nameOf(entry)}
            </Tag>
            {entry.isInheritable ? (
              <Tooltip title={t('groupDetail.inheritable')}>
                <Tag variant="outlined">{t('groupDetail.inheritableShort')}</Tag>
              </Tooltip>
            ) : null}
            {/* The group's own grants: held in its own name. */}
            {entry.roles.map((role) => (
              <RoleTag key={`${role.applicationId}-${role.roleId}`} application={role.applicationDisplayName} role={role.roleName} origins={OWN_GRANT} />
            ))}
          </li>
        ))}
      </ul>
      {adding ? (
        <AddTenantRolesDialog
          groupId={groupId}
          withGlobal={withGlobal}
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            feedback.success(t('groupDetail.tenantRolesAdded'));
          }}
        />
      ) : null}
    </Card>
  );
}
