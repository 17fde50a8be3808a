import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { resolveConfigPath, type AppContext } from '@gatehouse/core';
import { emailHash as hashOfEmail, type Picture } from './image.js';
import { findAvatarByEmailHash, findAvatarContentHash, isContentInUse, upsertAvatar, type AvatarRow } from './repository.js';

/** Where users' pictures are kept. Both stores find a picture through the `user_avatars` table. */
export interface AvatarStore {
  /** Makes `picture` the user's picture, found from now on by `emailHash`. */
  save(userId: string, emailHash: string, picture: Picture): Promise<void>;
  /**
   * The picture of the user whose e-mail hashes to `emailHash`; undefined when there is none, or
   * when the user's e-mail has changed since the upload (the old address no longer shows it).
   */
  find(emailHash: string): Promise<Picture | undefined>;
}

/** The row's picture only while its owner's e-mail still hashes to `emailHash`. */
function stillTheirs(row: AvatarRow | undefined, emailHash: string): row is AvatarRow {
  return row !== undefined && hashOfEmail(row.email) === emailHash;
}

/** Pictures kept in the database, in the row itself. */
export class DatabaseAvatarStore implements AvatarStore {
  constructor(private readonly db: AppContext['dataSource']) {}

  async save(userId: string, emailHash: string, picture: Picture): Promise<void> {
    const { contentHash, contentType, bytes } = picture;
    await upsertAvatar(this.db, { userId, emailHash, contentHash, contentType, size: bytes.length, content: bytes });
  }

  async find(emailHash: string): Promise<Picture | undefined> {
    const row = await findAvatarByEmailHash(this.db, emailHash, true);
    if (!stillTheirs(row, emailHash) || !row.content) return undefined;
    return { contentHash: row.content_hash, contentType: row.content_type, bytes: row.content };
  }
}

/**
 * Pictures kept as files of a folder, one per content (`<sha256>.webp`), described in the
 * database. A file is written under a temporary name and renamed, so a reader never sees half of
 * one; a file no user's picture has any more is removed.
 */
export class FolderAvatarStore implements AvatarStore {
  constructor(
    private readonly db: AppContext['dataSource'],
    private readonly folder: string,
  ) {
    mkdirSync(folder, { recursive: true });
  }

  private fileOf(contentHash: string): string {
    // The hash comes from our own SHA-256 or from our database: never a path of the caller's.
    if (!/^[0-9a-f]{64}$/.test(contentHash)) throw new Error('not a content hash');
    return path.join(this.folder, `${contentHash}.webp`);
  }

  async save(userId: string, emailHash: string, picture: Picture): Promise<void> {
    const { contentHash, contentType, bytes } = picture;
    const file = this.fileOf(contentHash);
    const temporary = `${file}.${randomUUID()}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, file);
    const previous = await findAvatarContentHash(this.db, userId);
    await upsertAvatar(this.db, { userId, emailHash, contentHash, contentType, size: bytes.length, content: null });
    if (previous && previous !== contentHash && !(await isContentInUse(this.db, previous))) {
      await unlink(this.fileOf(previous)).catch(() => undefined);
    }
  }

  async find(emailHash: string): Promise<Picture | undefined> {
    const row = await findAvatarByEmailHash(this.db, emailHash, false);
    if (!stillTheirs(row, emailHash)) return undefined;
    const bytes = await readFile(this.fileOf(row.content_hash)).catch(() => undefined);
    return bytes && { contentHash: row.content_hash, contentType: row.content_type, bytes };
  }
}

/** The store `avatar.store` names: `database`, or a folder (relative to the project root). */
export function avatarStoreOf(context: AppContext): AvatarStore {
  const { store } = context.config.avatar;
  if (store === 'database') return new DatabaseAvatarStore(context.dataSource);
  return new FolderAvatarStore(context.dataSource, resolveConfigPath(context.config, store));
}
