import type { i18n as I18n } from 'i18next';
import { getI18n } from 'react-i18next';
import { changeLanguage } from './create-i18n';
import { isSupportedLanguage, type Language } from './languages';

/** The ID token claims that say which language the person chose (see the provider's `profile` scope). */
export interface LanguageClaims {
  locale?: unknown;
  /** True only when the person chose `locale` in their own profile, not an administrator. */
  locale_chosen?: unknown;
  /** Present while someone else acts as this person (Identify As): their language stays theirs. */
  act?: unknown;
}

/** The language the person chose for themself, if the claims carry one this product speaks. */
export function chosenLanguage(claims: LanguageClaims | undefined): Language | undefined {
  if (!claims || claims.act !== undefined || claims.locale_chosen !== true) return undefined;
  return isSupportedLanguage(claims.locale) ? claims.locale : undefined;
}

/**
 * At a sign-in, switches the interface (and this browser's stored preference) to the language the
 * person chose in their profile, so it follows them to every device; a language only an
 * administrator gave the account leaves the browser's own choice alone.
 */
export async function applyChosenLanguage(claims: LanguageClaims | undefined, instance: I18n | undefined = getI18n()): Promise<void> {
  const language = chosenLanguage(claims);
  if (!language || !instance || instance.language === language) return;
  await changeLanguage(instance, language);
}
