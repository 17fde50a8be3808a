import CopyOutlined from '@ant-design/icons/CopyOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Input from 'antd/es/input/Input';
import Modal from 'antd/es/modal';
import { useFeedback } from '../directory/components/feedback';
import { useApplicationsTranslation } from './use-applications-translation';

export interface SecretDialogProps {
  /** The application's display name and client id. */
  displayName: string;
  clientId: string;
  secret: string;
  onClose: () => void;
}

/**
 * A shared secret, shown this once (after creation, a switch to confidential or a new secret),
 * with a copy button and the warning that it will not be shown again. A click beside the dialog
 * does not close it; once closed, the secret is gone from the console.
 */
export function SecretDialog({ displayName, clientId, secret, onClose }: SecretDialogProps) {
  const { t } = useApplicationsTranslation();
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
      title={t('secret.title', { name: displayName })}
      maskClosable={false}
      keyboard={false}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      <Alert type="warning" showIcon className="applications-secret__warning" title={t('secret.warning')} />
      <Descriptions column={1} size="small" className="applications-secret__facts" items={[{ key: 'clientId', label: t('secret.clientId'), children: <code>{clientId}</code> }]} />
      <div className="applications-secret__value">
        <Input readOnly aria-label={t('secret.value')} value={secret} onFocus={(event) => event.target.select()} />
        <Button icon={<CopyOutlined />} onClick={() => void copy()}>
          {t('secret.copy')}
        </Button>
      </div>
      {feedback.holder}
    </Modal>
  );
}
