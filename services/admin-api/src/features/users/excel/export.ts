import { once } from 'node:events';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { sqlClient, type AppContext } from '@gatehouse/core';
import ExcelJS from 'exceljs';
import type { Context } from 'koa';
import { styleHeaderRow } from '../../../excel/workbook.js';
import type { UserListRow } from '../repository.js';
import type { UserListSort } from './list-query.js';

/** Rows read per query: big enough that round trips do not dominate, small enough to stay bounded. */
export const EXPORT_BATCH_SIZE = 2000;

/** A row of the users list query, with the key the export pages by (see keysetSql). */
type ExportRow = UserListRow & { export_key: string | boolean | null };

/** How the export pages through a sort field of the list: the output column of userListSql. */
interface SortKey {
  column: string;
  type: 'text' | 'timestamptz' | 'boolean';
  nullable: boolean;
}

/** Every sortable field of the users list (USER_LIST_SORTABLE), by its API name. */
const SORT_KEYS: Record<string, SortKey> = {
  userName: { column: 'user_name', type: 'text', nullable: false },
  email: { column: 'email', type: 'text', nullable: false },
  firstName: { column: 'first_name', type: 'text', nullable: true },
  lastName: { column: 'last_name', type: 'text', nullable: true },
  areaName: { column: 'area_name', type: 'text', nullable: false },
  modifiedOn: { column: 'modified_on', type: 'timestamptz', nullable: false },
  locked: { column: 'locked', type: 'boolean', nullable: false },
};

/** Where the previous page ended: its last row's sort key (null for a NULL) and id. */
export interface Cursor {
  key: string | boolean | null;
  id: string;
}

/**
 * The page of the list query after `after`, by keyset: rows beyond the last one read in the list's
 * own order (the sort field, NULLs where PostgreSQL puts them by default, then the id ascending,
 * as userListSql sorts). Unlike OFFSET, a page costs the same however deep the export is, and
 * unlike a server-side cursor it holds no transaction open while a slow client downloads, which the
 * embedded PGlite (one transaction at a time for every connection) could not afford.
 *
 * The outer ORDER BY repeats the inner one on the same columns, so the planner sorts once; the
 * redundant range condition lets an index on the sort column start at the cursor. Timestamps
 * travel as UTC text with microseconds: a JS Date would round them to milliseconds and skip or
 * repeat rows that differ by less.
 */
export function keysetSql(base: { text: string; values: unknown[] }, sort: UserListSort, after: Cursor | null, limit: number) {
  const key = SORT_KEYS[sort.field];
  if (!key) throw new TypeError(`not a users list sort field: ${sort.field}`);
  const col = `q.${key.column}`;
  const values = [...base.values];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const keyText = key.type === 'timestamptz' ? `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')` : col;
  let where = '';
  if (after) {
    const id = `${param(after.id)}::uuid`;
    if (after.key === null) {
      // Only a nullable column has NULL keys: they come last ascending, first descending.
      where = sort.descending ? `(${col} IS NULL AND q.id > ${id}) OR ${col} IS NOT NULL` : `${col} IS NULL AND q.id > ${id}`;
    } else {
      const k = key.type === 'timestamptz' ? `(${param(after.key)}::timestamp AT TIME ZONE 'UTC')` : `${param(after.key)}::${key.type}`;
      const beyond = `${col} ${sort.descending ? '<' : '>'} ${k} OR (${col} = ${k} AND q.id > ${id})`;
      where = key.nullable && !sort.descending ? `${beyond} OR ${col} IS NULL` : `${col} ${sort.descending ? '<=' : '>='} ${k} AND (${beyond})`;
    }
  }
  return {
    text: `SELECT q.*, ${keyText} AS export_key
             FROM (${base.text}) q
             ${where ? `WHERE ${where}` : ''}
            ORDER BY ${col} ${sort.descending ? 'DESC' : 'ASC'}, q.id
            LIMIT ${param(limit)}`,
    values,
  };
}

export interface ExportOptions {
  /** The users list query with the caller's filters and scope, unpaged (userListSql). */
  base: { text: string; values: unknown[] };
  sort: UserListSort;
  /** The caller's language, for headers. */
  language: string;
  batchSize?: number;
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
  // Straight to the pool: TypeORM's per-query bookkeeping costs more than it brings for 50 reads.
  const sql = sqlClient(context.dataSource, { prepare: false });
  const read = async (after: Cursor | null) => {
    const query = keysetSql(options.base, options.sort, after, batchSize);
    return (await sql.query<ExportRow>(query.text, query.values)).rows;
  };
  const first = await read(null);

  const out = new PassThrough();
  let aborted = false;
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) aborted = true;
  });
  // Errors after the headers are gone are logged and end the response below; none may escape.
  out.on('error', () => {});

  const t = (key: string) => context.i18n.t(`import.export_columns.${key}`, { lng: options.language }) as string;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    // Shared strings would keep every distinct string of the export in memory until the end.
    useSharedStrings: false,
    useStyles: true,
  });
  const sheet = workbook.addWorksheet(context.i18n.t('import.export_sheet', { lng: options.language }) as string, {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = ['userName', 'email', 'firstName', 'lastName', 'area', 'language', 'locked', 'draft', 'restricted', 'modifiedOn'].map(
    (key, i) => ({ header: t(key), key, width: COLUMN_WIDTHS[i] }),
  );
  styleHeaderRow(sheet.getRow(1));
  sheet.getRow(1).commit();
  // A failing zip would never drain: end the download rather than wait for it.
  (workbook as unknown as { zip: NodeJS.EventEmitter }).zip.on('error', (error: Error) => fail(error));

  const writeRow = (r: ExportRow) => {
    const row = sheet.addRow([
      r.user_name,
      r.email,
      // An empty cell, not an empty string, for a missing name.
      r.first_name,
      r.last_name,
      r.area_name,
      r.language,
      r.locked,
      r.draft,
      r.validate_scopes,
      r.modified_on,
    ]);
    // exceljs caches a cell's style id by the style object's identity: one shared object per
    // column keeps it from serialising a fresh style for each of the million cells, which took
    // more than half of the export's time.
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cell.style = column === 10 ? DATE_STYLE : PLAIN_STYLE;
    });
    row.commit();
  };

  /**
   * Waits until the data written so far can flow. exceljs hands the sheet's XML to the zip's
   * deflater without heeding its backpressure, so the deflater's input is watched here, along
   * with the response: when either is full (a slow client backs up into the deflater), writing
   * waits for it to drain. Otherwise it still yields, so zlib and other requests get their turn
   * between slices of rows.
   */
  const flowing = async () => {
    const sinks = (sheet as unknown as { stream: { pipes?: Writable[] } }).stream.pipes ?? [];
    const full = [out, ...sinks].find(backedUp);
    if (full) await drainedOrClosed(full, out);
    else await new Promise((resolve) => setImmediate(resolve));
  };
  const cursorAfter = (rows: ExportRow[]): Cursor => ({ key: rows[rows.length - 1]!.export_key, id: rows[rows.length - 1]!.id });

  const pump = async () => {
    let rows = first;
    while (!aborted && !out.destroyed) {
      // The next batch is read while this one is written: the database works while we do.
      const next = rows.length === batchSize ? read(cursorAfter(rows)) : undefined;
      next?.catch(() => undefined);
      for (let i = 0; i < rows.length && !aborted && !out.destroyed; i++) {
        writeRow(rows[i]!);
        if (i % WRITE_SLICE === WRITE_SLICE - 1) await flowing();
      }
      if (!next || aborted || out.destroyed) break;
      rows = await next;
    }
    if (aborted || out.destroyed) return;
    sheet.commit();
    await workbook.commit();
  };
  function fail(error: unknown) {
    if (aborted || out.destroyed) return;
    ctx.state.log?.error({ err: error, requestId: ctx.state.requestId }, 'users export failed after the download started');
    out.destroy();
    ctx.res.destroy();
  }
  pump().catch(fail);
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
