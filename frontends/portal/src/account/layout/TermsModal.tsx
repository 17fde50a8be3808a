import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import { useId } from 'react';
import { useAccountTranslation } from '../use-account-translation';
import { TermsOfUseFr } from './terms-fr';

export interface TermsModalProps {
  open: boolean;
  onClose: () => void;
}

/** The general terms of use: scrollable, closed by its buttons or Escape, never by a click beside it. */
export default function TermsModal({ open, onClose }: TermsModalProps) {
  const { t } = useAccountTranslation();
  const titleId = useId();
  return (
    <Modal
      open={open}
      title={<span id={titleId}>{t('footer.termsTitle')}</span>}
      onCancel={onClose}
      mask={{ closable: false }}
      width={720}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('footer.close')}
        </Button>
      }
      styles={{ body: { maxHeight: '60vh', overflowY: 'auto' } }}
    >
      {/* A scrollable region must be reachable by keyboard to be scrolled without a mouse. */}
      <section className="account-terms" lang="fr" tabIndex={0} aria-labelledby={titleId}>
        <TermsOfUseFr />
      </section>
    </Modal>
  );
}
