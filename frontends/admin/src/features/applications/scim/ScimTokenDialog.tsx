import { useFormatDateTime } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Modal from 'antd/es/modal';
import { useFeedback } from '../../directory/components/feedback';
import { useDirectoryTranslation } from '../../directory/use-directory-translation';
import { CopyField } from './CopyField';
import type { IssuedScimToken } from './scim-api';
import { useScimTranslation } from './use-scim-translation';

/**
 * A SCIM token just issued: its value, shown this once, and the SCIM base URL, each with a copy
 * button, and the warning that the value will not be shown again. A click beside the dialog does
 * not close it; once closed, the value is gone from the console.
 */
export function ScimTokenDialog({ token, onClose }: { token: IssuedScimToken; onClose: () => void }) {
  const { t } = useScimTranslation();
  const { t: common } = useDirectoryTranslation();
  const formatDateTime = useFormatDateTime();
  const feedback = useFeedback();

  return (
    <Modal
      open
      title={<span className="scim-dialog__title">{t('issued.title', { name: token.name })}</span>}
      mask={{ closable: false }}
      keyboard={false}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {common('common.close')}
        </Button>
      }
    >
      <Alert type="warning" showIcon className="scim-dialog__warning" title={t('issued.warning')} />
      <Descriptions
        column={1}
        size="small"
        className="scim-dialog__facts"
        items={[
          { key: 'area', label: t('issued.area'), children: token.areaName },
          { key: 'expiresAt', label: t('issued.expiresAt'), children: formatDateTime(token.expiresAt) },
        ]}
      />
      <CopyField label={t('issued.value')} value={token.token} copied={t('copy.tokenCopied')} feedback={feedback} />
      <CopyField label={t('issued.baseUrl')} value={token.scimUrl} copyLabel={t('tab.copyUrl')} copied={t('copy.urlCopied')} feedback={feedback} />
      {feedback.holder}
    </Modal>
  );
}
