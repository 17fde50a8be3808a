import type { DataSource, EntityManager } from 'typeorm';
import { IDENTITY_APPLICATION_ID } from '../domain/constants.js';
import { AppError } from '../errors/app-error.js';
import { resolveRoleNames } from '../roles/effective-roles.js';

type Db = DataSource | EntityManager;

/** The role that may sign in as another user, and that nobody may be signed in as. */
const GOD = 'God';

/** A party of an impersonation as the logs and tokens name it. */
export interface IdentifyAsParty {
  id: string;
  userName: string;
  /** First and last name, else the user name. */
  displayName: string;
}

interface UserRow {
  id: string;
  user_name: string;
  first_name: string | null;
  last_name: string | null;
  locked: boolean;
  draft: boolean;
}

const partyOf = (row: UserRow): IdentifyAsParty => ({
  id: row.id,
  userName: row.user_name,
  displayName: [row.first_name, row.last_name].filter(Boolean).join(' ') || row.user_name,
});

const isGod = async (db: Db, userId: string) => (await resolveRoleNames(db, userId, IDENTITY_APPLICATION_ID)).includes(GOD);

/**
 * Checks, against the directory as it is now, that `actorId` may sign in as `targetId`: the actor
 * is an active God user, the target another user who exists, is neither locked nor pending approval
 * and is no God user. Throws the refusal to answer; answers both parties otherwise. The console
 * asks it when a code is issued, the provider again when the code is redeemed.
 */
export async function assertMayIdentifyAs(db: Db, actorId: string, targetId: string): Promise<{ actor: IdentifyAsParty; target: IdentifyAsParty }> {
  if (actorId === targetId) throw new AppError('identifyAs.self', 400);
  const rows: UserRow[] = await db.query(
    'SELECT id, user_name, first_name, last_name, locked, draft FROM users WHERE id = ANY($1::uuid[])',
    [[actorId, targetId]],
  );
  const actor = rows.find((row) => row.id === actorId);
  const target = rows.find((row) => row.id === targetId);
  // A role revoked or an account locked since the caller's token was issued counts at once.
  if (!actor || actor.locked || actor.draft || !(await isGod(db, actorId))) throw new AppError('errors.forbidden', 403);
  if (!target) throw new AppError('identifyAs.user_not_found', 404);
  if (target.draft) throw new AppError('identifyAs.target_draft', 409);
  if (target.locked) throw new AppError('identifyAs.target_locked', 409);
  if (await isGod(db, targetId)) throw new AppError('identifyAs.target_god', 403);
  return { actor: partyOf(actor), target: partyOf(target) };
}
