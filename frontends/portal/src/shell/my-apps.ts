import { byTitle, canAskFor } from '../api/applications';
import type { Application } from '../api/portal-api';

/** The drawer switches to two columns above this many applications. */
export const ONE_COLUMN_MAX = 4;

export interface MyAppsView {
  accessible: Application[];
  askUs: Application[];
  columns: 1 | 2;
}

/**
 * The My Apps drawer's content: the accessible applications sorted by title, in two columns when
 * more than four, then the 'Ask us!' ones. Prerelease applications and the current one (the
 * portal itself) are hidden. Identity Management ('1') comes in homeInfo for Administrators only
 * and is never an 'Ask us!' entry.
 */
export function myAppsView(apps: readonly Application[], currentAppId: string | undefined): MyAppsView {
  const listed = apps.filter((app) => !app.prerelease && app.id !== currentAppId);
  const accessible = listed.filter((app) => app.hasAccess).sort(byTitle);
  return {
    accessible,
    askUs: listed.filter(canAskFor).sort(byTitle),
    columns: accessible.length > ONE_COLUMN_MAX ? 2 : 1,
  };
}
