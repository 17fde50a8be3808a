import { z } from 'zod';
import { defineRoute, type RouteContract } from '../route.js';

/** The largest picture accepted by default (the spec's attachment limit, 2 MB); configurable. */
export const AVATAR_MAX_BYTES = 2_097_152;

/** The picture sizes served, in pixels (square): the spec's avatar is 180. */
export const AVATAR_SIZE = { min: 16, max: 512, default: 180 } as const;

/** The picture formats accepted, judged by the file's content (never by its name). */
export const AVATAR_INPUT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/** The uploaded picture's public address (with a version, so a new picture is never a cached old one). */
export const avatarUploadedSchema = z.object({ success: z.boolean(), url: z.string() });
export type AvatarUploaded = z.output<typeof avatarUploadedSchema>;

/** `size` outside the bounds is brought within them: an <img> never breaks on it. */
export const avatarQuerySchema = z.object({
  size: z.coerce
    .number()
    .int()
    .optional()
    .transform((size) => Math.min(AVATAR_SIZE.max, Math.max(AVATAR_SIZE.min, size ?? AVATAR_SIZE.default))),
  /** A version the portal adds after an upload; the answer does not depend on it. */
  v: z.string().max(64).optional(),
});
export type AvatarQuery = z.input<typeof avatarQuerySchema>;

/** The user's picture: uploaded from the profile, served publicly by a hash of the e-mail (like Gravatar). */
export const avatarRoutes = {
  upload: defineRoute({
    method: 'POST',
    path: '/api/v1/profile/avatar',
    endpoint: 'profile.uploadAvatar',
    access: 'signed-in',
    summary:
      "Replaces the signed-in user's picture with the uploaded PNG, JPEG, WebP or GIF (form field `file`, 2 MB at most), decoded and re-encoded by the server",
    consumes: 'multipart/form-data',
    response: avatarUploadedSchema,
  }),
  picture: defineRoute({
    method: 'GET',
    path: '/api/v1/avatar/:hash',
    endpoint: 'avatar.picture',
    access: 'public',
    summary:
      'A user\'s picture by the lowercase hex SHA-256 of their trimmed, lower-cased e-mail, `size` pixels square (16 to 512, default 180); the default picture, with the same answer, for a user without one or an unknown hash',
    params: z.object({ hash: z.string() }),
    query: avatarQuerySchema,
    produces: 'image/webp',
  }),
} satisfies Record<string, RouteContract>;
