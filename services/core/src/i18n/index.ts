import i18next, { type i18n as I18n } from 'i18next';
import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGES, type Language } from '../domain/constants.js';
import { de } from './locales/de.js';
import { en, type Phrases } from './locales/en.js';
import { es } from './locales/es.js';
import { fr } from './locales/fr.js';
import { it } from './locales/it.js';
import { ptBR } from './locales/pt-BR.js';
import { ptPT } from './locales/pt-PT.js';

export type { Phrases };
export const serverPhrases: Record<Language, Phrases> = { en, fr, es, 'pt-PT': ptPT, 'pt-BR': ptBR, it, de };

/** One i18next instance for server messages; `t(lang, key)` picks the language per call. */
export function createServerI18n(): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    initAsync: false,
    resources: Object.fromEntries(Object.entries(serverPhrases).map(([lng, p]) => [lng, { translation: p }])),
    lng: DEFAULT_LANGUAGE,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

/**
 * Picks the best supported language from an Accept-Language header: exact match first
 * ("pt-BR"), then the base language ("pt" → pt-PT, "fr-CA" → fr); French when nothing matches.
 */
export function resolveLanguage(header: string | undefined | null): Language {
  return matchLanguageHeader(header) ?? DEFAULT_LANGUAGE;
}

/**
 * The supported language an Accept-Language header asks for, as {@link resolveLanguage} picks it;
 * undefined when the header is missing or names none, so that the caller's own preference can
 * decide (a program calling the API with a personal access token sends none).
 */
export function matchLanguageHeader(header: string | undefined | null): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: (tag ?? '').trim().toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const exact = LANGUAGES.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const base = tag.split('-')[0];
    const byBase = base === 'pt' ? 'pt-PT' : LANGUAGES.find((l) => l === base);
    if (byBase) return byBase;
  }
  return undefined;
}

/**
 * The language of what a person receives later (a mail, a notification, a job's result): the one
 * they asked in, else their saved preferred language, else the product's default.
 */
export function personLanguage(asked: string | null | undefined, saved: string | null | undefined): Language {
  const supported = (value: string | null | undefined) => LANGUAGES.find((language) => language === value);
  return supported(asked) ?? supported(saved) ?? DEFAULT_LANGUAGE;
}
