import { CheckCircleFilled, InfoCircleOutlined, MinusCircleOutlined } from '@ant-design/icons';
import Password from 'antd/es/input/Password';
import { useId } from 'react';
import { Field } from '../form/Field';
import { filled, type FormState, type Rules } from '../form/use-form';
import { useAccountTranslation } from '../use-account-translation';
import { PasswordStrengthLine } from './PasswordStrengthLine';
import { usePasswordRules } from './password-rules';

export interface NewPasswordValues extends Record<string, unknown> {
  newPassword: string;
  confirmPassword: string;
}

export const EMPTY_NEW_PASSWORD: NewPasswordValues = { newPassword: '', confirmPassword: '' };

/** Both required and equal; the policy itself is the server's to enforce. */
export const NEW_PASSWORD_RULES: Rules<NewPasswordValues> = {
  newPassword: [filled('password.required')],
  confirmPassword: [
    filled('password.confirmRequired'),
    (value, values) => (value === values.newPassword ? undefined : 'password.mismatch'),
  ],
};

export interface NewPasswordFieldsProps {
  form: FormState<NewPasswordValues>;
  /** Whose password it is, for password managers to file the new one under. */
  userName: string;
  autoFocus?: boolean;
}

/** New password and its confirmation, with the requirements the new password meets and its strength as it is typed. */
export function NewPasswordFields({ form, userName, autoFocus = false }: NewPasswordFieldsProps) {
  const { t } = useAccountTranslation();
  const rulesId = useId();
  const rules = usePasswordRules();
  const password = form.values.newPassword;
  return (
    <>
      <input type="text" autoComplete="username" value={userName} readOnly hidden />
      <Field id={form.fieldId('newPassword')} label={t('password.newPassword')} error={form.errors.newPassword} describedBy={rulesId}>
        {(input) => (
          <Password
            {...input}
            autoComplete="new-password"
            autoFocus={autoFocus}
            value={password}
            onChange={(event) => form.setValue('newPassword', event.target.value)}
          />
        )}
      </Field>
      <Field id={form.fieldId('confirmPassword')} label={t('password.confirmPassword')} error={form.errors.confirmPassword}>
        {(input) => (
          <Password
            {...input}
            autoComplete="new-password"
            value={form.values.confirmPassword}
            onChange={(event) => form.setValue('confirmPassword', event.target.value)}
          />
        )}
      </Field>
      <div id={rulesId}>
        <p className="account-rules__title">{t('password.rulesTitle')}</p>
        <ul className="account-rules">
          {rules.map(({ key, params, test }) => {
            const met = test ? test(password) : undefined;
            return (
              <li key={key} data-met={met === true ? 'true' : undefined}>
                {met === undefined ? (
                  <InfoCircleOutlined aria-hidden />
                ) : met ? (
                  <CheckCircleFilled aria-hidden />
                ) : (
                  <MinusCircleOutlined aria-hidden />
                )}
                <span>
                  {t(key, params)}
                  {met === undefined ? null : (
                    <span className="account-visually-hidden"> ({met ? t('password.ruleMet') : t('password.ruleNotMet')})</span>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
        <PasswordStrengthLine password={password} userInputs={[userName]} />
      </div>
    </>
  );
}
