import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
// Types only: the phrases themselves are registered by the portal, one language at a time.
import type { AccountPhrases } from '../i18n/account/en';

/** The i18next namespace of the account area's phrases. */
export const ACCOUNT_NAMESPACE = 'account';

type Join<Prefix extends string, Key extends string> = Prefix extends '' ? Key : `${Prefix}.${Key}`;
type KeyPaths<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? Join<Prefix, K> : KeyPaths<T[K], Join<Prefix, K>>;
}[keyof T & string];

/** Every phrase of the account namespace, as a dotted path. */
export type AccountKey = KeyPaths<AccountPhrases>;

export type AccountT = (key: AccountKey, options?: Record<string, unknown>) => string;

/**
 * `useTranslation('account')` with keys checked against the English phrases. The portal's i18next
 * typing only declares the shared namespace, so the namespace is passed untyped and `t` is given
 * this area's own key type instead.
 */
export function useAccountTranslation(): { t: AccountT; i18n: I18n } {
  const { t, i18n } = useTranslation(ACCOUNT_NAMESPACE as never) as unknown as { t: AccountT; i18n: I18n };
  return { t, i18n };
}
