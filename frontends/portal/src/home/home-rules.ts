import type { HomeApplication, HomeInfo } from '@gatehouse/contracts';
import { CUSTOMERS_AREA_NAME, IDENTITY_APPLICATION_ID } from '@gatehouse/contracts/domain';
import { byTitle, canAskFor } from '../api/applications';

/** The spec's wait before the home redirects or shows its tiles. */
export const HOME_REDIRECT_DELAY_MS = 1000;

export type HomeDecision =
  | { kind: 'redirect'; url: string; reason: 'client-portal' | 'single-application' }
  | { kind: 'tiles'; accessible: HomeApplication[]; askUs: HomeApplication[] };

export interface HomeContext {
  /** The user's area claim. */
  area: string | undefined;
  /** The page was opened with `?prerelease`. */
  showPrerelease: boolean;
}

/**
 * What the home does once homeInfo has answered (spec §4, Home load):
 * 1. a user of area Customers without access to application '1' goes to the client portal;
 * 2. a user with exactly one accessible non-prerelease application, other than '1', goes to it;
 * 3. otherwise tiles: the accessible applications, and 'Ask us!' for those with a public URL.
 * Prerelease applications are tiles only with `?prerelease`. Application '1' is in the answer only
 * for Administrators (the API decides), so it is shown whenever it is there.
 */
export function decideHome(info: HomeInfo, context: HomeContext): HomeDecision {
  const apps = info.applications.items;
  const opensIdentity = apps.some((app) => app.id === IDENTITY_APPLICATION_ID && app.hasAccess);

  if (context.area === CUSTOMERS_AREA_NAME && !opensIdentity && info.clientPortalAppId) {
    const clientPortal = apps.find((app) => app.id === info.clientPortalAppId);
    if (clientPortal?.privateUrl) return { kind: 'redirect', url: clientPortal.privateUrl, reason: 'client-portal' };
  }

  const released = apps.filter((app) => app.hasAccess && !app.prerelease);
  const only = released.length === 1 ? released[0] : undefined;
  if (only && only.id !== IDENTITY_APPLICATION_ID && only.privateUrl) {
    return { kind: 'redirect', url: only.privateUrl, reason: 'single-application' };
  }

  const shown = context.showPrerelease ? apps : apps.filter((app) => !app.prerelease);
  return {
    kind: 'tiles',
    accessible: shown.filter((app) => app.hasAccess).sort(byTitle),
    askUs: shown.filter(canAskFor).sort(byTitle),
  };
}
