import InboxOutlined from '@ant-design/icons/InboxOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Upload from 'antd/es/upload';
import type { BackgroundJobStarted } from '@gatehouse/contracts';
import { useState } from 'react';
import { uploadFile } from '../../../api/admin-api';
import { useDirectoryTranslation } from '../use-directory-translation';
import { errorMessage } from './errors';

/** The only file type the imports read. */
export const IMPORT_EXTENSION = '.xlsx';

export interface BulkImportDialogProps {
  open: boolean;
  title: string;
  /** Where the file is posted (multipart field `file`). */
  uploadUrl: string;
  onClose: () => void;
}

type Outcome = { kind: 'queued' } | { kind: 'failed'; error: unknown };

/**
 * Picks an Excel file and uploads it. The server checks the file at once and imports it in the
 * background: the dialog says so, and the import's result comes as a notification (the flyout's
 * "Open Result").
 */
export function BulkImportDialog({ open, title, uploadUrl, onClose }: BulkImportDialogProps) {
  const { t } = useDirectoryTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [wrongExtension, setWrongExtension] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const choose = (chosen: File) => {
    const allowed = chosen.name.toLowerCase().endsWith(IMPORT_EXTENSION);
    setWrongExtension(!allowed);
    setFile(allowed ? chosen : null);
    setOutcome(null);
  };

  const upload = async () => {
    if (!file) return;
    setUploading(true);
    try {
      await uploadFile<BackgroundJobStarted>(uploadUrl, file, file.name);
      setOutcome({ kind: 'queued' });
      setFile(null);
    } catch (error) {
      setOutcome({ kind: 'failed', error });
    } finally {
      setUploading(false);
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
      open={open}
      title={title}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={close}>
          {t('common.close')}
        </Button>,
        <Button key="upload" type="primary" disabled={!file} loading={uploading} onClick={() => void upload()}>
          {t('import.upload')}
        </Button>,
      ]}
    >
      <Upload.Dragger
        // 'native': a dropped file of another type must reach `choose` and be refused aloud,
        // not be dropped silently.
        accept={{ format: IMPORT_EXTENSION, filter: 'native' }}
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
        <p className="ant-upload-text">{file ? file.name : t('import.dropHint')}</p>
      </Upload.Dragger>
      {wrongExtension ? <Alert className="directory-import__message" type="error" showIcon title={t('import.extensionNotAllowed')} /> : null}
      {outcome ? <ImportOutcome outcome={outcome} /> : null}
    </Modal>
  );
}

function ImportOutcome({ outcome }: { outcome: Outcome }) {
  const { t } = useDirectoryTranslation();
  if (outcome.kind === 'failed') {
    return <Alert className="directory-import__message" type="error" showIcon title={t('import.error')} description={errorMessage(outcome.error, t)} />;
  }
  return <Alert className="directory-import__message" type="success" showIcon title={t('import.success')} description={t('import.background')} />;
}
