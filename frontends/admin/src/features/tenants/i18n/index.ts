import { phraseLoaders } from '@gatehouse/frontend-shared';
import type { TenantsPhrases } from './en';

export type { TenantsPhrases };

/** The `tenants` namespace (the list, the New Entity dialog, a tenant's page and its members): one chunk per language. */
export const tenantsPhraseLoaders = phraseLoaders<TenantsPhrases>(import.meta.glob('./{en,fr,es,pt-pt,pt-br,it,de}.ts'));
