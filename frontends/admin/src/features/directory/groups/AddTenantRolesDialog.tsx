import type { ApplicationRole } from '@gatehouse/contracts';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useAddGroupRolesMutation } from '../api/groups-api';
import { useAppRolesQuery } from '../api/lookups-api';
import { FormDialog, useFormSubmit } from '../components/FormDialog';
import { shownInUserLists } from '../components/user-list-visibility';
import { GLOBAL_OPTION, TenantSelect } from '../components/selects';
import { useDirectoryTranslation } from '../use-directory-translation';

interface TenantRolesValues {
  tenant: string;
  roleIds: string[];
  isInheritable: boolean;
}

/** Roles as select options, one group per application. */
function byApplication(roles: ApplicationRole[]) {
  const groups = new Map<string, { label: string; options: Array<{ value: string; label: string }> }>();
  for (const role of roles) {
    const group = groups.get(role.applicationId) ?? { label: role.applicationName, options: [] };
    group.options.push({ value: role.id, label: role.name });
    groups.set(role.applicationId, group);
  }
  return [...groups.values()].sort((a, b) => a.label.localeCompare(b.label));
}

export interface AddTenantRolesDialogProps {
  groupId: string;
  withGlobal: boolean;
  /** After the server added the roles (the caller closes the dialog and says so). */
  onAdded: () => void;
  onClose: () => void;
}

/** The Add Tenant Roles dialog (mounted while open). The Global option is for Administrators. */
export function AddTenantRolesDialog({ groupId, withGlobal, onAdded, onClose }: AddTenantRolesDialogProps) {
  const { t } = useDirectoryTranslation();
  const [form] = Form.useForm<TenantRolesValues>();
  const { data: roles, isFetching } = useAppRolesQuery();
  const [add, { isLoading }] = useAddGroupRolesMutation();
  const { error, send } = useFormSubmit(form, ['roleIds', 'isInheritable']);

  const submit = ({ tenant, roleIds, isInheritable }: TenantRolesValues) =>
    send(() => add({ groupId, tenantId: tenant === GLOBAL_OPTION ? null : tenant, roleIds, isInheritable }), onAdded);

  return (
    <FormDialog width={600} title={t('groupDetail.dialogTitle')} okText={t('common.add')} form={form} loading={isLoading} error={error} onClose={onClose}>
      <Form<TenantRolesValues>
        form={form}
        name="tenant-roles"
        layout="vertical"
        initialValues={{ tenant: withGlobal ? GLOBAL_OPTION : undefined, roleIds: [], isInheritable: true }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item name="tenant" label={t('groupDetail.tenant')} rules={[{ required: true, message: t('groupDetail.tenantRequired') }]}>
          <TenantSelect withGlobal={withGlobal} />
        </Form.Item>
        <Form.Item
          name="roleIds"
          label={t('groupDetail.roles')}
          rules={[{ required: true, type: 'array', min: 1, message: t('groupDetail.rolesRequired') }]}
        >
          <Select<string[]> mode="multiple" loading={isFetching} showSearch={{ optionFilterProp: 'label' }} options={byApplication(shownInUserLists(roles?.items ?? []))} />
        </Form.Item>
        <Form.Item name="isInheritable" label={t('groupDetail.inheritable')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
