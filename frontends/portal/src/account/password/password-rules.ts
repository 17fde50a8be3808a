import type { AccountKey } from '../use-account-translation';

export interface PasswordRule {
  key: AccountKey;
  test?: (password: string) => boolean;
  /** The code of the server's error when it refuses a password for this rule. */
  serverCode?: string;
}

/**
 * The spec's password policy as shown to the user. The first five are checked as the user types,
 * with the server's own tests; rotation and history are enforced by the server only.
 */
export const PASSWORD_RULES: ReadonlyArray<PasswordRule> = [
  { key: 'password.ruleLength', test: (p) => p.length >= 12, serverCode: 'password.too_short' },
  { key: 'password.ruleUppercase', test: (p) => /\p{Lu}/u.test(p), serverCode: 'password.uppercase' },
  { key: 'password.ruleLowercase', test: (p) => /\p{Ll}/u.test(p), serverCode: 'password.lowercase' },
  { key: 'password.ruleDigit', test: (p) => /\p{Nd}/u.test(p), serverCode: 'password.digit' },
  { key: 'password.ruleSymbol', test: (p) => /[^\p{L}\p{Nd}\s]/u.test(p), serverCode: 'password.symbol' },
  { key: 'password.ruleRotation' },
  { key: 'password.ruleHistory', serverCode: 'password.reused' },
];
