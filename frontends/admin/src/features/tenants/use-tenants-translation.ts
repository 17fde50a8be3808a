import { useNamespaceTranslation, type PhraseT } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import type { TenantsPhrases } from './i18n/en';

/** The i18next namespace the console registers from `./i18n`. */
export const TENANTS_NAMESPACE = 'tenants';

export type TenantsT = PhraseT<TenantsPhrases>;

/** `useTranslation('tenants')` with keys checked against the English phrases. */
export function useTenantsTranslation(): { t: TenantsT; i18n: I18n } {
  return useNamespaceTranslation<TenantsPhrases>(TENANTS_NAMESPACE);
}
