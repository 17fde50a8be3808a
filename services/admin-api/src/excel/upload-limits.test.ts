import { deflateRawSync } from 'node:zlib';
import { buildGroup } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { bearer, buildAdminWorld, xlsx, type AdminWorld } from '../testing/admin-world.js';
import { withBackgroundJobs } from '../testing/exports.js';
import { importResult } from '../testing/jobs.js';
import { partsOf, zip, type Part, type Written } from '../testing/zip.js';

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
