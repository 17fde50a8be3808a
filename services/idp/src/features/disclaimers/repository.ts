import type { AppContext } from '@gatehouse/core';
import type { JWK } from 'jose';

type Db = AppContext['dataSource'];

/** An enabled application, its latest disclaimer (none: nulls) and the user's acceptance of that version. */
export interface ApplicationDisclaimerRow {
  app_id: string;
  app_name: string;
  display_name: string;
  private_url: string | null;
  has_icon: boolean;
  disclaimer_id: string | null;
  version: number | null;
  content: Record<string, string> | null;
  accepted_at: Date | null;
}

// $1 is the user whose acceptance is read.
const APPLICATION_DISCLAIMERS = `
  SELECT a.id AS app_id, a.name AS app_name, a.display_name, a.private_url,
         (a.icon IS NOT NULL OR a.icon_data IS NOT NULL) AS has_icon,
         d.id AS disclaimer_id, d.version, d.content, da.accepted_at
    FROM applications a
    LEFT JOIN LATERAL (
      SELECT id, version, content FROM disclaimers WHERE application_id = a.id ORDER BY version DESC LIMIT 1
    ) d ON true
    LEFT JOIN disclaimer_acceptances da ON da.disclaimer_id = d.id AND da.user_id = $1
   WHERE a.enabled`;

/** Every enabled application that has a disclaimer, with `userId`'s acceptance of its latest version. */
export async function findDisclaimedApplications(db: Db, userId: string): Promise<ApplicationDisclaimerRow[]> {
  return db.query(`${APPLICATION_DISCLAIMERS} AND d.id IS NOT NULL`, [userId]);
}

/** One enabled application, by its id or by its name (client_id), whether it has a disclaimer or not. */
export async function findApplicationDisclaimer(
  db: Db,
  userId: string,
  application: { id: string } | { name: string },
): Promise<ApplicationDisclaimerRow | undefined> {
  const [row]: ApplicationDisclaimerRow[] =
    'id' in application
      ? await db.query(`${APPLICATION_DISCLAIMERS} AND a.id = $2`, [userId, application.id])
      : await db.query(`${APPLICATION_DISCLAIMERS} AND a.name = $2`, [userId, application.name]);
  return row;
}

/** Records that the user accepted this version; a second acceptance keeps the first one's date. */
export async function recordAcceptance(db: Db, disclaimerId: string, userId: string): Promise<void> {
  await db.query(
    `INSERT INTO disclaimer_acceptances (disclaimer_id, user_id) VALUES ($1, $2)
     ON CONFLICT (disclaimer_id, user_id) DO NOTHING`,
    [disclaimerId, userId],
  );
}

/** Whether the account exists and may still act: not locked for good, not pending approval. */
export async function isActiveAccount(db: Db, userId: string): Promise<boolean> {
  const [row]: Array<{ locked: boolean; draft: boolean }> = await db.query('SELECT locked, draft FROM users WHERE id = $1', [userId]);
  return Boolean(row && !row.locked && !row.draft);
}
