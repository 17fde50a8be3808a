import CopyOutlined from '@ant-design/icons/CopyOutlined';
import { useFormatDateTime } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input/Input';
import Modal from 'antd/es/modal';
import { useFeedback } from '../directory/components/feedback';
import { useWebhooksTranslation } from './use-webhooks-translation';

export interface WebhookSecretDialogProps {
  /** The endpoint's address, which names it. */
  url: string;
  secret: string;
  /** After a rotation: until when deliveries are also signed with the previous secret. */
  previousSecretExpiresAt?: string | null;
  onClose: () => void;
}

/**
 * A signing secret, shown this once (after creation or a rotation), with a copy button and the
 * warning that it will not be shown again. A click beside the dialog does not close it; once
 * closed, the secret is gone from the console.
 */
export function WebhookSecretDialog({ url, secret, previousSecretExpiresAt, onClose }: WebhookSecretDialogProps) {
  const { t } = useWebhooksTranslation();
  const formatDateTime = useFormatDateTime();
  const feedback = useFeedback();
  // Without a clipboard (a page not served over https), the value is still there to select.
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      feedback.success(t('secret.copied'));
    } catch {
      feedback.error(t('secret.copyFailed'));
    }
  };

  return (
    <Modal
      open
      title={<span className="webhooks-secret__title">{t('secret.title', { url })}</span>}
      mask={{ closable: false }}
      keyboard={false}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      <Alert type="warning" showIcon className="webhooks-secret__warning" title={t('secret.warning')} />
      <div className="webhooks-secret__value">
        <Input readOnly aria-label={t('secret.value')} value={secret} onFocus={(event) => event.target.select()} />
        <Button icon={<CopyOutlined />} onClick={() => void copy()}>
          {t('secret.copy')}
        </Button>
      </div>
      {previousSecretExpiresAt ? (
        <p className="webhooks-secret__previous">{t('secret.previousUntil', { date: formatDateTime(previousSecretExpiresAt) })}</p>
      ) : null}
      {feedback.holder}
    </Modal>
  );
}
