import { useNamespaceTranslation, type PhraseKey, type PhraseT } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
// Types only: the phrases themselves are registered by the portal, one language at a time.
import type { AccountPhrases } from '../i18n/account/en';

/** The i18next namespace of the account area's phrases. */
export const ACCOUNT_NAMESPACE = 'account';

/** Every phrase of the account namespace, as a dotted path. */
export type AccountKey = PhraseKey<AccountPhrases>;

export type AccountT = PhraseT<AccountPhrases>;

/**
 * `useTranslation('account')` with keys checked against the English phrases (the portal's i18next
 * typing only declares the shared namespace).
 */
export function useAccountTranslation(): { t: AccountT; i18n: I18n } {
  return useNamespaceTranslation<AccountPhrases>(ACCOUNT_NAMESPACE);
}
