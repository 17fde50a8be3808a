import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import { useRef, useState } from 'react';
import { useSetUserRolesMutation, type ApplicationAccess } from '../api/users-api';
import type { DirectoryAccess } from '../components/access';
import { FormDialog, useFormSubmit } from '../components/FormDialog';
import { GLOBAL_OPTION, TenantSelect } from '../components/selects';
import { useDirectoryTranslation } from '../use-directory-translation';

interface RoleValues {
  tenant: string;
  roleIds: string[];
}

export interface RoleSelectionDialogProps {
  userId: string;
  application: ApplicationAccess;
  access: Pick<DirectoryAccess, 'isAdministrator'>;
  /** After the server granted the roles (the caller closes the dialog and says so). */
  onGranted: () => void;
  onClose: () => void;
}

/** The user's own roles in `application` for a tenant (null: Global). */
function ownRoles(application: ApplicationAccess, tenantId: string | null): string[] {
  return application.roles.filter((role) => role.removable && (tenantId === null ? role.isGlobal : role.tenantId === tenantId)).map((role) => role.roleId);
}

/**
 * Grants roles of one application, in a tenant or globally (Global is offered to Administrators
 * only; others must name a tenant). Roles granted by the hierarchy alone cannot be picked. The
 * roles the user already holds there start ticked, so the answer is the full wanted set.
 */
export function RoleSelectionDialog({ userId, application, access, onGranted, onClose }: RoleSelectionDialogProps) {
  const { t } = useDirectoryTranslation();
  const [form] = Form.useForm<RoleValues>();
  const [setRoles, { isLoading }] = useSetUserRolesMutation();
  const { error, send } = useFormSubmit(form, ['roleIds', 'tenantId']);
  const initialTenant = access.isAdministrator ? GLOBAL_OPTION : undefined;
  const [initialRoles] = useState(() => (initialTenant ? ownRoles(application, null) : []));
  const heldBefore = useRef(initialRoles);

  const submit = ({ tenant, roleIds }: RoleValues) =>
    send(
      () =>
        setRoles({
          userId,
          applicationId: application.applicationId,
          ...(tenant === GLOBAL_OPTION ? {} : { tenantId: tenant }),
          roleIds,
        }),
      onGranted,
    );

  return (
    <FormDialog
      width={650}
      title={t('roleAccess.dialogTitle', { application: application.displayName })}
      okText={t('common.save')}
      form={form}
      loading={isLoading}
      error={error}
      explains403
      onClose={onClose}
    >
      <Form<RoleValues>
        form={form}
        name="role-selection"
        layout="vertical"
        initialValues={{ tenant: initialTenant, roleIds: initialRoles }}
        onValuesChange={(changed: Partial<RoleValues>) => {
          if (changed.tenant === undefined) return;
          // The roles held in the tenant left are unticked and those held in the new one ticked;
          // roles the administrator ticked by hand stay.
          const held = ownRoles(application, changed.tenant === GLOBAL_OPTION ? null : changed.tenant);
          const ticked = (form.getFieldValue('roleIds') as string[] | undefined) ?? [];
          const chosen = ticked.filter((roleId) => !heldBefore.current.includes(roleId));
          heldBefore.current = held;
          form.setFieldValue('roleIds', [...new Set([...chosen, ...held])]);
        }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          name="tenant"
          label={t('roleAccess.tenant')}
          rules={access.isAdministrator ? [] : [{ required: true, message: t('roleAccess.tenantRequired') }]}
        >
          <TenantSelect withGlobal={access.isAdministrator} />
        </Form.Item>
        <Form.Item name="roleIds" label={t('roleAccess.roles')} rules={[{ required: true, type: 'array', min: 1, message: t('roleAccess.rolesRequired') }]}>
          <Checkbox.Group className="directory-role-choices">
            {application.availableRoles.map((role) => (
              <Checkbox key={role.id} value={role.id} disabled={role.byHierarchy}>
                <span className="directory-role-choice__name">{role.name}</span>
                {role.byHierarchy ? <span className="directory-role-choice__note"> ({t('roleAccess.byHierarchy')})</span> : null}
                {role.description ? <span className="directory-role-choice__description">{role.description}</span> : null}
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
