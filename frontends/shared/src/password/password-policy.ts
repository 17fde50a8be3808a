import type { ErrorCode, PasswordPolicy } from '@gatehouse/contracts';

export type { PasswordPolicy };

/**
 * The product's default password policy (the server's own defaults): what the pages show until
 * the policy in force has been read, or when it could not be.
 */
export const DEFAULT_PASSWORD_POLICY: Readonly<PasswordPolicy> = {
  minLength: 12,
  requireUppercase: true,
  requireLowercase: true,
  requireDigit: true,
  requireSymbol: true,
  historySize: 7,
  maxAgeDays: 90,
  minStrength: 3,
};

export type PasswordCheckName = 'length' | 'uppercase' | 'lowercase' | 'digit' | 'symbol';

/** A rule of the policy that a password can be checked against as it is typed. */
export interface PasswordCheck {
  name: PasswordCheckName;
  /** The server's error code when it refuses a password for this rule. */
  serverCode: ErrorCode;
  /** The server's own test. */
  test: (password: string) => boolean;
}

/** The policy's rules a typed password is checked against, in the order the pages list them; rules the policy does not require are left out. */
export function passwordChecks(policy: PasswordPolicy): PasswordCheck[] {
  const checks: Array<PasswordCheck & { required: boolean }> = [
    { name: 'length', serverCode: 'password.too_short', required: true, test: (p) => p.length >= policy.minLength },
    { name: 'uppercase', serverCode: 'password.uppercase', required: policy.requireUppercase, test: (p) => /\p{Lu}/u.test(p) },
    { name: 'lowercase', serverCode: 'password.lowercase', required: policy.requireLowercase, test: (p) => /\p{Ll}/u.test(p) },
    { name: 'digit', serverCode: 'password.digit', required: policy.requireDigit, test: (p) => /\p{Nd}/u.test(p) },
    { name: 'symbol', serverCode: 'password.symbol', required: policy.requireSymbol, test: (p) => /[^\p{L}\p{Nd}\s]/u.test(p) },
  ];
  return checks.filter((check) => check.required).map(({ required: _required, ...check }) => check);
}
