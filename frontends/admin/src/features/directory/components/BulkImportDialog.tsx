import InboxOutlined from '@ant-design/icons/InboxOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Upload from 'antd/es/upload';
import { useState } from 'react';
import { uploadFile } from '../../../api/admin-api';
import type { ImportResult } from '../api/users-api';
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
  /** After the server has answered with a result, e.g. to reload a list. */
  onImported?: () => void;
}

type Outcome = { kind: 'result'; result: ImportResult | undefined } | { kind: 'failed'; error: unknown };

/** Picks an Excel file, uploads it and shows the import's counts, errors and warnings by row. */
export function BulkImportDialog({ open, title, uploadUrl, onClose, onImported }: BulkImportDialogProps) {
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
      const result = await uploadFile<ImportResult | undefined>(uploadUrl, file, file.name);
      setOutcome({ kind: 'result', result });
      setFile(null);
      onImported?.();
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
  const { result } = outcome;
  // No report: the server queued the file.
  if (!result) {
    return <Alert className="directory-import__message" type="success" showIcon title={t('import.success')} description={t('import.background')} />;
  }
  const rows = (title: string, items: ImportResult['errors']) =>
    items.length ? (
      <section className="directory-import__rows">
        <h3>{title}</h3>
        <ul>
          {items.map((item, index) => (
            <li key={`${item.row}-${index}`}>{t('import.row', { row: item.row, reason: item.reason })}</li>
          ))}
        </ul>
      </section>
    ) : null;
  const errors = result.errors ?? [];
  const warnings = result.warnings ?? [];
  return (
    <Alert
      className="directory-import__message"
      type={result.success ? (warnings.length ? 'warning' : 'success') : 'error'}
      showIcon
      title={result.success ? t('import.success') : t('import.error')}
      description={
        <>
          <p>{t('import.counts', { imported: result.importedElements, total: result.totalElements })}</p>
          {rows(t('import.errors'), errors)}
          {rows(t('import.warnings'), warnings)}
        </>
      }
    />
  );
}
