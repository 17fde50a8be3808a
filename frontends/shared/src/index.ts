export { GATEHOUSE_THEME, LocalizedConfigProvider, useAntdLocale } from './antd/LocalizedConfigProvider';
export type { LocalizedConfigProviderProps } from './antd/LocalizedConfigProvider';
export { loadAntdLocale } from './antd/antd-locale';
export { apiErrorMessage } from './api/error-message';
export { productBasePath, productPath } from './base-path';
export { tabStorage, type TabStorage } from './tab-storage';
export { ApiError, apiErrorFromBody, fetchJson, NOT_FOUND_MESSAGE, UNKNOWN_ERROR_MESSAGE } from './api/fetch-json';
export { errorBodyOf, fieldErrorBodies, parseErrorBody, readErrorBody } from './api/error-body';
export type { ErrorBody, FieldErrorBody } from './api/error-body';
export type { FetchJsonOptions } from './api/fetch-json';
export { LanguageMenu } from './components/LanguageMenu';
export type { LanguageMenuProps } from './components/LanguageMenu';
export { NotFoundPage } from './components/NotFoundPage';
export { PlaceholderPage } from './components/PlaceholderPage';
export type { PlaceholderPageProps } from './components/PlaceholderPage';
export { SkipLink } from './components/SkipLink';
export { ROLE_ORIGIN_COLORS, RoleTag, useRoleOriginText } from './components/RoleTag';
export type { RoleTagProps } from './components/RoleTag';
export { TermsLanguageNotice } from './components/TermsLanguageNotice';
export type { TermsLanguageNoticeProps } from './components/TermsLanguageNotice';
export { useMediaQuery } from './hooks/use-media-query';
export {
  BreakableText,
  ClampedText,
  IDENTIFYING_COLUMN_CLASS,
  PIN_IDENTIFYING_MIN_WIDTH,
  PIN_MIN_WIDTH,
  ReadableTable,
  identifying,
  isIdentifying,
  pinnedColumns,
} from './table/readable-table';
export { readHiddenColumns, useColumnChoice } from './table/column-choice';
export type { ColumnChoice } from './table/column-choice';
export { formatDateTime, useFormatDateTime } from './format/date-time';
export { DEFAULT_PASSWORD_POLICY, passwordChecks } from './password/password-policy';
export type { PasswordCheck, PasswordCheckName, PasswordPolicy } from './password/password-policy';
export { strengthLevel, usePasswordStrength, weaknessReason } from './password/password-strength';
export type { PasswordStrength, StrengthLevel, StrengthScore } from './password/password-strength';
export type { FormatDateTimeOptions } from './format/date-time';
export { changeLanguage, createI18n } from './i18n/create-i18n';
export { applyChosenLanguage, chosenLanguage } from './i18n/chosen-language';
export type { LanguageClaims } from './i18n/chosen-language';
export type { CreateI18nOptions, NamespaceResources } from './i18n/create-i18n';
export {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  LANGUAGE_NAMES,
  MENU_LANGUAGES,
  PREFERENCES_STORAGE_KEY,
  SUPPORTED_LANGUAGES,
  browserLanguages,
  detectLanguage,
  isSupportedLanguage,
  matchLanguage,
  menuLanguages,
  readStoredLanguage,
  storeLanguagePreference,
} from './i18n/languages';
export type { DetectLanguageOptions, Language } from './i18n/languages';
export { byLanguage, perLanguage, phraseLoaders } from './i18n/phrase-tables';
export type { PhrasesByExportName } from './i18n/phrase-tables';
export { resources } from './i18n/resources';
export { useI18nInstance } from './i18n/use-i18n-instance';
export { useNamespaceTranslation } from './i18n/use-namespace-translation';
export type { PhraseKey, PhraseT } from './i18n/use-namespace-translation';
export type { I18nNamespaces, I18nResources, Phrases } from './i18n/resources';
export { mountApp } from './mount';
export { API_TIMEOUT_MS, authorizedBaseQuery, authorizedFetch, createApiDependencies } from './api/authorized-base-query';
export type { ApiDependencies, TokenSource } from './api/authorized-base-query';
export { useApiDependencies } from './api/use-api-dependencies';
export { NOTIFICATION_TAG_TYPES, notificationEndpoints } from './api/notifications-endpoints';
export { useLoad } from './hooks/use-load';
export type { LoadState } from './hooks/use-load';
export { createTokenLock, TOKEN_REFRESH_LOCK } from './auth/token-lock';
export type { LockRequester, TokenLock } from './auth/token-lock';
export { UNAUTHORIZED_RENEWAL_LIMIT, UnauthorizedRetry } from './auth/unauthorized-retry';
export { AuthService, SIGNED_IN_AT_KEY, SIGNED_OUT_AT_KEY } from './auth/auth-service';
export { SIGNED_OUT_NOTICE_KEY, forgetSignedOut, hasSignedOutNotice, noteSignedOut } from './auth/signed-out-notice';
export type { AuthServiceOptions, OidcAuth, OidcUserManager, SessionEnd } from './auth/auth-service';
export { DEFAULT_CALLBACK_PATH, safeReturnTo, sameOriginPath } from './auth/return-to';
export { createSessionLoader } from './auth/session-loader';
export type { OidcSession, SessionLoaderOptions } from './auth/session-loader';
export { DEFAULT_SESSION_MS, sessionExpiresAt } from './auth/session-expiry';
export type { SessionClaims } from './auth/session-expiry';
export { completeSignInOnce, useSignInCallback } from './auth/use-sign-in-callback';
export { useOidcUser } from './auth/use-oidc-user';
export { useSignInRedirect } from './auth/use-sign-in-redirect';
export type { SignInRedirect } from './auth/use-sign-in-redirect';
export { createUserManager, redirectUris } from './auth/user-manager';
export type { OidcClientSettings, UserManagerPlacement } from './auth/user-manager';
export type { ProofTarget, RequestAuthorization } from './auth/dpop';
