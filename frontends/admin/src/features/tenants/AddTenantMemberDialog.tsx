import type { ApplicationRole, IdentityType } from '@gatehouse/contracts';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { FormDialog, useFormSubmit } from '../directory/components/FormDialog';
import { useAppRolesQuery } from '../directory/api/lookups-api';
import { GroupSelect, UserSelect } from '../directory/components/selects';
import { shownInUserLists } from '../directory/components/user-list-visibility';
import { useAddTenantMemberMutation, type NewTenantMember } from './tenants-api';
import { useTenantsTranslation } from './use-tenants-translation';

/** The spec's width of the member dialogs. */
export const MEMBER_DIALOG_WIDTH = 600;

const MEMBER_FIELDS = ['identityType', 'identityId', 'isInheritable', 'global', 'roleIds'] as const;

interface MemberValues {
  identityType?: IdentityType;
  identityId?: string;
  isInheritable: boolean;
  global: boolean;
  roleIds: string[];
}

/** Roles as select options, one group per application (applications by name). */
export function rolesByApplication(roles: readonly ApplicationRole[]) {
  const groups = new Map<string, { label: string; title: string; options: Array<{ value: string; label: string }> }>();
  for (const role of roles) {
    const group = groups.get(role.applicationId) ?? { label: role.applicationName, title: role.applicationName, options: [] };
    group.options.push({ value: role.id, label: role.name });
    groups.set(role.applicationId, group);
  }
  return [...groups.values()].sort((a, b) => a.label.localeCompare(b.label));
}

export interface AddTenantMemberDialogProps {
  tenantId: string;
  /** Offers the Global option (Administrators only). */
  withGlobal: boolean;
  /** After the server added the member (the caller closes the dialog and says so). */
  onAdded: () => void;
  onClose: () => void;
}

/** The Add Member to Tenant dialog (mounted while open): a user or a group, and the roles it gets here (or, Global, everywhere). */
export function AddTenantMemberDialog({ tenantId, withGlobal, onAdded, onClose }: AddTenantMemberDialogProps) {
  const { t } = useTenantsTranslation();
  const [form] = Form.useForm<MemberValues>();
  const identityType = Form.useWatch('identityType', form);
  const { data: roles, isFetching } = useAppRolesQuery();
  const [add, { isLoading }] = useAddTenantMemberMutation();
  const { error, send } = useFormSubmit(form, MEMBER_FIELDS);

  const submit = ({ identityType: type, identityId, isInheritable, global, roleIds }: MemberValues) => {
    // The form's rules hold these back until both are chosen.
    if (!type || !identityId) return;
    const member: NewTenantMember = { identityType: type, identityId, isInheritable, global: withGlobal && global, roleIds };
    void send(() => add({ id: tenantId, member }), onAdded);
  };

  const identityLabel = identityType === 'Group' ? t('addMember.group') : t('addMember.user');
  return (
    <FormDialog width={MEMBER_DIALOG_WIDTH} title={t('addMember.title')} okText={t('addMember.add')} form={form} loading={isLoading} error={error} explains403 onClose={onClose}>
      <Form<MemberValues>
        form={form}
        name="add-tenant-member"
        layout="vertical"
        initialValues={{ isInheritable: true, global: false, roleIds: [] }}
        onValuesChange={(changed: Partial<MemberValues>) => {
          // A user's id means nothing as a group's: the choice starts again.
          if ('identityType' in changed) form.setFieldValue('identityId', undefined);
        }}
        onFinish={submit}
      >
        <Form.Item name="identityType" label={t('addMember.identityType')} rules={[{ required: true, message: t('addMember.identityTypeRequired') }]}>
          <Select<IdentityType>
            options={[
              { value: 'User', label: t('identityType.User') },
              { value: 'Group', label: t('identityType.Group') },
            ]}
          />
        </Form.Item>
        <Form.Item name="identityId" label={identityLabel} rules={[{ required: true, message: t('addMember.identityRequired') }]}>
          {identityType === 'Group' ? (
            <GroupSelect />
          ) : identityType === 'User' ? (
            <UserSelect />
          ) : (
            <Select disabled placeholder={t('addMember.chooseTypeFirst')} />
          )}
        </Form.Item>
        <Form.Item name="roleIds" label={t('addMember.roles')} rules={[{ required: true, type: 'array', min: 1, message: t('addMember.rolesRequired') }]}>
          <Select<string[]>
            mode="multiple"
            loading={isFetching}
            showSearch={{ optionFilterProp: 'label' }}
            options={rolesByApplication(shownInUserLists(roles?.items ?? []))}
          />
        </Form.Item>
        <Form.Item name="isInheritable" label={t('addMember.inheritable')} valuePropName="checked">
          <Switch />
        </Form.Item>
        {withGlobal ? (
          <Form.Item name="global" valuePropName="checked" extra={t('addMember.globalHelp')}>
            <Checkbox>{t('addMember.global')}</Checkbox>
          </Form.Item>
        ) : null}
      </Form>
    </FormDialog>
  );
}
