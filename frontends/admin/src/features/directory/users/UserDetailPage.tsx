import KeyOutlined from '@ant-design/icons/KeyOutlined';
import LockOutlined from '@ant-design/icons/LockOutlined';
import MailOutlined from '@ant-design/icons/MailOutlined';
import UnlockOutlined from '@ant-design/icons/UnlockOutlined';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Skeleton from 'antd/es/skeleton';
import Tabs from 'antd/es/tabs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { mayCall } from '../../../auth/console-access';
import { useCurrentUser } from '../../../auth/use-current-user';
import { PageHeader, type Crumb } from '../../../shell/PageHeader';
import { useApplicationQuery } from '../../applications/applications-api';
import { useUserQuery } from '../api/users-api';
import { useDirectoryAccess } from '../components/access';
import { useBackTo, usersCrumb } from '../components/crumbs';
import { ErrorAlert } from '../components/ErrorAlert';
import { useFeedback } from '../components/feedback';
import { useDirectoryTranslation } from '../use-directory-translation';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { RoleAccess } from './RoleAccess';
import { useUserActions } from './user-actions';
import { UserFactorsCard } from './UserFactorsCard';
import { UserGeneralCard } from './UserGeneralCard';
import { UserGroupsTab } from './UserGroupsTab';
import { UserTenantsTab } from './UserTenantsTab';
import { UserStatus } from './UserStatus';

/**
 * Where a user's page sits, from its route alone: under Users (`/users/{id}`), or under the Users
 * tab of an application (`/applications/{applicationId}/users/{id}`, named once it is fetched).
 */
function useUserPlace(applicationId: string | undefined): { crumbs: Crumb[]; home: string } {
  const { t } = useDirectoryTranslation();
  const { t: admin } = useTranslation('admin');
  const { data: application } = useApplicationQuery(applicationId ?? '', { skip: !applicationId });
  if (!applicationId) return { crumbs: [usersCrumb(t)], home: '/users' };
  const tab = `/applications/${encodeURIComponent(applicationId)}/users`;
  return { crumbs: [{ title: admin('menu.applications'), to: '/applications' }, { title: application?.displayName ?? applicationId, to: tab }], home: tab };
}

/** /admin/users/{id} and /admin/applications/{applicationId}/users/{id}: a user's properties, sign-in factors, groups, tenants and application roles. */
export function UserDetailPage() {
  const { id = '', applicationId } = useParams();
  const { t } = useDirectoryTranslation();
  const access = useDirectoryAccess();
  const currentUser = useCurrentUser();
  const feedback = useFeedback();
  const actions = useUserActions(feedback);
  const { data: user, error, isLoading } = useUserQuery(id);
  const [changingPassword, setChangingPassword] = useState(false);
  const place = useUserPlace(applicationId);
  const backTo = useBackTo(place.home);

  if (!user) {
    return (
      <>
        <PageHeader title={t('users.title')} breadcrumbs={place.crumbs} back={backTo} />
        {isLoading ? <Skeleton active /> : <ErrorAlert error={error} />}
      </>
    );
  }

  const readOnly = !access.canWrite;
  const actionButtons = readOnly ? null : (
    <>
      <Button icon={<KeyOutlined />} onClick={() => setChangingPassword(true)}>
        {t('userDetail.changePassword')}
      </Button>
      {user.draft ? null : (
        <Button icon={<MailOutlined />} onClick={() => void actions.sendInvitation(user)}>
          {t('users.invite')}
        </Button>
      )}
      {user.locked ? (
        <Button icon={<UnlockOutlined />} onClick={() => void actions.unlock(user)}>
          {t('users.unlock')}
        </Button>
      ) : (
        <Button danger icon={<LockOutlined />} onClick={() => void actions.lock(user)}>
          {t('users.lock')}
        </Button>
      )}
    </>
  );

  return (
    <>
      <PageHeader
        title={user.userName}
        breadcrumbs={[...place.crumbs, { title: user.userName }]}
        back={backTo}
        extra={
          <>
            <UserStatus user={user} />
            {actionButtons}
          </>
        }
      />
      <div className="directory-detail">
        <div className="directory-detail__main">
          <UserGeneralCard key={user.id} user={user} readOnly={readOnly} feedback={feedback} />
          {mayCall(currentUser, 'users.factors') ? <UserFactorsCard user={user} feedback={feedback} /> : null}
        </div>
        <div className="directory-detail__side">
          <Card>
            <Tabs
              items={[
                {
                  key: 'groups',
                  label: t('userDetail.memberOf'),
                  children: <UserGroupsTab user={user} readOnly={readOnly} feedback={feedback} />,
                },
                { key: 'tenants', label: t('userDetail.tenants'), children: <UserTenantsTab userId={user.id} /> },
              ]}
            />
          </Card>
          <RoleAccess userId={user.id} access={access} feedback={feedback} />
        </div>
      </div>
      {changingPassword ? (
        <ChangePasswordDialog
          user={user}
          onClose={() => setChangingPassword(false)}
          onChanged={(message) => {
            setChangingPassword(false);
            feedback.success(message || t('common.saved'));
          }}
        />
      ) : null}
      {feedback.holder}
    </>
  );
}
