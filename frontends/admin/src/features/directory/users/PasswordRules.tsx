import CheckCircleFilled from '@ant-design/icons/CheckCircleFilled';
import InfoCircleOutlined from '@ant-design/icons/InfoCircleOutlined';
import MinusCircleOutlined from '@ant-design/icons/MinusCircleOutlined';
import { useDirectoryTranslation, type DirectoryKey } from '../use-directory-translation';

/**
 * The spec's password policy as shown: the first five are checked as the administrator types; the
 * rotation is the server's to enforce (as is the history of the last 7, which the spec keeps off
 * screen).
 */
export const PASSWORD_RULES: ReadonlyArray<{ key: DirectoryKey; test: (password: string) => boolean }> = [
  { key: 'password.ruleLength', test: (p) => p.length >= 12 },
  { key: 'password.ruleUppercase', test: (p) => /\p{Lu}/u.test(p) },
  { key: 'password.ruleLowercase', test: (p) => /\p{Ll}/u.test(p) },
  { key: 'password.ruleDigit', test: (p) => /\p{Nd}/u.test(p) },
  { key: 'password.ruleSymbol', test: (p) => /[^\p{L}\p{Nd}\s]/u.test(p) },
];

export function PasswordRules({ password, id }: { password: string | undefined; id?: string }) {
  const { t } = useDirectoryTranslation();
  const value = password ?? '';
  return (
    <div id={id} className="directory-password-rules">
      <p>{t('password.rulesTitle')}</p>
      <ul>
        {PASSWORD_RULES.map(({ key, test }) => {
          const met = test(value);
          return (
            <li key={key} data-met={met}>
              {met ? <CheckCircleFilled aria-hidden /> : <MinusCircleOutlined aria-hidden />} {t(key)}
            </li>
          );
        })}
      </ul>
      <p>
        <InfoCircleOutlined aria-hidden /> {t('password.ruleRotation')}
      </p>
    </div>
  );
}
