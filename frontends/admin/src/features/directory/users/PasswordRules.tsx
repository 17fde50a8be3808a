import CheckCircleFilled from '@ant-design/icons/CheckCircleFilled';
import InfoCircleOutlined from '@ant-design/icons/InfoCircleOutlined';
import MinusCircleOutlined from '@ant-design/icons/MinusCircleOutlined';
import { DEFAULT_PASSWORD_POLICY, passwordChecks, type PasswordCheckName, type PasswordPolicy } from '@gatehouse/frontend-shared';
import { usePasswordPolicyQuery } from '../../security-config/security-config-api';
import { useDirectoryTranslation, type DirectoryKey } from '../use-directory-translation';

const CHECK_KEYS: Record<PasswordCheckName, DirectoryKey> = {
  length: 'password.ruleLength',
  uppercase: 'password.ruleUppercase',
  lowercase: 'password.ruleLowercase',
  digit: 'password.ruleDigit',
  symbol: 'password.ruleSymbol',
};

/**
 * The password policy in force as shown: its character rules, checked as the administrator types
 * (with the server's own tests); the rotation is the server's to enforce (as is the history, which
 * the spec keeps off screen).
 */
export function passwordRules(policy: PasswordPolicy): Array<{ key: DirectoryKey; params?: Record<string, number>; test: (password: string) => boolean }> {
  return passwordChecks(policy).map(({ name, test }) => ({ key: CHECK_KEYS[name], test, ...(name === 'length' ? { params: { min: policy.minLength } } : {}) }));
}

export function PasswordRules({ password, id }: { password: string | undefined; id?: string }) {
  const { t } = useDirectoryTranslation();
  // The defaults until the policy in force is known (or when it cannot be read): the server decides anyway.
  const { data: policy = DEFAULT_PASSWORD_POLICY } = usePasswordPolicyQuery();
  const value = password ?? '';
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
    </div>
  );
}
