import { StringDecoder } from 'node:string_decoder';
import { createInflateRaw } from 'node:zlib';
import type { ImportErrors } from './import-errors.js';

/**
 * What the parts of an upload may inflate to, together. A 2 MB upload of ordinary rows unpacks to a
 * few tens of MB; far more means a zip bomb.
 */
export const MAX_UNPACKED_BYTES = 128 * 1024 * 1024;
/** Parts of one upload: an honest workbook has a few dozen. */
export const MAX_ENTRIES = 1000;
/** Shared strings of one workbook: every one is kept in memory while the sheets are read. */
export const MAX_SHARED_STRINGS = 500_000;
/** Elements (tags) of one XML part: the XML parser makes an object of each. */
export const MAX_XML_ELEMENTS = 2_000_000;
/**
 * The longest cell, shared string, tag or text between two tags, in bytes of XML. Excel's own cell
 * limit (32,767 characters) fits, with its escaping and rich-text markup.
 */
export const MAX_CELL_BYTES = 256 * 1024;
/** Cells of one row: Excel's column limit. */
export const MAX_ROW_CELLS = 16_384;

const LOCAL_FILE_HEADER = 0x04034b50;
const CENTRAL_DIRECTORY_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const DATA_DESCRIPTOR = Buffer.from([0x50, 0x4b, 0x07, 0x08]);
const STORED = 0;
const DEFLATED = 8;
/** A 32-bit size or offset of this value announces ZIP64: no honest 2 MB workbook needs one. */
const ZIP64 = 0xffffffff;

/** One part of the archive as the streaming reader will meet it, checked against the central directory. */
interface ZipEntry {
  name: string;
  method: number;
  /** Where its (compressed) data lies in the upload. */
  dataStart: number;
  dataEnd: number;
  /** What it inflates to, as both its local header (or data descriptor) and the central directory say. */
  size: number;
}

class Refusal extends Error {
  constructor(readonly problem: 'unreadable_file' | 'file_too_large_unpacked') {
    super(problem);
  }
}

/** The parts of a checked workbook, read as text (inflated and decoded as they are read). */
export interface WorkbookParts {
  has(name: string): boolean;
  /** The part's text in chunks, never splitting a character; empty for a part the archive lacks. */
  text(name: string): AsyncGenerator<string>;
  /** The worksheet parts in the order the archive holds them, with the number their names carry. */
  worksheets: Array<{ name: string; number: string }>;
}

/** A worksheet part, as exceljs names them (xl/worksheets/sheet3.xml is sheet 3). */
const WORKSHEET = /xl\/worksheets\/sheet(\d+)[.]xml/;

/**
 * Checks an uploaded workbook before anything parses it, and refuses it with a 400 when it is not
 * a zip archive (a renamed .xls or CSV: `unreadable_file`), or holds more than an import may read
 * (`file_too_large_unpacked`); answers its parts, to read from the upload already in memory.
 *
 * The archive is walked record by record from the first byte, as a streaming reader would, and
 * each local entry must match its central directory entry (name, method, sizes, offset); then
 * every entry is inflated into nothing, counting: one that inflates past its declared size, or all
 * of them past MAX_UNPACKED_BYTES, stops the count at once. The XML parts exceljs parses are
 * measured on the way (shared strings, cells, tags, text), so what it builds in memory stays
 * bounded too. This adds no more than one inflate buffer at a time; the parts answered are
 * inflated again, one at a time, when they are read.
 */
export async function assertReadableWorkbook(buffer: Buffer, errors: ImportErrors): Promise<WorkbookParts> {
  let entries: ZipEntry[];
  try {
    entries = zipEntries(buffer);
    let total = 0;
    for (const entry of entries) {
      total += entry.size;
      if (total > MAX_UNPACKED_BYTES) throw new Refusal('file_too_large_unpacked');
      await inflateCounting(buffer.subarray(entry.dataStart, entry.dataEnd), entry, partKind(entry.name));
    }
  } catch (error) {
    if (error instanceof Refusal) throw errors(error.problem, {});
    throw error;
  }
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  return {
    has: (name) => byName.has(name),
    text: (name) => partText(buffer, byName.get(name)),
    worksheets: entries.flatMap((entry) => {
      const number = WORKSHEET.exec(entry.name)?.[1];
      return number ? [{ name: entry.name, number }] : [];
    }),
  };
}

/** An entry's data inflated (the sizes were checked already) and decoded as UTF-8. */
async function* partText(buffer: Buffer, entry: ZipEntry | undefined): AsyncGenerator<string> {
  if (!entry) return;
  const data = buffer.subarray(entry.dataStart, entry.dataEnd);
  const decoder = new StringDecoder('utf8');
  if (entry.method === STORED) {
    yield decoder.write(data) + decoder.end();
    return;
  }
  const inflater = createInflateRaw();
  inflater.end(data);
  for await (const chunk of inflater) {
    const text = decoder.write(chunk as Buffer);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** A local entry as read, with what its central directory entry must repeat. */
type LocalEntry = ZipEntry & { offset: number; nameBytes: Buffer };
/** A central directory entry: what it declares of the local entry at its offset. */
interface CentralEntry {
  nameBytes: Buffer;
  method: number;
  compressed: number;
  size: number;
}

const unreadable = () => new Refusal('unreadable_file');

/** Refuses the archive unless `length` bytes from `at` lie inside it. */
function need(buffer: Buffer, at: number, length: number): void {
  if (at < 0 || at + length > buffer.length) throw unreadable();
}

/**
 * The archive's entries, in the order the streaming reader meets them: local entries from the
 * first byte, then the central directory, then its end record. Anything else (a file after the
 * central directory, an unknown record, an encrypted or ZIP64 entry, a local entry its central one
 * contradicts, a name given twice) is refused.
 */
function zipEntries(buffer: Buffer): ZipEntry[] {
  const locals: LocalEntry[] = [];
  const central = new Map<number, CentralEntry>();
  let pos = 0;
  for (;;) {
    need(buffer, pos, 4);
    const signature = buffer.readUInt32LE(pos);
    if (signature === LOCAL_FILE_HEADER) {
      // A file after the central directory is still one the reader inflates: no honest archive has one.
      if (central.size) throw unreadable();
      const { entry, next } = readLocalEntry(buffer, pos);
      locals.push(entry);
      if (locals.length > MAX_ENTRIES) throw new Refusal('file_too_large_unpacked');
      pos = next;
    } else if (signature === CENTRAL_DIRECTORY_HEADER) {
      pos = readCentralEntry(buffer, pos, central);
    } else if (signature === END_OF_CENTRAL_DIRECTORY) {
      need(buffer, pos, 22);
      need(buffer, pos + 22, buffer.readUInt16LE(pos + 20));
      // The reader stops here; a count of 0xFFFF announces ZIP64.
      if (buffer.readUInt16LE(pos + 10) !== central.size || central.size !== locals.length) throw unreadable();
      break;
    } else {
      throw unreadable();
    }
  }
  assertCentralAgrees(locals, central);
  return locals;
}

/** The local entry at `pos`, and where the next record begins (after its data, or its data descriptor). */
function readLocalEntry(buffer: Buffer, pos: number): { entry: LocalEntry; next: number } {
  need(buffer, pos, 30);
  const flags = buffer.readUInt16LE(pos + 6);
  const method = buffer.readUInt16LE(pos + 8);
  let compressed = buffer.readUInt32LE(pos + 18);
  let size = buffer.readUInt32LE(pos + 22);
  const nameLength = buffer.readUInt16LE(pos + 26);
  const dataStart = pos + 30 + nameLength + buffer.readUInt16LE(pos + 28);
  need(buffer, pos + 30, dataStart - pos - 30);
  if (flags & 0x1 || (method !== STORED && method !== DEFLATED)) throw unreadable();
  if (compressed === ZIP64 || size === ZIP64) throw new Refusal('file_too_large_unpacked');
  let dataEnd: number;
  let next: number;
  if (!(flags & 0x8) || compressed > 0) {
    dataEnd = dataStart + compressed;
    need(buffer, dataStart, compressed);
    next = dataEnd;
  } else {
    // The sizes follow the data, in a descriptor the reader finds by its signature.
    dataEnd = buffer.indexOf(DATA_DESCRIPTOR, dataStart);
    if (dataEnd < 0) throw unreadable();
    need(buffer, dataEnd, 16);
    compressed = buffer.readUInt32LE(dataEnd + 8);
    size = buffer.readUInt32LE(dataEnd + 12);
    if (compressed !== dataEnd - dataStart) throw unreadable();
    if (size === ZIP64) throw new Refusal('file_too_large_unpacked');
    next = dataEnd + 16;
  }
  const nameBytes = buffer.subarray(pos + 30, pos + 30 + nameLength);
  return { entry: { offset: pos, nameBytes, name: nameBytes.toString('utf8'), method, dataStart, dataEnd, size }, next };
}

/** Records the central directory entry at `pos` by the offset it names; answers where the next record begins. */
function readCentralEntry(buffer: Buffer, pos: number, central: Map<number, CentralEntry>): number {
  need(buffer, pos, 46);
  const nameLength = buffer.readUInt16LE(pos + 28);
  const length = 46 + nameLength + buffer.readUInt16LE(pos + 30) + buffer.readUInt16LE(pos + 32);
  need(buffer, pos, length);
  const offset = buffer.readUInt32LE(pos + 42);
  if (central.has(offset)) throw unreadable();
  central.set(offset, {
    nameBytes: buffer.subarray(pos + 46, pos + 46 + nameLength),
    method: buffer.readUInt16LE(pos + 10),
    compressed: buffer.readUInt32LE(pos + 20),
    size: buffer.readUInt32LE(pos + 24),
  });
  return pos + length;
}

/** Every local entry must be the one its central entry declares (name, method, sizes), and every name appear once. */
function assertCentralAgrees(locals: readonly LocalEntry[], central: ReadonlyMap<number, CentralEntry>): void {
  const names = new Set<string>();
  for (const local of locals) {
    const declared = central.get(local.offset);
    if (
      !declared ||
      !declared.nameBytes.equals(local.nameBytes) ||
      declared.method !== local.method ||
      declared.compressed !== local.dataEnd - local.dataStart ||
      declared.size !== local.size ||
      (local.method === STORED && local.size !== local.dataEnd - local.dataStart) ||
      names.has(local.name)
    ) {
      throw unreadable();
    }
    names.add(local.name);
  }
}

type PartKind = 'sharedStrings' | 'worksheet' | 'xml';

/**
 * How exceljs's streaming reader, with the options readSheet gives it, parses a part of this name
 * (its workbook-reader matches them so); the parts it does not parse it only inflates.
 */
function partKind(name: string): PartKind | undefined {
  if (name === 'xl/sharedStrings.xml') return 'sharedStrings';
  if (name === 'xl/workbook.xml' || name === 'xl/_rels/workbook.xml.rels') return 'xml';
  if (WORKSHEET.test(name)) return 'worksheet';
  return undefined;
}

/**
 * Inflates one entry into nothing, counting (and measuring it as XML when exceljs parses it):
 * refused as soon as it passes its declared size, or when it ends short of it.
 */
function inflateCounting(data: Buffer, entry: ZipEntry, kind: PartKind | undefined): Promise<void> {
  const meter = kind ? new XmlMeter(kind) : undefined;
  if (entry.method === STORED) {
    if (meter && !meter.write(data)) return Promise.reject(new Refusal('file_too_large_unpacked'));
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const inflater = createInflateRaw();
    let inflated = 0;
    const stop = (refusal: Refusal) => {
      inflater.destroy();
      reject(refusal);
    };
    inflater.on('data', (chunk: Buffer) => {
      inflated += chunk.length;
      if (inflated > entry.size || (meter && !meter.write(chunk))) stop(new Refusal('file_too_large_unpacked'));
    });
    inflater.on('end', () => (inflated === entry.size ? resolve() : reject(new Refusal('unreadable_file'))));
    inflater.on('error', () => reject(new Refusal('unreadable_file')));
    inflater.end(data);
  });
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const isSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * Measures an XML part byte by byte, without decoding or building anything: elements, shared
 * strings and cells counted, and the longest text, tag, shared string or cell, against the limits
 * above. Comments, CDATA, processing instructions and declarations are skipped to their first `>`;
 * what follows is measured as text, so nothing escapes a limit by hiding in one.
 */
class XmlMeter {
  private state: 'text' | 'open' | 'name' | 'attributes' | 'closeName' | 'closeRest' | 'skip' = 'text';
  /** Bytes measured before the current chunk. */
  private offset = 0;
  /** Where the current text or tag began. */
  private mark = 0;
  /** Where the shared string or cell being read began (null between them). */
  private measured: number | null = null;
  /** The current tag's name (its first bytes: the names counted are short). */
  private name = '';
  private quote = 0;
  private slash = false;
  private elements = 0;
  private sharedStrings = 0;
  private rowCells = 0;

  constructor(private readonly kind: PartKind) {}

  /** False as soon as the part holds more than an import may read. */
  write(chunk: Buffer): boolean {
    for (let i = 0; i < chunk.length; i++) {
      if (this.state === 'text') {
        // Text is skipped to the next tag at once, only its length measured.
        const lt = chunk.indexOf(LT, i);
        if (lt < 0) break;
        if (this.offset + lt - this.mark > MAX_CELL_BYTES) return false;
        this.mark = this.offset + lt;
        this.state = 'open';
        i = lt;
      } else if (!this.step(chunk[i]!, this.offset + i)) {
        return false;
      }
    }
    this.offset += chunk.length;
    if (this.offset - this.mark > MAX_CELL_BYTES) return false;
    return this.measured === null || this.offset - this.measured <= MAX_CELL_BYTES;
  }

  /** One byte of a tag, found at `at` in the part; false as soon as the part holds more than an import may read. */
  private step(byte: number, at: number): boolean {
    switch (this.state) {
      case 'open':
        if (byte === SLASH) {
          this.state = 'closeName';
          this.name = '';
        } else if (byte === BANG || byte === QUESTION) {
          this.state = 'skip';
        } else {
          this.state = 'name';
          this.name = String.fromCharCode(byte);
        }
        break;
      case 'name':
        if (isSpace(byte) || byte === GT || byte === SLASH) {
          if (!this.opened()) return false;
          this.state = 'attributes';
          this.slash = byte === SLASH;
          this.quote = 0;
          if (byte === GT) this.tagEnd(at, false);
        } else if (this.name.length < 8) {
          this.name += String.fromCharCode(byte);
        }
        break;
      case 'attributes':
        this.attributeByte(byte, at);
        break;
      case 'closeName':
        if (byte === GT) {
          this.closed();
          this.tagEnd(at, false);
        } else if (isSpace(byte)) {
          this.state = 'closeRest';
        } else if (this.name.length < 8) {
          this.name += String.fromCharCode(byte);
        }
        break;
      case 'closeRest':
        if (byte === GT) {
          this.closed();
          this.tagEnd(at, false);
        }
        break;
      case 'skip':
        if (byte === GT) this.tagEnd(at, false);
        break;
    }
    return true;
  }

  /** A byte among a start tag's attributes: quoted values are skipped whole, `/>` closes the element. */
  private attributeByte(byte: number, at: number): void {
    if (this.quote) {
      if (byte === this.quote) this.quote = 0;
    } else if (byte === DOUBLE_QUOTE || byte === SINGLE_QUOTE) {
      this.quote = byte;
    } else if (byte === GT) {
      this.tagEnd(at, this.slash);
      return;
    }
    this.slash = byte === SLASH && !this.quote;
  }

  /** A start tag's name was read: false when the part has too many elements, shared strings or cells in a row. */
  private opened(): boolean {
    if (++this.elements > MAX_XML_ELEMENTS) return false;
    if (this.kind === 'sharedStrings' && this.name === 'si') {
      if (++this.sharedStrings > MAX_SHARED_STRINGS) return false;
      this.measured ??= this.mark;
    } else if (this.kind === 'worksheet' && this.name === 'row') {
      this.rowCells = 0;
    } else if (this.kind === 'worksheet' && this.name === 'c') {
      if (++this.rowCells > MAX_ROW_CELLS) return false;
      this.measured ??= this.mark;
    }
    return true;
  }

  private closed(): void {
    if (this.name === (this.kind === 'sharedStrings' ? 'si' : 'c')) this.measured = null;
  }

  /** The tag ending at `at` (its `>`) is over; a self-closing one closes its element too. */
  private tagEnd(at: number, selfClosing: boolean): void {
    if (selfClosing) this.closed();
    this.state = 'text';
    this.mark = at + 1;
  }
}
