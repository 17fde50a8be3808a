import { byLanguage } from '@gatehouse/frontend-shared';
import { de } from './de';
import { en, type DirectoryPhrases } from './en';
import { es } from './es';
import { fr } from './fr';
import { it } from './it';
import { ptBR } from './pt-br';
import { ptPT } from './pt-pt';

export type { DirectoryPhrases };

/** The `directory` namespace in every interface language; the shell registers it. */
export const directoryPhrases = byLanguage<DirectoryPhrases>({ en, fr, es, ptPT, ptBR, it, de });
