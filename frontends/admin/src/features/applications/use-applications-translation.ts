import { useNamespaceTranslation, type PhraseT } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import type { ApplicationsPhrases } from './i18n/en';

/** The i18next namespace the console registers from `./i18n`. */
export const APPLICATIONS_NAMESPACE = 'applications';

export type ApplicationsT = PhraseT<ApplicationsPhrases>;

/** `useTranslation('applications')` with keys checked against the English phrases. */
export function useApplicationsTranslation(): { t: ApplicationsT; i18n: I18n } {
  return useNamespaceTranslation<ApplicationsPhrases>(APPLICATIONS_NAMESPACE);
}
