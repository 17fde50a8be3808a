import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { Webhook, WebhookDeliveryStatus } from './webhooks-api';
import { useWebhooksTranslation } from './use-webhooks-translation';

/** Why the product turns an endpoint off: its deliveries kept failing for a day. */
export const DISABLED_FOR_FAILING = 'failing';

/** An endpoint's state: On, Off, or turned off by the product for failing (its explanation in a tooltip). */
export function WebhookStatusTag({ webhook }: { webhook: Pick<Webhook, 'enabled' | 'disabledReason'> }) {
  const { t } = useWebhooksTranslation();
  if (webhook.enabled) return <Tag color="success">{t('status.on')}</Tag>;
  if (webhook.disabledReason === DISABLED_FOR_FAILING) {
    return (
      <Tooltip title={t('status.failingHelp')}>
        <Tag color="error" tabIndex={0}>
          {t('status.failing')}
        </Tag>
      </Tooltip>
    );
  }
  return <Tag>{t('status.off')}</Tag>;
}

const DELIVERY_COLORS: Record<WebhookDeliveryStatus, string> = { Pending: 'processing', Succeeded: 'success', Failed: 'error' };

/** A delivery's status: Pending, Succeeded or Failed. */
export function DeliveryStatusTag({ status }: { status: WebhookDeliveryStatus }) {
  const { t } = useWebhooksTranslation();
  return <Tag color={DELIVERY_COLORS[status]}>{t(`deliveryStatus.${status}`)}</Tag>;
}
