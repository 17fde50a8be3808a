import { phraseLoaders } from '@gatehouse/frontend-shared';
import type { PortalPhrases } from './en';

export type { PortalPhrases };

/**
 * The portal's own screens (home, shell, session), i18next namespace 'portal': one chunk per
 * language, fetched when a signed-in page first needs it.
 */
export const portalResources = phraseLoaders<PortalPhrases>(import.meta.glob('./{en,fr,es,pt-pt,pt-br,it,de}.ts'));
