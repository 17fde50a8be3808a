import { byLanguage } from '@gatehouse/frontend-shared';
import { de } from './de';
import { en, type AccountPhrases } from './en';
import { es } from './es';
import { fr } from './fr';
import { it } from './it';
import { ptBR } from './pt-br';
import { ptPT } from './pt-pt';

export type { AccountPhrases };

export const accountResources = byLanguage<AccountPhrases>({ en, fr, es, ptPT, ptBR, it, de });
