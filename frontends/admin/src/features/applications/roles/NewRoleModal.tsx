import Form from 'antd/es/form';
import { FormDialog, useFormSubmit } from '../../directory/components/FormDialog';
import { useDirectoryTranslation } from '../../directory/use-directory-translation';
import { useCreateAppRoleMutation, type AppRole, type RoleChanges } from './app-roles-api';
import { ROLE_FIELDS, RoleForm } from './RoleForm';
import { useApplicationRolesTranslation } from './use-application-roles-translation';

/** The spec's role modal width. */
export const ROLE_MODAL_WIDTH = 650;

/** The New role dialog, mounted while open. */
export function NewRoleModal({ applicationId, onClose, onCreated }: { applicationId: string; onClose: () => void; onCreated: (role: AppRole) => void }) {
  const { t } = useApplicationRolesTranslation();
  const { t: common } = useDirectoryTranslation();
  const [form] = Form.useForm<RoleChanges>();
  const [create, { isLoading }] = useCreateAppRoleMutation();
  const { error, send } = useFormSubmit(form, ROLE_FIELDS);

  return (
    <FormDialog title={t('roles.newRole')} okText={common('common.create')} width={ROLE_MODAL_WIDTH} form={form} loading={isLoading} error={error} onClose={onClose}>
      <RoleForm form={form} name="new-role" onFinish={(changes) => void send(() => create({ appId: applicationId, changes }), onCreated)} />
    </FormDialog>
  );
}
