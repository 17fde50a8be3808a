import { ROLE_DESCRIPTION_MAX, ROLE_NAME_MAX } from '@gatehouse/contracts';
import Checkbox from 'antd/es/checkbox';
import Form, { type FormInstance } from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import type { RoleChanges } from './app-roles-api';
import { useApplicationRolesTranslation } from './use-application-roles-translation';

export const ROLE_FIELDS = ['name', 'description', 'byHierarchy', 'operationRequestVisibility', 'serviceManagerVisibility'] as const;

export interface RoleFormProps {
  form: FormInstance<RoleChanges>;
  name: string;
  initialValues?: Partial<RoleChanges>;
  disabled?: boolean;
  /** The role's name cannot change (a role the product relies on). */
  nameLocked?: boolean;
  onFinish: (values: RoleChanges) => void;
}

/** A role's general properties, as created and as edited. */
export function RoleForm({ form, name, initialValues, disabled, nameLocked, onFinish }: RoleFormProps) {
  const { t } = useApplicationRolesTranslation();
  const flag = (field: (typeof ROLE_FIELDS)[number], label: string, help?: string) => (
    <Form.Item name={field} valuePropName="checked" extra={help} className="app-roles-flag">
      <Checkbox>{label}</Checkbox>
    </Form.Item>
  );
  return (
    <Form<RoleChanges>
      form={form}
      name={name}
      layout="vertical"
      initialValues={{ byHierarchy: false, operationRequestVisibility: false, serviceManagerVisibility: false, ...initialValues }}
      disabled={disabled}
      onFinish={onFinish}
    >
      <Form.Item
        name="name"
        label={t('roles.name')}
        extra={nameLocked ? t('roles.systemHelp') : undefined}
        rules={[{ required: true, whitespace: true, message: t('roles.nameRequired') }]}
      >
        <Input maxLength={ROLE_NAME_MAX} disabled={nameLocked ? true : undefined} />
      </Form.Item>
      <Form.Item name="description" label={t('roles.description')}>
        <TextArea rows={3} maxLength={ROLE_DESCRIPTION_MAX} />
      </Form.Item>
      {flag('byHierarchy', t('roles.byHierarchy'), t('roles.byHierarchyHelp'))}
      {flag('operationRequestVisibility', t('roles.operationRequestVisibility'))}
      {flag('serviceManagerVisibility', t('roles.serviceManagerVisibility'))}
    </Form>
  );
}
