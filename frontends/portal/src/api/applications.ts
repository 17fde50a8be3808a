import type { Application } from './portal-api';

/** The Identity Management application: listed by homeInfo only to Administrators. */
export const IDENTITY_APPLICATION_ID = '1';

/** Alphabetical by title in the reader's language, ignoring case and accents. */
export function byTitle(a: Application, b: Application): number {
  return a.title.localeCompare(b.title, undefined, { sensitivity: 'base' }) || a.id.localeCompare(b.id);
}

/**
 * An application the user cannot open but may ask for ('Ask us!'): it has a public page. The
 * Identity application is never offered that way.
 */
export function canAskFor(app: Application): boolean {
  return !app.hasAccess && Boolean(app.publicUrl) && app.id !== IDENTITY_APPLICATION_ID;
}
