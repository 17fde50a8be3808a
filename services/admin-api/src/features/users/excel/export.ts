import { once } from 'node:events';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { UserExportQuery } from '@gatehouse/contracts';
import { toListQuery, type AppContext } from '@gatehouse/core';
import ExcelJS from 'exceljs';
import type { Context } from 'koa';
import { styleHeaderRow } from '../../../excel/workbook.js';
import { exportWords, type ExportWords } from '../../jobs/exports.js';
import type { CallerScope } from '../../../auth/scope.js';
import { USER_SORT, type UserListFilter } from '../repository.js';
import { listFilterOf } from '../service.js';
import { exportBatchReader, type Cursor, type ExportRow, type UserListSort } from './repository.js';

/** Rows read per query: big enough that round trips do not dominate, small enough to stay bounded. */
export const EXPORT_BATCH_SIZE = 2000;

export interface ExportOptions {
  /** The users list's filters, the caller's scope included. */
  filter: UserListFilter;
  /** The list's sort, as an ORDER BY clause (userListSql) and as a field and direction (keysetSql). */
  orderBy: string;
  sort: UserListSort;
  /** The caller's language, for headers and yes/no. */
  language: string;
  batchSize?: number;
}

/**
 * `GET /users/export`: the users list as the caller filtered and sorted it (the same search,
 * filters, sort and scope as `GET /users`), every page of it.
 */
export async function exportUserList(context: AppContext, ctx: Context, query: UserExportQuery, scope: CallerScope, language: string): Promise<Readable> {
  const { orderBy } = toListQuery({ ...query, skip: 0, top: 0 }, USER_SORT);
  const filter = { ...listFilterOf(query), areaIds: scope.areaIds };
  return exportUsers(context, ctx, { filter, orderBy, sort: query.orderBy, language });
}

/** The export's workbook, streaming into `out`, and its one sheet with the header row written. */
function openWorkbook(context: AppContext, out: Writable, language: string) {
  const t = (key: string) => context.i18n.t(`import.export_columns.${key}`, { lng: language }) as string;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    // Shared strings would keep every distinct string of the export in memory until the end.
    useSharedStrings: false,
    useStyles: true,
  });
  const sheet = workbook.addWorksheet(context.i18n.t('import.export_sheet', { lng: language }) as string, {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = ['userName', 'email', 'firstName', 'lastName', 'area', 'language', 'locked', 'draft', 'restricted', 'modifiedOn'].map(
    (key, i) => ({ header: t(key), key, width: COLUMN_WIDTHS[i] }),
  );
  styleHeaderRow(sheet.getRow(1));
  sheet.getRow(1).commit();
  return { workbook, sheet };
}

function writeRow(sheet: ExcelJS.Worksheet, r: ExportRow, words: ExportWords): void {
  const row = sheet.addRow([
    r.user_name,
    r.email,
    // An empty cell, not an empty string, for a missing name.
    r.first_name,
    r.last_name,
    r.area_name,
    r.language,
    words.yesNo(r.locked),
    words.yesNo(r.draft),
    words.yesNo(r.validate_scopes),
    r.modified_on,
  ]);
  // exceljs caches a cell's style id by the style object's identity: one shared object per
  // column keeps it from serialising a fresh style for each of the million cells, which took
  // more than half of the export's time.
  row.eachCell({ includeEmpty: true }, (cell, column) => {
    cell.style = column === 10 ? DATE_STYLE : PLAIN_STYLE;
  });
  row.commit();
}

/**
 * Waits until the data written so far can flow. exceljs hands the sheet's XML to the zip's
 * deflater without heeding its backpressure, so the deflater's input is watched here, along
 * with the response: when either is full (a slow client backs up into the deflater), writing
 * waits for it to drain. Otherwise it still yields, so zlib and other requests get their turn
 * between slices of rows.
 */
async function flowing(sheet: ExcelJS.Worksheet, out: Writable): Promise<void> {
  const sinks = (sheet as unknown as { stream: { pipes?: Writable[] } }).stream.pipes ?? [];
  const full = [out, ...sinks].find(backedUp);
  if (full) await drainedOrClosed(full, out);
  else await new Promise((resolve) => setImmediate(resolve));
}

const cursorAfter = (rows: ExportRow[]): Cursor => ({ key: rows[rows.length - 1]!.export_key, id: rows[rows.length - 1]!.id });

/** The writing loop's view of the download: where rows go, how more are read, and whether to stop. */
interface Pump {
  workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  sheet: ExcelJS.Worksheet;
  out: Writable;
  read: (after: Cursor | null) => Promise<ExportRow[]>;
  batchSize: number;
  stopped: () => boolean;
  words: ExportWords;
}

/** Writes the batches, reading the next one while the current one is written, then finishes the file. */
async function pumpRows(pump: Pump, first: ExportRow[]): Promise<void> {
  const { sheet, out, read, batchSize, stopped, words } = pump;
  let rows = first;
  while (!stopped()) {
    // The next batch is read while this one is written: the database works while we do.
    const next = rows.length === batchSize ? read(cursorAfter(rows)) : undefined;
    next?.catch(() => undefined);
    for (let i = 0; i < rows.length && !stopped(); i++) {
      writeRow(sheet, rows[i]!, words);
      if (i % WRITE_SLICE === WRITE_SLICE - 1) await flowing(sheet, out);
    }
    if (!next || stopped()) break;
    rows = await next;
  }
  if (stopped()) return;
  sheet.commit();
  await pump.workbook.commit();
}

/**
 * Streams the users of the list query as an .xlsx through exceljs's streaming writer: rows are read
 * a batch at a time and committed as they are written, so memory stays flat however many users
 * there are. The first batch is read before anything is sent, so a failing query still answers a
 * proper error; a failure later can only cut the download short (the response is destroyed, and
 * the truncated file does not open). The export stops reading when the client goes away.
 */
export async function exportUsers(context: AppContext, ctx: Context, options: ExportOptions): Promise<Readable> {
  const batchSize = options.batchSize ?? EXPORT_BATCH_SIZE;
  const read = exportBatchReader(context, options, batchSize);
  const first = await read(null);

  const out = new PassThrough();
  let aborted = false;
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) aborted = true;
  });
  // Errors after the headers are gone are logged and end the response below; none may escape.
  out.on('error', () => {});
  const stopped = () => aborted || out.destroyed;
  const fail = (error: unknown) => {
    if (stopped()) return;
    ctx.state.log?.error({ err: error, requestId: ctx.state.requestId }, 'users export failed after the download started');
    out.destroy();
    ctx.res.destroy();
  };

  const { workbook, sheet } = openWorkbook(context, out, options.language);
  // A failing zip would never drain: end the download rather than wait for it.
  (workbook as unknown as { zip: NodeJS.EventEmitter }).zip.on('error', (error: Error) => fail(error));
  pumpRows({ workbook, sheet, out, read, batchSize, stopped, words: exportWords(context, options.language) }, first).catch(fail);
  return out;
}

const COLUMN_WIDTHS = [32, 32, 18, 18, 18, 10, 10, 10, 12, 20];
const PLAIN_STYLE: Partial<ExcelJS.Style> = {};
const DATE_STYLE: Partial<ExcelJS.Style> = { numFmt: 'yyyy-mm-dd hh:mm:ss' };

/**
 * Whether a writable wants no more until it drains. exceljs's zip library uses an older
 * readable-stream whose writables lack `writableNeedDrain`; their state says the same.
 */
function backedUp(stream: Writable): boolean {
  return stream.writableNeedDrain || (stream as unknown as { _writableState?: { needDrain?: boolean } })._writableState?.needDrain === true;
}

/** Rows written between two looks at the flow (and two turns of the event loop). */
const WRITE_SLICE = 250;

/** Resolves when `stream` has drained or `response` closed, leaving no listener behind. */
async function drainedOrClosed(stream: Writable, response: Writable): Promise<void> {
  const done = new AbortController();
  try {
    await Promise.race([once(stream, 'drain', { signal: done.signal }), once(response, 'close', { signal: done.signal })]);
  } finally {
    done.abort();
  }
}
