import Form, { type FormInstance } from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import type { GroupChanges } from '../api/groups-api';
import { AreaSelect } from '../components/selects';
import { useDirectoryTranslation } from '../use-directory-translation';

export const GROUP_FIELDS = ['name', 'description', 'areaId'] as const;

export interface GroupFormProps {
  form: FormInstance<GroupChanges>;
  name: string;
  initialValues?: Partial<GroupChanges>;
  disabled?: boolean;
  onFinish: (values: GroupChanges) => void;
}

/** A group's name, description and area, as created and as edited. */
export function GroupForm({ form, name, initialValues, disabled, onFinish }: GroupFormProps) {
  const { t } = useDirectoryTranslation();
  return (
    <Form<GroupChanges> form={form} name={name} layout="vertical" initialValues={initialValues} disabled={disabled} onFinish={onFinish}>
      <Form.Item name="name" label={t('groups.name')} rules={[{ required: true, whitespace: true, message: t('groups.nameRequired') }]}>
        <Input />
      </Form.Item>
      <Form.Item name="description" label={t('groups.description')}>
        <TextArea rows={3} />
      </Form.Item>
      <Form.Item name="areaId" label={t('groups.area')} rules={[{ required: true, message: t('groups.areaRequired') }]}>
        <AreaSelect />
      </Form.Item>
    </Form>
  );
}
