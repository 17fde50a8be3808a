import { phraseLoaders } from '@gatehouse/frontend-shared';
import type { WebhooksPhrases } from './en';

export type { WebhooksPhrases };

/** The `webhooks` namespace (the list, the endpoint form, an endpoint's page and its delivery log): one chunk per language. */
export const webhooksPhraseLoaders = phraseLoaders<WebhooksPhrases>(import.meta.glob('./{en,fr,es,pt-pt,pt-br,it,de}.ts'));
