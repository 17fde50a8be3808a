import type { Language } from './languages';
import { de } from './locales/de';
import { en, type Phrases } from './locales/en';
import { es } from './locales/es';
import { fr } from './locales/fr';
import { it } from './locales/it';
import { ptBR } from './locales/pt-br';
import { ptPT } from './locales/pt-pt';
import { byLanguage, perLanguage } from './phrase-tables';

export type { Phrases };

export type I18nResources = Record<Language, { translation: Phrases }>;

const phrases = byLanguage<Phrases>({ en, fr, es, ptPT, ptBR, it, de });

export const resources: I18nResources = perLanguage((language) => ({ translation: phrases[language] }));

/**
 * The i18next namespaces and their phrase types. An app that registers more namespaces (through
 * `createI18n({ namespaces })`) adds them here by declaration merging, so its `t()` keys are
 * checked too:
 *
 * ```ts
 * declare module '@gatehouse/frontend-shared' {
 *   interface I18nNamespaces { portal: PortalPhrases }
 * }
 * ```
 */
export interface I18nNamespaces {
  translation: Phrases;
}

// Makes `t()` keys checked against the English phrases in every workspace.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: I18nNamespaces;
  }
}
