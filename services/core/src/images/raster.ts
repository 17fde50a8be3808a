import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { largestIcoImage } from './ico.js';
import { ImageRefused } from './refusal.js';

/** The raster formats an upload may be, as sharp names them (ICO: read here, its images by sharp). */
export type RasterFormat = 'png' | 'jpeg' | 'webp' | 'gif' | 'ico';

/** What a feature accepts: the formats, and the most pixels an image may declare. */
export interface ImageLimits {
  formats: readonly RasterFormat[];
  /**
   * A few hundred kilobytes of PNG can declare billions of pixels: the header is read first, and
   * nothing larger is ever decoded.
   */
  maxPixels: number;
}

/** The format each content signature stands for. */
const FORMAT_OF_TYPE: Record<string, RasterFormat> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/x-icon': 'ico',
};

interface Source {
  /** Encoded bytes for sharp, or decoded pixels (an ICO bitmap). */
  input: { bytes: Buffer } | { rgba: Buffer };
  width: number;
  height: number;
}

/** The format of an upload, judged by its content alone; refused unless it is one of `formats`. */
async function formatOf(upload: Buffer, formats: readonly RasterFormat[]): Promise<RasterFormat> {
  const type = await fileTypeFromBuffer(upload);
  // A cursor shares the icon's media type but not its extension.
  const format = type && (type.mime !== 'image/x-icon' || type.ext === 'ico') ? FORMAT_OF_TYPE[type.mime] : undefined;
  if (!format || !formats.includes(format)) throw new ImageRefused('not_an_image');
  return format;
}

/** Width and height from the header, without decoding the pixels. */
async function dimensions(bytes: Buffer, format: RasterFormat, maxPixels: number): Promise<{ width: number; height: number }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false, pages: 1 }).metadata();
  } catch {
    throw new ImageRefused('unreadable');
  }
  // A file whose signature says one format and whose decoder reads another is refused.
  if (metadata.format !== format) throw new ImageRefused('not_an_image');
  const width = metadata.width ?? 0;
  const height = metadata.pageHeight ?? metadata.height ?? 0;
  if (width * height > maxPixels) throw new ImageRefused('too_many_pixels');
  if (!width || !height) throw new ImageRefused('unreadable');
  return { width, height };
}

async function sourceOf(upload: Buffer, limits: ImageLimits): Promise<Source> {
  const format = await formatOf(upload, limits.formats);
  if (format !== 'ico') return { input: { bytes: upload }, ...(await dimensions(upload, format, limits.maxPixels)) };
  const image = largestIcoImage(upload, limits.maxPixels);
  if (image.kind === 'pixels') return { input: { rgba: image.rgba }, width: image.width, height: image.height };
  return { input: { bytes: image.bytes }, ...(await dimensions(image.bytes, 'png', limits.maxPixels)) };
}

/**
 * An uploaded picture, checked and encoded again: a raster image of one of `limits.formats` by its
 * content (an SVG, an HTML page or any other file is refused, whatever its name or declared type),
 * of at most `limits.maxPixels`, decoded whole (the first frame of an animation; the largest image
 * of an ICO), then written by `encode` from its pixels alone. Whatever else the file carried (a
 * script after the image data, EXIF, comments) is gone. Refusals are ImageRefused.
 */
export async function reencodeImage(upload: Buffer, limits: ImageLimits, encode: (image: Sharp, size: { width: number; height: number }) => Sharp): Promise<Buffer> {
  const { input, width, height } = await sourceOf(upload, limits);
  const image =
    'rgba' in input
      ? sharp(input.rgba, { raw: { width, height, channels: 4 } })
      : sharp(input.bytes, { limitInputPixels: limits.maxPixels, pages: 1, failOn: 'error' });
  try {
    return await encode(image, { width, height }).toBuffer();
  } catch {
    throw new ImageRefused('unreadable');
  }
}
