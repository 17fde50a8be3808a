import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import type { EndpointName, RouteContract } from '@gatehouse/contracts';
import { AppError, IDENTITY_APPLICATION_ID, PermanentJobError, resolveRoleNames, type AppContext, type JobHandler } from '@gatehouse/core';
import type { RouteInput } from '@gatehouse/core/http';
import ExcelJS from 'exceljs';
import type { Context } from 'koa';
import { rolesAllow } from '../../auth/permissions.js';
import { scopeOf, type CallerScope } from '../../auth/scope.js';
import { styleHeaderRow } from '../../excel/workbook.js';
import { XLSX_MEDIA_TYPE, storeFile } from './files.js';
import { jobLanguage } from './runtime.js';
import type { AdminContext } from '../../admin-context.js';

/** Elements read per query: memory holds one page of them, however big the export. */
export const EXPORT_PAGE_SIZE = 1000;

/** Excel's limit on the text of one cell. */
const MAX_CELL_TEXT = 32_767;

const PLAIN_STYLE: Partial<ExcelJS.Style> = {};
const DATE_STYLE: Partial<ExcelJS.Style> = { numFmt: 'yyyy-mm-dd hh:mm:ss' };

export interface ExportColumn<R> {
  key: string;
  width: number;
  value: (row: R) => unknown;
  date?: boolean;
}

/**
 * One export's file: its name, its sheet's name, headers and columns, how many elements it holds,
 * and its elements a page at a time, each element written as one or more rows.
 */
export interface ExportSheet<R> {
  fileName: string;
  sheetName: string;
  header: (key: string) => string;
  columns: Array<ExportColumn<R>>;
  total: number;
  pages: AsyncIterable<R[][]>;
}

/** What an export is built from at run time: the requester's scope as it is now, the route's input, the language of the headers and values. */
export type ExportRequest<C extends RouteContract> = Pick<RouteInput<C, object>, 'query' | 'params'> & {
  scope: CallerScope;
  language: string;
  words: ExportWords;
};

/** The product's named values as an exported file writes them: in the language of whoever asked for it. */
export interface ExportWords {
  /** Yes or No; nothing for an unknown value. */
  yesNo(value: boolean | null | undefined): string | null;
  /** A named state (a tenant's creation, a member's type or way of holding roles); nothing for none. */
  state(kind: 'creation' | 'identityType' | 'hierarchyType', value: string | null | undefined): string | null;
}

/** The {@link ExportWords} of `language`, for an export job or a download written in it. */
export function exportWords(context: AppContext, language: string): ExportWords {
  const t = (key: string) => context.i18n.t(`exportValues.${key}`, { lng: language, defaultValue: '' }) as string;
  return {
    yesNo: (value) => (value === null || value === undefined ? null : t(value ? 'yes' : 'no')),
    // A value the catalogue does not name (a new one) is written as it is stored.
    state: (kind, value) => (value ? t(`${kind}.${value}`) || value : null),
  };
}

/** The shape of a route's query schema: the keys worth keeping of a request's query string. */
function queryKeys(contract: RouteContract): string[] {
  const schema = contract.query as { shape?: Record<string, unknown>; in?: { shape?: Record<string, unknown> } } | undefined;
  return Object.keys(schema?.shape ?? schema?.in?.shape ?? {});
}

/**
 * The payload of an export job: the request's path parameters and query string as it sent them
 * (the route's own keys only; the handler validates them again with the route's schemas) and the
 * language the caller's interface asked in, for the headers and values.
 */
export function exportPayload(ctx: Context, contract: RouteContract): Record<string, unknown> {
  const raw = ctx.query;
  const query = Object.fromEntries(queryKeys(contract).filter((key) => raw[key] !== undefined).map((key) => [key, raw[key]]));
  // Only a language the caller's interface asked for: without one, the job takes the requester's saved language.
  return { params: { ...(ctx.params as Record<string, string> | undefined) }, query, language: (ctx.state.requestedLanguage as string | undefined) ?? null };
}

/**
 * The requester's scope for `endpoint` from what the database says now, not from the token they
 * enqueued with: an account locked or deleted since, or one that no longer holds a role of the
 * endpoint, is refused (403); an AreaAdministrator reaches the areas they hold it in today.
 */
export async function requesterScope(context: AdminContext, userId: string, endpoint: EndpointName): Promise<CallerScope> {
  const active = await context.accountStates.isActive(userId);
  const roles = active ? await resolveRoleNames(context.dataSource, userId, IDENTITY_APPLICATION_ID) : [];
  if (!rolesAllow(endpoint, roles)) throw new AppError('errors.forbidden', 403);
  // The scope reads the user's id and roles only: these are the current ones, whatever token asked.
  return scopeOf(context, { kind: 'access_token', userId, roles, scopes: [], tokenId: null }, endpoint);
}

/**
 * The handler of an export job of `contract`'s route: it reads the payload again with the route's
 * schemas, rebuilds the requester's scope, writes the sheet `build` describes a page at a time
 * (reporting progress), stores the file for the requester and answers `{ fileUrl, rows }`. What the
 * route would have refused (the role lost, the tenant gone, too many rows) fails the job at once,
 * with the message in the requester's language.
 */
export function exportJob<C extends RouteContract, R>(
  context: AdminContext,
  contract: C,
  build: (request: ExportRequest<C>) => Promise<ExportSheet<R>>,
): JobHandler {
  return async ({ userId, payload, progress }) => {
    const language = await jobLanguage(context, userId, payload.language);
    const t = (key: string, params: Record<string, unknown> = {}) => context.i18n.t(key, { lng: language, ...params }) as string;
    if (!userId) throw new PermanentJobError('the export has no requester to deliver it to');
    const query = contract.query?.safeParse(payload.query ?? {});
    const params = contract.params?.safeParse(payload.params ?? {});
    if (query?.success === false || params?.success === false) throw new PermanentJobError(t('errors.validation'));
    try {
      const scope = await requesterScope(context, userId, contract.endpoint as EndpointName);
      const sheet = await build({ scope, language, words: exportWords(context, language), query: query?.data, params: params?.data } as ExportRequest<C>);
      await progress(0, sheet.total);
      const { bytes, rows } = await writeSheet(sheet, (done) => progress(done, sheet.total));
      const fileUrl = await storeFile(context, { ownerId: userId, fileName: sheet.fileName, mediaType: XLSX_MEDIA_TYPE, bytes });
      return { fileUrl, rows };
    } catch (error) {
      if (error instanceof AppError && error.expose) throw new PermanentJobError(t(error.code, error.params));
      throw error;
    }
  };
}

/** Pages of `size` elements read by offset, up to the first short one. */
export async function* offsetPages<T>(read: (skip: number, top: number) => Promise<T[]>, size = EXPORT_PAGE_SIZE): AsyncGenerator<T[]> {
  for (let skip = 0; ; skip += size) {
    const page = await read(skip, size);
    if (page.length) yield page;
    if (page.length < size) return;
  }
}

/** Pages of `size` elements read by keyset: each page starts after the cursor of the last element of the one before. */
export async function* keysetPages<T, K>(read: (after: K | null, size: number) => Promise<Array<{ item: T; cursor: K }>>, size = EXPORT_PAGE_SIZE): AsyncGenerator<T[]> {
  let after: K | null = null;
  for (;;) {
    const page = await read(after, size);
    if (page.length) yield page.map((entry) => entry.item);
    if (page.length < size) return;
    after = page[page.length - 1]!.cursor;
  }
}

/**
 * Writes the sheet through exceljs's streaming writer: each page's rows are committed as they are
 * written, so memory holds one page and the zipped file, never the whole sheet's cells.
 */
async function writeSheet<R>(sheet: ExportSheet<R>, progress: (done: number) => Promise<void>): Promise<{ bytes: Buffer; rows: number }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  // A failure before the end is awaited is thrown by what failed; this one must not go unhandled meanwhile.
  ended.catch(() => undefined);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  (workbook as unknown as { zip: NodeJS.EventEmitter }).zip.on('error', (error: Error) => out.destroy(error));
  const worksheet = workbook.addWorksheet(sheet.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  worksheet.columns = sheet.columns.map((column) => ({ header: sheet.header(column.key), key: column.key, width: column.width }));
  styleHeaderRow(worksheet.getRow(1));
  worksheet.getRow(1).commit();
  let rows = 0;
  let done = 0;
  for await (const page of sheet.pages) {
    for (const element of page) {
      for (const item of element) {
        const row = worksheet.addRow(sheet.columns.map((column) => cellValue(column.value(item))));
        // One shared style object per kind of column: exceljs then serialises each style once.
        row.eachCell({ includeEmpty: true }, (cell, index) => {
          cell.style = sheet.columns[index - 1]?.date ? DATE_STYLE : PLAIN_STYLE;
        });
        row.commit();
        rows += 1;
      }
    }
    done += page.length;
    await progress(done);
    await deflated(worksheet);
  }
  worksheet.commit();
  await workbook.commit();
  await ended;
  return { bytes: Buffer.concat(chunks), rows };
}

/** A cell's value: texts cut at Excel's limit, nothing for null. */
function cellValue(value: unknown): unknown {
  if (typeof value === 'string' && value.length > MAX_CELL_TEXT) return value.slice(0, MAX_CELL_TEXT);
  return value ?? null;
}

/**
 * Waits for the zip's deflater to take in what the page wrote: exceljs hands it the sheet's XML
 * without heeding its backpressure, so without this a fast database would pile pages up in front
 * of it. (exceljs's zip library's older streams say they are full in their state only.)
 */
async function deflated(sheet: ExcelJS.Worksheet): Promise<void> {
  const sinks = (sheet as unknown as { stream: { pipes?: Writable[] } }).stream.pipes ?? [];
  for (const sink of sinks) {
    const full = sink.writableNeedDrain || (sink as unknown as { _writableState?: { needDrain?: boolean } })._writableState?.needDrain === true;
    if (full) await once(sink, 'drain');
  }
}
