import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  FALLBACK_LANGUAGE,
  SUPPORTED_LANGUAGES,
  detectLanguage,
  storeLanguagePreference,
  type DetectLanguageOptions,
  type Language,
} from './languages';
import { resources as bundledResources, type I18nResources } from './resources';

export interface CreateI18nOptions {
  /** Skips detection; tests and embedding pages use it to pin a language. */
  language?: Language;
  detection?: DetectLanguageOptions;
  resources?: I18nResources;
}

export function createI18n(options: CreateI18nOptions = {}): I18n {
  const instance = i18next.createInstance();
  // Also registers the instance as react-i18next's default, which `fetchJson` reads.
  instance.use(initReactI18next);
  void instance.init({
    resources: options.resources ?? bundledResources,
    lng: options.language ?? detectLanguage(options.detection),
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: SUPPORTED_LANGUAGES,
    // Without it i18next also looks up "pt" for "pt-BR" and warns that it is unsupported.
    load: 'currentOnly',
    defaultNS: 'translation',
    ns: ['translation'],
    // React already escapes rendered strings; escaping here would double-encode them.
    interpolation: { escapeValue: false },
    // Resources are bundled, so initialising synchronously avoids a first render of raw keys.
    initAsync: false,
  });
  syncDocumentLanguage(instance);
  return instance;
}

// Keeps <html lang> truthful for screen readers and hyphenation when the language changes.
function syncDocumentLanguage(instance: I18n): void {
  if (typeof document === 'undefined') return;
  const apply = (language: string) => {
    document.documentElement.lang = language;
  };
  if (instance.language) apply(instance.language);
  instance.on('languageChanged', apply);
}

export async function changeLanguage(instance: I18n, language: Language): Promise<void> {
  storeLanguagePreference(language);
  await instance.changeLanguage(language);
}
