import { AppError, purgeExpiredUserTokens, purgeExpiredWebAuthnChallenges, type AppContext } from '@gatehouse/core';
import type { DataSource } from 'typeorm';

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Stores a file for its owner, downloadable for `files.lifetimeDays`; answers its id. */
export async function storeFile(
  context: AppContext,
  file: { ownerId: string; fileName: string; mediaType: string; bytes: Buffer },
): Promise<string> {
  const [row] = (await context.dataSource.query(
    `INSERT INTO stored_files (owner_id, file_name, media_type, bytes, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(days => $5)) RETURNING id`,
    [file.ownerId, file.fileName.slice(0, 260), file.mediaType, file.bytes, context.config.files.lifetimeDays],
  )) as Array<{ id: string }>;
  return row!.id;
}

/** The caller's own file: another user's file is not found, an expired one says so. */
export async function readOwnFile(db: DataSource, ownerId: string, id: string): Promise<{ fileName: string; mediaType: string; bytes: Buffer }> {
  const [row] = (await db.query(
    `SELECT file_name, media_type, bytes, expires_at <= now() AS expired FROM stored_files WHERE id = $1 AND owner_id = $2`,
    [id, ownerId],
  )) as Array<{ file_name: string; media_type: string; bytes: Buffer; expired: boolean }>;
  if (!row) throw new AppError('errors.file_not_found', 404);
  if (row.expired) throw new AppError('errors.file_expired', 404);
  return { fileName: row.file_name, mediaType: row.media_type, bytes: row.bytes };
}

/** Deletes expired files; answers how many. */
export async function purgeExpiredFiles(db: DataSource): Promise<number> {
  const [, count] = (await db.query(`DELETE FROM stored_files WHERE expires_at <= now()`)) as [unknown, number];
  return count;
}

/** A running purge of expired files: `stop` ends it after the run under way. */
export interface FilePurge {
  stop(): Promise<void>;
}

/**
 * Deletes expired files (and one-time tokens expired a day ago, and expired passkey challenges)
 * every `files.purgeIntervalMs`, without keeping the process alive.
 */
export function startFilePurge(context: AppContext): FilePurge {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = Promise.all([purgeExpiredFiles(context.dataSource), purgeExpiredUserTokens(context.dataSource), purgeExpiredWebAuthnChallenges(context.dataSource)])
      .then(([deleted, tokens, challenges]) => {
        if (deleted > 0) context.logger.info({ deleted }, 'expired files deleted');
        if (tokens > 0) context.logger.info({ tokens }, 'expired one-time tokens deleted');
        if (challenges > 0) context.logger.info({ challenges }, 'expired passkey challenges deleted');
      })
      .catch((error: Error) => context.logger.warn({ err: error.message }, 'deleting expired files failed'))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(run, context.config.files.purgeIntervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
