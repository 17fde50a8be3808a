import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import frFR from 'antd/es/locale/fr_FR';
import type { Language } from '../i18n/languages';

type LocaleModule = { default: Locale };

// English is antd's own (already in its core) and French the default language, so those two
// never wait for a download; the others are fetched on first use.
const loaders: Readonly<Record<Exclude<Language, 'en' | 'fr'>, () => Promise<LocaleModule>>> = {
  es: () => import('antd/es/locale/es_ES'),
  'pt-PT': () => import('antd/es/locale/pt_PT'),
  'pt-BR': () => import('antd/es/locale/pt_BR'),
  it: () => import('antd/es/locale/it_IT'),
  de: () => import('antd/es/locale/de_DE'),
};

const cache = new Map<Language, Locale>([
  ['en', enUS],
  ['fr', frFR],
]);

/** The antd locale of a language if already at hand. */
export function cachedAntdLocale(language: Language): Locale | undefined {
  return cache.get(language);
}

/** Resolves the antd locale of a language. */
export async function loadAntdLocale(language: Language): Promise<Locale> {
  const cached = cache.get(language);
  if (cached) return cached;
  const loader = loaders[language as keyof typeof loaders];
  const locale = (await loader()).default;
  cache.set(language, locale);
  return locale;
}
