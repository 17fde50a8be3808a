import type { AppContext } from '../context.js';
import { IDENTITY_APPLICATION_ID } from '../domain/constants.js';
import { resolveEffectiveRoles } from '../roles/effective-roles.js';

/** An application as the home launcher shows it. */
export interface HomeApplication {
  id: string;
  title: string;
  description: string | null;
  publicUrl: string | null;
  privateUrl: string | null;
  prerelease: boolean;
  status: string;
  hasAccess: boolean;
  isUserFavorite: boolean;
}

interface ApplicationRow {
  id: string;
  title: string;
  description: string | null;
  public_url: string | null;
  private_url: string | null;
  prerelease: boolean;
  status: string;
  favorite: boolean;
}

/**
 * The launcher's applications for one user: those the user holds a role in (any tenant), and the
 * others that have a public URL ("Ask us!"). The Identity application is listed to Administrators
 * only; applications hidden from user lists never are.
 */
export async function homeApplications(context: AppContext, userId: string): Promise<HomeApplication[]> {
  const roles = await resolveEffectiveRoles(context.dataSource, userId);
  const withAccess = new Set(roles.map((r) => r.applicationId));
  const administrator = roles.some((r) => r.applicationId === IDENTITY_APPLICATION_ID && r.roleName === 'Administrator');
  const rows: ApplicationRow[] = await context.dataSource.query(
    `SELECT a.id, a.display_name AS title, a.description, a.public_url, a.private_url, a.prerelease, a.status,
            EXISTS (SELECT 1 FROM user_favorite_applications f WHERE f.user_id = $1 AND f.application_id = a.id) AS favorite
       FROM applications a
      WHERE a.enabled AND NOT a.hide_in_user_list
      ORDER BY a.display_name`,
    [userId],
  );
  return rows
    .filter((app) => (app.id === IDENTITY_APPLICATION_ID ? administrator : withAccess.has(app.id) || Boolean(app.public_url)))
    .map((app) => ({
      id: app.id,
      title: app.title,
      description: app.description,
      publicUrl: app.public_url,
      privateUrl: app.private_url,
      prerelease: app.prerelease,
      status: app.status,
      hasAccess: app.id === IDENTITY_APPLICATION_ID ? administrator : withAccess.has(app.id),
      isUserFavorite: app.favorite,
    }));
}
