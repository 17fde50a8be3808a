import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import Skeleton from 'antd/es/skeleton';
import Tabs from 'antd/es/tabs';
import { useParams } from 'react-router';
import { PageHeader } from '../../../shell/PageHeader';
import { useBackTo } from '../../directory/components/crumbs';
import { ErrorAlert } from '../../directory/components/ErrorAlert';
import { useFormSubmit } from '../../directory/components/FormDialog';
import { useFeedback, type Feedback } from '../../directory/components/feedback';
import { useDirectoryTranslation } from '../../directory/use-directory-translation';
import { useCanChangeRoles } from './access';
import { useAppRoleQuery, useUpdateAppRoleMutation, type AppRole, type RoleChanges } from './app-roles-api';
import { applicationCrumbs } from './crumbs';
import { ROLE_FIELDS, RoleForm } from './RoleForm';
import { RoleScopes } from './RoleScopes';
import { useApplicationRolesTranslation } from './use-application-roles-translation';
import '../../directory/components/directory.css';

/** /admin/applications/{applicationId}/roles/{id}: a role's general properties and its access scopes. */
export default function RoleDetailPage() {
  const { applicationId = '', id = '' } = useParams();
  const { t } = useApplicationRolesTranslation();
  const canChange = useCanChangeRoles();
  const feedback = useFeedback();
  const backTo = useBackTo(`/applications/${encodeURIComponent(applicationId)}`);
  const { data: role, error, isLoading } = useAppRoleQuery({ appId: applicationId, roleId: id });

  if (!role) {
    return (
      <>
        <PageHeader title={t('roles.title')} breadcrumbs={applicationCrumbs(t, applicationId, applicationId)} back={backTo} />
        {isLoading ? <Skeleton active /> : <ErrorAlert error={error} />}
      </>
    );
  }

  return (
    <>
      <PageHeader title={role.name} breadcrumbs={[...applicationCrumbs(t, applicationId, role.applicationName), { title: role.name }]} back={backTo} />
      {canChange ? null : <Alert type="info" showIcon className="directory-form-error" title={t('roleDetail.readOnly')} />}
      <div className="directory-detail">
        <div className="directory-detail__main">
          <RoleGeneralCard key={role.id} role={role} editable={canChange} feedback={feedback} />
        </div>
        <div className="directory-detail__side">
          <Card>
            <Tabs
              items={[
                {
                  key: 'scopes',
                  label: t('roleDetail.scopesTab'),
                  children: <RoleScopes applicationId={applicationId} roleId={role.id} editable={canChange} feedback={feedback} />,
                },
              ]}
            />
          </Card>
        </div>
      </div>
      {feedback.holder}
    </>
  );
}

function RoleGeneralCard({ role, editable, feedback }: { role: AppRole; editable: boolean; feedback: Feedback }) {
  const { t } = useApplicationRolesTranslation();
  const { t: common } = useDirectoryTranslation();
  const [form] = Form.useForm<RoleChanges>();
  const [update, { isLoading }] = useUpdateAppRoleMutation();
  const { error, send } = useFormSubmit(form, ROLE_FIELDS);

  const save = (changes: RoleChanges) =>
    send(
      () => update({ appId: role.applicationId, roleId: role.id, changes }),
      () => feedback.success(common('common.saved')),
    );

  return (
    <Card title={t('roleDetail.general')}>
      <ErrorAlert error={error} className="directory-form-error" />
      <RoleForm
        form={form}
        name="role-general"
        disabled={!editable}
        nameLocked={role.system}
        initialValues={{
          name: role.name,
          description: role.description ?? undefined,
          byHierarchy: role.byHierarchy,
          operationRequestVisibility: role.operationRequestVisibility,
          serviceManagerVisibility: role.serviceManagerVisibility,
        }}
        onFinish={(changes) => void save(changes)}
      />
      {editable ? (
        <Button type="primary" loading={isLoading} onClick={() => form.submit()}>
          {common('common.save')}
        </Button>
      ) : null}
    </Card>
  );
}
