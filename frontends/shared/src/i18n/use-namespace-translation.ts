import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';

type Join<Prefix extends string, Key extends string> = Prefix extends '' ? Key : `${Prefix}.${Key}`;

/** A plural phrase (`x_one`, `x_other`) is asked for as `x`, with a `count`. */
type WithoutPlural<K extends string> = K extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : K;

/** Every phrase of a phrases object, as a dotted path ('common.save'); plural forms folded into their base key. */
export type PhraseKey<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? Join<Prefix, WithoutPlural<K>> : PhraseKey<T[K], Join<Prefix, K>>;
}[keyof T & string];

/** A `t` whose keys are checked against the phrases `T` (the namespace's English file). */
export type PhraseT<T> = (key: PhraseKey<T>, options?: Record<string, unknown>) => string;

/**
 * `useTranslation(namespace)` with keys checked against the namespace's phrases `T`. The namespace
 * is passed untyped, so a feature does not depend on how (or whether) its app declares the
 * namespace to i18next's typing; `t` gets the feature's own key type instead.
 */
export function useNamespaceTranslation<T>(namespace: string): { t: PhraseT<T>; i18n: I18n } {
  const { t, i18n } = useTranslation(namespace as never) as unknown as { t: PhraseT<T>; i18n: I18n };
  return { t, i18n };
}
