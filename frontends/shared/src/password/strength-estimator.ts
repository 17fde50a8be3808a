// Loaded only through `import()` (see password-strength.ts): zxcvbn and its dictionaries are a
// chunk of their own, and each language's words another, fetched where a password is chosen.
import { ZxcvbnFactory, type OptionsDictionary, type TranslationKeys } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonPasswords } from '@zxcvbn-ts/language-common';
import type { Language } from '../i18n/languages';
import type { PasswordStrength } from './password-strength';

// The server's settings (services/core's password-strength.ts): the page says what the server will.
/** The product's own name, guessed as readily as the user's. */
const PRODUCT_WORDS = ['Gatehouse'];
/** Only the start of a password is estimated: characters added never make it easier to guess. */
const ESTIMATED_LENGTH = 32;
/** Variants with look-alike characters read back as letters ('P@ssw0rd'): most of an estimate's cost. */
const L33T_VARIANTS = 8;
/** The dictionaries' kinds kept: lists of words and names. */
const WORD_LISTS = ['commonWords', 'firstnames', 'lastnames', 'wikipedia'];

interface LanguagePack {
  dictionary: OptionsDictionary;
  translations: TranslationKeys;
}

type Pack = 'en' | 'de' | 'es-es' | 'fr' | 'it' | 'pt-br';

/** zxcvbn's package for each language of the product (Portuguese has one, Brazil's). */
const PACK_OF: Record<Language, Pack> = { en: 'en', de: 'de', es: 'es-es', fr: 'fr', it: 'it', 'pt-BR': 'pt-br', 'pt-PT': 'pt-br' };

const LOAD_PACK: Record<Pack, () => Promise<LanguagePack>> = {
  en: () => import('@zxcvbn-ts/language-en'),
  de: () => import('@zxcvbn-ts/language-de'),
  'es-es': () => import('@zxcvbn-ts/language-es-es'),
  fr: () => import('@zxcvbn-ts/language-fr'),
  it: () => import('@zxcvbn-ts/language-it'),
  'pt-br': () => import('@zxcvbn-ts/language-pt-br'),
};

/** A language's word lists, named after the language (two packages name theirs without it). */
function wordListsOf(pack: LanguagePack, name: Pack): OptionsDictionary {
  const lists = Object.entries(pack.dictionary).filter(([key]) => WORD_LISTS.includes(key.split('-')[0]!));
  return Object.fromEntries(lists.map(([key, words]) => [`${key.split('-')[0]}-${name}`, words]));
}

interface Estimator {
  factory: ZxcvbnFactory;
  translations: TranslationKeys;
}

/** The estimator of one language: common passwords, English and the language's words, its feedback. */
async function buildEstimator(name: Pack): Promise<Estimator> {
  const [english, own] = await Promise.all([LOAD_PACK.en(), LOAD_PACK[name]()]);
  const factory = new ZxcvbnFactory({
    dictionary: { ...commonPasswords, ...wordListsOf(english, 'en'), ...wordListsOf(own, name) },
    graphs: adjacencyGraphs,
    translations: own.translations,
    l33tMaxSubstitutions: L33T_VARIANTS,
    maxLength: ESTIMATED_LENGTH,
  });
  return { factory, translations: own.translations };
}

const estimators = new Map<Pack, Promise<Estimator>>();

/** Each language's estimator, built on first use and kept for the page's life. */
function estimatorOf(language: Language): Promise<Estimator> {
  const name = PACK_OF[language] ?? 'en';
  let estimator = estimators.get(name);
  if (!estimator) {
    estimator = buildEstimator(name);
    // A failed download is tried again next time rather than kept.
    estimator.catch(() => estimators.delete(name));
    estimators.set(name, estimator);
  }
  return estimator;
}

/** The words given, an e-mail address's name and the parts of each, lower-cased, without duplicates. */
function guessableWords(inputs: readonly string[]): string[] {
  const words = inputs.flatMap((input) => {
    const whole = input.trim().toLowerCase();
    if (!whole) return [];
    const parts = whole.split(/[^\p{L}\p{N}]+/u).filter((part) => part.length >= 3);
    return whole.includes('@') ? [whole, whole.slice(0, whole.lastIndexOf('@')), ...parts] : [whole, ...parts];
  });
  return [...new Set(words)];
}

/**
 * How easily the password is guessed, counting the user's own words and the product's name, with
 * the feedback in the page's language; below the top score there is always something to say.
 */
export async function estimatePasswordStrength(password: string, language: Language, userInputs: readonly string[]): Promise<PasswordStrength> {
  const { factory, translations } = await estimatorOf(language);
  const { score, feedback } = factory.check(password, guessableWords([...userInputs, ...PRODUCT_WORDS]));
  const warning = feedback.warning || null;
  const silent = !warning && feedback.suggestions.length === 0;
  return { score, warning, suggestions: silent && score < 4 ? [translations.suggestions.anotherWord] : feedback.suggestions };
}
