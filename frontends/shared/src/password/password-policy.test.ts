import { passwordPolicySchema } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_POLICY, passwordChecks } from './password-policy';

const names = (checks: ReturnType<typeof passwordChecks>) => checks.map((check) => check.name);

describe('passwordChecks', () => {
  it('starts from the server’s defaults, the minimum strength included', () => {
    expect(DEFAULT_PASSWORD_POLICY).toEqual(passwordPolicySchema.parse({}));
    expect(DEFAULT_PASSWORD_POLICY.minStrength).toBe(3);
  });

  it('checks the default policy’s five rules with the server’s codes', () => {
    const checks = passwordChecks(DEFAULT_PASSWORD_POLICY);
    expect(names(checks)).toEqual(['length', 'uppercase', 'lowercase', 'digit', 'symbol']);
    expect(checks.map((check) => check.serverCode)).toEqual(['password.too_short', 'password.uppercase', 'password.lowercase', 'password.digit', 'password.symbol']);
    expect(checks.map((check) => check.test('Correct-Horse-42!'))).toEqual([true, true, true, true, true]);
    expect(checks.map((check) => check.test('short'))).toEqual([false, false, true, false, false]);
  });

  it('follows the policy in force: its length, and only the character classes it requires', () => {
    const checks = passwordChecks({ ...DEFAULT_PASSWORD_POLICY, minLength: 20, requireSymbol: false, requireUppercase: false });
    expect(names(checks)).toEqual(['length', 'lowercase', 'digit']);
    expect(checks[0]!.test('a'.repeat(19))).toBe(false);
    expect(checks[0]!.test('a'.repeat(20))).toBe(true);
  });
});
