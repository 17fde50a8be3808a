import { useNamespaceTranslation, type PhraseT } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import type { ScimPhrases } from './i18n/en';

/** The i18next namespace the console registers from `./i18n`. */
export const SCIM_NAMESPACE = 'scim';

export type ScimT = PhraseT<ScimPhrases>;

/** `useTranslation('scim')` with keys checked against the English phrases. */
export function useScimTranslation(): { t: ScimT; i18n: I18n } {
  return useNamespaceTranslation<ScimPhrases>(SCIM_NAMESPACE);
}
