import CheckCircleFilled from '@ant-design/icons/CheckCircleFilled';
import { apiErrorMessage, TermsLanguageNotice, useFormatDateTime } from '@gatehouse/frontend-shared';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Skeleton from 'antd/es/skeleton';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../shell/AppIcon';
import { useAcceptDisclaimerMutation, useDisclaimersQuery, type DisclaimerItem } from './disclaimers-api';
import './disclaimers.css';

/** The message of a failed call, in the spec's order (the server's, else the generic ones). */
function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return (error) => {
    const failed = error as Partial<FetchBaseQueryError> | undefined;
    return apiErrorMessage(failed?.status, failed && 'data' in failed ? failed.data : undefined, t);
  };
}

interface DisclaimerCardProps {
  item: DisclaimerItem;
  onAccept: (item: DisclaimerItem) => void;
}

/** One application: its icon and name, "Accept" or a green check with the date, and the text. */
function DisclaimerCard({ item, onAccept }: DisclaimerCardProps) {
  const { t } = useTranslation('portal');
  const formatDateTime = useFormatDateTime();
  const titleId = useId();
  return (
    <li className="disclaimer-card">
      <div className="disclaimer-card__header">
        <AppIcon appId={item.appInfoId} size={40} />
        <h2 id={titleId} className="disclaimer-card__title">
          {item.displayAppName}
        </h2>
        {item.accepted ? (
          <span className="disclaimer-card__accepted">
            <CheckCircleFilled className="disclaimer-card__check" aria-hidden />
            {t('disclaimers.acceptedOn', { date: formatDateTime(item.onAcceptedDate) })}
          </span>
        ) : (
          <Button type="primary" onClick={() => onAccept(item)} aria-label={t('disclaimers.acceptApp', { name: item.displayAppName })}>
            {t('disclaimers.accept')}
          </Button>
        )}
      </div>
      <TermsLanguageNotice className="disclaimer-card__notice" languages={item.languages} textLanguage={item.textLanguage} />
      {/* A long text scrolls in its box, which the keyboard can reach to scroll it. */}
      <div className="disclaimer-card__text" tabIndex={0} role="region" aria-labelledby={titleId} lang={item.textLanguage ?? undefined}>
        {item.text}
      </div>
    </li>
  );
}

function DisclaimerList({ onAccept }: { onAccept: (item: DisclaimerItem) => void }) {
  const { t } = useTranslation('portal');
  const errorText = useErrorText();
  const { data, error, isLoading } = useDisclaimersQuery();

  if (error) return <Alert type="error" showIcon title={t('disclaimers.loadError')} description={errorText(error)} />;
  if (isLoading || !data) return <Skeleton active avatar paragraph={{ rows: 3 }} />;
  if (data.items.length === 0) return <Alert type="info" showIcon title={t('disclaimers.empty')} />;
  return (
    <ul className="disclaimer-list">
      {data.items.map((item) => (
        <DisclaimerCard key={item.appInfoId} item={item} onAccept={onAccept} />
      ))}
    </ul>
  );
}

/**
 * "Disclaimers" (/profile/disclaimers): the applications whose terms the user is asked to accept,
 * accepted ones first. Accepting asks for a confirmation, then the list is read again.
 */
export default function DisclaimersPage() {
  const { t } = useTranslation('portal');
  const errorText = useErrorText();
  const [confirming, setConfirming] = useState<DisclaimerItem>();
  const [accept, acceptance] = useAcceptDisclaimerMutation();

  const confirm = async () => {
    if (!confirming) return;
    await accept({ appInfoId: confirming.appInfoId, version: confirming.version });
    setConfirming(undefined);
  };

  return (
    <section className="disclaimers" aria-labelledby="disclaimers-title">
      <h1 id="disclaimers-title">{t('disclaimers.title')}</h1>
      <p className="disclaimers__intro">{t('disclaimers.intro')}</p>
      {acceptance.error ? (
        <Alert className="disclaimers__error" type="error" showIcon title={t('disclaimers.acceptFailed')} description={errorText(acceptance.error)} />
      ) : null}
      <DisclaimerList onAccept={setConfirming} />
      <Modal
        open={confirming !== undefined}
        title={t('disclaimers.confirmTitle', { name: confirming?.displayAppName ?? '' })}
        okText={t('disclaimers.accept')}
        cancelText={t('disclaimers.cancel')}
        confirmLoading={acceptance.isLoading}
        onOk={() => void confirm()}
        onCancel={() => setConfirming(undefined)}
        destroyOnHidden
      >
        <p>{t('disclaimers.confirmText')}</p>
      </Modal>
    </section>
  );
}
