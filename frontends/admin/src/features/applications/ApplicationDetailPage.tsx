import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import KeyOutlined from '@ant-design/icons/KeyOutlined';
import { IDENTITY_APPLICATION_ID } from '@gatehouse/contracts/domain';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import Skeleton from 'antd/es/skeleton';
import Tabs from 'antd/es/tabs';
import Tag from 'antd/es/tag';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useCurrentUser } from '../../auth/use-current-user';
import { PageHeader } from '../../shell/PageHeader';
import { mayCall } from '../../auth/console-access';
import { useBackTo } from '../directory/components/crumbs';
import { ErrorAlert } from '../directory/components/ErrorAlert';
import type { Feedback } from '../directory/components/feedback';
import { ApplicationForm } from './ApplicationForm';
import { ApplicationOwners } from './ApplicationOwners';
import { ApplicationStatusSelect, ApplicationStatusTag } from './ApplicationStatusSelect';
import { applicationIconUrl, useApplicationQuery, useUpdateApplicationMutation, type ApplicationDetail } from './applications-api';
import { applicationPath, applicationsCrumb } from './crumbs';
import { changesOf, dropBlankUris, formValuesOf, showApplicationErrors, type ApplicationFormValues } from './form-values';
import { SecretDialog } from './SecretDialog';
import { useApplicationActions } from './use-application-actions';
import { useApplicationsTranslation } from './use-applications-translation';
import './applications.css';

// The Roles, Users and SCIM provisioning tabs are pages of their own, loaded with the tab.
const ApplicationRolesTab = lazy(() => import('./roles/ApplicationRolesTab').then((module) => ({ default: module.ApplicationRolesTab })));
const ApplicationUsersTab = lazy(() => import('./users/ApplicationUsersTab').then((module) => ({ default: module.ApplicationUsersTab })));
// The SAML section of a SAML application, loaded with its page.
const SamlSettingsCard = lazy(() => import('./saml/SamlSettingsCard').then((module) => ({ default: module.SamlSettingsCard })));
const ApplicationScimTab = lazy(() => import('./scim/ApplicationScimTab').then((module) => ({ default: module.ApplicationScimTab })));

/** The tabs of the right card; `/applications/{id}/users` opens the Users tab (spec 2), `/scim` the SCIM provisioning tab. */
export const APPLICATION_TABS = ['roles', 'users', 'scim'] as const;
type Tab = (typeof APPLICATION_TABS)[number];

/**
 * Whether the application's page offers SCIM provisioning: to those the API lets issue SCIM tokens
 * (Administrator, God), for any application but the product's own (Identity, the console, the
 * portal), which the API refuses.
 */
function offersScim(user: { readonly roles: readonly string[] }, application: Pick<ApplicationDetail, 'id' | 'system'>): boolean {
  return mayCall(user, 'scimTokens.list') && !application.system && application.id !== IDENTITY_APPLICATION_ID;
}

/** A secret to show once, with what it belongs to. */
interface ShownSecret {
  displayName: string;
  clientId: string;
  secret: string;
}

/** /admin/applications/{applicationId} and /{tab}: General properties and owners on the left, Roles and Users on the right. */
export default function ApplicationDetailPage() {
  const { applicationId = '', tab } = useParams();
  const { t } = useApplicationsTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const user = useCurrentUser();
  const canManage = mayCall(user, 'applications.update');
  const actions = useApplicationActions();
  const backTo = useBackTo('/applications');
  const { data: application, error, isLoading } = useApplicationQuery(applicationId);
  const [secret, setSecret] = useState<ShownSecret>();

  if (!application) {
    return (
      <>
        <PageHeader title={t('list.title')} breadcrumbs={[applicationsCrumb(t)]} back={backTo} />
        {isLoading ? <Skeleton active /> : <ErrorAlert error={error} />}
      </>
    );
  }

  const scim = offersScim(user, application);
  // An unknown tab, or one the caller is not offered, opens the Roles tab.
  const activeTab: Tab = tab === 'users' ? 'users' : tab === 'scim' && scim ? 'scim' : 'roles';
  const showSecret = (value: string) => setSecret({ displayName: application.displayName, clientId: application.name, secret: value });
  const deletable = canManage && application.userIsOwner && !application.system;
  const extra = (
    <>
      {canManage ? (
        <ApplicationStatusSelect
          status={application.status}
          label={t('list.statusOf', { name: application.displayName })}
          loading={actions.changingStatus === application.id}
          onChange={(status) => void actions.setStatus(application, status)}
        />
      ) : (
        <ApplicationStatusTag status={application.status} />
      )}
      {canManage && application.type === 'confidential' && application.protocol !== 'saml' ? (
        <Button icon={<KeyOutlined />} onClick={() => void actions.regenerateSecret(application).then((value) => value && showSecret(value))}>
          {t('secret.regenerate')}
        </Button>
      ) : null}
      {deletable ? (
        <Button danger icon={<DeleteOutlined />} onClick={() => void actions.remove(application).then((done) => done && navigate('/applications'))}>
          {t('detail.delete')}
        </Button>
      ) : null}
    </>
  );

  return (
    <>
      <PageHeader title={application.displayName} breadcrumbs={[applicationsCrumb(t), { title: application.displayName }]} back={backTo} extra={extra} />
      {application.system ? <Alert type="info" showIcon className="directory-form-error" title={t('detail.system')} /> : null}
      <div className="directory-detail">
        <div className="directory-detail__main">
          <GeneralCard key={application.id} application={application} editable={canManage} feedback={actions.feedback} onSecret={showSecret} />
          {application.protocol === 'saml' ? (
            <Suspense fallback={<Skeleton active />}>
              <SamlSettingsCard applicationId={application.id} editable={canManage} feedback={actions.feedback} />
            </Suspense>
          ) : null}
          <ApplicationOwners application={application} editable={canManage} feedback={actions.feedback} />
        </div>
        <div className="directory-detail__side">
          <Card>
            <Tabs
              activeKey={activeTab}
              onChange={(key) => void navigate(applicationPath(application.id, key), { replace: true, state: location.state })}
              items={[
                { key: 'roles', label: t('detail.roles'), children: <TabContent>{activeTab === 'roles' ? <ApplicationRolesTab applicationId={application.id} /> : null}</TabContent> },
                {
                  key: 'users',
                  label: t('detail.users'),
                  children: (
                    <TabContent>
                      {activeTab === 'users' ? <ApplicationUsersTab applicationId={application.id} applicationName={application.displayName} /> : null}
                    </TabContent>
                  ),
                },
                ...(scim
                  ? [
                      {
                        key: 'scim',
                        label: t('detail.scim'),
                        children: <TabContent>{activeTab === 'scim' ? <ApplicationScimTab applicationId={application.id} /> : null}</TabContent>,
                      },
                    ]
                  : []),
              ]}
            />
          </Card>
        </div>
      </div>
      {secret ? <SecretDialog {...secret} onClose={() => setSecret(undefined)} /> : null}
      {actions.feedback.holder}
    </>
  );
}

function TabContent({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Skeleton active />}>{children}</Suspense>;
}

interface GeneralCardProps {
  application: ApplicationDetail;
  editable: boolean;
  feedback: Feedback;
  /** A secret generated by the change (the application made confidential), to show once. */
  onSecret: (secret: string) => void;
}

/** The left card: the General properties form and its Save button. */
function GeneralCard({ application, editable, feedback, onSecret }: GeneralCardProps) {
  const { t } = useApplicationsTranslation();
  const [form] = Form.useForm<ApplicationFormValues>();
  const [update, { isLoading }] = useUpdateApplicationMutation();
  const [error, setError] = useState<unknown>();

  const save = async (values: ApplicationFormValues) => {
    setError(undefined);
    dropBlankUris(form);
    const result = await update({ id: application.id, changes: changesOf(values) });
    if (result.error) {
      if (!showApplicationErrors(form, result.error)) setError(result.error);
      return;
    }
    // The stored image is now the one sent (or none): the form holds no pending change of it.
    form.setFieldValue('iconImage', undefined);
    feedback.success(t('common.saved'));
    if (result.data.sharedSecret) onSecret(result.data.sharedSecret);
  };

  return (
    <Card title={t('detail.general')}>
      <p className="applications-facts">
        <span>{t('secret.clientId')}</span>
        <code>{application.name}</code>
        {application.hasSecret ? <Tag icon={<KeyOutlined />}>{t('secret.has')}</Tag> : null}
      </p>
      <ErrorAlert error={error} className="directory-form-error" />
      <ApplicationForm
        form={form}
        name="application-general"
        disabled={!editable}
        system={application.system}
        initialValues={formValuesOf(application)}
        storedIconUrl={application.hasIconImage ? applicationIconUrl(application.id, String(application.modifiedOn)) : undefined}
        onFinish={(values) => void save(values)}
      />
      {editable ? (
        <Button type="primary" loading={isLoading} onClick={() => form.submit()}>
          {t('common.save')}
        </Button>
      ) : null}
    </Card>
  );
}
