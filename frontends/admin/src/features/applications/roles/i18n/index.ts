import { phraseLoaders } from '@gatehouse/frontend-shared';
import type { ApplicationRolesPhrases } from './en';

export type { ApplicationRolesPhrases };

/** The `applicationRoles` namespace (roles, role scopes, an application's users): one chunk per language. */
export const applicationRolesPhraseLoaders = phraseLoaders<ApplicationRolesPhrases>(import.meta.glob('./{en,fr,es,pt-pt,pt-br,it,de}.ts'));
