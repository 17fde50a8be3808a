import type { ErrorCode } from '@gatehouse/contracts';
import { AppError } from '@gatehouse/core';
import ExcelJS from 'exceljs';
import type { ImportErrors } from '../../../excel/import-errors.js';
import { readSheet, workbookBuffer, type ColumnSpec } from '../../../excel/workbook.js';

/** Rows one file may hold: each becomes a few statements in one transaction. */
export const MAX_IMPORT_ROWS = 10_000;
export const USER_HEADER = 'UserName';
export const PERMISSION_HEADER = 'Permission';
/** The multipart field the file comes in, named by every refusal of it. */
export const FILE_FIELD = 'file';

/** One data row of an uploaded file, numbered as Excel shows it (the header is row 1). */
export interface MemberRow {
  row: number;
  user: string;
  permission: string;
}

/** A header reduced to its ASCII letters ("UserName (or e-mail)" reads "usernameoremail"). */
const letters = (header: string) => header.replace(/[^a-z]/g, '');

/**
 * The member file's columns, found by their header in row 1 in any order: the user by user name
 * or e-mail ("UserName (or e-mail)" included), and the permission ("Permission (Reader/Owner)").
 */
const MEMBER_COLUMNS = [
  { key: 'user', header: USER_HEADER, required: true, matches: (header: string) => /^(username|email)|^user$/.test(letters(header)) },
  { key: 'permission', header: PERMISSION_HEADER, required: false, matches: (header: string) => letters(header).startsWith('permission') },
] as const satisfies ReadonlyArray<ColumnSpec>;

/** A groups.* code naming the file field, as the members import answers a refused file. */
function fileError(code: ErrorCode, status = 400, params: Record<string, unknown> = {}): AppError {
  return new AppError(code, status, params, [{ field: FILE_FIELD, code, params }]);
}

/** The members import's wording of a refused upload or file. */
export const memberImportErrors: ImportErrors = (problem, details) => {
  switch (problem) {
    case 'file_too_large':
      return fileError('groups.file_too_large', 413, { limit: details.limit });
    case 'file_required':
      return new AppError('errors.validation', 400, {}, [{ field: FILE_FIELD, code: 'groups.file_required' }]);
    case 'extension_not_allowed':
      return fileError('groups.extension_not_allowed');
    case 'unreadable_file':
      return fileError('groups.workbook_unreadable');
    case 'file_too_large_unpacked':
      return fileError('import.file_too_large_unpacked');
    case 'missing_columns':
      return fileError('groups.missing_column', 400, { column: USER_HEADER });
    case 'too_many_rows':
      return fileError('groups.too_many_rows', 400, { max: details.max });
    default:
      // Another field, several files, a cut-off body (and no_rows, which readMemberRows allows).
      return fileError('groups.upload_invalid');
  }
};

/**
 * Reads the member rows of the first sheet; blank rows are skipped and a file with only its header
 * has none. An unreadable file, a missing user column or too many rows is a 400 for the whole file.
 */
export async function readMemberRows(buffer: Buffer): Promise<MemberRow[]> {
  const rows = await readSheet(buffer, { columns: MEMBER_COLUMNS, maxRows: MAX_IMPORT_ROWS, headerInFirstRow: true, allowNoRows: true, errors: memberImportErrors });
  // Without a permission column, every row reads as an empty permission (Reader).
  return rows.map(({ row, cells }) => ({ row, user: cells.user, permission: cells.permission ?? '' }));
}

export interface TemplateLabels {
  sheet: string;
  userNote: string;
  permissionNote: string;
}

/**
 * The file to fill in: UserName and Permission headers (kept in English whatever the language, so
 * any file reads back), a note on each, and a Reader/Owner list on the permission column.
 */
export async function memberTemplate(labels: TemplateLabels): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(labels.sheet.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { header: USER_HEADER, key: 'user', width: 45 },
    { header: PERMISSION_HEADER, key: 'permission', width: 18 },
  ];
  sheet.getRow(1).font = { bold: true };
  sheet.getCell('A1').note = labels.userNote;
  sheet.getCell('B1').note = labels.permissionNote;
  // exceljs' types leave out the sheet-level validations; a per-cell one would write 10,000 cells.
  (sheet as unknown as { dataValidations: { add(range: string, validation: ExcelJS.DataValidation): void } }).dataValidations.add(
    `B2:B${MAX_IMPORT_ROWS + 1}`,
    { type: 'list', allowBlank: true, formulae: ['"Reader,Owner"'], showErrorMessage: true },
  );
  return workbookBuffer(workbook);
}
