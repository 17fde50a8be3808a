import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { buildGroup } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { bearer, buildAdminWorld, xlsx, type AdminWorld } from '../testing/admin-world.js';
import { withBackgroundJobs } from '../testing/exports.js';
import { importResult } from '../testing/jobs.js';

/** One part of a workbook: its name and what it inflates to. */
interface Part {
  name: string;
  content: Buffer;
}

/** How a part is written into the archive: honestly, unless told otherwise. */
interface Written extends Part {
  /** The data stored, when not the deflated content. */
  data?: Buffer;
  /** The size the central directory declares (default the content's). */
  declaredSize?: number;
  /** The size the local header declares (default declaredSize). */
  localSize?: number;
  /** Sizes in a data descriptor after the data, as streaming zip writers do. */
  descriptor?: boolean;
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
function partsOf(workbook: Buffer): Part[] {
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
function zip(parts: Written[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const data = part.data ?? deflateRawSync(part.content);
    const crc = crc32(part.content);
    const declared = part.declaredSize ?? part.content.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(part.descriptor ? 0x8 : 0, 6);
    local.writeUInt16LE(8, 8);
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
    central.writeUInt16LE(8, 10);
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

/** The parts with `text` inserted into one of them before `before`. */
function inserting(parts: Part[], name: string, before: string, text: string): Part[] {
  return parts.map((part) => {
    if (part.name !== name) return part;
    const xml = part.content.toString('utf8');
    const at = xml.lastIndexOf(before);
    return { name, content: Buffer.from(xml.slice(0, at) + text + xml.slice(at), 'utf8') };
  });
}

const INFLATED = 64 * 1024 * 1024;

describe('security: uploads are bounded by what is inflated, not by what the zip declares', function () {
  this.timeout(120_000);
  let w: AdminWorld;
  /** 64 MB of zeros, deflated: about 64 KB. */
  let zeros: Buffer;
  /** An honest workbook of each import, as parts. */
  let users: Part[];
  let members: Part[];
  let group: { id: string };
  let n = 0;

  before(async () => {
    w = await buildAdminWorld();
    zeros = deflateRawSync(Buffer.alloc(INFLATED));
    const row = () => {
      n++;
      return [`bounded-${n}@example.com`, `bounded-${n}@example.com`, 'Ada', 'Byron', w.areaA.name, 'en'];
    };
    users = partsOf(await xlsx([['UserName', 'Email', 'FirstName', 'LastName', 'Area', 'Language'], row()]));
    group = await buildGroup(w.context.dataSource, { areaId: w.areaA.id });
    members = partsOf(await xlsx([['UserName'], [w.callers.tenantAdmin.userName]]));
  });
  withBackgroundJobs(() => w);

  /** The two imports a caller can upload a workbook to, each with an honest workbook of its own. */
  const endpoints = [
    { name: 'the user import', path: () => '/api/v1/admin/users/bulk_insert', parts: () => users },
    { name: 'the group member import', path: () => `/api/v1/admin/groups/bulk_insert/${group.id}`, parts: () => members },
  ];

  const upload = async (path: string, file: Buffer, lang = 'en') =>
    request(w.server).post(path).set('Authorization', await bearer(w)).set('Accept-Language', lang).attach('file', file, 'upload.xlsx');

  /** The same honest workbook with one more part: a 64 KB deflate stream of 64 MB of zeros. */
  const withBomb = (parts: Part[], bomb: Omit<Written, 'name' | 'content' | 'data'>) =>
    zip([...parts, { name: 'xl/media/image1.png', content: Buffer.alloc(0), data: zeros, ...bomb }]);

  for (const endpoint of endpoints) {
    describe(endpoint.name, () => {
      it('takes an honest workbook built the same way (the control)', async () => {
        const result = await importResult(w.context, await upload(endpoint.path(), zip(endpoint.parts())));
        expect(result).to.include({ success: true, importedElements: 1 });
      });

      it('refuses a 64 KB part that inflates past the size both directories declare, and still answers the next request', async () => {
        for (const bomb of [{ declaredSize: 100 }, { declaredSize: 100, descriptor: true }]) {
          const file = withBomb(endpoint.parts(), bomb);
          expect(file.length).to.be.below(80 * 1024);
          const res = await upload(endpoint.path(), file);
          expect(res.status, JSON.stringify(bomb)).to.equal(400);
          expect(res.body).to.include({ code: 'import.file_too_large_unpacked', message: 'The file holds more data than one import may. Split it into several files.' });
        }
        const fr = await upload(endpoint.path(), withBomb(endpoint.parts(), { declaredSize: 100 }), 'fr');
        expect(fr.body.message).to.equal('Le fichier contient plus de données qu’un import ne peut en traiter. Répartissez-le en plusieurs fichiers.');
        const next = await upload(endpoint.path(), zip(endpoint.parts()));
        expect(next.status, 'the service still answers').to.equal(202);
      });

      it('refuses a part whose local header declares another size than the central directory', async () => {
        const res = await upload(endpoint.path(), withBomb(endpoint.parts(), { declaredSize: 100, localSize: INFLATED }));
        expect(res.status).to.equal(400);
        expect(res.body.message).to.equal('The file could not be read as an Excel workbook (.xlsx)');
      });

      it('refuses more shared strings, and a longer shared string or cell, than an import may read', async () => {
        const many = inserting(endpoint.parts(), 'xl/sharedStrings.xml', '</sst>', '<si><t>x</t></si>'.repeat(600_000));
        const long = inserting(endpoint.parts(), 'xl/sharedStrings.xml', '</sst>', `<si><t>${'a'.repeat(1024 * 1024)}</t></si>`);
        const cell = inserting(endpoint.parts(), 'xl/worksheets/sheet1.xml', '</sheetData>', `<row r="50"><c r="A50" t="inlineStr"><is><t>${'a'.repeat(1024 * 1024)}</t></is></c></row>`);
        for (const [what, parts] of Object.entries({ many, long, cell })) {
          const file = zip(parts);
          expect(file.length, what).to.be.below(2 * 1024 * 1024);
          const res = await upload(endpoint.path(), file);
          expect(res.status, what).to.equal(400);
          expect(res.body.code, what).to.equal('import.file_too_large_unpacked');
        }
      });
    });
  }
});
