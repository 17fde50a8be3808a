import type { HomeApplication } from '@gatehouse/contracts';
import { IDENTITY_APPLICATION_ID } from '@gatehouse/contracts/domain';

/** Alphabetical by title in the reader's language, ignoring case and accents. */
export function byTitle(a: HomeApplication, b: HomeApplication): number {
  return a.title.localeCompare(b.title, undefined, { sensitivity: 'base' }) || a.id.localeCompare(b.id);
}

/**
 * An application the user cannot open but may ask for ('Ask us!'): it has a public page. The
 * Identity application is never offered that way.
 */
export function canAskFor(app: HomeApplication): boolean {
  return !app.hasAccess && Boolean(app.publicUrl) && app.id !== IDENTITY_APPLICATION_ID;
}
