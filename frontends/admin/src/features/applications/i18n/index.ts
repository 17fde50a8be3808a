import { phraseLoaders } from '@gatehouse/frontend-shared';
import type { ApplicationsPhrases } from './en';

export type { ApplicationsPhrases };

/** The `applications` namespace (the list, the New application dialog, an application's page): one chunk per language. */
export const applicationsPhraseLoaders = phraseLoaders<ApplicationsPhrases>(import.meta.glob('./{en,fr,es,pt-pt,pt-br,it,de}.ts'));
