import { KeyOutlined } from '@ant-design/icons';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useState } from 'react';
import { AccountStep, AccountStepActions } from '../layout/AccountStep';
import { MessageList } from '../MessageList';
import { useAccountTranslation } from '../use-account-translation';
import { refusalTexts, type LoginOutcome } from './login-outcome';
import { enrolPasskey } from './passkey-sign-in';

export interface PasskeyEnrolmentStepProps {
  token: string;
  fallbackUrl: string;
  /** Signed in (or a next step) once the passkey is added. */
  onOutcome: (outcome: LoginOutcome) => void;
  onCancel: () => void;
}

/**
 * A company of the user accepts only passkeys as the second factor and the user has none: one is
 * added here, then the sign-in goes on as if it had been given.
 */
export function PasskeyEnrolmentStep({ token, fallbackUrl, onOutcome, onCancel }: PasskeyEnrolmentStepProps) {
  const { t } = useAccountTranslation();
  const [supported] = useState(browserSupportsWebAuthn);
  const [busy, setBusy] = useState(false);
  const [messages, setMessages] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | undefined>();

  const add = async () => {
    setBusy(true);
    setMessages([]);
    setNotice(undefined);
    const attempt = await enrolPasskey(token, fallbackUrl);
    if (attempt.kind === 'answered' && attempt.outcome.kind === 'refused') {
      setMessages(refusalTexts(attempt.outcome, t));
    } else if (attempt.kind === 'answered') {
      onOutcome(attempt.outcome);
      if (attempt.outcome.kind === 'redirect') return; // stays busy while the browser leaves
    } else if (attempt.kind === 'cancelled') {
      setNotice(t('passkey.notAdded'));
    } else if (attempt.kind === 'unusable') {
      setMessages([t('passkey.notCreated')]);
    } else if (attempt.kind === 'unreachable') {
      setMessages([t('login.unknownError')]);
    }
    setBusy(false);
  };

  return (
    <AccountStep id="passkey-enrolment" title={t('passkey.enrolHeading')} text={t('passkey.enrolText')}>
      {supported ? null : <Alert className="account-step__alert" type="warning" showIcon title={t('passkey.notSupported')} />}
      {notice ? <Alert className="account-step__alert" type="info" showIcon title={notice} /> : null}
      <MessageList messages={messages} />
      <AccountStepActions>
        <Button onClick={onCancel} disabled={busy}>
          {t('passkey.cancel')}
        </Button>
        <Button type="primary" icon={<KeyOutlined aria-hidden />} loading={busy} disabled={!supported} onClick={() => void add()}>
          {t('passkey.add')}
        </Button>
      </AccountStepActions>
    </AccountStep>
  );
}
