export { ApiError, fetchJson, NOT_FOUND_MESSAGE, UNKNOWN_ERROR_MESSAGE } from './api/fetch-json';
export type { FetchJsonOptions } from './api/fetch-json';
export { NOT_FOUND_TEXT, NotFoundPage } from './components/NotFoundPage';
export { PlaceholderPage } from './components/PlaceholderPage';
export type { PlaceholderPageProps } from './components/PlaceholderPage';
export { changeLanguage, createI18n } from './i18n/create-i18n';
export type { CreateI18nOptions } from './i18n/create-i18n';
export {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  PREFERENCES_STORAGE_KEY,
  SUPPORTED_LANGUAGES,
  browserLanguages,
  detectLanguage,
  isSupportedLanguage,
  matchLanguage,
  readStoredLanguage,
  storeLanguagePreference,
} from './i18n/languages';
export type { DetectLanguageOptions, Language } from './i18n/languages';
export { resources } from './i18n/resources';
export type { I18nResources, Phrases } from './i18n/resources';
export { mountApp } from './mount';
