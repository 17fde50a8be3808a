import { useFormatDateTime } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import message from 'antd/es/message';
import Modal from 'antd/es/modal';
import Skeleton from 'antd/es/skeleton';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEndOtherSessionsMutation, useEndSessionMutation, useSessionsQuery, type UserSessionInfo } from '../../api/portal-api';
import { useRecentSignIn } from './recent-sign-in';
import { SecurityCard, useFailure } from './security-parts';

/** One browser: what it is, from where, since when, which applications; "Sign out" unless it is this one. */
function SessionItem({ session, busy, onEnd }: { session: UserSessionInfo; busy: boolean; onEnd: () => void }) {
  const { t } = useTranslation('portal');
  const formatDateTime = useFormatDateTime();
  const browser = session.browser ?? t('security.sessions.unknownBrowser');
  const lastSeen = formatDateTime(session.lastSeenAt);
  return (
    <li className="security-item">
      <div className="security-item__main">
        <span className="security-item__title">
          {browser}
          {session.current ? <Tag color="green">{t('security.sessions.thisDevice')}</Tag> : null}
        </span>
        {session.ip ? <span className="security-item__detail">{t('security.sessions.address', { ip: session.ip })}</span> : null}
        <span className="security-item__detail">{t('security.sessions.started', { date: formatDateTime(session.startedAt) })}</span>
        <span className="security-item__detail">{t('security.sessions.lastSeen', { date: lastSeen })}</span>
        <span className="security-item__detail">
          {session.applications.length
            ? t('security.sessions.applications', { names: session.applications.join(', ') })
            : t('security.sessions.noApplication')}
        </span>
      </div>
      {session.current ? null : (
        <div className="security-item__actions">
          <Button loading={busy} onClick={onEnd} aria-label={t('security.sessions.endOne', { browser, date: lastSeen })}>
            {t('security.sessions.end')}
          </Button>
        </div>
      )}
    </li>
  );
}

/**
 * "Sessions and devices": the browsers where the user is signed in, each to sign out but this one,
 * or all the others at once.
 */
export function SessionsSection() {
  const { t } = useTranslation('portal');
  const guard = useRecentSignIn();
  const sessions = useSessionsQuery();
  const [endSession] = useEndSessionMutation();
  const [endOthers, endingOthers] = useEndOtherSessionsMutation();
  const [ending, setEnding] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const { failure, fail, clear } = useFailure();
  const [toast, toastHolder] = message.useMessage();

  const end = async (session: UserSessionInfo) => {
    clear();
    setEnding(session.id);
    const result = await guard(() => endSession(session.id), { needsRecent: true });
    setEnding(undefined);
    if (!result) return;
    if (result.error) fail(t('security.sessions.endFailed'), result.error);
    else void toast.success(t('security.sessions.ended'));
  };

  const endAllOthers = async () => {
    setConfirming(false);
    clear();
    const result = await guard(() => endOthers(), { needsRecent: true });
    if (!result) return;
    if (!result.data) fail(t('security.sessions.endOthersFailed'), result.error);
    else void toast.success(t('security.sessions.endedOthers', { count: result.data.ended }));
  };

  const list = sessions.data?.sessions;
  const others = list?.filter((session) => !session.current).length ?? 0;
  return (
    <SecurityCard title={t('security.sessions.title')} intro={t('security.sessions.intro')} failure={failure}>
      {toastHolder}
      {sessions.isError ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('security.sessions.loadError')}
          action={<Button onClick={() => void sessions.refetch()}>{t('security.retry')}</Button>}
        />
      ) : !list ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : (
        <>
          <ul className="security-list" aria-label={t('security.sessions.list')}>
            {list.map((session) => (
              <SessionItem key={session.id} session={session} busy={ending === session.id} onEnd={() => void end(session)} />
            ))}
          </ul>
          <div className="security-card__actions">
            <Button danger disabled={others === 0} loading={endingOthers.isLoading} onClick={() => setConfirming(true)}>
              {t('security.sessions.endOthers')}
            </Button>
          </div>
        </>
      )}
      <Modal
        open={confirming}
        title={t('security.sessions.endOthersTitle')}
        okText={t('security.sessions.endOthers')}
        okButtonProps={{ danger: true }}
        cancelText={t('security.cancel')}
        onOk={() => void endAllOthers()}
        onCancel={() => setConfirming(false)}
        destroyOnHidden
      >
        <p>{t('security.sessions.endOthersText')}</p>
      </Modal>
    </SecurityCard>
  );
}
