import InboxOutlined from '@ant-design/icons/InboxOutlined';
import { ApiError, useApiDependencies } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Upload from 'antd/es/upload';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/auth-context';
import { BULK_EXTENSION, uploadBulkFile, type BulkOption } from './bulk-api';

export interface BulkUploadDialogProps {
  /** The option being uploaded; the dialog is closed without one. */
  option: BulkOption | undefined;
  /** The tenant the requests are for; nothing can be sent without one. */
  tenantId: string | undefined;
  onClose: () => void;
}

type Outcome = { kind: 'queued' } | { kind: 'failed'; message: string };

/**
 * Picks a filled template (.xlsx only, refused aloud otherwise) and uploads it for the tenant. The
 * server checks the file at once and turns it into operation requests in the background: the
 * dialog says so ('Operation Completed Successfully'), or shows the server's refusal.
 */
export function BulkUploadDialog({ option, tenantId, onClose }: BulkUploadDialogProps) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const dependencies = useApiDependencies(useAuth());
  const [file, setFile] = useState<File | null>(null);
  const [wrongExtension, setWrongExtension] = useState(false);
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const choose = (chosen: File) => {
    const allowed = chosen.name.toLowerCase().endsWith(BULK_EXTENSION);
    setWrongExtension(!allowed);
    setFile(allowed ? chosen : null);
    setOutcome(null);
  };

  const send = async () => {
    if (!file || !option || !tenantId) return;
    setSending(true);
    try {
      await uploadBulkFile(dependencies, option, tenantId, file, common);
      setOutcome({ kind: 'queued' });
      setFile(null);
    } catch (failure) {
      // A network failure has no message of ours to show.
      setOutcome({ kind: 'failed', message: failure instanceof ApiError ? failure.message : '' });
    } finally {
      setSending(false);
    }
  };

  const close = () => {
    setFile(null);
    setWrongExtension(false);
    setOutcome(null);
    onClose();
  };

  return (
    <Modal
      open={option !== undefined}
      title={option ? t('clientsBulk.dialogTitle', { label: t(option.label) }) : undefined}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={close}>
          {t('clientsBulk.close')}
        </Button>,
        <Button key="send" type="primary" disabled={!file || !tenantId} loading={sending} onClick={() => void send()}>
          {t('clientsBulk.send')}
        </Button>,
      ]}
    >
      <Upload.Dragger
        // 'native': a dropped file of another type must reach `choose` and be refused aloud, not dropped silently.
        accept={{ format: BULK_EXTENSION, filter: 'native' }}
        multiple={false}
        showUploadList={false}
        beforeUpload={(chosen) => {
          choose(chosen);
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined aria-hidden />
        </p>
        <p className="ant-upload-text">{file ? file.name : t('clientsBulk.dropHint')}</p>
      </Upload.Dragger>
      {!tenantId ? <Alert className="clients-bulk__message" type="info" showIcon title={t('clientsBulk.selectTenant')} /> : null}
      {wrongExtension ? <Alert className="clients-bulk__message" type="error" showIcon title={t('clientsBulk.extensionNotAllowed')} /> : null}
      {outcome?.kind === 'queued' ? (
        <Alert className="clients-bulk__message" type="success" showIcon title={t('clientsBulk.success')} description={t('clientsBulk.background')} />
      ) : null}
      {outcome?.kind === 'failed' ? (
        <Alert className="clients-bulk__message" type="error" showIcon role="alert" title={t('clientsBulk.uploadError')} description={outcome.message || undefined} />
      ) : null}
    </Modal>
  );
}
