import type { HomeApplication } from '@gatehouse/contracts';
import type { AppContext } from '../context.js';
import { IDENTITY_APPLICATION_ID } from '../domain/constants.js';
import { resolveEffectiveRoles } from '../roles/effective-roles.js';
import { findLauncherApplications } from './repository.js';

/**
 * The launcher's applications for one user: those the user holds a role in (any tenant), and the
 * others that have a public URL ("Ask us!"). The Identity application is listed to Administrators
 * only; applications hidden from user lists never are.
 */
export async function homeApplications(context: AppContext, userId: string): Promise<HomeApplication[]> {
  const roles = await resolveEffectiveRoles(context.dataSource, userId);
  const withAccess = new Set(roles.map((r) => r.applicationId));
  const administrator = roles.some((r) => r.applicationId === IDENTITY_APPLICATION_ID && r.roleName === 'Administrator');
  const hasAccess = (id: string) => (id === IDENTITY_APPLICATION_ID ? administrator : withAccess.has(id));
  const rows = await findLauncherApplications(context.dataSource, userId);
  return rows
    .filter((app) => hasAccess(app.id) || (app.id !== IDENTITY_APPLICATION_ID && Boolean(app.public_url)))
    .map((app) => ({
      id: app.id,
      title: app.title,
      description: app.description,
      publicUrl: app.public_url,
      privateUrl: app.private_url,
      prerelease: app.prerelease,
      status: app.status,
      hasAccess: hasAccess(app.id),
      isUserFavorite: app.favorite,
    }));
}
