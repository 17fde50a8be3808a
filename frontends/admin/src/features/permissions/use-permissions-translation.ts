import { useNamespaceTranslation, type PhraseT } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import type { PermissionsPhrases } from './i18n/en';

/** The i18next namespace the console registers from `./i18n`. */
export const PERMISSIONS_NAMESPACE = 'permissions';

export type PermissionsT = PhraseT<PermissionsPhrases>;

/** `useTranslation('permissions')` with keys checked against the English phrases. */
export function usePermissionsTranslation(): { t: PermissionsT; i18n: I18n } {
  return useNamespaceTranslation<PermissionsPhrases>(PERMISSIONS_NAMESPACE);
}
