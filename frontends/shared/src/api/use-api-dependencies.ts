import { useMemo } from 'react';
import { useI18nInstance } from '../i18n/use-i18n-instance';
import { createApiDependencies, type ApiDependencies, type TokenSource } from './authorized-base-query';

/**
 * The API dependencies of the signed-in session `auth`, in the interface's current language. They
 * change only with `auth` or the i18n instance (not at a language change), so a store built from
 * them keeps its cached answers.
 */
export function useApiDependencies(auth: TokenSource): ApiDependencies {
  // The instance itself: a store made again at a language change would drop every cached answer.
  const i18n = useI18nInstance();
  return useMemo(() => createApiDependencies(auth, () => i18n.resolvedLanguage ?? i18n.language), [auth, i18n]);
}
