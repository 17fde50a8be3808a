import { createHash } from 'node:crypto';
import { AVATAR_INPUT_TYPES } from '@gatehouse/contracts';
import { AppError } from '@gatehouse/core';
import { ImageRefused, reencodeImage, type RasterFormat } from '@gatehouse/core/images';
import sharp from 'sharp';

/** A picture as it is stored and served: always re-encoded by us, never the uploaded bytes. */
export interface Picture {
  /** Lowercase hex SHA-256 of `bytes`. */
  contentHash: string;
  contentType: string;
  bytes: Buffer;
}

/** The stored picture's side, in pixels: the largest size served. */
export const STORED_SIDE = 512;
/** The most pixels an upload may declare (see ImageLimits). */
export const MAX_INPUT_PIXELS = 25_000_000;
const OUTPUT_TYPE = 'image/webp';

/** What sharp calls each accepted type. */
const SHARP_FORMATS: Record<(typeof AVATAR_INPUT_TYPES)[number], RasterFormat> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};
const LIMITS = { formats: Object.values(SHARP_FORMATS), maxPixels: MAX_INPUT_PIXELS };

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The hash a picture URL carries: lowercase hex SHA-256 of the trimmed, lower-cased e-mail. */
export function emailHash(email: string): string {
  return sha256(email.trim().toLowerCase());
}

function pictureOf(bytes: Buffer): Picture {
  return { contentHash: sha256(bytes), contentType: OUTPUT_TYPE, bytes };
}

/**
 * An uploaded picture, checked and re-encoded (reencodeImage): a PNG, JPEG, WebP or GIF by its
 * content, of at most MAX_INPUT_PIXELS, turned upright, cropped to a centred square of at most
 * STORED_SIDE pixels and encoded again as WebP without any metadata.
 */
export async function reencodeUpload(upload: Buffer): Promise<Picture> {
  try {
    const bytes = await reencodeImage(upload, LIMITS, (image, { width, height }) => {
      const side = Math.min(STORED_SIDE, width, height);
      return image.rotate().resize(side, side, { fit: 'cover', position: 'centre' }).webp({ quality: 88 });
    });
    return pictureOf(bytes);
  } catch (error) {
    if (!(error instanceof ImageRefused)) throw error;
    throw new AppError(`avatar.${error.problem}`, 400, error.problem === 'too_many_pixels' ? { limit: MAX_INPUT_PIXELS / 1_000_000 } : {});
  }
}

/** `picture` as a `size` × `size` WebP. */
export async function resizePicture(picture: Picture, size: number): Promise<Buffer> {
  return sharp(picture.bytes).resize(size, size, { fit: 'cover' }).webp({ quality: 85 }).toBuffer();
}

let defaultPicture: Promise<Picture> | undefined;

/** The neutral picture of users without one: a grey head and shoulders, drawn here (no SVG). */
export function defaultAvatar(): Promise<Picture> {
  defaultPicture ??= drawDefaultAvatar();
  return defaultPicture;
}

const BACKGROUND = [0xe6, 0xeb, 0xf1];
const SILHOUETTE = [0xa9, 0xb4, 0xc2];

async function drawDefaultAvatar(): Promise<Picture> {
  const side = STORED_SIDE;
  const pixels = Buffer.alloc(side * side * 3);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const head = (x - 256) ** 2 + (y - 200) ** 2 <= 96 ** 2;
      const shoulders = ((x - 256) / 180) ** 2 + ((y - 470) / 150) ** 2 <= 1;
      const colour = head || shoulders ? SILHOUETTE : BACKGROUND;
      pixels.set(colour, (y * side + x) * 3);
    }
  }
  const bytes = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).webp({ quality: 90 }).toBuffer();
  return pictureOf(bytes);
}
