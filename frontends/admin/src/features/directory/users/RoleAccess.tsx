import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { RoleTag } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Spin from 'antd/es/spin';
import Switch from 'antd/es/switch';
import Tooltip from 'antd/es/tooltip';
import { useState } from 'react';
import { useRevokeUserRolesMutation, useUserRolesQuery, type AccessRole, type ApplicationAccess } from '../api/users-api';
import type { DirectoryAccess } from '../components/access';
import { ErrorAlert } from '../components/ErrorAlert';
import type { Feedback } from '../components/feedback';
import { shownInUserLists } from '../components/user-list-visibility';
import { useDirectoryTranslation } from '../use-directory-translation';
import { RoleSelectionDialog } from './RoleSelectionDialog';
import { GLOBAL_ROLE_COLOR } from './UserTenantsTab';

export interface RoleAccessProps {
  userId: string;
  access: DirectoryAccess;
  feedback: Feedback;
}

/**
 * Role access: one switch per application. On asks which roles to grant; off revokes every own
 * role after a confirmation, which only an Administrator may do when the access comes from the
 * tenant hierarchy.
 */
export function RoleAccess({ userId, access, feedback }: RoleAccessProps) {
  const { t } = useDirectoryTranslation();
  const { data, isLoading, error } = useUserRolesQuery(userId);
  const [revoke, { isLoading: revoking }] = useRevokeUserRolesMutation();
  const [choosing, setChoosing] = useState<ApplicationAccess | null>(null);
  const [actionError, setActionError] = useState<unknown>();
  const applications = data ? shownInUserLists(data.items) : undefined;

  const turnOff = async (application: ApplicationAccess) => {
    if (application.byHierarchy && !access.isAdministrator) {
      feedback.warn(t('roleAccess.onlyAdmin'));
      return;
    }
    // Group-held access belongs to the group: say which one to change instead of a revocation that cannot happen.
    if (application.throughGroups.length) {
      const groups = application.throughGroups.map((name) => `"${name}"`).join(', ');
      feedback.warn(t('roleAccess.throughGroupTitle'), t('roleAccess.throughGroup', { application: application.displayName, groups }));
      return;
    }
    const confirmed = await feedback.confirm({
      title: t('roleAccess.revokeConfirm'),
      content: t('roleAccess.revokeWhat', { application: application.displayName }),
      okText: t('common.ok'),
      danger: true,
    });
    if (!confirmed) return;
    const result = await revoke({ userId, applicationId: application.applicationId });
    setActionError(result.error);
    if (!result.error) feedback.success(t('roleAccess.revoked', { application: application.displayName }));
  };

  const removeRole = async (application: ApplicationAccess, role: AccessRole) => {
    const confirmed = await feedback.confirm({
      title: t('roleAccess.removeRoleConfirm', { role: role.roleName, application: application.displayName }),
      okText: t('common.remove'),
      danger: true,
    });
    if (!confirmed) return;
    const result = await revoke({ userId, applicationId: application.applicationId, roleId: role.roleId, tenantId: role.tenantId });
    setActionError(result.error);
    if (!result.error) feedback.success(t('roleAccess.roleRemoved', { role: role.roleName }));
  };

  return (
    <Card title={t('roleAccess.title')} className="directory-role-access">
      <ErrorAlert error={error ?? actionError} explains403 className="directory-form-error" />
      {isLoading ? <Spin /> : null}
      {applications && !applications.length ? <Empty description={t('roleAccess.noApplications')} /> : null}
      <ul className="directory-role-access__list">
        {(applications ?? []).map((application) => (
          <li key={application.applicationId} className="directory-role-access__item">
            <div className="directory-role-access__head">
              <Switch
                checked={application.hasAccess}
                disabled={!access.canManageRoles}
                loading={revoking}
                aria-label={t('roleAccess.access', { application: application.displayName })}
                onChange={(on) => (on ? setChoosing(application) : void turnOff(application))}
              />
              <span className="directory-role-access__name">{application.displayName}</span>
              {application.hasAccess && access.canManageRoles ? (
                <Button
                  size="small"
                  type="link"
                  icon={<PlusOutlined />}
                  aria-label={t('roleAccess.addRolesTo', { application: application.displayName })}
                  onClick={() => setChoosing(application)}
                >
                  {t('roleAccess.addRoles')}
                </Button>
              ) : null}
            </div>
            <div className="directory-role-access__roles">
              {application.roles.map((role) => (
                <RoleBadge
                  key={`${role.roleId}-${role.tenantId}`}
                  application={application.displayName}
                  role={role}
                  closable={access.canManageRoles && role.removable}
                  onRemove={() => void removeRole(application, role)}
                />
              ))}
            </div>
          </li>
        ))}
      </ul>
      {choosing ? (
        <RoleSelectionDialog
          userId={userId}
          application={choosing}
          access={access}
          onClose={() => setChoosing(null)}
          onGranted={() => {
            setChoosing(null);
            feedback.success(t('roleAccess.granted', { application: choosing.displayName }));
          }}
        />
      ) : null}
    </Card>
  );
}

function RoleBadge({ application, role, closable, onRemove }: { application: string; role: AccessRole; closable: boolean; onRemove: () => void }) {
  const { t } = useDirectoryTranslation();
  const tag = (
    <span className="directory-role-badge" data-removable={role.removable}>
      <RoleTag
        application={application}
        role={role.roleName}
        tenant={role.isGlobal ? t('common.global') : role.tenantName}
        origins={role.origins}
        color={role.isGlobal ? GLOBAL_ROLE_COLOR : undefined}
        closable={closable ? { 'aria-label': t('roleAccess.removeRole', { role: role.roleName }) } : false}
        onClose={(event) => {
          // The badge goes when the server has removed the role, not before.
          event.preventDefault();
          onRemove();
        }}
      />
    </span>
  );
  return role.removable ? tag : <Tooltip title={t('roleAccess.inherited')}>{tag}</Tooltip>;
}
