import { KeyOutlined } from '@ant-design/icons';
import type { VerifyCodeBody } from '@gatehouse/contracts';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input/Input';
import { useEffect, useEffectEvent, useId, useRef, useState, type FormEvent } from 'react';
import { AccountRequestError, messagesOf, resendCode, sameOriginPath, verifyCode } from '../account-api';
import { Field } from '../form/Field';
import { matches, required, useForm, type Rule, type Rules } from '../form/use-form';
import { AccountStep, AccountStepActions } from '../layout/AccountStep';
import { MessageList } from '../MessageList';
import { useAccountTranslation, type AccountKey } from '../use-account-translation';
import { interpretLogin, refusalTexts, type LoginOutcome, type TwoFactorChoice, type TwoFactorMethod } from './login-outcome';
import { signInWithPasskey, unansweredNotice } from './passkey-sign-in';
import { codeDeadline, formatRemaining, useCountdown } from './use-countdown';

export interface TwoFactorStepProps {
  token: string;
  method: TwoFactorMethod;
  /** Every way offered at this step, `method` first (a recovery code among them while the user has one). */
  methods: readonly TwoFactorChoice[];
  codeExpiresAt: string | null;
  userName: string;
  /** "Remember me" of the credentials, sent again with a passkey. */
  rememberLogin: boolean;
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

type RecoveryValues = { recoveryCode: string };
/** Ten letters and digits, shown as `xxxxx-xxxxx`: the server ignores dashes and spaces, and so does this check. */
const recoveryCodeShape: Rule<RecoveryValues> = (value) => (/^[a-z0-9]{10}$/i.test(value.replace(/[\s-]/g, '')) ? undefined : 'twoFactor.recoveryFormat');
const RECOVERY_RULES: Rules<RecoveryValues> = {
  recoveryCode: [required('twoFactor.recoveryRequired'), recoveryCodeShape],
};

/** The text under the heading for each way of giving the second factor. */
const METHOD_TEXT: Record<TwoFactorChoice, AccountKey> = {
  email: 'twoFactor.emailText',
  totp: 'twoFactor.totpText',
  passkey: 'twoFactor.passkeyText',
  recovery: 'twoFactor.recoveryText',
};

type Busy = 'verify' | 'resend' | 'passkey' | undefined;

/**
 * The second factor: the e-mailed code (5 minutes, Resend once expired), an authenticator app's
 * code, a passkey (its prompt opens once by itself) or a recovery code, with a way to switch to each
 * other one the server offers.
 */
export function TwoFactorStep({
  token,
  method: initialMethod,
  methods,
  codeExpiresAt,
  userName,
  rememberLogin,
  fallbackUrl,
  onOutcome,
  onCancel,
}: TwoFactorStepProps) {
  const { t } = useAccountTranslation();
  const form = useForm<CodeValues>({ code: '' }, CODE_RULES);
  const recovery = useForm<RecoveryValues>({ recoveryCode: '' }, RECOVERY_RULES);
  const [method, setMethod] = useState<TwoFactorChoice>(initialMethod);
  const [deadline, setDeadline] = useState<number | null>(() => (initialMethod === 'email' ? codeDeadline(codeExpiresAt) : null));
  const remaining = useCountdown(deadline);
  const [expiredByServer, setExpiredByServer] = useState(false);
  const [messages, setMessages] = useState<string[]>([]);
  const [notice, setNotice] = useState<{ type: 'success' | 'info'; text: string } | undefined>();
  const [busy, setBusy] = useState<Busy>();
  const [passkeysSupported] = useState(browserSupportsWebAuthn);
  const passkeyPrompt = useRef<AbortController | undefined>(undefined);
  const othersId = useId();

  const expired = expiredByServer || remaining === 0;
  const emailSent = deadline !== null;

  const clearMessages = () => {
    setMessages([]);
    setNotice(undefined);
  };

  /** Sends the code (or the recovery code) with the step's token; a refusal empties the field. */
  const verify = async (body: Pick<VerifyCodeBody, 'code' | 'recoveryCode'>, retype: () => void) => {
    setBusy('verify');
    clearMessages();
    try {
      const outcome = interpretLogin(await verifyCode({ token, ...body, userName }), fallbackUrl);
      if (outcome.kind !== 'refused') {
        onOutcome(outcome);
        if (outcome.kind === 'redirect') return; // keeps the button busy while the page changes
      } else if (outcome.code === 'account.code_expired') {
        setExpiredByServer(true);
      } else {
        setMessages(refusalTexts(outcome, t));
        retype();
      }
    } catch (error) {
      if (!(error instanceof AccountRequestError)) throw error;
      setMessages([t('login.unknownError')]);
    }
    setBusy(undefined);
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !form.validate()) return;
    void verify({ code: form.values.code }, () => {
      form.reset({ code: '' });
      form.focus('code');
    });
  };

  const submitRecoveryCode = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !recovery.validate()) return;
    void verify({ recoveryCode: recovery.values.recoveryCode.trim() }, () => {
      recovery.reset({ recoveryCode: '' });
      recovery.focus('recoveryCode');
    });
  };

  const resend = async () => {
    setBusy('resend');
    clearMessages();
    try {
      const { ok, body } = await resendCode(token);
      if (ok && body.success) {
        setMethod('email');
        setDeadline(codeDeadline(body.codeExpiresAt));
        setExpiredByServer(false);
        setNotice({ type: 'success', text: t('twoFactor.resent') });
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

  /** Opens the browser's passkey prompt for this step's user; `controller` closes it when another way is chosen. */
  const promptPasskey = async (controller = new AbortController()) => {
    passkeyPrompt.current?.abort();
    passkeyPrompt.current = controller;
    setBusy('passkey');
    clearMessages();
    const attempt = await signInWithPasskey({ token, details: () => ({ rememberLogin }), signal: controller.signal, fallbackUrl });
    // Another way was chosen meanwhile, or the step was left: that one speaks now.
    if (controller.signal.aborted) return;
    if (attempt.kind !== 'answered') {
      const said = unansweredNotice(attempt.kind, t);
      if (said?.type === 'info') setNotice({ type: 'info', text: said.text });
      else if (said) setMessages([said.text]);
    } else if (attempt.outcome.kind === 'refused') {
      setMessages(refusalTexts(attempt.outcome, t));
    } else {
      onOutcome(attempt.outcome);
      if (attempt.outcome.kind === 'redirect') return; // keeps the button busy while the page changes
    }
    setBusy(undefined);
  };

  const switchTo = (choice: TwoFactorChoice) => {
    passkeyPrompt.current?.abort();
    setBusy(undefined);
    clearMessages();
    // The first e-mailed code is sent with the step; another way asks for one only when none was.
    if (choice === 'email' && !emailSent) {
      void resend();
      return;
    }
    form.reset({ code: '' });
    recovery.reset({ recoveryCode: '' });
    setMethod(choice);
  };

  // A step that asks for a passkey opens its prompt once by itself; closing it leaves the button and
  // the other ways.
  const openPasskeyPrompt = useEffectEvent((controller: AbortController) => void promptPasskey(controller));
  useEffect(() => {
    if (initialMethod !== 'passkey' || !passkeysSupported) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => openPasskeyPrompt(controller), 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [initialMethod, passkeysSupported]);

  const others = methods.filter((choice) => choice !== method);
  const otherLabel = (choice: TwoFactorChoice): string => {
    if (choice === 'email') return emailSent ? t('twoFactor.useEmail') : t('twoFactor.emailInstead');
    if (choice === 'totp') return t('twoFactor.useTotp');
    if (choice === 'passkey') return t('twoFactor.usePasskey');
    return t('twoFactor.useRecovery');
  };

  const cancelButton = (
    <Button
      onClick={() => {
        passkeyPrompt.current?.abort();
        onCancel();
      }}
      disabled={busy === 'verify'}
    >
      {t('twoFactor.cancel')}
    </Button>
  );

  return (
    <AccountStep id="2fa" title={t('twoFactor.heading')} text={t(METHOD_TEXT[method])}>
      {method === 'email' && expired ? <Alert className="account-step__alert" type="warning" showIcon title={t('twoFactor.expired')} /> : null}
      {notice ? <Alert className="account-step__alert" type={notice.type} showIcon title={notice.text} /> : null}
      <MessageList messages={messages} />

      {method === 'passkey' ? (
        <>
          {passkeysSupported ? null : <Alert className="account-step__alert" type="warning" showIcon title={t('passkey.notSupported')} />}
          <AccountStepActions>
            {cancelButton}
            <Button
              type="primary"
              icon={<KeyOutlined aria-hidden />}
              loading={busy === 'passkey'}
              disabled={!passkeysSupported || busy === 'verify' || busy === 'resend'}
              onClick={() => void promptPasskey()}
            >
              {t('twoFactor.passkeyButton')}
            </Button>
          </AccountStepActions>
        </>
      ) : method === 'recovery' ? (
        <form noValidate onSubmit={submitRecoveryCode}>
          <Field id={recovery.fieldId('recoveryCode')} label={t('twoFactor.recoveryLabel')} error={recovery.errors.recoveryCode}>
            {(input) => (
              <Input
                {...input}
                autoFocus
                autoComplete="off"
                spellCheck={false}
                placeholder="xxxxx-xxxxx"
                maxLength={40}
                value={recovery.values.recoveryCode}
                onChange={(event) => recovery.setValue('recoveryCode', event.target.value.replace(/\s/g, ''))}
              />
            )}
          </Field>
          <AccountStepActions>
            {cancelButton}
            <Button type="primary" htmlType="submit" loading={busy === 'verify'} disabled={busy === 'resend'}>
              {t('twoFactor.submit')}
            </Button>
          </AccountStepActions>
        </form>
      ) : (
        <form noValidate onSubmit={submitCode}>
          <Field
            id={form.fieldId('code')}
            label={t('twoFactor.codeLabel')}
            error={form.errors.code}
            extra={
              method === 'email' && remaining !== null && !expired ? (
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
            {cancelButton}
            {method === 'email' && expired ? (
              <Button onClick={() => void resend()} loading={busy === 'resend'} disabled={busy === 'verify'}>
                {t('twoFactor.resend')}
              </Button>
            ) : null}
            <Button type="primary" htmlType="submit" loading={busy === 'verify'} disabled={busy === 'resend'}>
              {t('twoFactor.submit')}
            </Button>
          </AccountStepActions>
        </form>
      )}

      {others.length ? (
        <div className="account-step__others">
          <p id={othersId} className="account-step__others-title">
            {t('twoFactor.otherWays')}
          </p>
          <ul aria-labelledby={othersId}>
            {others.map((choice) => (
              <li key={choice}>
                <Button
                  type="link"
                  className="account-page__footer-button"
                  loading={choice === 'email' && busy === 'resend'}
                  disabled={busy === 'verify' || (busy === 'resend' && choice !== 'email')}
                  onClick={() => switchTo(choice)}
                >
                  {otherLabel(choice)}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </AccountStep>
  );
}
