import CheckCircleFilled from '@ant-design/icons/CheckCircleFilled';
import InfoCircleOutlined from '@ant-design/icons/InfoCircleOutlined';
import MinusCircleOutlined from '@ant-design/icons/MinusCircleOutlined';
import {
  DEFAULT_PASSWORD_POLICY,
  passwordChecks,
  strengthLevel,
  usePasswordStrength,
  weaknessReason,
  type PasswordCheckName,
  type PasswordPolicy,
  type StrengthLevel,
} from '@gatehouse/frontend-shared';
import { usePasswordPolicyQuery } from '../../security-config/security-config-api';
import { useDirectoryTranslation, type DirectoryKey } from '../use-directory-translation';

const CHECK_KEYS: Record<PasswordCheckName, DirectoryKey> = {
  length: 'password.ruleLength',
  uppercase: 'password.ruleUppercase',
  lowercase: 'password.ruleLowercase',
  digit: 'password.ruleDigit',
  symbol: 'password.ruleSymbol',
};

const LEVEL_KEYS: Record<StrengthLevel, DirectoryKey> = {
  weak: 'password.strengthWeak',
  fair: 'password.strengthFair',
  good: 'password.strengthGood',
  strong: 'password.strengthStrong',
};

/**
 * The password policy in force as shown: its character rules, checked as the administrator types
 * (with the server's own tests); the rotation is the server's to enforce (as is the history, which
 * the spec keeps off screen). Then the typed password's strength and, below the policy's minimum,
 * why: the estimator is downloaded once a password is typed (nothing when the policy asks for no
 * minimum), the rules working meanwhile.
 */
export function passwordRules(policy: PasswordPolicy): Array<{ key: DirectoryKey; params?: Record<string, number>; test: (password: string) => boolean }> {
  return passwordChecks(policy).map(({ name, test }) => ({ key: CHECK_KEYS[name], test, ...(name === 'length' ? { params: { min: policy.minLength } } : {}) }));
}

export function PasswordRules({ password, id, userInputs = [] }: { password: string | undefined; id?: string; userInputs?: readonly (string | null | undefined)[] }) {
  const { t, i18n } = useDirectoryTranslation();
  // The defaults until the policy in force is known (or when it cannot be read): the server decides anyway.
  const { data: policy = DEFAULT_PASSWORD_POLICY } = usePasswordPolicyQuery();
  const value = password ?? '';
  const strength = usePasswordStrength(value, i18n.resolvedLanguage ?? i18n.language, userInputs, policy.minStrength > 0);
  const enough = strength !== undefined && strength.score >= policy.minStrength;
  return (
    <div id={id} className="directory-password-rules">
      <p>{t('password.rulesTitle')}</p>
      <ul>
        {passwordRules(policy).map(({ key, params, test }) => {
          const met = test(value);
          return (
            <li key={key} data-met={met}>
              {met ? <CheckCircleFilled aria-hidden /> : <MinusCircleOutlined aria-hidden />} {t(key, params)}
            </li>
          );
        })}
      </ul>
      {policy.maxAgeDays > 0 && (
        <p>
          <InfoCircleOutlined aria-hidden /> {t('password.ruleRotation', { days: policy.maxAgeDays })}
        </p>
      )}
      {strength && (
        <p className="directory-password-strength" data-level={strengthLevel(strength.score)} data-enough={enough}>
          {t('password.strength', { level: t(LEVEL_KEYS[strengthLevel(strength.score)]) })}
          {enough ? null : ` ${t('password.strengthTooLow', { reason: weaknessReason(strength) })}`}
        </p>
      )}
    </div>
  );
}
