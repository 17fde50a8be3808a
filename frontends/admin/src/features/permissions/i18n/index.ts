import { phraseLoaders } from '@gatehouse/frontend-shared';
import type { PermissionsPhrases } from './en';

export type { PermissionsPhrases };

/** The `permissions` namespace (the Permissions pages and the MFA configuration): one chunk per language. */
export const permissionsPhraseLoaders = phraseLoaders<PermissionsPhrases>(import.meta.glob('./{en,fr,es,pt-pt,pt-br,it,de}.ts'));
