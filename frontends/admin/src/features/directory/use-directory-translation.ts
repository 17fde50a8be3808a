import { useNamespaceTranslation, type PhraseKey, type PhraseT } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import type { DirectoryPhrases } from './i18n/en';

/** The i18next namespace the shell registers from `./i18n`. */
export const DIRECTORY_NAMESPACE = 'directory';

/** Every phrase of the directory namespace, as a dotted path. */
export type DirectoryKey = PhraseKey<DirectoryPhrases>;

export type DirectoryT = PhraseT<DirectoryPhrases>;

/** `useTranslation('directory')` with keys checked against the English phrases. */
export function useDirectoryTranslation(): { t: DirectoryT; i18n: I18n } {
  return useNamespaceTranslation<DirectoryPhrases>(DIRECTORY_NAMESPACE);
}
