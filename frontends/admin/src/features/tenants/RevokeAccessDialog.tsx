import Alert from 'antd/es/alert';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import { FormDialog, useFormSubmit } from '../directory/components/FormDialog';
import type { Feedback } from '../directory/components/feedback';
import { MEMBER_DIALOG_WIDTH } from './AddTenantMemberDialog';
import { useRevokeTenantAccessMutation, type TenantMember } from './tenants-api';
import { useTenantsTranslation } from './use-tenants-translation';

interface RevokeValues {
  applicationIds: string[];
  includeParent: boolean;
}

/** An application a member holds roles of here, and whether every one of them comes by hierarchy. */
export interface HeldApplication {
  applicationId: string;
  /** The application as users see it (its display name). */
  applicationName: string;
  onlyByHierarchy: boolean;
}

/** The applications of a member's roles, by name. */
export function heldApplications(member: Pick<TenantMember, 'roles'>): HeldApplication[] {
  const applications = new Map<string, HeldApplication>();
  for (const role of member.roles) {
    const held = applications.get(role.applicationId) ?? { applicationId: role.applicationId, applicationName: role.applicationDisplayName, onlyByHierarchy: true };
    if (role.hierarchyType !== 'ByHierarchy') held.onlyByHierarchy = false;
    applications.set(role.applicationId, held);
  }
  return [...applications.values()].sort((a, b) => a.applicationName.localeCompare(b.applicationName));
}

export interface RevokeAccessDialogProps {
  tenantId: string;
  member: TenantMember;
  /** Administrators may also take away what comes by hierarchy; the others cannot touch an access that only comes that way. */
  isAdministrator: boolean;
  feedback: Feedback;
  /** After the server revoked the access (the caller closes the dialog and says so). */
  onRevoked: () => void;
  onClose: () => void;
}

/** Revoke access (mounted while open): the applications whose roles go, confirmed before they go. */
export function RevokeAccessDialog({ tenantId, member, isAdministrator, feedback, onRevoked, onClose }: RevokeAccessDialogProps) {
  const { t } = useTenantsTranslation();
  const [form] = Form.useForm<RevokeValues>();
  const [revoke, { isLoading }] = useRevokeTenantAccessMutation();
  const { error, send } = useFormSubmit(form, ['applicationIds', 'includeParent']);
  const applications = heldApplications(member);
  const adminOnly = !isAdministrator && applications.some((application) => application.onlyByHierarchy);

  const submit = async ({ applicationIds, includeParent }: RevokeValues) => {
    if (!(await feedback.confirm({ title: t('revoke.confirm'), danger: true, okText: t('revoke.revoke') }))) return;
    await send(
      () =>
        revoke({
          tenantId,
          userId: member.identityId,
          isGroup: member.identityType === 'Group',
          applicationIds,
          includeParent: isAdministrator && includeParent,
        }),
      onRevoked,
    );
  };

  return (
    <FormDialog
      width={MEMBER_DIALOG_WIDTH}
      title={t('revoke.title', { name: member.displayName })}
      okText={t('revoke.revoke')}
      form={form}
      loading={isLoading}
      error={error}
      explains403
      onClose={onClose}
    >
      {adminOnly ? <Alert type="info" showIcon className="directory-form-error" title={t('revoke.onlyAdmin')} /> : null}
      <Form<RevokeValues>
        form={form}
        name="revoke-access"
        layout="vertical"
        initialValues={{ applicationIds: [], includeParent: false }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          name="applicationIds"
          label={t('revoke.applications')}
          rules={[{ required: true, type: 'array', min: 1, message: t('revoke.applicationsRequired') }]}
        >
          <Checkbox.Group
            className="tenants-choices"
            options={applications.map((application) => ({
              value: application.applicationId,
              label: application.applicationName,
              disabled: !isAdministrator && application.onlyByHierarchy,
            }))}
          />
        </Form.Item>
        {isAdministrator ? (
          <Form.Item name="includeParent" valuePropName="checked" extra={t('revoke.includeParentHelp')}>
            <Checkbox>{t('revoke.includeParent')}</Checkbox>
          </Form.Item>
        ) : null}
      </Form>
    </FormDialog>
  );
}
