import type { Language } from '../../domain/constants.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { ptBR } from './pt-BR.js';
import { ptPT } from './pt-PT.js';
import type { MailPhrases } from './types.js';

export * from './types.js';

/** Every supported language's mail phrases; a language missing here fails to compile. */
export const MAIL_CATALOGUES: Record<Language, MailPhrases> = { fr, en, es, 'pt-PT': ptPT, 'pt-BR': ptBR, it, de };
