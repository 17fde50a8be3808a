import { createHash } from 'node:crypto';
import { AVATAR_SIZE, avatarRoutes, pathOf, type AvatarUploaded } from '@gatehouse/contracts';
import { AppError, type AppContext } from '@gatehouse/core';
import { defaultAvatar, emailHash, reencodeUpload, resizePicture, type Picture } from './image.js';
import { findAvatarOwner } from './repository.js';
import { avatarStoreOf, type AvatarStore } from './store.js';

/** A picture about to be served: its validator, known before any resizing, and its bytes on demand. */
export interface ServedPicture {
  /** The uploaded picture's version (its `v`); undefined for the default picture. */
  version: string | undefined;
  etag: string;
  contentType: string;
  render(): Promise<Buffer>;
}

const HASH = /^[0-9a-f]{64}$/;
/** Resized pictures kept in memory, most recently used last. */
const CACHE_ENTRIES = 256;

/** The user's picture: uploaded from the profile, served by the hash of their e-mail. */
export class AvatarService {
  private readonly resized = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly context: AppContext,
    private readonly store: AvatarStore = avatarStoreOf(context),
  ) {}

  /** Re-encodes the upload and makes it the signed-in user's picture; answers its address. */
  async upload(accountId: string, upload: Buffer): Promise<AvatarUploaded> {
    const owner = await findAvatarOwner(this.context.dataSource, accountId);
    if (!owner) throw new AppError('errors.unauthorized', 401);
    const picture = await reencodeUpload(upload);
    const hash = emailHash(owner.email);
    await this.store.save(owner.id, hash, picture);
    const query = new URLSearchParams({ size: String(AVATAR_SIZE.default), v: picture.contentHash.slice(0, 16) });
    return { success: true, url: `${pathOf(avatarRoutes.picture, { hash })}?${query}` };
  }

  /**
   * The picture of the e-mail hash `hash` at `size` pixels, or the default one: a user without a
   * picture, an unknown hash and a malformed one are answered alike, so that the answer tells
   * nothing about which accounts exist.
   */
  async picture(hash: string, size: number): Promise<ServedPicture> {
    const normalized = hash.toLowerCase();
    const own = HASH.test(normalized) ? await this.store.find(normalized) : undefined;
    const picture = own ?? (await defaultAvatar());
    const key = `${picture.contentHash}:${size}`;
    return {
      version: own ? own.contentHash.slice(0, 16) : undefined,
      etag: `"${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`,
      contentType: picture.contentType,
      render: () => this.render(key, picture, size),
    };
  }

  private render(key: string, picture: Picture, size: number): Promise<Buffer> {
    const cached = this.resized.get(key);
    if (cached) {
      this.resized.delete(key);
      this.resized.set(key, cached);
      return cached;
    }
    const rendering = resizePicture(picture, size);
    this.resized.set(key, rendering);
    rendering.catch(() => this.resized.delete(key));
    if (this.resized.size > CACHE_ENTRIES) this.resized.delete(this.resized.keys().next().value!);
    return rendering;
  }
}
