import { useNamespaceTranslation, type PhraseT } from '@gatehouse/frontend-shared';
import type { i18n as I18n } from 'i18next';
import { useCallback } from 'react';
import type { NotificationsPhrases } from './i18n/en';

/** The i18next namespace the console registers from `./i18n`. */
export const NOTIFICATIONS_NAMESPACE = 'notifications';

export type NotificationsT = PhraseT<NotificationsPhrases>;

type TypeKey = `types.${keyof NotificationsPhrases['types']}`;

/** `useTranslation('notifications')` with keys checked against the English phrases. */
export function useNotificationsTranslation(): { t: NotificationsT; i18n: I18n; typeLabel: (type: string) => string } {
  const { t, i18n } = useNamespaceTranslation<NotificationsPhrases>(NOTIFICATIONS_NAMESPACE);
  /** A notification's or a process's type in the interface language; a type the console does not know, as it is. */
  const typeLabel = useCallback((type: string) => (i18n.exists(`${NOTIFICATIONS_NAMESPACE}:types.${type}`) ? t(`types.${type}` as TypeKey) : type), [t, i18n]);
  return { t, i18n, typeLabel };
}
