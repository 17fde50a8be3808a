import { useNamespaceTranslation, type PhraseT } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import type { ApplicationRolesPhrases } from './i18n/en';

/** The i18next namespace the console registers from `./i18n`. */
export const APPLICATION_ROLES_NAMESPACE = 'applicationRoles';

export type ApplicationRolesT = PhraseT<ApplicationRolesPhrases>;

/** `useTranslation('applicationRoles')` with keys checked against the English phrases. */
export function useApplicationRolesTranslation(): { t: ApplicationRolesT; i18n: I18n } {
  return useNamespaceTranslation<ApplicationRolesPhrases>(APPLICATION_ROLES_NAMESPACE);
}
