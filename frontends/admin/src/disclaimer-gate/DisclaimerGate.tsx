import { skipToken } from '@reduxjs/toolkit/query/react';
import { TermsLanguageNotice } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthUser } from '../auth/auth-context';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import { useAcceptDisclaimerGateMutation, useDisclaimerGateQuery } from './disclaimer-gate-api';
import { gateTargetOf } from './gate-target';
import './disclaimer-gate.css';

/**
 * The profile disclaimer gate (admin spec 2, 5, 9): the console asks whether the signed-in user
 * accepted the disclaimer of the console's own application and, while not, shows its text in a
 * dialog that only "Accept" closes. Should the question fail, no gate is shown.
 */
export function DisclaimerGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation('admin');
  const titleId = useId();
  const target = gateTargetOf(useAuthUser());
  const { data } = useDisclaimerGateQuery(target ?? skipToken);
  const [accept, acceptance] = useAcceptDisclaimerGateMutation();
  const open = data?.accepted === false && acceptance.data?.accepted !== true;

  return (
    <>
      {children}
      <Modal
        open={open}
        title={<span id={titleId}>{t('disclaimerGate.title')}</span>}
        closable={false}
        keyboard={false}
        mask={{ closable: false }}
        width={720}
        footer={
          <Button type="primary" loading={acceptance.isLoading} onClick={() => target && void accept(target)}>
            {t('disclaimerGate.accept')}
          </Button>
        }
        styles={{ body: { maxHeight: '60vh', overflowY: 'auto' } }}
      >
        <p>{t('disclaimerGate.intro')}</p>
        <ApiErrorAlert error={acceptance.error} className="disclaimer-gate__error" />
        <TermsLanguageNotice className="disclaimer-gate__notice" languages={data?.languages ?? []} textLanguage={data?.textLanguage} />
        {/* A scrollable region must be reachable by keyboard to be scrolled without a mouse. */}
        <section className="disclaimer-gate__text" tabIndex={0} aria-labelledby={titleId} lang={data?.textLanguage ?? undefined}>
          {data?.text}
        </section>
      </Modal>
    </>
  );
}
