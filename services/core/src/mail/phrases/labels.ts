import type { FactorChangePhrases, FactorChangeWords } from './types.js';

/** A `, `-separated list of codes, each written with its label in the mail's language (an unknown code as it is). */
export function labelled(list: string, labels: Readonly<Record<string, string>>): string {
  return list
    .split(',')
    .map((code) => code.trim())
    .filter(Boolean)
    .map((code) => labels[code] ?? code)
    .join(', ');
}

/** One language's words for a factor change, by its code; a code the product never writes is a programming error. */
export function factorChangeWords(phrases: FactorChangePhrases, change: string): FactorChangeWords {
  const words = (phrases as Partial<Record<string, FactorChangeWords>>)[change];
  if (!words) throw new Error(`No words for the factor change ${change}`);
  return words;
}
