import type { ImportResult } from '@gatehouse/contracts';
import { AppError, mapDatabaseError, type AppContext } from '@gatehouse/core';
import type { Caller } from '../../../auth/koa-admin-auth.js';
import type { CallerScope } from '../../../auth/scope.js';
import type { SheetRow } from '../../../excel/workbook.js';
import type { UploadJob } from '../../jobs/upload-jobs.js';

/** What an upload route hands an import: who asks, the rows read from the file, and the answer's language. */
export interface SheetImportInput<K extends string> {
  caller: Caller;
  scope: CallerScope;
  rows: Array<SheetRow<K>>;
  fileName: string;
  language: string;
  requestId?: string;
  /** Told as rows are dealt with: how many of the file's rows so far. */
  progress?: (done: number, total: number) => void;
  /**
   * The import's job when it runs in the background: a later attempt (after a node stopped
   * mid-run) tells the rows an earlier attempt applied (`since` it first started) from others.
   */
  job?: { id: string; resumed?: { since: Date } };
}

/** What a background import job gives a sheet import besides its rows: its requester as they are now, its file's name, its language. */
export function sheetImportOf(job: UploadJob): Omit<SheetImportInput<string>, 'rows'> {
  return {
    caller: job.caller,
    scope: job.scope,
    fileName: job.file.name,
    language: job.language,
    // A row that fails unexpectedly is logged with the job's id, the reference its message gives.
    requestId: job.jobId,
    progress: job.progress,
    job: { id: job.jobId, resumed: job.resumed },
  };
}

export type { ImportResult } from '@gatehouse/contracts';
/** One problem of an import, on a row of the spreadsheet (its number as Excel shows it). */
export type RowMessage = ImportResult['errors'][number];

/** A row problem before translation: an i18n key under `import.` and its parameters. */
export interface RowProblem {
  key: string;
  params?: Record<string, unknown>;
}

/**
 * Collects row errors and warnings in the caller's language. A row's problems become one entry
 * whose reason lists them all, so the person fixing the file sees everything wrong with row 4 at
 * once; the row number stays in `row` (the console prints "Row 4: …" itself).
 */
export class RowReport {
  readonly errors: RowMessage[] = [];
  readonly warnings: RowMessage[] = [];

  constructor(
    private readonly context: AppContext,
    private readonly language: string,
  ) {}

  text(problem: RowProblem): string {
    return this.context.i18n.t(problem.key, { lng: this.language, ...problem.params }) as string;
  }

  error(row: number, problems: RowProblem | RowProblem[]): void {
    this.errors.push({ row, reason: this.join(problems) });
  }

  warning(row: number, problems: RowProblem | RowProblem[]): void {
    this.warnings.push({ row, reason: this.join(problems) });
  }

  result(totalElements: number, importedElements: number): ImportResult {
    const byRow = (a: RowMessage, b: RowMessage) => a.row - b.row;
    return {
      success: this.errors.length === 0,
      totalElements,
      importedElements,
      errors: this.errors.sort(byRow),
      warnings: this.warnings.sort(byRow),
    };
  }

  private join(problems: RowProblem | RowProblem[]): string {
    return (Array.isArray(problems) ? problems : [problems]).map((p) => this.text(p)).join(' ');
  }
}

/**
 * "Yes" or "No" as people type them in any of the product's languages, or as Excel stores a
 * ticked box; undefined for anything else.
 */
export function parseYesNo(text: string): boolean | undefined {
  const value = text.trim().toLowerCase();
  if (['yes', 'y', 'true', '1', 'oui', 'o', 'sí', 'si', 's', 'sim', 'ja', 'j', 'x'].includes(value)) return true;
  if (['no', 'n', 'false', '0', 'non', 'não', 'nao', 'nein'].includes(value)) return false;
  return undefined;
}

/**
 * The error as the caller's fault (a 4xx AppError, or a database error that maps to one by
 * constraint name), to report on the row; undefined for a failure of ours.
 */
export function knownError(error: unknown): AppError | undefined {
  const known = error instanceof AppError ? error : mapDatabaseError(error);
  return known && known.status < 500 ? known : undefined;
}

/** A value typed in the file, shortened for a message: a reason must not echo a 30,000-character cell. */
export function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The only item, or undefined when there are none or several (a name that matches twice names nothing). */
export function one<T>(items: T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined;
}
