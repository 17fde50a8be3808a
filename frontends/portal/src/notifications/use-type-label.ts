import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { notifications as phrases } from './i18n/en';

type TypeKey = `notifications.types.${keyof typeof phrases.types}`;

/** A notification's or a process's type in the interface language; a type the portal does not know, as a plain "Notification". */
export function useTypeLabel(): (type: string) => string {
  const { t, i18n } = useTranslation('portal');
  return useCallback(
    (type: string) => (i18n.exists(`portal:notifications.types.${type}`) ? t(`notifications.types.${type}` as TypeKey) : t('notifications.otherType')),
    [t, i18n],
  );
}
