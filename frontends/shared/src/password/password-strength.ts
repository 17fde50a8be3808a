import type { PasswordStrength, StrengthScore } from '@gatehouse/contracts/password-strength';
import { useEffect, useState } from 'react';
import { FALLBACK_LANGUAGE, matchLanguage } from '../i18n/languages';

export type { PasswordStrength, StrengthScore };

/** The word a page shows for a score. */
export type StrengthLevel = 'weak' | 'fair' | 'good' | 'strong';

const LEVELS: Readonly<Record<StrengthScore, StrengthLevel>> = { 0: 'weak', 1: 'weak', 2: 'fair', 3: 'good', 4: 'strong' };

/** The word for a score: 0 and 1 weak, 2 fair, 3 good (the default policy's minimum), 4 strong. */
export function strengthLevel(score: StrengthScore): StrengthLevel {
  return LEVELS[score];
}

/**
 * Why a password is not strong enough, in a sentence or a few: the estimate's warning, then its
 * suggestions, as the server words its refusal. Here rather than taken from the estimator's module,
 * which the pages load only with `import()`.
 */
export function weaknessReason(strength: PasswordStrength): string {
  return [strength.warning, ...strength.suggestions].filter(Boolean).join(' ');
}

/**
 * Loads the estimator the server judges with on first use, only through `import()`: it and zxcvbn
 * are chunks of their own, and each language's words another, fetched where a password is chosen.
 */
export function loadStrengthEstimator(): Promise<typeof import('@gatehouse/contracts/password-strength')> {
  return import('@gatehouse/contracts/password-strength');
}

/**
 * The strength of the password as it is typed, or undefined while there is nothing to estimate:
 * an empty password, the estimator still downloading (the page works meanwhile), or `enabled`
 * false (a policy without a minimum strength loads nothing). The last estimate stays shown until
 * the next one, which takes a few milliseconds; one that arrives after the password changed again
 * is dropped.
 */
export function usePasswordStrength(
  password: string,
  languageTag: string | undefined,
  userInputs: readonly (string | null | undefined)[] = [],
  enabled = true,
): PasswordStrength | undefined {
  const [strength, setStrength] = useState<PasswordStrength>();
  const language = matchLanguage(languageTag) ?? FALLBACK_LANGUAGE;
  // One dependency for the words, whatever array holds them from one render to the next.
  const words = userInputs.filter(Boolean).join('\n');
  useEffect(() => {
    if (!enabled || !password) return undefined;
    let current = true;
    void loadStrengthEstimator()
      .then((estimator) => estimator.estimatePasswordStrength(password, { language, userInputs: words ? words.split('\n') : [] }))
      .then((result) => {
        if (current) setStrength(result);
      })
      // Without the estimator (a failed download) the page shows the rules alone: the server judges anyway.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [enabled, password, language, words]);
  return enabled && password ? strength : undefined;
}
