import type { Language } from '@gatehouse/frontend-shared';
import type { PortalPhrases } from './en';

export type { PortalPhrases };

/**
 * The portal's own screens (home, shell, session), i18next namespace 'portal': one chunk per
 * language, fetched when a signed-in page first needs it.
 */
export const portalResources: Record<Language, () => Promise<PortalPhrases>> = {
  en: () => import('./en').then((module) => module.en),
  fr: () => import('./fr').then((module) => module.fr),
  es: () => import('./es').then((module) => module.es),
  'pt-PT': () => import('./pt-pt').then((module) => module.ptPT),
  'pt-BR': () => import('./pt-br').then((module) => module.ptBR),
  it: () => import('./it').then((module) => module.it),
  de: () => import('./de').then((module) => module.de),
};
