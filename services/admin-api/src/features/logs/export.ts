import { once } from 'node:events';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { AuthenticationLog, SystemLog } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import ExcelJS from 'exceljs';
import type { Context } from 'koa';
import { styleHeaderRow } from '../../excel/workbook.js';
import type { LogCursor } from './repository.js';

/** Rows read per query: big enough that round trips do not dominate, small enough to stay bounded. */
export const EXPORT_BATCH_SIZE = 2000;

/** Excel's limit on the text of one cell. */
const MAX_CELL_TEXT = 32_767;

export interface ExportColumn<R> {
  key: string;
  width: number;
  value: (row: R) => unknown;
  date?: boolean;
}

/** What an export writes: its sheet, headers, columns, and how the next batch is read. */
export interface LogExport<R> {
  sheetName: string;
  header: (key: string) => string;
  columns: Array<ExportColumn<R>>;
  /** The batch after `after` (from the start when null); an empty or short batch is the last. */
  read: (after: LogCursor | null) => Promise<Array<{ item: R; cursor: LogCursor }>>;
  batchSize: number;
}

const PLAIN_STYLE: Partial<ExcelJS.Style> = {};
const DATE_STYLE: Partial<ExcelJS.Style> = { numFmt: 'yyyy-mm-dd hh:mm:ss' };

/** Rows written between two looks at the flow (and two turns of the event loop). */
const WRITE_SLICE = 250;

/**
 * Streams the rows of an export as an .xlsx through exceljs's streaming writer, a batch at a time:
 * memory holds one batch and what the client has not read yet, however many rows there are. The
 * first batch is read before anything is sent, so a failing query still answers a proper error; a
 * failure later cuts the download short (the truncated file does not open). Reading stops when the
 * client goes away.
 */
export async function streamLogExport<R>(ctx: Context, spec: LogExport<R>): Promise<Readable> {
  const first = await spec.read(null);
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
    ctx.state.log?.error({ err: error, requestId: ctx.state.requestId }, 'log export failed after the download started');
    out.destroy();
    ctx.res.destroy();
  };

  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  // A failing zip would never drain: end the download rather than wait for it.
  (workbook as unknown as { zip: NodeJS.EventEmitter }).zip.on('error', (error: Error) => fail(error));
  const sheet = workbook.addWorksheet(spec.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = spec.columns.map((column) => ({ header: spec.header(column.key), key: column.key, width: column.width }));
  styleHeaderRow(sheet.getRow(1));
  sheet.getRow(1).commit();

  const pump = async () => {
    let batch = first;
    while (!stopped()) {
      // The next batch is read while this one is written.
      const next = batch.length === spec.batchSize ? spec.read(batch[batch.length - 1]!.cursor) : undefined;
      next?.catch(() => undefined);
      for (let i = 0; i < batch.length && !stopped(); i++) {
        const item = batch[i]!.item;
        const row = sheet.addRow(spec.columns.map((column) => cellValue(column.value(item))));
        // One shared style object per kind of column: exceljs then serialises each style once.
        row.eachCell({ includeEmpty: true }, (cell, index) => {
          cell.style = spec.columns[index - 1]?.date ? DATE_STYLE : PLAIN_STYLE;
        });
        row.commit();
        if (i % WRITE_SLICE === WRITE_SLICE - 1) await flowing(sheet, out);
      }
      if (!next || stopped()) break;
      batch = await next;
    }
    if (stopped()) return;
    sheet.commit();
    await workbook.commit();
  };
  pump().catch(fail);
  return out;
}

/** A cell's value: texts cut at Excel's limit, nothing for null. */
function cellValue(value: unknown): unknown {
  if (typeof value === 'string' && value.length > MAX_CELL_TEXT) return value.slice(0, MAX_CELL_TEXT);
  return value ?? null;
}

/**
 * Waits until the data written so far can flow. exceljs hands the sheet's XML to the zip's
 * deflater without heeding its backpressure, so the deflater's input is watched here along with
 * the response: when either is full (a slow client backs up into the deflater), writing waits for
 * it to drain. Otherwise it still yields, so other requests get their turn between slices.
 */
async function flowing(sheet: ExcelJS.Worksheet, out: Writable): Promise<void> {
  const sinks = (sheet as unknown as { stream: { pipes?: Writable[] } }).stream.pipes ?? [];
  const full = [out, ...sinks].find(backedUp);
  if (full) await drainedOrClosed(full, out);
  else await new Promise((resolve) => setImmediate(resolve));
}

/** Whether a writable wants no more until it drains (exceljs's zip library's older streams say so in their state). */
function backedUp(stream: Writable): boolean {
  return stream.writableNeedDrain || (stream as unknown as { _writableState?: { needDrain?: boolean } })._writableState?.needDrain === true;
}

async function drainedOrClosed(stream: Writable, response: Writable): Promise<void> {
  const done = new AbortController();
  try {
    await Promise.race([once(stream, 'drain', { signal: done.signal }), once(response, 'close', { signal: done.signal })]);
  } finally {
    done.abort();
  }
}

/** The columns of AuthenticationLogs.xlsx; results as the console names them (FullUserLocked: "Permanent lock"). */
export function authenticationColumns(context: AppContext, language: string): Array<ExportColumn<AuthenticationLog>> {
  const result = (value: AuthenticationLog['result']) => context.i18n.t(`logs.export.results.${value}`, { lng: language }) as string;
  return [
    { key: 'date', width: 20, value: (l) => new Date(l.date), date: true },
    { key: 'userName', width: 32, value: (l) => l.userName },
    { key: 'result', width: 16, value: (l) => result(l.result) },
    { key: 'provider', width: 12, value: (l) => l.authenticationProvider },
    { key: 'reason', width: 40, value: (l) => l.reason },
    { key: 'applicationName', width: 20, value: (l) => l.applicationName },
    { key: 'returnUrl', width: 40, value: (l) => l.returnUrl },
    { key: 'ip', width: 16, value: (l) => l.ip },
    { key: 'userAgent', width: 40, value: (l) => l.userAgent },
  ];
}

/** The columns of SystemLogs.xlsx; the metadata as JSON text. */
export const SYSTEM_COLUMNS: Array<ExportColumn<SystemLog>> = [
  { key: 'date', width: 20, value: (l) => new Date(l.date), date: true },
  { key: 'userName', width: 32, value: (l) => l.userName },
  { key: 'tenantName', width: 28, value: (l) => l.tenantName },
  { key: 'operation', width: 24, value: (l) => l.operation },
  { key: 'metadata', width: 80, value: (l) => JSON.stringify(l.metadata) },
];
