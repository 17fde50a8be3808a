import { KeyOutlined, WindowsFilled } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { requiresGroupSignIn, type GroupSignInRule } from '@gatehouse/contracts';
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill } from '@simplewebauthn/browser';
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState, type FormEvent } from 'react';
import { AccountRequestError, login } from '../account-api';
import { useDialogs } from '../dialogs/use-dialogs';
import { Field } from '../form/Field';
import { filled, required, useForm, type Rules } from '../form/use-form';
import { MessageList } from '../MessageList';
import { useAccountTranslation } from '../use-account-translation';
import { interpretLogin, refusalTexts, type LoginOutcome } from './login-outcome';
import { signInWithPasskey, unansweredNotice, type PasskeyAttempt } from './passkey-sign-in';
import { useForgotPassword } from './use-forgot-password';

export type CredentialsValues = {
  userName: string;
  password: string;
  rememberLogin: boolean;
};

const passwordRequired = filled<CredentialsValues>('login.passwordRequired');

/** User name and password, except for a group user, who has no password here. */
function credentialsRules(isGroupUser: (userName: string) => boolean): Rules<CredentialsValues> {
  return {
    userName: [required('login.userNameRequired')],
    password: [(value, values) => (isGroupUser(values.userName) ? undefined : passwordRequired(value, values))],
  };
}

export interface CredentialsFormProps {
  initialValues: Omit<CredentialsValues, 'password'>;
  interaction: string | undefined;
  returnUrl: string | null;
  fallbackUrl: string;
  /** Where the Microsoft sign-in starts; undefined when it is switched off. */
  microsoftUrl: string | undefined;
  /** Who must use the Microsoft sign-in, from the configuration: recognised as the name is typed. */
  groupSignIn: GroupSignInRule | undefined;
  /** Shows 'Select another authentication method' when there is another one. */
  onAnotherMethod: (() => void) | undefined;
  /** Signed in, or a next step; `values` lets a Cancel come back to what was typed. */
  onOutcome: (outcome: LoginOutcome, values: Omit<CredentialsValues, 'password'>) => void;
}

/**
 * The local user's form: user, password, remember me, forgot password, log in; and the passkeys of
 * this browser, from the user field's autofill or the "Sign in with a passkey" button.
 */
export function CredentialsForm({
  initialValues,
  interaction,
  returnUrl,
  fallbackUrl,
  microsoftUrl,
  groupSignIn,
  onAnotherMethod,
  onOutcome,
}: CredentialsFormProps) {
  const { t } = useAccountTranslation();
  // The server decides (a name the configuration's rule missed, say): it said so for this name.
  const [refusedAsGroup, setRefusedAsGroup] = useState(false);
  const isGroupUser = useCallback(
    (userName: string) => refusedAsGroup || (groupSignIn !== undefined && requiresGroupSignIn(userName, groupSignIn)),
    [groupSignIn, refusedAsGroup],
  );
  const rules = useMemo(() => credentialsRules(isGroupUser), [isGroupUser]);
  const form = useForm<CredentialsValues>({ ...initialValues, password: '' }, rules);
  // Live: the password disappears as soon as the typed name is a group one, and comes back after.
  const externalOnly = isGroupUser(form.values.userName);
  const dialogs = useDialogs();
  const [messages, setMessages] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | undefined>();
  const [busy, setBusy] = useState<'password' | 'passkey' | undefined>();
  const [passkeysSupported] = useState(browserSupportsWebAuthn);
  // The autofill's request, stopped by the button's prompt and made again once that one is over.
  const autofill = useRef<AbortController | undefined>(undefined);
  const [autofillRound, setAutofillRound] = useState(0);
  const microsoftButton = useRef<HTMLAnchorElement>(null);
  const forgotPassword = useForgotPassword(dialogs.open, () => form.values.userName);

  // After a submit only, never while the name is typed: the way forward gets the focus (the log-in
  // button the user just pressed is gone).
  const [microsoftFocus, setMicrosoftFocus] = useState(0);
  useEffect(() => {
    if (microsoftFocus) microsoftButton.current?.focus();
  }, [microsoftFocus]);

  const setUserName = (userName: string) => {
    form.setValue('userName', userName);
    // Another user name may be a local one: the server's verdict was about the previous one.
    setRefusedAsGroup(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !form.validate()) return;
    setNotice(undefined);
    if (externalOnly) {
      // No password to check: Enter in the user field leads to the Microsoft button.
      setMicrosoftFocus((count) => count + 1);
      return;
    }
    setBusy('password');
    setMessages([]);
    const userName = form.values.userName.trim();
    const { password, rememberLogin } = form.values;
    try {
      const response = await login({
        userName,
        password,
        rememberLogin,
        returnUrl,
        ...(interaction ? { interaction } : {}),
      });
      const outcome = interpretLogin(response, fallbackUrl);
      if (outcome.kind !== 'refused') {
        onOutcome(outcome, { userName, rememberLogin });
        if (outcome.kind === 'redirect') return; // stays busy while the browser leaves
      } else if (outcome.externalLoginRequired) {
        setRefusedAsGroup(true);
        form.reset({ password: '' });
        setMicrosoftFocus((count) => count + 1);
      } else {
        setMessages(refusalTexts(outcome, t));
        // A refused password is typed again, without an "Enter your password" while doing so.
        form.reset({ password: '' });
        form.focus('password');
      }
    } catch (error) {
      if (!(error instanceof AccountRequestError)) throw error;
      setMessages([t('login.unknownError')]);
    }
    setBusy(undefined);
  };

  /** Shows how a passkey attempt ended; true when the sign-in went on (the form is left). */
  const settlePasskey = (attempt: PasskeyAttempt): boolean => {
    if (attempt.kind !== 'answered') {
      const said = unansweredNotice(attempt.kind, t);
      if (said?.type === 'info') setNotice(said.text);
      else if (said) setMessages([said.text]);
      return false;
    }
    const { outcome } = attempt;
    if (outcome.kind === 'refused') {
      setMessages(refusalTexts(outcome, t));
      return false;
    }
    onOutcome(outcome, { userName: form.values.userName.trim(), rememberLogin: form.values.rememberLogin });
    return true;
  };

  const passkeySignIn = async () => {
    if (busy) return;
    autofill.current?.abort();
    setBusy('passkey');
    setMessages([]);
    setNotice(undefined);
    const { rememberLogin } = form.values;
    const attempt = await signInWithPasskey({ interaction, details: () => ({ rememberLogin, returnUrl }), fallbackUrl });
    if (settlePasskey(attempt)) return; // stays busy while the browser leaves
    setBusy(undefined);
    setAutofillRound((round) => round + 1);
  };

  const autofillDetails = useEffectEvent(() => ({ rememberLogin: form.values.rememberLogin, returnUrl }));
  const autofillChosen = useEffectEvent(() => {
    setBusy('passkey');
    setMessages([]);
    setNotice(undefined);
  });
  const autofillRequest = useEffectEvent((signal: AbortSignal, onChosen: () => void) =>
    signInWithPasskey({
      interaction,
      details: () => autofillDetails(),
      autofill: true,
      signal,
      fallbackUrl,
      onCredential: () => {
        onChosen();
        autofillChosen();
      },
    }),
  );
  const autofillEnded = useEffectEvent((attempt: PasskeyAttempt) => {
    if (settlePasskey(attempt)) return;
    setBusy(undefined);
    // A refused passkey may be followed by another one.
    setAutofillRound((round) => round + 1);
  });

  // The passkeys of this browser are offered in the user field's autofill as soon as the form shows.
  // Only a passkey the user chose there has an end to show: a request that fails before (its time
  // ran out, the browser could not make it) ends quietly, the button and the password still there.
  useEffect(() => {
    const controller = new AbortController();
    autofill.current = controller;
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill()) || controller.signal.aborted) return;
      let chosen = false;
      const attempt = await autofillRequest(controller.signal, () => (chosen = true));
      if (chosen && !controller.signal.aborted) autofillEnded(attempt);
    })();
    return () => controller.abort();
  }, [autofillRound]);

  return (
    <section aria-labelledby="account-login-title">
      {dialogs.holder}
      <h2 id="account-login-title" className="account-step__title">
        {t('login.heading')}
      </h2>
      <MessageList messages={messages} />
      {notice ? <Alert className="account-step__alert" type="info" showIcon title={notice} /> : null}
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Field id={form.fieldId('userName')} label={t('login.userName')} error={form.errors.userName}>
          {(input) => (
            <Input
              {...input}
              // "webauthn": the browser offers this site's passkeys in the field's autofill.
              autoComplete="username webauthn"
              autoFocus
              placeholder={t('login.userNamePlaceholder')}
              spellCheck={false}
              value={form.values.userName}
              onChange={(event) => setUserName(event.target.value)}
            />
          )}
        </Field>

        {externalOnly ? (
          <div className="account-step__messages">
            <Alert type="info" showIcon title={t('login.groupNotice')} />
            {microsoftUrl ? (
              <Button ref={microsoftButton} type="primary" block icon={<WindowsFilled aria-hidden />} href={microsoftUrl}>
                {t('login.microsoftButton')}
              </Button>
            ) : null}
          </div>
        ) : (
          <>
            <Field id={form.fieldId('password')} label={t('login.password')} error={form.errors.password}>
              {(input) => (
                <Password
                  {...input}
                  autoComplete="current-password"
                  value={form.values.password}
                  onChange={(event) => form.setValue('password', event.target.value)}
                />
              )}
            </Field>
            <div className="account-step__actions">
              <Checkbox
                checked={form.values.rememberLogin}
                onChange={(event) => form.setValue('rememberLogin', event.target.checked)}
              >
                {t('login.rememberMe')}
              </Checkbox>
              <Button type="link" className="account-page__footer-button" onClick={forgotPassword}>
                {t('login.forgotPassword')}
              </Button>
            </div>
            <Button className="account-form__submit" type="primary" htmlType="submit" block loading={busy === 'password'} disabled={busy === 'passkey'}>
              {t('login.submit')}
            </Button>
            {passkeysSupported ? (
              <Button
                className="account-form__passkey"
                block
                icon={<KeyOutlined aria-hidden />}
                loading={busy === 'passkey'}
                disabled={busy === 'password'}
                onClick={() => void passkeySignIn()}
              >
                {t('passkey.signIn')}
              </Button>
            ) : null}
          </>
        )}
      </form>
      {onAnotherMethod ? (
        <Button type="link" className="account-page__footer-button account-form__submit" onClick={onAnotherMethod}>
          {t('login.anotherMethod')}
        </Button>
      ) : null}
    </section>
  );
}
