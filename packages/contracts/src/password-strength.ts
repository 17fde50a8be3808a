// How easily a password is guessed (zxcvbn-ts), judged alike by the server, which refuses a
// password below the policy's minimum strength, and by the pages, which show the estimate as it
// is typed: the pages say what the server will.
//
// Imported only through its own entry, `@gatehouse/contracts/password-strength`, never through the
// package's index, and by the pages only with `import()`. zxcvbn and its dictionaries are loaded
// with `import()` on the first estimate: a bundler leaves the core, the common passwords and each
// language's words in chunks of their own, fetched only where a password is chosen, and a server
// loads them only once it judges a password.
import type { OptionsDictionary, TranslationKeys, ZxcvbnFactory } from '@zxcvbn-ts/core';
import { FALLBACK_LANGUAGE, type Language } from './domain.js';

/** zxcvbn's verdict: 0 (too guessable) to 4 (very unguessable). */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

/** How easily a password is guessed, and why, in the language asked for. */
export interface PasswordStrength {
  score: StrengthScore;
  /** What makes the password guessable, when the estimator names it. */
  warning: string | null;
  /** How to do better (empty for a strong password). */
  suggestions: string[];
}

/** What the estimator is told besides the password. */
export interface StrengthContext {
  /** Words the password should not be built on: the user's names and e-mail address. */
  userInputs?: readonly string[];
  /** The language of the feedback, and whose words (besides English) count as guessable. */
  language?: Language;
}

/** The product's own name, guessed as readily as the user's. */
const PRODUCT_WORDS = ['Gatehouse'];

/**
 * Only the start of a password is estimated: characters added never make it easier to guess, and
 * the estimate's cost grows with the square of the length (it runs on the event loop).
 */
const ESTIMATED_LENGTH = 32;

/**
 * Variants of a password with look-alike characters read back as letters ('P@ssw0rd'); each one is
 * matched against every dictionary again, which makes most of an estimate's cost. Eight keep an
 * estimate to a few milliseconds; the library's 100 cost several times more for scores that rarely
 * differ. The fully substituted variant always comes first.
 */
const L33T_VARIANTS = 8;

/** The dictionaries' kinds kept: lists of words and names (the word-sequence lists cost a lookup per substring and add little). */
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

/** One language's estimator and the feedback's phrases. */
interface Estimator {
  factory: ZxcvbnFactory;
  translations: TranslationKeys;
}

/** Builds the estimator of one language: common passwords, English and the language's words, its feedback. */
async function buildEstimator(name: Pack): Promise<Estimator> {
  const [core, common, english, own] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    LOAD_PACK.en(),
    LOAD_PACK[name](),
  ]);
  const factory = new core.ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...wordListsOf(english, 'en'), ...wordListsOf(own, name) },
    graphs: common.adjacencyGraphs,
    translations: own.translations,
    l33tMaxSubstitutions: L33T_VARIANTS,
    maxLength: ESTIMATED_LENGTH,
  });
  return { factory, translations: own.translations };
}

// The dictionaries take tens of MB and most of a second to rank: each language's estimator is
// built on its first use and kept (for the process's life on a server, the page's in a browser).
const estimators = new Map<Pack, Promise<Estimator>>();

function estimatorOf(language: Language): Promise<Estimator> {
  const name = PACK_OF[language] ?? PACK_OF[FALLBACK_LANGUAGE];
  let estimator = estimators.get(name);
  if (!estimator) {
    estimator = buildEstimator(name);
    // A failed load (a failed download, in a page) is tried again next time rather than kept.
    estimator.catch(() => estimators.delete(name));
    estimators.set(name, estimator);
  }
  return estimator;
}

/**
 * The words given, an e-mail address's name and the parts of each ("jane.doe@example.com": also
 * "jane.doe", "jane", "doe", "example"), lower-cased, without duplicates. zxcvbn matches a word
 * only whole, and does not see "Jane.Doe" in "jane" and "doe".
 */
export function guessableWords(inputs: readonly string[]): string[] {
  const words = inputs.flatMap((input) => {
    const whole = input.trim().toLowerCase();
    if (!whole) return [];
    const parts = whole.split(/[^\p{L}\p{N}]+/u).filter((part) => part.length >= 3);
    return whole.includes('@') ? [whole, whole.slice(0, whole.lastIndexOf('@')), ...parts] : [whole, ...parts];
  });
  return [...new Set(words)];
}

/**
 * Estimates how easily the password is guessed (zxcvbn), counting the user's own words and the
 * product's name as guessable, with the feedback in the language asked for (English by default).
 * Below the top score there is always something to say: the estimator's words, else its advice
 * to add another word.
 */
export async function estimatePasswordStrength(password: string, context: StrengthContext = {}): Promise<PasswordStrength> {
  const { factory, translations } = await estimatorOf(context.language ?? FALLBACK_LANGUAGE);
  const { score, feedback } = factory.check(password, guessableWords([...(context.userInputs ?? []), ...PRODUCT_WORDS]));
  const warning = feedback.warning || null;
  const silent = !warning && feedback.suggestions.length === 0;
  return { score, warning, suggestions: silent && score < 4 ? [translations.suggestions.anotherWord] : feedback.suggestions };
}

/** Why a password is not strong enough, in one sentence or a few: the estimate's warning, then its suggestions. */
export function weaknessReason(strength: PasswordStrength): string {
  return [strength.warning, ...strength.suggestions].filter(Boolean).join(' ');
}
