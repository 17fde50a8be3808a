// Workbooks taken apart and zipped again, honestly or not, for the tests of what reads uploads.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** One part of a workbook: its name and what it inflates to. */
export interface Part {
  name: string;
  content: Buffer;
}

/** How a part is written into the archive: honestly, unless told otherwise. */
export interface Written extends Part {
  /** The data stored, when not the deflated content. */
  data?: Buffer;
  /** The size the central directory declares (default the content's). */
  declaredSize?: number;
  /** The size the local header declares (default declaredSize). */
  localSize?: number;
  /** Sizes in a data descriptor after the data, as streaming zip writers do. */
  descriptor?: boolean;
  /** Stored as it is rather than deflated. */
  stored?: boolean;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The parts of a workbook exceljs wrote (sizes in its local headers). */
export function partsOf(workbook: Buffer): Part[] {
  const parts: Part[] = [];
  let pos = 0;
  while (workbook.readUInt32LE(pos) === 0x04034b50) {
    const method = workbook.readUInt16LE(pos + 8);
    const compressed = workbook.readUInt32LE(pos + 18);
    const nameLength = workbook.readUInt16LE(pos + 26);
    const start = pos + 30 + nameLength + workbook.readUInt16LE(pos + 28);
    const data = workbook.subarray(start, start + compressed);
    parts.push({ name: workbook.subarray(pos + 30, pos + 30 + nameLength).toString('utf8'), content: method ? inflateRawSync(data) : Buffer.from(data) });
    pos = start + compressed;
  }
  return parts;
}

/** A zip archive of the parts, deflated, with the sizes each part is told to declare. */
export function zip(parts: Written[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const data = part.data ?? (part.stored ? part.content : deflateRawSync(part.content));
    const method = part.stored ? 0 : 8;
    const crc = crc32(part.content);
    const declared = part.declaredSize ?? part.content.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(part.descriptor ? 0x8 : 0, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(part.descriptor ? 0 : crc, 14);
    local.writeUInt32LE(part.descriptor ? 0 : data.length, 18);
    local.writeUInt32LE(part.descriptor ? 0 : (part.localSize ?? declared), 22);
    local.writeUInt16LE(name.length, 26);
    const entry = [local, name, data];
    if (part.descriptor) {
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(data.length, 8);
      descriptor.writeUInt32LE(part.localSize ?? declared, 12);
      entry.push(descriptor);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(part.descriptor ? 0x8 : 0, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    locals.push(...entry);
    offset += entry.reduce((n, b) => n + b.length, 0);
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
