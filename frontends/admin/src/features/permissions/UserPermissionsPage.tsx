import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Skeleton from 'antd/es/skeleton';
import { RoleTag } from '@gatehouse/frontend-shared';
import { useState } from 'react';
import { PageHeader } from '../../shell/PageHeader';
import { useBackTo } from '../directory/components/crumbs';
import { ErrorAlert } from '../directory/components/ErrorAlert';
import { UserSelect } from '../directory/components/selects';
import { permissionsCrumb, permissionsPath } from './crumbs';
import { useUserPermissionsQuery, type UserPermissions } from './permissions-api';
import { usePermissionsTranslation } from './use-permissions-translation';
import './permissions.css';

/** /admin/permissions/users/check: pick a user, see their groups and, per application, their roles. */
export default function UserPermissionsPage() {
  return <UserPermissionsCheck />;
}

function UserPermissionsCheck() {
  const { t } = usePermissionsTranslation();
  const backTo = useBackTo(permissionsPath());
  const [userId, setUserId] = useState<string>();

  return (
    <>
      <PageHeader title={t('check.title')} breadcrumbs={[permissionsCrumb(t), { title: t('check.title') }]} back={backTo} />
      <Card>
        <div className="permissions-check__picker">
          <label htmlFor="permissions-check-user" className="permissions-check__label">
            {t('check.user')}
          </label>
          <UserSelect
            id="permissions-check-user"
            className="permissions-check__select"
            placeholder={t('check.userPlaceholder')}
            allowClear
            value={userId}
            onChange={(value) => setUserId(value || undefined)}
          />
        </div>
        {userId ? <Results userId={userId} /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('check.selectUser')} />}
      </Card>
    </>
  );
}

function Results({ userId }: { userId: string }) {
  const { data, error, isFetching } = useUserPermissionsQuery(userId);
  if (error) return <ErrorAlert error={error} />;
  if (!data || isFetching) return <Skeleton active />;
  return <PermissionsOf permissions={data} />;
}

function PermissionsOf({ permissions }: { permissions: UserPermissions }) {
  const { t } = usePermissionsTranslation();
  return (
    <div className="permissions-check__results">
      <Card type="inner" title={t('check.groups')}>
        {permissions.groups.length ? (
          <ul className="permissions-check__groups" aria-label={t('check.groups')}>
            {permissions.groups.map((group) => (
              <li key={group}>{group}</li>
            ))}
          </ul>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('check.noGroups')} />
        )}
      </Card>
      <Card type="inner" title={t('check.applications')}>
        {permissions.applicationPermissions.length ? (
          <ul className="permissions-check__applications" aria-label={t('check.applications')}>
            {permissions.applicationPermissions.map((application) => (
              <li key={application.applicationName}>
                <span className="permissions-check__application">{application.applicationDisplayName}</span>
                <span>
                  {application.grants.map((grant) => (
                    <RoleTag key={`${grant.roleId} ${grant.tenantId}`} application={application.applicationDisplayName} role={grant.roleName} tenant={grant.tenantName} origins={grant.origins} />
                  ))}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('check.noApplications')} />
        )}
      </Card>
    </div>
  );
}
