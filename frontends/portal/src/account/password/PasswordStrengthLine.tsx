import { strengthLevel, usePasswordStrength, weaknessReason, type StrengthLevel } from '@gatehouse/frontend-shared';
import { useAccountTranslation, type AccountKey } from '../use-account-translation';
import { usePasswordPolicy } from './password-rules';

const LEVEL_KEYS: Record<StrengthLevel, AccountKey> = {
  weak: 'password.strengthWeak',
  fair: 'password.strengthFair',
  good: 'password.strengthGood',
  strong: 'password.strengthStrong',
};

export interface PasswordStrengthLineProps {
  password: string;
  /** The user's own words (user name, e-mail address, names), which make a password easier to guess. */
  userInputs: readonly (string | null | undefined)[];
}

/**
 * The typed password's strength, and, below the policy's minimum, why, in the page's language.
 * Nothing when the policy asks for no minimum strength; the server judges anyway. Until the
 * estimator has arrived (the rules above work meanwhile) the line keeps its place, empty: what is
 * below it (the form's button) does not move under the user's pointer when it arrives.
 */
export function PasswordStrengthLine({ password, userInputs }: PasswordStrengthLineProps) {
  const { t, i18n } = useAccountTranslation();
  const { minStrength } = usePasswordPolicy();
  const strength = usePasswordStrength(password, i18n.resolvedLanguage ?? i18n.language, userInputs, minStrength > 0);
  if (!strength) return minStrength > 0 ? <p className="account-rules__strength" aria-hidden="true" /> : null;
  const level = strengthLevel(strength.score);
  const enough = strength.score >= minStrength;
  return (
    <p className="account-rules__strength" data-level={level} data-enough={enough}>
      {t('password.strength', { level: t(LEVEL_KEYS[level]) })}
      {enough ? null : <span> {t('password.strengthTooLow', { reason: weaknessReason(strength) })}</span>}
    </p>
  );
}
