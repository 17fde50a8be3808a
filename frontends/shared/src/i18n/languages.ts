export const SUPPORTED_LANGUAGES = ['en', 'fr', 'es', 'pt-PT', 'pt-BR', 'it', 'de'] as const;

export type Language = (typeof SUPPORTED_LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'fr';
export const FALLBACK_LANGUAGE: Language = 'en';

/** Each language named in itself, as a language menu lists them (with `lang` set to the key). */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  fr: 'Français',
  es: 'Español',
  'pt-PT': 'Português (Portugal)',
  'pt-BR': 'Português (Brasil)',
  it: 'Italiano',
  de: 'Deutsch',
};

/** The languages a language menu offers (spec: English and French only). */
export const MENU_LANGUAGES: readonly Language[] = ['en', 'fr'];

/**
 * The choices of a language menu: `offered`, plus the current language when it is another one.
 * The phrases exist in every supported language, so a user whose stored preference or browser
 * asks for German keeps German and sees it selected, rather than a menu where nothing is.
 */
export function menuLanguages(current: Language, offered: readonly Language[] = MENU_LANGUAGES): readonly Language[] {
  return offered.includes(current) ? offered : [...offered, current];
}

export const PREFERENCES_STORAGE_KEY = 'gatehouse.preferences';

// Browsers often report a regional variant we do not ship (fr-CA, de-AT, en-GB): those
// fall back to the bare language. Bare "pt" and Portuguese regions other than Brazil
// get the European variant.
const BY_PRIMARY_SUBTAG: ReadonlyMap<string, Language> = new Map([
  ['en', 'en'],
  ['fr', 'fr'],
  ['es', 'es'],
  ['pt', 'pt-PT'],
  ['it', 'it'],
  ['de', 'de'],
]);

export function isSupportedLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

export function matchLanguage(tag: string | null | undefined): Language | undefined {
  if (!tag) return undefined;
  const normalized = tag.trim().replace(/_/g, '-').toLowerCase();
  const exact = SUPPORTED_LANGUAGES.find((language) => language.toLowerCase() === normalized);
  if (exact) return exact;
  const primary = normalized.split('-')[0] ?? '';
  return BY_PRIMARY_SUBTAG.get(primary);
}

type PreferenceStorage = Pick<Storage, 'getItem' | 'setItem'>;

// Reading `localStorage` throws a SecurityError when the browser blocks site data, and
// the apps must still start in that case.
function defaultStorage(): PreferenceStorage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

function readPreferences(storage: PreferenceStorage | undefined): Record<string, unknown> {
  try {
    const raw = storage?.getItem(PREFERENCES_STORAGE_KEY);
    if (!raw) return {};
    const parsed: unknown = JSON.parse(raw);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export function readStoredLanguage(storage = defaultStorage()): Language | undefined {
  const { currentLanguage } = readPreferences(storage);
  return typeof currentLanguage === 'string' ? matchLanguage(currentLanguage) : undefined;
}

// Other preferences may share the same storage entry, so they are kept.
export function storeLanguagePreference(language: Language, storage = defaultStorage()): void {
  if (!storage) return;
  const preferences = { ...readPreferences(storage), currentLanguage: language };
  try {
    storage.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify(preferences));
  } catch {
    // A full or blocked storage only costs the user their preference on the next visit.
  }
}

export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  if (navigator.languages?.length) return navigator.languages;
  return navigator.language ? [navigator.language] : [];
}

export interface DetectLanguageOptions {
  storage?: PreferenceStorage | undefined;
  browserLanguages?: readonly string[];
}

export function detectLanguage(options: DetectLanguageOptions = {}): Language {
  const storage = 'storage' in options ? options.storage : defaultStorage();
  const stored = readStoredLanguage(storage);
  if (stored) return stored;
  for (const tag of options.browserLanguages ?? browserLanguages()) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return DEFAULT_LANGUAGE;
}
