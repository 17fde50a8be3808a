import { DEFAULT_PASSWORD_POLICY, passwordChecks, type PasswordCheckName, type PasswordPolicy } from '@gatehouse/frontend-shared';
import { useMemo } from 'react';
import { useAccountConfig } from '../account-config';
import type { AccountKey } from '../use-account-translation';

export interface PasswordRule {
  key: AccountKey;
  /** The values the rule's text names (its length, its days). */
  params?: Record<string, number>;
  test?: (password: string) => boolean;
  /** The code of the server's error when it refuses a password for this rule. */
  serverCode?: string;
}

const CHECK_KEYS: Record<PasswordCheckName, AccountKey> = {
  length: 'password.ruleLength',
  uppercase: 'password.ruleUppercase',
  lowercase: 'password.ruleLowercase',
  digit: 'password.ruleDigit',
  symbol: 'password.ruleSymbol',
};

/**
 * The password policy as shown to the user: the rules checked as the user types, with the
 * server's own tests, then rotation and history, which the server alone enforces (each shown
 * only when the policy has it).
 */
export function passwordRules(policy: PasswordPolicy): PasswordRule[] {
  const rules: PasswordRule[] = passwordChecks(policy).map(({ name, test, serverCode }) => ({
    key: CHECK_KEYS[name],
    test,
    serverCode,
    ...(name === 'length' ? { params: { min: policy.minLength } } : {}),
  }));
  if (policy.maxAgeDays > 0) rules.push({ key: 'password.ruleRotation', params: { days: policy.maxAgeDays } });
  if (policy.historySize > 0) rules.push({ key: 'password.ruleHistory', params: { history: policy.historySize }, serverCode: 'password.reused' });
  return rules;
}

/** The policy in force, as `/api/v1/config` gives it (the defaults until it is read). */
export function usePasswordPolicy(): PasswordPolicy {
  const state = useAccountConfig();
  return (state.status === 'ready' ? state.config?.policy : undefined) ?? DEFAULT_PASSWORD_POLICY;
}

/** The rules of the policy in force. */
export function usePasswordRules(): PasswordRule[] {
  const policy = usePasswordPolicy();
  return useMemo(() => passwordRules(policy), [policy]);
}
