import ClockCircleOutlined from '@ant-design/icons/ClockCircleOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  EXPIRED_COUNTDOWN_SECONDS,
  IDLE_TIMEOUT_MS,
  formatCountdown,
  useHasPassed,
  useIdle,
  useNow,
} from './session-timers';

function IdleWarning({ expiresAt }: { expiresAt: number }) {
  const { t } = useTranslation('portal');
  const now = useNow(true);
  return (
    <div className="session-idle">
      <Alert
        type="warning"
        showIcon
        icon={<ClockCircleOutlined aria-hidden />}
        title={t('session.idleTitle')}
        description={
          // The countdown changes every second: announced once, not at every tick.
          <span aria-live="off">{t('session.idleCountdown', { time: formatCountdown(expiresAt - now) })}</span>
        }
      />
    </div>
  );
}

function SessionExpiredModal({ onSignOut }: { onSignOut: () => void }) {
  const { t } = useTranslation('portal');
  const [left, setLeft] = useState(EXPIRED_COUNTDOWN_SECONDS);
  const signedOut = useRef(false);
  const signOutOnce = useRef(() => {
    if (signedOut.current) return;
    signedOut.current = true;
    onSignOut();
  });

  useEffect(() => {
    const timer = setInterval(() => setLeft((value) => Math.max(0, value - 1)), 1000);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    if (left === 0) signOutOnce.current();
  }, [left]);

  return (
    <Modal
      open
      title={t('session.expiredTitle')}
      closable={false}
      keyboard={false}
      mask={{ closable: false }}
      footer={
        <Button type="primary" autoFocus onClick={() => signOutOnce.current()}>
          {t('session.ok')}
        </Button>
      }
    >
      <p>{t('session.expired')}</p>
      <p>{t('session.expiredCountdown', { count: left })}</p>
    </Modal>
  );
}

export interface SessionWatchProps {
  /** End of the session, epoch ms. */
  expiresAt: number | undefined;
  onSignOut: () => void;
  idleTimeoutMs?: number;
}

/**
 * The spec's session idle behaviour: after 10 minutes without activity a warning counts down to
 * the end of the session and goes away at the next activity; at the end 'Your session has
 * expired.' counts 5 seconds down, then signs out (Ok signs out at once).
 */
export function SessionWatch({ expiresAt, onSignOut, idleTimeoutMs = IDLE_TIMEOUT_MS }: SessionWatchProps) {
  const idle = useIdle(idleTimeoutMs);
  const expired = useHasPassed(expiresAt);
  if (expired) return <SessionExpiredModal onSignOut={onSignOut} />;
  if (idle && expiresAt !== undefined) return <IdleWarning expiresAt={expiresAt} />;
  return null;
}
