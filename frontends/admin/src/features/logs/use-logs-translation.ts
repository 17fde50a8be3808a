import { useNamespaceTranslation, type PhraseT } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import type { LogsPhrases } from './i18n/en';

/** The i18next namespace the console registers from `./i18n`. */
export const LOGS_NAMESPACE = 'logs';

export type LogsT = PhraseT<LogsPhrases>;

/** `useTranslation('logs')` with keys checked against the English phrases. */
export function useLogsTranslation(): { t: LogsT; i18n: I18n } {
  return useNamespaceTranslation<LogsPhrases>(LOGS_NAMESPACE);
}
