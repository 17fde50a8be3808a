import Form from 'antd/es/form';
import { useState } from 'react';
import { FormDialog } from '../directory/components/FormDialog';
import { ApplicationForm } from './ApplicationForm';
import { useCreateApplicationMutation, type SavedApplication } from './applications-api';
import { NEW_APPLICATION_VALUES, dropBlankUris, newApplicationOf, showApplicationErrors, type ApplicationFormValues } from './form-values';
import { useApplicationsTranslation } from './use-applications-translation';

/** The dialog's width: the form has two address lists. */
export const NEW_APPLICATION_WIDTH = 720;

/** The New application dialog (Administrator only), mounted while open. */
export function NewApplicationModal({ onClose, onCreated }: { onClose: () => void; onCreated: (application: SavedApplication) => void }) {
  const { t } = useApplicationsTranslation();
  const [form] = Form.useForm<ApplicationFormValues>();
  const [create, { isLoading }] = useCreateApplicationMutation();
  const [error, setError] = useState<unknown>();

  const submit = async (values: ApplicationFormValues) => {
    setError(undefined);
    dropBlankUris(form);
    const result = await create(newApplicationOf(values));
    if (result.error) {
      if (!showApplicationErrors(form, result.error)) setError(result.error);
      return;
    }
    onCreated(result.data);
  };

  return (
    <FormDialog
      title={t('list.newApplication')}
      okText={t('common.create')}
      width={NEW_APPLICATION_WIDTH}
      form={form}
      loading={isLoading}
      error={error}
      onClose={onClose}
    >
      <ApplicationForm form={form} name="new-application" creating initialValues={NEW_APPLICATION_VALUES} onFinish={(values) => void submit(values)} />
    </FormDialog>
  );
}
