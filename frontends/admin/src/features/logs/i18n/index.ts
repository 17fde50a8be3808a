import { phraseLoaders } from '@gatehouse/frontend-shared';
import type { LogsPhrases } from './en';

export type { LogsPhrases };

/** The `logs` namespace (the Logs page and its four tabs): one chunk per language. */
export const logsPhraseLoaders = phraseLoaders<LogsPhrases>(import.meta.glob('./{en,fr,es,pt-pt,pt-br,it,de}.ts'));
