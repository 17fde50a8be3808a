import { createI18n, type CreateI18nOptions, type Language } from '@gatehouse/frontend-shared';
import type { AccountPhrases } from './account';
import { portalResources, type PortalPhrases } from './portal';

/**
 * The account area's phrases ('account', owned by the account area in ./account), one chunk per
 * language. Its index bundles all seven languages; importing each language file instead keeps the
 * sign-in page to the two it uses (the current one and the English fallback).
 */
export const accountPhraseLoaders: Record<Language, () => Promise<AccountPhrases>> = {
  en: () => import('./account/en').then((module) => module.en),
  fr: () => import('./account/fr').then((module) => module.fr),
  es: () => import('./account/es').then((module) => module.es),
  'pt-PT': () => import('./account/pt-pt').then((module) => module.ptPT),
  'pt-BR': () => import('./account/pt-br').then((module) => module.ptBR),
  it: () => import('./account/it').then((module) => module.it),
  de: () => import('./account/de').then((module) => module.de),
};

/** The portal's namespaces next to the shared 'translation' one. */
export const portalNamespaces = {
  portal: portalResources,
  account: accountPhraseLoaders,
};

/**
 * i18n options of the portal: `useTranslation('portal')` and `useTranslation('account')`. The
 * account phrases are fetched at start, side by side with the sign-in page's code, rather than
 * after it.
 */
export const portalI18nOptions: CreateI18nOptions = { namespaces: portalNamespaces, preload: ['account'] };

/** The portal's i18n instance; tests pin a language with `{ language }`. */
export function createPortalI18n(options: Omit<CreateI18nOptions, 'namespaces' | 'preload'> = {}) {
  return createI18n({ ...options, ...portalI18nOptions });
}

declare module '@gatehouse/frontend-shared' {
  interface I18nNamespaces {
    portal: PortalPhrases;
    account: AccountPhrases;
  }
}
