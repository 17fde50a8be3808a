import Form from 'antd/es/form';
import { useCreateGroupMutation, type Group, type GroupChanges } from '../api/groups-api';
import { FormDialog, useFormSubmit } from '../components/FormDialog';
import { useDirectoryTranslation } from '../use-directory-translation';
import { GROUP_FIELDS, GroupForm } from './GroupForm';

/** The New group dialog, mounted while open. */
export function NewGroupModal({ onClose, onCreated }: { onClose: () => void; onCreated: (group: Group) => void }) {
  const { t } = useDirectoryTranslation();
  const [form] = Form.useForm<GroupChanges>();
  const [create, { isLoading }] = useCreateGroupMutation();
  const { error, send } = useFormSubmit(form, GROUP_FIELDS);

  return (
    <FormDialog title={t('groups.newGroup')} okText={t('common.create')} form={form} loading={isLoading} error={error} onClose={onClose}>
      <GroupForm form={form} name="new-group" onFinish={(values) => void send(() => create(values), onCreated)} />
    </FormDialog>
  );
}
