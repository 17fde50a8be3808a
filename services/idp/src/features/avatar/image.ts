import { createHash } from 'node:crypto';
import { AVATAR_INPUT_TYPES } from '@gatehouse/contracts';
import { AppError } from '@gatehouse/core';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata } from 'sharp';

/** A picture as it is stored and served: always re-encoded by us, never the uploaded bytes. */
export interface Picture {
  /** Lowercase hex SHA-256 of `bytes`. */
  contentHash: string;
  contentType: string;
  bytes: Buffer;
}

/** The stored picture's side, in pixels: the largest size served. */
export const STORED_SIDE = 512;
/**
 * The most pixels an upload may declare. A few hundred kilobytes of PNG can declare a picture of
 * billions of pixels; the header is read first, and nothing larger is ever decoded.
 */
export const MAX_INPUT_PIXELS = 25_000_000;
const OUTPUT_TYPE = 'image/webp';

/** What sharp calls each accepted type; the decoder must agree with the content's signature. */
const SHARP_FORMATS: Record<(typeof AVATAR_INPUT_TYPES)[number], string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The hash a picture URL carries: lowercase hex SHA-256 of the trimmed, lower-cased e-mail. */
export function emailHash(email: string): string {
  return sha256(email.trim().toLowerCase());
}

function pictureOf(bytes: Buffer): Picture {
  return { contentHash: sha256(bytes), contentType: OUTPUT_TYPE, bytes };
}

/** The sharp format an accepted upload must decode as, judged by its content alone. */
async function declaredFormat(upload: Buffer): Promise<string> {
  const type = await fileTypeFromBuffer(upload);
  const format = type ? SHARP_FORMATS[type.mime as keyof typeof SHARP_FORMATS] : undefined;
  if (!format) throw new AppError('avatar.not_an_image', 400);
  return format;
}

/** Width and height from the header, without decoding the pixels. */
async function dimensions(upload: Buffer, format: string): Promise<{ width: number; height: number }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(upload, { limitInputPixels: false, pages: 1 }).metadata();
  } catch {
    throw new AppError('avatar.unreadable', 400);
  }
  // A file whose signature says one format and whose decoder reads another is refused.
  if (metadata.format !== format) throw new AppError('avatar.not_an_image', 400);
  const width = metadata.width ?? 0;
  const height = metadata.pageHeight ?? metadata.height ?? 0;
  if (width * height > MAX_INPUT_PIXELS) throw new AppError('avatar.too_many_pixels', 400, { limit: MAX_INPUT_PIXELS / 1_000_000 });
  if (!width || !height) throw new AppError('avatar.unreadable', 400);
  return { width, height };
}

/**
 * An uploaded picture, checked and re-encoded: a PNG, JPEG, WebP or GIF by its content (an SVG,
 * an HTML page or any other file is refused, whatever its name), of at most MAX_INPUT_PIXELS,
 * decoded (the first frame of an animation), turned upright, cropped to a centred square of at
 * most STORED_SIDE pixels and encoded again as WebP without any metadata. Whatever else the file
 * carried (a script after the image data, EXIF, comments) is gone: only pixels survive.
 */
export async function reencodeUpload(upload: Buffer): Promise<Picture> {
  const format = await declaredFormat(upload);
  const { width, height } = await dimensions(upload, format);
  const side = Math.min(STORED_SIDE, width, height);
  try {
    const bytes = await sharp(upload, { limitInputPixels: MAX_INPUT_PIXELS, pages: 1, failOn: 'error' })
      .rotate()
      .resize(side, side, { fit: 'cover', position: 'centre' })
      .webp({ quality: 88 })
      .toBuffer();
    return pictureOf(bytes);
  } catch {
    throw new AppError('avatar.unreadable', 400);
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
