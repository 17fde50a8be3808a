import { errorMessage } from '../directory/components/errors';
import { useFeedback } from '../directory/components/feedback';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { useWebhooksTranslation } from './use-webhooks-translation';
import { useDeleteWebhookMutation, useRotateWebhookSecretMutation, type Webhook, type WebhookSecret } from './webhooks-api';

type Target = Pick<Webhook, 'id' | 'url'>;

/**
 * What an endpoint's page does to it after a confirmation: delete it, rotate its signing secret.
 * Toasts and confirmations render through `feedback.holder`, which the page must render.
 */
export function useWebhookActions() {
  const { t } = useWebhooksTranslation();
  const { t: td } = useDirectoryTranslation();
  const feedback = useFeedback();
  const [deleteWebhook] = useDeleteWebhookMutation();
  const [rotate] = useRotateWebhookSecretMutation();

  /** Resolves true once the endpoint is deleted. */
  const remove = async (webhook: Target): Promise<boolean> => {
    const confirmed = await feedback.confirm({
      title: t('detail.deleteConfirm', { url: webhook.url }),
      content: t('detail.deleteWarning'),
      okText: t('detail.delete'),
      danger: true,
    });
    if (!confirmed) return false;
    const result = await deleteWebhook(webhook.id);
    if (result.error) {
      feedback.error(errorMessage(result.error, td));
      return false;
    }
    feedback.success(t('detail.deleted'));
    return true;
  };

  /** Resolves with the new secret (and until when the previous one is still signed with) once rotated. */
  const rotateSecret = async (webhook: Target): Promise<WebhookSecret | undefined> => {
    const confirmed = await feedback.confirm({
      title: t('secret.rotateConfirm', { url: webhook.url }),
      content: t('secret.rotateWarning'),
      okText: t('secret.rotate'),
    });
    if (!confirmed) return undefined;
    const result = await rotate(webhook.id);
    if (result.error) {
      feedback.error(errorMessage(result.error, td));
      return undefined;
    }
    return result.data;
  };

  return { feedback, remove, rotateSecret };
}
