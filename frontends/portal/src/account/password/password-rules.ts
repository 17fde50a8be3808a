import type { AccountKey } from '../use-account-translation';

/**
 * The spec's password policy as shown to the user. The first five are checked as the user types,
 * with the server's own tests; rotation and history are enforced by the server only.
 */
export const PASSWORD_RULES: ReadonlyArray<{ key: AccountKey; test?: (password: string) => boolean }> = [
  { key: 'password.ruleLength', test: (p) => p.length >= 12 },
  { key: 'password.ruleUppercase', test: (p) => /\p{Lu}/u.test(p) },
  { key: 'password.ruleLowercase', test: (p) => /\p{Ll}/u.test(p) },
  { key: 'password.ruleDigit', test: (p) => /\p{Nd}/u.test(p) },
  { key: 'password.ruleSymbol', test: (p) => /[^\p{L}\p{Nd}\s]/u.test(p) },
  { key: 'password.ruleRotation' },
  { key: 'password.ruleHistory' },
];
