import { ImageRefused } from './refusal.js';

/** The largest image of an ICO file: a PNG as stored, or the pixels of its bitmap (RGBA, top row first). */
export type IcoImage = { kind: 'png'; bytes: Buffer } | { kind: 'pixels'; rgba: Buffer; width: number; height: number };

const DIRECTORY_BYTES = 6;
const ENTRY_BYTES = 16;
const BITMAP_HEADER_BYTES = 40;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BIT_COUNTS = new Set([1, 4, 8, 24, 32]);

const unreadable = () => new ImageRefused('unreadable');

/**
 * The largest image an ICO file holds, by the sizes its directory declares. Windows icons store
 * each image as a PNG or as a bitmap without its file header (the colours, then a 1-bit
 * transparency mask); sharp reads neither the container nor those bitmaps, so both are read here.
 * A bitmap is decoded only once its header is known to declare at most `maxPixels` pixels and its
 * data is all there.
 */
export function largestIcoImage(file: Buffer, maxPixels: number): IcoImage {
  if (file.length < DIRECTORY_BYTES || file.readUInt16LE(0) !== 0 || file.readUInt16LE(2) !== 1) throw new ImageRefused('not_an_image');
  const count = file.readUInt16LE(4);
  if (count === 0 || file.length < DIRECTORY_BYTES + count * ENTRY_BYTES) throw unreadable();
  let largest = { area: -1, offset: 0, size: 0 };
  for (let i = 0; i < count; i++) {
    const at = DIRECTORY_BYTES + i * ENTRY_BYTES;
    // A side of 0 in the directory means 256.
    const area = (file[at] || 256) * (file[at + 1] || 256);
    const entry = { area, size: file.readUInt32LE(at + 8), offset: file.readUInt32LE(at + 12) };
    if (entry.size === 0 || entry.offset + entry.size > file.length) throw unreadable();
    if (entry.area > largest.area) largest = entry;
  }
  const image = file.subarray(largest.offset, largest.offset + largest.size);
  if (image.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return { kind: 'png', bytes: image };
  return decodeBitmap(image, maxPixels);
}

interface BitmapLayout {
  width: number;
  height: number;
  bits: number;
  palette: Buffer;
  pixelsAt: number;
  stride: number;
  /** Where the transparency mask starts, when the data holds it whole. */
  maskAt?: number;
}

/** The layout of an icon bitmap (BITMAPINFOHEADER, uncompressed, its height counting the mask too). */
function bitmapLayout(dib: Buffer, maxPixels: number): BitmapLayout {
  if (dib.length < BITMAP_HEADER_BYTES) throw unreadable();
  const headerBytes = dib.readUInt32LE(0);
  const width = dib.readInt32LE(4);
  const height = dib.readInt32LE(8) / 2;
  const bits = dib.readUInt16LE(14);
  const compressed = dib.readUInt32LE(16) !== 0;
  if (headerBytes < BITMAP_HEADER_BYTES || width <= 0 || height <= 0 || !Number.isInteger(height) || compressed || !BIT_COUNTS.has(bits)) {
    throw unreadable();
  }
  if (width * height > maxPixels) throw new ImageRefused('too_many_pixels');
  const colours = bits <= 8 ? dib.readUInt32LE(32) || 2 ** bits : 0;
  if (colours > 2 ** bits) throw unreadable();
  const pixelsAt = headerBytes + colours * 4;
  const stride = Math.ceil((width * bits) / 32) * 4;
  const maskAt = pixelsAt + stride * height;
  if (maskAt > dib.length) throw unreadable();
  const whole = maskAt + Math.ceil(width / 32) * 4 * height <= dib.length;
  return { width, height, bits, palette: dib.subarray(headerBytes, pixelsAt), pixelsAt, stride, maskAt: whole ? maskAt : undefined };
}

/** The colour of pixel `x` of a stored row, as [red, green, blue, alpha]. */
function pixelOf(row: Buffer, x: number, { bits, palette }: BitmapLayout): [number, number, number, number] {
  if (bits >= 24) {
    const at = x * (bits / 8);
    return [row[at + 2]!, row[at + 1]!, row[at]!, bits === 32 ? row[at + 3]! : 255];
  }
  const bit = x * bits;
  const index = (row[bit >> 3]! >> (8 - bits - (bit & 7))) & ((1 << bits) - 1);
  // An index past the palette reads as black, as Windows draws it.
  const at = index * 4;
  return at + 3 < palette.length ? [palette[at + 2]!, palette[at + 1]!, palette[at]!, 255] : [0, 0, 0, 255];
}

function decodeBitmap(dib: Buffer, maxPixels: number): IcoImage {
  const layout = bitmapLayout(dib, maxPixels);
  const { width, height, pixelsAt, stride, maskAt } = layout;
  const rgba = Buffer.alloc(width * height * 4);
  const maskStride = Math.ceil(width / 32) * 4;
  // 32-bit images carry their own alpha; older ones (alpha all zero) rely on the mask alone.
  let ownAlpha = false;
  for (let y = 0; y < height; y++) {
    // Rows are stored bottom up.
    const row = dib.subarray(pixelsAt + (height - 1 - y) * stride, pixelsAt + (height - y) * stride);
    for (let x = 0; x < width; x++) {
      const pixel = pixelOf(row, x, layout);
      ownAlpha ||= layout.bits === 32 && pixel[3] !== 0;
      rgba.set(pixel, (y * width + x) * 4);
    }
  }
  if (layout.bits === 32 && ownAlpha) return { kind: 'pixels', rgba, width, height };
  for (let y = 0; y < height; y++) {
    const mask = maskAt === undefined ? undefined : dib.subarray(maskAt + (height - 1 - y) * maskStride);
    for (let x = 0; x < width; x++) {
      const transparent = mask !== undefined && (mask[x >> 3]! >> (7 - (x & 7))) & 1;
      rgba[(y * width + x) * 4 + 3] = transparent ? 0 : 255;
    }
  }
  return { kind: 'pixels', rgba, width, height };
}
