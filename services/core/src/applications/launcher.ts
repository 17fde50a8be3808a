import type { HomeApplication } from '@gatehouse/contracts';
import type { AppContext } from '../context.js';
import { IDENTITY_APPLICATION_ID } from '../domain/constants.js';
import { resolveEffectiveRoles } from '../roles/effective-roles.js';
import { findLauncherApplications } from './repository.js';

/**
 * Where the launcher opens a SAML application: the identity provider's IdP-initiated sign-in, which
 * signs the user in and posts the assertion to it (its own address would only start a sign-in of its own).
 */
export function samlLaunchUrl(publicUrl: string, applicationName: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/saml/launch/${encodeURIComponent(applicationName)}`;
}

/**
 * The launcher's applications for one user: those the user holds a role in (any tenant), and the
 * others that have a public URL ("Ask us!"). The Identity application is listed to Administrators
 * only; applications hidden from user lists never are. A SAML application opens through the
 * identity provider's launch address (`privateUrl`), once it has its SAML settings (none before).
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
      privateUrl: app.protocol !== 'saml' ? app.private_url : app.saml_ready ? samlLaunchUrl(context.config.server.publicUrl, app.name) : null,
      prerelease: app.prerelease,
      status: app.status,
      hasAccess: hasAccess(app.id),
      isUserFavorite: app.favorite,
    }));
}
