import type { ApplicationStatus } from '@gatehouse/contracts/domain';
import type { DataSource, EntityManager } from 'typeorm';
import type { ApplicationProtocol } from '../domain/saml.js';

type Db = DataSource | EntityManager;

/** An application the launcher may list, with the user's favourite flag. */
export interface LauncherApplicationRow {
  id: string;
  name: string;
  protocol: ApplicationProtocol;
  title: string;
  description: string | null;
  public_url: string | null;
  private_url: string | null;
  prerelease: boolean;
  status: ApplicationStatus;
  favorite: boolean;
  /** A SAML application's settings are there (its launch address opens it). */
  saml_ready: boolean;
}

/** The enabled applications not hidden from user lists, by display name, each flagged when `userId` made it a favourite. */
export async function findLauncherApplications(db: Db, userId: string): Promise<LauncherApplicationRow[]> {
  return db.query(
    `SELECT a.id, a.name, a.protocol, a.display_name AS title, a.description, a.public_url, a.private_url, a.prerelease, a.status,
            EXISTS (SELECT 1 FROM user_favorite_applications f WHERE f.user_id = $1 AND f.application_id = a.id) AS favorite,
            a.protocol = 'saml' AND EXISTS (SELECT 1 FROM application_saml_settings s WHERE s.application_id = a.id) AS saml_ready
       FROM applications a
      WHERE a.enabled AND NOT a.hide_in_user_list
      ORDER BY a.display_name`,
    [userId],
  );
}

/** What an enabled application stores of its icon. */
export interface ApplicationIconRow {
  icon: string | null;
  icon_data: Buffer | null;
  icon_content_type: string | null;
  modified_on: Date;
}

/** The stored icon of an enabled application; undefined for an unknown or disabled one. */
export async function findApplicationIcon(db: Db, appId: string): Promise<ApplicationIconRow | undefined> {
  const [row]: ApplicationIconRow[] = await db.query(
    'SELECT icon, icon_data, icon_content_type, modified_on FROM applications WHERE id = $1 AND enabled',
    [appId],
  );
  return row;
}
