export { GATEHOUSE_THEME, LocalizedConfigProvider, useAntdLocale } from './antd/LocalizedConfigProvider';
export type { LocalizedConfigProviderProps } from './antd/LocalizedConfigProvider';
export { loadAntdLocale } from './antd/antd-locale';
export { apiErrorMessage } from './api/error-message';
export { ApiError, fetchJson, NOT_FOUND_MESSAGE, UNKNOWN_ERROR_MESSAGE } from './api/fetch-json';
export type { FetchJsonOptions } from './api/fetch-json';
export { NOT_FOUND_TEXT, NotFoundPage } from './components/NotFoundPage';
export { PlaceholderPage } from './components/PlaceholderPage';
export type { PlaceholderPageProps } from './components/PlaceholderPage';
export { changeLanguage, createI18n } from './i18n/create-i18n';
export type { CreateI18nOptions, NamespaceResources } from './i18n/create-i18n';
export {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  LANGUAGE_NAMES,
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
export { useI18nInstance } from './i18n/use-i18n-instance';
export type { I18nNamespaces, I18nResources, Phrases } from './i18n/resources';
export { mountApp } from './mount';
