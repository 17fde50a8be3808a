import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import { FormDialog, useFormSubmit } from '../directory/components/FormDialog';
import { AreaSelect } from '../directory/components/selects';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { ParentTenantSelect } from './ParentTenantSelect';
import { useCreateTenantMutation, type NewTenant, type Tenant } from './tenants-api';
import { useTenantsTranslation } from './use-tenants-translation';

/** The fields of the New Entity dialog, whose server errors show in place. */
const NEW_TENANT_FIELDS = ['title', 'areaId', 'parentId', 'taxNumber', 'viesNumber'] as const;

interface NewTenantValues {
  title: string;
  areaId: string;
  parentId?: string;
  taxNumber?: string;
  viesNumber?: string;
}

/** What the dialog sends: blanks left out (the server reads them as none). */
export function newTenantOf({ title, areaId, parentId, taxNumber, viesNumber }: NewTenantValues): NewTenant {
  return {
    title: title.trim(),
    areaId,
    parentId: parentId ?? null,
    taxNumber: taxNumber?.trim() || null,
    viesNumber: viesNumber?.trim() || null,
  };
}

/** The New Entity dialog (Administrator or Manager), mounted while open. */
export function NewTenantModal({ onClose, onCreated }: { onClose: () => void; onCreated: (tenant: Tenant) => void }) {
  const { t } = useTenantsTranslation();
  const { t: td } = useDirectoryTranslation();
  const [form] = Form.useForm<NewTenantValues>();
  const [create, { isLoading }] = useCreateTenantMutation();
  const { error, send } = useFormSubmit(form, NEW_TENANT_FIELDS);

  return (
    <FormDialog title={t('form.newTitle')} okText={td('common.create')} form={form} loading={isLoading} error={error} onClose={onClose}>
      <Form<NewTenantValues> form={form} name="new-tenant" layout="vertical" onFinish={(values) => void send(() => create(newTenantOf(values)), onCreated)}>
        <Form.Item name="title" label={t('form.title')} rules={[{ required: true, whitespace: true, message: t('form.titleRequired') }, { max: 200, message: t('form.tooLong', { max: 200 }) }]}>
          <Input />
        </Form.Item>
        <Form.Item name="areaId" label={t('form.area')} rules={[{ required: true, message: t('form.areaRequired') }]}>
          <AreaSelect />
        </Form.Item>
        <Form.Item name="parentId" label={t('form.parent')}>
          <ParentTenantSelect placeholder={t('form.noParent')} />
        </Form.Item>
        <Form.Item name="taxNumber" label={t('form.taxNumber')} rules={[{ max: 50, message: t('form.tooLong', { max: 50 }) }]}>
          <Input />
        </Form.Item>
        <Form.Item name="viesNumber" label={t('form.viesNumber')} rules={[{ max: 50, message: t('form.tooLong', { max: 50 }) }]}>
          <Input />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
