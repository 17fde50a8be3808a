import { expect } from 'chai';
import sharp from 'sharp';
import { ImageRefused, reencodeImage, type ImageLimits } from './index.js';

const RED = '#ff0000ff';
const BLUE = '#0000ffff';
const CLEAR = '#00000000';

const LIMITS: ImageLimits = { formats: ['png', 'jpeg', 'gif', 'webp', 'ico'], maxPixels: 1_000_000 };

/** An ICO file of one bitmap of `side` pixels. */
function icoOf(side: number, bitmap: Buffer): Buffer {
  const directory = Buffer.from([0, 0, 1, 0, 1, 0]);
  const entry = Buffer.alloc(16);
  entry[0] = side;
  entry[1] = side;
  entry.writeUInt32LE(bitmap.length, 8);
  entry.writeUInt32LE(22, 12);
  return Buffer.concat([directory, entry, bitmap]);
}

/**
 * An icon bitmap of `side` × `side` at `bits` per pixel, with `palette` (BGRA entries) and the
 * stored rows (bottom one first) and mask rows given whole.
 */
function bitmap(side: number, bits: number, palette: number[][], rows: Buffer[], maskRows?: Buffer[]): Buffer {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(side, 4);
  header.writeInt32LE(side * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(bits, 14);
  header.writeUInt32LE(palette.length, 32);
  return Buffer.concat([header, Buffer.from(palette.flat()), ...rows, ...(maskRows ?? [])]);
}

/** The RGBA pixels of an encoded image, row by row, as `#rrggbbaa` (a transparent one as CLEAR, whatever its colour). */
async function pixels(image: Buffer): Promise<string[][]> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 4, (y * info.width + x + 1) * 4)];
  const hex = (rgba: number[]) => (rgba[3] === 0 ? CLEAR : `#${rgba.map((v) => v.toString(16).padStart(2, '0')).join('')}`);
  return Array.from({ length: info.height }, (_, y) => Array.from({ length: info.width }, (_, x) => hex(at(x, y))));
}

const asPng = (upload: Buffer, limits = LIMITS) => reencodeImage(upload, limits, (image) => image.png());
const problemOf = (upload: Buffer, limits = LIMITS) =>
  asPng(upload, limits).then(
    () => 'accepted',
    (error: unknown) => (error instanceof ImageRefused ? error.problem : `thrown: ${String(error)}`),
  );

describe('reencodeImage: ICO bitmaps', () => {
  it('reads a 1-bit bitmap through its palette, upright, its mask making pixels transparent', async () => {
    // Palette: 0 red, 1 blue. Stored rows bottom up: the bottom row blue, the top row red.
    const rows = [Buffer.from([0xff, 0, 0, 0]), Buffer.from([0x00, 0, 0, 0])];
    // The mask of the top row (stored second) hides its first pixel.
    const mask = [Buffer.from([0x00, 0, 0, 0]), Buffer.from([0x80, 0, 0, 0])];
    const ico = icoOf(2, bitmap(2, 1, [[0, 0, 255, 0], [255, 0, 0, 0]], rows, mask));
    expect(await pixels(await asPng(ico))).to.deep.equal([
      [CLEAR, RED],
      [BLUE, BLUE],
    ]);
  });

  it('reads 4-bit, 8-bit and 24-bit bitmaps, each opaque without a mask', async () => {
    const palette = [[0, 0, 255, 0], [255, 0, 0, 0]];
    const fourBit = bitmap(2, 4, palette, [Buffer.from([0x11, 0, 0, 0]), Buffer.from([0x01, 0, 0, 0])]);
    const eightBit = bitmap(2, 8, palette, [Buffer.from([1, 1, 0, 0]), Buffer.from([0, 1, 0, 0])]);
    const twentyFour = bitmap(2, 24, [], [Buffer.from([255, 0, 0, 255, 0, 0, 0, 0]), Buffer.from([0, 0, 255, 255, 0, 0, 0, 0])]);
    for (const [label, dib] of [['4-bit', fourBit], ['8-bit', eightBit], ['24-bit', twentyFour]] as const) {
      expect(await pixels(await asPng(icoOf(2, dib))), label).to.deep.equal([
        [RED, BLUE],
        [BLUE, BLUE],
      ]);
    }
  });

  it('refuses a bitmap declaring more pixels than allowed before reading it, and a cut or malformed one as unreadable', async () => {
    const huge = bitmap(2, 32, [], [Buffer.alloc(16)]);
    huge.writeInt32LE(50_000, 4);
    huge.writeInt32LE(100_000, 8);
    expect(await problemOf(icoOf(2, huge))).to.equal('too_many_pixels');

    const whole = bitmap(2, 32, [], [Buffer.alloc(8, 0x40), Buffer.alloc(8, 0x40)]);
    expect(await problemOf(icoOf(2, whole))).to.equal('accepted');
    expect(await problemOf(icoOf(2, whole.subarray(0, whole.length - 4))), 'rows cut short').to.equal('unreadable');
    const compressed = Buffer.from(whole);
    compressed.writeUInt32LE(3, 16);
    expect(await problemOf(icoOf(2, compressed)), 'a compressed bitmap').to.equal('unreadable');
    const pastTheEnd = icoOf(2, whole);
    pastTheEnd.writeUInt32LE(whole.length + 1, 14);
    expect(await problemOf(pastTheEnd), 'an entry past the end of the file').to.equal('unreadable');
  });

  it('refuses a cursor and ICO files of a feature that does not take them', async () => {
    const whole = icoOf(2, bitmap(2, 32, [], [Buffer.alloc(8, 0x40), Buffer.alloc(8, 0x40)]));
    const cursor = Buffer.from(whole);
    cursor.writeUInt16LE(2, 2);
    expect(await problemOf(cursor)).to.equal('not_an_image');
    expect(await problemOf(whole, { formats: ['png'], maxPixels: 1_000_000 })).to.equal('not_an_image');
  });
});
