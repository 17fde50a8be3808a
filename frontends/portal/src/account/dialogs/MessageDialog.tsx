import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, InfoCircleFilled } from '@ant-design/icons';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import { useState } from 'react';
import type { DialogSpec } from './use-dialogs';

const ICONS = {
  info: <InfoCircleFilled className="account-dialog__icon account-dialog__icon--info" aria-hidden />,
  success: <CheckCircleFilled className="account-dialog__icon account-dialog__icon--success" aria-hidden />,
  error: <CloseCircleFilled className="account-dialog__icon account-dialog__icon--error" aria-hidden />,
  warning: <ExclamationCircleFilled className="account-dialog__icon account-dialog__icon--warning" aria-hidden />,
  confirm: <ExclamationCircleFilled className="account-dialog__icon account-dialog__icon--warning" aria-hidden />,
} as const;

export interface MessageDialogProps {
  spec: DialogSpec;
  onClose: () => void;
}

/** A message or a confirmation, shaped like antd's `Modal.confirm` family. */
export default function MessageDialog({ spec, onClose }: MessageDialogProps) {
  const [busy, setBusy] = useState(false);
  const confirm = spec.type === 'confirm';

  const ok = async () => {
    setBusy(true);
    try {
      await spec.onOk?.();
    } finally {
      setBusy(false);
      onClose();
    }
  };

  return (
    <Modal
      open
      width={416}
      title={
        <span className="account-dialog__title">
          {ICONS[spec.type]}
          {spec.title}
        </span>
      }
      closable={false}
      mask={{ closable: false }}
      // Escape answers "no" to a question, and "OK" to a message (whose OK may lead elsewhere).
      onCancel={() => (confirm ? onClose() : void ok())}
      footer={
        <>
          {confirm ? (
            <Button onClick={onClose} disabled={busy}>
              {spec.cancelText}
            </Button>
          ) : null}
          <Button type="primary" autoFocus loading={busy} onClick={() => void ok()}>
            {spec.okText}
          </Button>
        </>
      }
    >
      <div className="account-dialog__content">{spec.content}</div>
    </Modal>
  );
}
