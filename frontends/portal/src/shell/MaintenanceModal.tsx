import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApplicationStatusQuery } from '../api/portal-api';

/** The spec's width of the maintenance notice. */
export const MAINTENANCE_MODAL_WIDTH = 1000;

/** Warns, once per page load, that the application's status is 'Maintenance'. */
export function MaintenanceModal({ appName }: { appName: string }) {
  const { t } = useTranslation('portal');
  const { data: status } = useApplicationStatusQuery(appName);
  const [dismissed, setDismissed] = useState(false);
  const dismiss = () => setDismissed(true);

  return (
    <Modal
      open={status?.trim() === 'Maintenance' && !dismissed}
      width={MAINTENANCE_MODAL_WIDTH}
      title={t('maintenance.title')}
      onCancel={dismiss}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={dismiss}>
          {t('maintenance.ok')}
        </Button>
      }
    >
      <p>{t('maintenance.text')}</p>
    </Modal>
  );
}
