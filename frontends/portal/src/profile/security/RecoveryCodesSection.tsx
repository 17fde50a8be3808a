import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { useFormatDateTime } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import message from 'antd/es/message';
import Modal from 'antd/es/modal';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGenerateRecoveryCodesMutation, type RecoveryCodes, type SecurityOverview } from '../../api/portal-api';
import { saveFile } from '../my-data/download';
import { useRecentSignIn } from './recent-sign-in';
import { SecurityCard, useFailure } from './security-parts';

/** The new codes, shown once: copy them, download them, then say they are saved (the only way out). */
function CodesDialog({ codes, onClose }: { codes: RecoveryCodes | undefined; onClose: () => void }) {
  const { t } = useTranslation('portal');
  const formatDateTime = useFormatDateTime();
  const listId = useId();
  const [toast, toastHolder] = message.useMessage();
  const text = codes ? [t('security.recovery.fileHeader', { date: formatDateTime(codes.generatedAt) }), '', ...codes.codes, ''].join('\n') : '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes?.codes.join('\n') ?? '');
      void toast.success(t('security.recovery.copied'));
    } catch {
      void toast.error(t('security.recovery.copyFailed'));
    }
  };

  return (
    <Modal
      open={codes !== undefined}
      title={t('security.recovery.codesTitle')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose}>
          {t('security.recovery.saved')}
        </Button>
      }
    >
      {toastHolder}
      <p id={listId}>{t('security.recovery.codesText')}</p>
      <ol className="security-codes" aria-labelledby={listId}>
        {codes?.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="security-card__actions">
        <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copy()}>
          {t('security.recovery.copy')}
        </Button>
        <Button icon={<DownloadOutlined aria-hidden />} onClick={() => saveFile(new Blob([text], { type: 'text/plain;charset=utf-8' }), t('security.recovery.fileName'))}>
          {t('security.recovery.download')}
        </Button>
      </div>
    </Modal>
  );
}

/**
 * "Recovery codes": how many are left and when they were made; new ones (the old ones stop working,
 * so a confirmation comes first while some remain) are shown once.
 */
export function RecoveryCodesSection({ overview }: { overview: SecurityOverview }) {
  const { t } = useTranslation('portal');
  const formatDateTime = useFormatDateTime();
  const guard = useRecentSignIn();
  const [generate, { isLoading }] = useGenerateRecoveryCodesMutation();
  const [confirming, setConfirming] = useState(false);
  const [codes, setCodes] = useState<RecoveryCodes>();
  const { failure, fail, clear } = useFailure();
  const { remaining, generatedAt } = overview.recoveryCodes;

  const run = async () => {
    setConfirming(false);
    clear();
    const result = await guard(() => generate(), { needsRecent: true });
    if (!result) return;
    if (result.error) fail(t('security.recovery.failed'), result.error);
    else setCodes(result.data);
  };

  return (
    <SecurityCard title={t('security.recovery.title')} intro={t('security.recovery.intro')} failure={failure}>
      <p className="security-card__status">
        {generatedAt ? t('security.recovery.status', { count: remaining, date: formatDateTime(generatedAt) }) : t('security.recovery.none')}
      </p>
      <div className="security-card__actions">
        <Button type={remaining ? 'default' : 'primary'} loading={isLoading} onClick={() => (remaining ? setConfirming(true) : void run())}>
          {remaining ? t('security.recovery.regenerate') : t('security.recovery.generate')}
        </Button>
      </div>
      <Modal
        open={confirming}
        title={t('security.recovery.confirmTitle')}
        okText={t('security.recovery.regenerate')}
        cancelText={t('security.cancel')}
        onOk={() => void run()}
        onCancel={() => setConfirming(false)}
        destroyOnHidden
      >
        <p>{t('security.recovery.confirmText', { count: remaining })}</p>
      </Modal>
      <CodesDialog codes={codes} onClose={() => setCodes(undefined)} />
    </SecurityCard>
  );
}
