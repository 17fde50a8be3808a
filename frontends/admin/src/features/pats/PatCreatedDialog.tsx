import CopyOutlined from '@ant-design/icons/CopyOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import TextArea from 'antd/es/input/TextArea';
import Modal from 'antd/es/modal';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../directory/components/feedback';
import type { CreatedPersonalAccessToken } from './pats-api';

/**
 * The PAT created dialog: the token's value, shown this once, with a copy button and the spec's
 * warning. A click beside it does not close it; once closed, the value is gone from the console.
 */
export function PatCreatedDialog({ token, onClose }: { token: CreatedPersonalAccessToken; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const feedback = useFeedback();
  // Without a clipboard (a page not served over https), the value is still there to select.
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      feedback.success(t('pats.copied'));
    } catch {
      feedback.error(t('pats.copyFailed'));
    }
  };

  return (
    <Modal
      open
      title={t('pats.createdTitle')}
      maskClosable={false}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      <Alert type="warning" showIcon className="pats__created-warning" title={t('pats.createdWarning')} />
      {/* A fixed height: autoSize measures in a hidden copy of the text that outlives the dialog. */}
      <TextArea readOnly rows={3} className="pats__value" aria-label={t('pats.token')} value={token.token} onFocus={(event) => event.target.select()} />
      <Button className="pats__copy" icon={<CopyOutlined />} onClick={() => void copy()}>
        {t('pats.copy')}
      </Button>
      {feedback.holder}
    </Modal>
  );
}
