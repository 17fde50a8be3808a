import { phraseLoaders } from '@gatehouse/frontend-shared';
import type { NotificationsPhrases } from './en';

export type { NotificationsPhrases };

/** The `notifications` namespace (the flyout, its toasts and the running processes): one chunk per language. */
export const notificationsPhraseLoaders = phraseLoaders<NotificationsPhrases>(import.meta.glob('./{en,fr,es,pt-pt,pt-br,it,de}.ts'));
