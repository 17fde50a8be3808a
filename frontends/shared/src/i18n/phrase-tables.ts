import { SUPPORTED_LANGUAGES, type Language } from './languages';

// A namespace's phrases live in one file per language, named after the language in lower case
// and exporting the phrases under the language's name in camel case: `pt-br.ts` exports `ptBR`.
const EXPORT_NAMES = { en: 'en', fr: 'fr', es: 'es', 'pt-PT': 'ptPT', 'pt-BR': 'ptBR', it: 'it', de: 'de' } as const satisfies Record<
  Language,
  string
>;

/** A namespace's phrases under the names its language files export them: `en`, `fr`, …, `ptPT`, `ptBR`. */
export type PhrasesByExportName<P> = Record<(typeof EXPORT_NAMES)[Language], P>;

/** A value for each supported language. */
export function perLanguage<T>(make: (language: Language) => T): Record<Language, T> {
  return Object.fromEntries(SUPPORTED_LANGUAGES.map((language) => [language, make(language)])) as Record<Language, T>;
}

/** A namespace's table by language, from its language files' exports (`{ en, fr, es, ptPT, ptBR, it, de }`). */
export function byLanguage<P>(phrases: PhrasesByExportName<P>): Record<Language, P> {
  return perLanguage((language) => phrases[EXPORT_NAMES[language]]);
}

/**
 * The loaders of a namespace shipped as one chunk per language, from the lazy glob of its language
 * files: `phraseLoaders<Phrases>(import.meta.glob('./{en,fr,es,pt-pt,pt-br,it,de}.ts'))`. A missing
 * file fails at once; a file without its export fails when loaded.
 */
export function phraseLoaders<P>(files: Record<string, () => Promise<unknown>>): Record<Language, () => Promise<P>> {
  const byName = new Map(Object.entries(files).map(([path, load]) => [path.replace(/^.*\//, '').replace(/\.[cm]?[jt]sx?$/, ''), load]));
  return perLanguage((language) => {
    const file = language.toLowerCase();
    const load = byName.get(file);
    if (!load) throw new Error(`No phrase file for ${language} (${file}.ts) among: ${[...byName.keys()].join(', ')}`);
    const name = EXPORT_NAMES[language];
    return async () => {
      const phrases = ((await load()) as Partial<PhrasesByExportName<P>>)[name];
      if (phrases === undefined) throw new Error(`The phrase file ${file}.ts exports no "${name}"`);
      return phrases;
    };
  });
}
