import { AppError } from '@gatehouse/core';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { partsOf, zip, type Part } from '../testing/zip.js';
import { readSheet, type ColumnSpec } from './workbook.js';

const COLUMNS: Array<ColumnSpec<'user' | 'name'>> = [
  { key: 'user', header: 'UserName', required: true },
  { key: 'name', header: 'Name', required: false },
];

/** Text whose UTF-8 bytes are two, three and four per character, long enough to span inflate chunks. */
const WIDE = 'é中😀'.repeat(12_000);

/** A workbook of two sheets (the second one a decoy), names kept as shared strings and as inline text. */
async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const first = book.addWorksheet('People');
  first.addRow(['UserName', 'Name']);
  first.addRow(['zoë@example.com', 'Zoë Ørsted']);
  first.addRow(['wide@example.com', WIDE]);
  first.addRow(['', '']);
  first.addRow(['li@example.com', { richText: [{ text: '李 ' }, { text: '小龙', font: { bold: true } }] }]);
  const decoy = book.addWorksheet('Decoy');
  decoy.addRow(['UserName']);
  decoy.addRow(['decoy@example.com']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const EXPECTED = [
  { row: 2, cells: { user: 'zoë@example.com', name: 'Zoë Ørsted' } },
  { row: 3, cells: { user: 'wide@example.com', name: WIDE } },
  { row: 5, cells: { user: 'li@example.com', name: '李 小龙' } },
];

/** The parts with those named first, in the order given, and the rest after them as they were. */
const reordered = (parts: Part[], first: string[]) => [...first.map((name) => parts.find((p) => p.name === name)!), ...parts.filter((p) => !first.includes(p.name))];

describe('readSheet: the first worksheet of an uploaded workbook', () => {
  let parts: Part[];
  before(async () => {
    parts = partsOf(await workbook());
    expect(parts.map((p) => p.name)).to.include.members(['xl/sharedStrings.xml', 'xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml']);
  });

  it('reads the first sheet’s rows, every character intact, and ignores the other sheets', async () => {
    expect(await readSheet(zip(parts), { columns: COLUMNS, maxRows: 10 })).to.deep.equal(EXPECTED);
  });

  it('reads the same rows whether the shared strings come before or after the sheets, and from parts stored without compression', async () => {
    const early = zip(reordered(parts, ['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml']));
    const late = zip(reordered(parts, ['xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml']));
    const stored = zip(parts.map((p) => ({ ...p, stored: true })));
    for (const [what, file] of Object.entries({ early, late, stored })) {
      expect(await readSheet(file, { columns: COLUMNS, maxRows: 10 }), what).to.deep.equal(EXPECTED);
    }
  });

  it('takes the sheet the archive holds first as the first sheet', async () => {
    const decoyFirst = zip(reordered(parts, ['xl/worksheets/sheet2.xml']));
    expect(await readSheet(decoyFirst, { columns: COLUMNS, maxRows: 10 })).to.deep.equal([{ row: 2, cells: { user: 'decoy@example.com' } }]);
  });

  it('gives every one of 40 reads at once the same rows', async () => {
    const file = zip(parts);
    const results = await Promise.all(Array.from({ length: 40 }, () => readSheet(file, { columns: COLUMNS, maxRows: 10 })));
    for (const rows of results) expect(rows).to.deep.equal(EXPECTED);
  });

  it('refuses a workbook whose sheet is not well-formed XML as unreadable, and one without a sheet as empty', async () => {
    const broken = parts.map((p) => (p.name === 'xl/worksheets/sheet1.xml' ? { ...p, content: Buffer.from('<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></rov></sheetData></worksheet>') } : p));
    const error = await readSheet(zip(broken), { columns: COLUMNS, maxRows: 10 }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(AppError);
    expect((error as AppError).code).to.equal('import.unreadable_file');
    const sheetless = parts.filter((p) => !p.name.startsWith('xl/worksheets/'));
    const none = await readSheet(zip(sheetless), { columns: COLUMNS, maxRows: 10 }).catch((e: unknown) => e);
    expect((none as AppError).code).to.equal('import.no_rows');
  });

  it('stops at the row limit', async () => {
    const error = await readSheet(zip(parts), { columns: COLUMNS, maxRows: 2 }).catch((e: unknown) => e);
    expect((error as AppError).code).to.equal('import.too_many_rows');
  });
});
