import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input/Input';
import { useState, type FormEvent } from 'react';
import { AccountRequestError, messagesOf, resendCode, sameOriginPath, verifyCode } from '../account-api';
import { Field } from '../form/Field';
import { matches, required, useForm, type Rules } from '../form/use-form';
import { AccountStep, AccountStepActions } from '../layout/AccountStep';
import { MessageList } from '../MessageList';
import { useAccountTranslation } from '../use-account-translation';
import { interpretLogin, refusalTexts, type LoginOutcome, type TwoFactorMethod } from './login-outcome';
import { codeDeadline, formatRemaining, useCountdown } from './use-countdown';

export interface TwoFactorStepProps {
  token: string;
  method: TwoFactorMethod;
  codeExpiresAt: string | null;
  userName: string;
  fallbackUrl: string;
  /** A redirect (signed in, or the sign-in expired); refusals stay on this step. */
  onOutcome: (outcome: LoginOutcome) => void;
  onCancel: () => void;
}

const onlyDigits = (value: string) => value.replace(/\D/g, '').slice(0, 6);

type CodeValues = { code: string };
const CODE_RULES: Rules<CodeValues> = {
  code: [required('twoFactor.codeRequired'), matches(/^\d{6}$/, 'twoFactor.codeFormat')],
};

/**
 * The second factor: the e-mailed code (5 minutes, Resend once expired) or an authenticator app's
 * code (with an e-mailed code as the way out when the app is not at hand).
 */
export function TwoFactorStep({ token, method: initialMethod, codeExpiresAt, userName, fallbackUrl, onOutcome, onCancel }: TwoFactorStepProps) {
  const { t } = useAccountTranslation();
  const form = useForm<CodeValues>({ code: '' }, CODE_RULES);
  const [method, setMethod] = useState(initialMethod);
  const [deadline, setDeadline] = useState<number | null>(() => (initialMethod === 'email' ? codeDeadline(codeExpiresAt) : null));
  const remaining = useCountdown(deadline);
  const [expiredByServer, setExpiredByServer] = useState(false);
  const [messages, setMessages] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | undefined>();
  const [busy, setBusy] = useState<'verify' | 'resend' | undefined>();

  const expired = expiredByServer || remaining === 0;
  const canResend = method === 'totp' || expired;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !form.validate()) return;
    const { code } = form.values;
    setBusy('verify');
    setMessages([]);
    setNotice(undefined);
    try {
      const outcome = interpretLogin(await verifyCode({ token, code, userName }), fallbackUrl);
      if (outcome.kind !== 'refused') {
        onOutcome(outcome);
        if (outcome.kind === 'redirect') return; // keeps the button busy while the page changes
      } else if (outcome.code === 'account.code_expired') {
        setExpiredByServer(true);
      } else {
        setMessages(refusalTexts(outcome, t));
        form.reset({ code: '' });
        form.focus('code');
      }
    } catch (error) {
      if (!(error instanceof AccountRequestError)) throw error;
      setMessages([t('login.unknownError')]);
    }
    setBusy(undefined);
  };

  const resend = async () => {
    setBusy('resend');
    setMessages([]);
    setNotice(undefined);
    try {
      const { ok, body } = await resendCode(token);
      if (ok && body.success) {
        setMethod('email');
        setDeadline(codeDeadline(body.codeExpiresAt));
        setExpiredByServer(false);
        setNotice(t('twoFactor.resent'));
        form.reset({ code: '' });
        form.focus('code');
      } else if (body.redirectTo) {
        onOutcome({ kind: 'redirect', url: sameOriginPath(body.redirectTo) ?? fallbackUrl });
      } else {
        const texts = messagesOf(body);
        setMessages(texts.length ? texts : [t('login.unknownError')]);
      }
    } catch (error) {
      if (!(error instanceof AccountRequestError)) throw error;
      setMessages([t('login.unknownError')]);
    }
    setBusy(undefined);
  };

  return (
    <AccountStep
      id="2fa"
      title={t('twoFactor.heading')}
      text={method === 'totp' ? t('twoFactor.totpText') : t('twoFactor.emailText')}
    >
      {expired ? <Alert className="account-step__alert" type="warning" showIcon title={t('twoFactor.expired')} /> : null}
      {notice ? <Alert className="account-step__alert" type="success" showIcon title={notice} /> : null}
      <MessageList messages={messages} />

      <form noValidate onSubmit={(event) => void submit(event)}>
        <Field
          id={form.fieldId('code')}
          label={t('twoFactor.codeLabel')}
          error={form.errors.code}
          extra={
            remaining !== null && !expired ? (
              // Read once with the field, not every second: a live region here would never stop talking.
              <span className="account-countdown" role="timer" aria-live="off">
                {t('twoFactor.expiresIn', { time: formatRemaining(remaining) })}
              </span>
            ) : undefined
          }
        >
          {(input) => (
            <Input
              {...input}
              autoFocus
              autoComplete="one-time-code"
              inputMode="numeric"
              spellCheck={false}
              value={form.values.code}
              onChange={(event) => form.setValue('code', onlyDigits(event.target.value))}
            />
          )}
        </Field>
        <AccountStepActions>
          <Button onClick={onCancel} disabled={busy === 'verify'}>
            {t('twoFactor.cancel')}
          </Button>
          {canResend ? (
            <Button onClick={() => void resend()} loading={busy === 'resend'} disabled={busy === 'verify'}>
              {method === 'totp' ? t('twoFactor.emailInstead') : t('twoFactor.resend')}
            </Button>
          ) : null}
          <Button type="primary" htmlType="submit" loading={busy === 'verify'} disabled={busy === 'resend'}>
            {t('twoFactor.submit')}
          </Button>
        </AccountStepActions>
      </form>
    </AccountStep>
  );
}
