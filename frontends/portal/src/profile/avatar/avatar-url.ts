import type { AVATAR_MAX_BYTES as MAX_BYTES, avatarRoutes } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { productPath } from '@gatehouse/frontend-shared';
import { useEffect, useState } from 'react';

// The contracts' values, written out so that the bundle carries no schema; their types keep them equal.
const PICTURE: typeof avatarRoutes.picture.path = '/api/v1/avatar/:hash';
export const AVATAR_UPLOAD_PATH: typeof avatarRoutes.upload.path = '/api/v1/profile/avatar';
/** The server's default limit (the spec's 2 MB); the server decides, this only spares a useless upload. */
export const AVATAR_MAX_BYTES: typeof MAX_BYTES = 2_097_152;
/** The spec's avatar size. */
export const AVATAR_SIZE = 180;
/** The picture formats the server takes (it judges by content; this only filters the file picker). */
export const AVATAR_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif';

/** Any path that is not an e-mail hash answers the default picture. */
const DEFAULT_HASH = 'default';

/** The lowercase hex SHA-256 of the trimmed, lower-cased e-mail: what the picture URL carries. */
export async function avatarHash(email: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(email.trim().toLowerCase()));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The picture URL of an e-mail hash at `size` pixels. */
export function avatarUrl(hash: string, size = AVATAR_SIZE): string {
  return productPath(`${pathOf({ path: PICTURE }, { hash })}?size=${size}`);
}

/** The default picture (a user without one). */
export function defaultAvatarUrl(size = AVATAR_SIZE): string {
  return avatarUrl(DEFAULT_HASH, size);
}

/** `url` (an upload's answer) at `size` pixels, keeping its version so the new picture is fetched. */
export function resizedAvatarUrl(url: string, size: number): string {
  const parsed = new URL(url, 'http://portal.invalid');
  parsed.searchParams.set('size', String(size));
  return productPath(`${parsed.pathname}${parsed.search}`);
}

/**
 * The picture URL of `email` (undefined while its hash is computed); the default picture when
 * there is no e-mail or the browser cannot hash (outside a secure context).
 */
export function useAvatarUrl(email: string | undefined, size = AVATAR_SIZE): string | undefined {
  const [computed, setComputed] = useState<{ email: string; size: number; url: string }>();
  useEffect(() => {
    if (!email) return;
    let current = true;
    void avatarHash(email)
      .then((hash) => avatarUrl(hash, size))
      .catch(() => defaultAvatarUrl(size))
      .then((url) => {
        if (current) setComputed({ email, size, url });
      });
    return () => {
      current = false;
    };
  }, [email, size]);
  if (!email) return defaultAvatarUrl(size);
  return computed?.email === email && computed.size === size ? computed.url : undefined;
}
