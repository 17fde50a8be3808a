import Form from 'antd/es/form';
import { useState } from 'react';
import { FormDialog } from '../directory/components/FormDialog';
import { NEW_WEBHOOK_FIELDS, NEW_WEBHOOK_VALUES, newWebhookOf, showWebhookErrors, type WebhookFormValues } from './form-values';
import { useWebhooksTranslation } from './use-webhooks-translation';
import { WebhookForm } from './WebhookForm';
import { useCreateWebhookMutation, type SavedWebhook } from './webhooks-api';

/** The dialog's width: the events take two columns. */
export const NEW_WEBHOOK_WIDTH = 720;

/** The New endpoint dialog, mounted while open; hands on the endpoint created with its secret. */
export function NewWebhookModal({ onClose, onCreated }: { onClose: () => void; onCreated: (webhook: SavedWebhook) => void }) {
  const { t } = useWebhooksTranslation();
  const [form] = Form.useForm<WebhookFormValues>();
  const [create, { isLoading }] = useCreateWebhookMutation();
  const [error, setError] = useState<unknown>();

  const submit = async (values: WebhookFormValues) => {
    setError(undefined);
    const result = await create(newWebhookOf(values));
    if (result.error) {
      // `webhooks.invalid_url` and `webhooks.private_address` go under the address.
      if (!showWebhookErrors(form, result.error, NEW_WEBHOOK_FIELDS)) setError(result.error);
      return;
    }
    onCreated(result.data);
  };

  return (
    <FormDialog title={t('list.newEndpoint')} okText={t('common.create')} width={NEW_WEBHOOK_WIDTH} form={form} loading={isLoading} error={error} onClose={onClose}>
      <WebhookForm form={form} name="new-webhook" creating initialValues={NEW_WEBHOOK_VALUES} onFinish={(values) => void submit(values)} />
    </FormDialog>
  );
}
