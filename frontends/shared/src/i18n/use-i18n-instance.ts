import type { i18n as I18n } from 'i18next';
import { useContext } from 'react';
import { I18nContext, getI18n } from 'react-i18next';

/**
 * The i18next instance itself. `useTranslation().i18n` is a copy that react-i18next makes anew
 * at every language change (its fields frozen at that moment): fine for reading the language
 * while rendering, wrong to keep in a closure or a memo's dependencies.
 */
export function useI18nInstance(): I18n {
  const fromContext = (useContext(I18nContext) as { i18n?: I18n } | undefined)?.i18n;
  const instance = fromContext ?? getI18n();
  if (!instance) throw new Error('No i18next instance: render inside an I18nextProvider');
  return instance;
}
