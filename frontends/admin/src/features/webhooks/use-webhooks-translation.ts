import { useNamespaceTranslation, type PhraseT } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import type { WebhooksPhrases } from './i18n/en';

/** The i18next namespace the console registers from `./i18n`. */
export const WEBHOOKS_NAMESPACE = 'webhooks';

export type WebhooksT = PhraseT<WebhooksPhrases>;

/** `useTranslation('webhooks')` with keys checked against the English phrases. */
export function useWebhooksTranslation(): { t: WebhooksT; i18n: I18n } {
  return useNamespaceTranslation<WebhooksPhrases>(WEBHOOKS_NAMESPACE);
}
