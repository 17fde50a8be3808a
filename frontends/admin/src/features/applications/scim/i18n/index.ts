import { phraseLoaders } from '@gatehouse/frontend-shared';
import type { ScimPhrases } from './en';

export type { ScimPhrases };

/** The `scim` namespace (an application's SCIM provisioning tab and its dialogs): one chunk per language. */
export const scimPhraseLoaders = phraseLoaders<ScimPhrases>(import.meta.glob('./{en,fr,es,pt-pt,pt-br,it,de}.ts'));
