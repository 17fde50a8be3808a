import { createI18n, phraseLoaders, type CreateI18nOptions } from '@gatehouse/frontend-shared';
import type { AccountPhrases } from './account';
import { portalResources, type PortalPhrases } from './portal';

/**
 * The account area's phrases ('account', owned by the account area in ./account), one chunk per
 * language. Its index bundles all seven languages; importing each language file instead keeps the
 * sign-in page to the two it uses (the current one and the English fallback).
 */
export const accountPhraseLoaders = phraseLoaders<AccountPhrases>(import.meta.glob('./account/{en,fr,es,pt-pt,pt-br,it,de}.ts'));

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
