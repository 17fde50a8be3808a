import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useState, type FormEvent } from 'react';
import { AccountRequestError, changeExpiredPassword } from '../account-api';
import { useForm } from '../form/use-form';
import { AccountStep, AccountStepActions } from '../layout/AccountStep';
import { MessageList } from '../MessageList';
import { EMPTY_NEW_PASSWORD, NEW_PASSWORD_RULES, NewPasswordFields } from '../password/NewPasswordFields';
import { useAccountTranslation } from '../use-account-translation';
import { useNewPasswordRefusal } from '../password/password-refusal';
import { interpretLogin, refusalTexts, type LoginOutcome } from './login-outcome';

export interface ExpiredPasswordStepProps {
  token: string;
  userName: string;
  /** The server's explanation, shown above the form. */
  message: string | undefined;
  fallbackUrl: string;
  /** Signed in, or on to the second factor. */
  onOutcome: (outcome: LoginOutcome) => void;
  onCancel: () => void;
}

/** A password past its 90 days must be replaced before the sign-in goes on. */
export function ExpiredPasswordStep({ token, userName, message, fallbackUrl, onOutcome, onCancel }: ExpiredPasswordStepProps) {
  const { t } = useAccountTranslation();
  const form = useForm(EMPTY_NEW_PASSWORD, NEW_PASSWORD_RULES);
  const [errors, showErrors] = useNewPasswordRefusal(form.values);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !form.validate()) return;
    setBusy(true);
    showErrors([]);
    const { newPassword, confirmPassword } = form.values;
    try {
      const outcome = interpretLogin(await changeExpiredPassword({ token, newPassword, confirmPassword }), fallbackUrl);
      if (outcome.kind !== 'refused') {
        onOutcome(outcome);
        if (outcome.kind === 'redirect') return;
      } else {
        showErrors(refusalTexts(outcome, t), { fieldErrors: outcome.fieldErrors, judged: { newPassword, confirmPassword } });
      }
    } catch (error) {
      if (!(error instanceof AccountRequestError)) throw error;
      showErrors([t('login.unknownError')]);
    }
    setBusy(false);
  };

  return (
    <AccountStep id="expired" title={t('expiredPassword.heading')}>
      <Alert className="account-step__alert" type="info" showIcon title={message || t('expiredPassword.intro')} />
      <form noValidate onSubmit={(event) => void submit(event)}>
        <NewPasswordFields form={form} userName={userName} autoFocus />
        <MessageList messages={errors} />
        <AccountStepActions>
          <Button onClick={onCancel} disabled={busy}>
            {t('expiredPassword.cancel')}
          </Button>
          <Button type="primary" htmlType="submit" loading={busy}>
            {t('expiredPassword.submit')}
          </Button>
        </AccountStepActions>
      </form>
    </AccountStep>
  );
}
