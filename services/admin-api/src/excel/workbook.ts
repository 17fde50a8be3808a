import { Readable } from 'node:stream';
import { AppError } from '@gatehouse/core';
import ExcelJS from 'exceljs';
import type { Context } from 'koa';
import { importErrors, type ImportErrors } from './import-errors.js';
import { assertReadableWorkbook, type WorkbookParts } from './zip-guard.js';

/** The media type of an .xlsx workbook. */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Sets the headers of a workbook download saved as `filename` (a name beyond ASCII is encoded as RFC 6266 says). */
export function attachment(ctx: Context, filename: string): void {
  ctx.attachment(filename);
  ctx.type = XLSX_CONTENT_TYPE;
  // A per-user export must not be kept by shared caches.
  ctx.set('Cache-Control', 'no-store');
}

/** The look of every header row we write, so exports and templates read alike. */
export function styleHeaderRow(row: ExcelJS.Row): void {
  row.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  row.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E78' } };
  row.alignment = { vertical: 'middle' };
}

/** A column the import expects, with the header names it answers to. */
export interface ColumnSpec<K extends string = string> {
  key: K;
  /** The header written in the template. */
  header: string;
  /** Other accepted headers ("User name", "E-mail"); matched like `header`. */
  aliases?: string[];
  /**
   * Which headers name the column, given each as normalizeHeader leaves it; in place of `header`
   * and `aliases`, for columns whose header may carry more ("UserName (or e-mail)"). The leftmost
   * matching header wins.
   */
  matches?: (normalizedHeader: string) => boolean;
  required: boolean;
}

/** One data row of an uploaded sheet: its spreadsheet row number and the text of each known column. */
export interface SheetRow<K extends string = string> {
  row: number;
  cells: Record<K, string>;
}

/**
 * Headers are matched without case, spaces, dashes or underscores, so "UserName", "user name"
 * and "USER_NAME" are one column: people retype headers and spreadsheets reformat them.
 */
export function normalizeHeader(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** The text a person sees in a cell, whatever exceljs made of it (rich text, hyperlink, formula). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const v = value as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown };
    if (Array.isArray(v.richText)) return v.richText.map((part) => part.text).join('').trim();
    // Excel turns typed e-mail addresses into hyperlinks: the text is what was typed.
    if ('text' in v) return cellText(v.text);
    if ('result' in v) return cellText(v.result);
  }
  return '';
}

export interface ReadSheetOptions<K extends string> {
  columns: ReadonlyArray<ColumnSpec<K>>;
  /** Data rows kept at most; one more is an error naming the limit. */
  maxRows: number;
  /**
   * The header must be the sheet's first row: a sheet whose first row is empty (or that has no
   * row at all) lacks every required column. Otherwise the first non-empty row is the header.
   */
  headerInFirstRow?: boolean;
  /** A header without data rows is an empty answer rather than a 400. */
  allowNoRows?: boolean;
  /** How the import words a file it refuses (default the `import.*` codes). */
  errors?: ImportErrors;
}

/**
 * Reads the first worksheet of an uploaded (so untrusted) workbook with exceljs's streaming
 * worksheet reader: the first non-empty row is the header, and every later row with text in a known
 * column becomes a SheetRow (empty rows are skipped). Refuses with a 400 a file that is not a
 * workbook, holds more than an import may read (see assertReadableWorkbook: it is inflated and
 * measured, counting, before anything parses it), lacks a required column, has no data rows (unless
 * allowed), or has more than `maxRows`.
 *
 * The streaming reader takes cell values and nothing else of a sheet: data validations,
 * conditional formats and merged cells, which the whole-workbook reader expands into one entry per
 * cell (a single "A1:XFD1048576" in a tiny file would exhaust memory), are never built, nor are
 * styles, hyperlinks, drawings or comments. Keep it that way: do not read uploads with
 * `workbook.xlsx.load`.
 */
export async function readSheet<K extends string>(buffer: Buffer, options: ReadSheetOptions<K>): Promise<Array<SheetRow<K>>> {
  const errors = options.errors ?? importErrors;
  const parts = await assertReadableWorkbook(buffer, errors);
  let scanned: Scan<K>;
  try {
    scanned = await scanSheet(parts, options);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw errors('unreadable_file', {});
  }
  const { rows, tooMany } = scanned;
  let { columnOf, missing } = scanned;
  // No first row at all: no column either.
  if (!columnOf && options.headerInFirstRow) ({ columnOf, missing } = headerColumns([], options.columns));
  if (missing.length) throw errors('missing_columns', { missing });
  if (!columnOf) throw errors('no_rows', {});
  if (tooMany) throw errors('too_many_rows', { max: options.maxRows });
  if (rows.length === 0 && !options.allowNoRows) throw errors('no_rows', {});
  return rows;
}

/** What one read of the first sheet found: its data rows, the columns of its header row and the required ones it lacks. */
interface Scan<K extends string> {
  rows: Array<SheetRow<K>>;
  columnOf: Map<K, number> | null;
  missing: string[];
  tooMany: boolean;
}

/**
 * The steps of exceljs's streaming workbook reader (4.4) that parse one part each. Its own
 * `parse` unzips the upload again as a stream and parks worksheets that come before the shared
 * strings in temporary files, which now and then lost a part of a sound workbook on a busy process;
 * here they are given the parts the zip guard has checked, from memory, in the order they need.
 */
interface PartParsers {
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(iterator: AsyncIterable<string>, sheetNo: string): Iterable<{ eventType: string; value: ExcelJS.stream.xlsx.WorksheetReader }>;
}

/** The first worksheet of the archive (in its own order), its rows as exceljs reads them. */
async function firstWorksheet(parts: WorkbookParts): Promise<ExcelJS.stream.xlsx.WorksheetReader | undefined> {
  const first = parts.worksheets[0];
  if (!first) return undefined;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  }) as unknown as PartParsers;
  for (const name of ['_parseRels', '_parseWorkbook', '_parseSharedStrings', '_parseWorksheet'] as const) {
    if (typeof reader[name] !== 'function') throw new Error(`exceljs's workbook reader has no ${name}: the version in use reads parts differently`);
  }
  const part = (name: string) => Readable.from(parts.text(name));
  if (parts.has('xl/_rels/workbook.xml.rels')) await reader._parseRels(part('xl/_rels/workbook.xml.rels'));
  if (parts.has('xl/workbook.xml')) await reader._parseWorkbook(part('xl/workbook.xml'));
  if (parts.has('xl/sharedStrings.xml')) for await (const _ of reader._parseSharedStrings(part('xl/sharedStrings.xml')));
  for (const { value } of reader._parseWorksheet(parts.text(first.name), first.number)) return value;
  return undefined;
}

/** Reads the first sheet's rows; throws whatever exceljs throws. */
async function scanSheet<K extends string>(parts: WorkbookParts, options: ReadSheetOptions<K>): Promise<Scan<K>> {
  const rows: Array<SheetRow<K>> = [];
  let columnOf: Map<K, number> | null = null;
  let missing: string[] = [];
  let tooMany = false;
  const worksheet = await firstWorksheet(parts);
  for await (const row of worksheet ?? []) {
    if (tooMany || missing.length) break;
    const values = (row.values ?? []) as unknown[];
    if (!columnOf) {
      if (!values.some((value) => cellText(value) !== '')) continue;
      // Text below an empty first row is no header when the header must be the first row.
      ({ columnOf, missing } = headerColumns(options.headerInFirstRow && row.number !== 1 ? [] : values, options.columns));
      continue;
    }
    const cells = {} as Record<K, string>;
    let empty = true;
    for (const [key, column] of columnOf) {
      cells[key] = cellText(values[column]);
      if (cells[key]) empty = false;
    }
    if (empty) continue;
    if (rows.length === options.maxRows) {
      tooMany = true;
      continue;
    }
    rows.push({ row: row.number, cells });
  }
  return { rows, columnOf, missing, tooMany };
}

/** Maps each known column to its index in the header row, and names the required columns it lacks. */
function headerColumns<K extends string>(values: unknown[], columns: ReadonlyArray<ColumnSpec<K>>): { columnOf: Map<K, number>; missing: string[] } {
  const headers: Array<{ name: string; index: number }> = [];
  const byName = new Map<string, number>();
  values.forEach((value, index) => {
    const name = normalizeHeader(cellText(value));
    if (name) headers.push({ name, index });
    // The first of two identical headers wins, as a person reading left to right would expect.
    if (name && !byName.has(name)) byName.set(name, index);
  });
  const found = new Map<K, number>();
  const missing: string[] = [];
  for (const column of columns) {
    const index = column.matches
      ? headers.find((header) => column.matches!(header.name))?.index
      : [column.header, ...(column.aliases ?? [])].map((name) => byName.get(normalizeHeader(name))).find((i) => i !== undefined);
    if (index !== undefined) found.set(column.key, index);
    else if (column.required) missing.push(column.header);
  }
  return { columnOf: found, missing };
}

/** Writes a (small) in-memory workbook to a buffer for a download. */
export async function workbookBuffer(workbook: ExcelJS.Workbook): Promise<Buffer> {
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
