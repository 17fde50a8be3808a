import { AppError } from '@gatehouse/core';

/**
 * What can be wrong with an uploaded spreadsheet, from the request to its header row. The upload
 * middleware and the sheet reader name the problem; each import words it in its own codes.
 */
export type ImportProblem =
  /** Over the upload limit (413). */
  | 'file_too_large'
  /** No file in the request. */
  | 'file_required'
  /** A file under another form field than the one read. */
  | 'unexpected_field'
  | 'one_file_only'
  /** A multipart body that cannot be read (no boundary, cut off, too many parts). */
  | 'malformed_upload'
  /** Another extension than .xlsx. */
  | 'extension_not_allowed'
  /** Not a zip archive, or not a workbook inside. */
  | 'unreadable_file'
  /** More unpacked data than an honest 2 MB workbook holds (a zip bomb). */
  | 'file_too_large_unpacked'
  /** The header row lacks required columns. */
  | 'missing_columns'
  | 'no_rows'
  | 'too_many_rows';

export interface ImportProblemDetails {
  /** The form field the file is read from. */
  field?: string;
  /** The upload limit as people read it ("2 MB"): file_too_large. */
  limit?: string;
  /** The headers of the required columns the header row lacks: missing_columns. */
  missing?: string[];
  /** The most data rows a file may have: too_many_rows. */
  max?: number;
}

/** Turns a problem into the error an import answers. */
export type ImportErrors = (problem: ImportProblem, details: ImportProblemDetails) => AppError;

/** The Excel imports' own wording: `import.<problem>`, 413 for a file over the limit. */
export const importErrors: ImportErrors = (problem, details) => {
  switch (problem) {
    case 'file_too_large':
      return new AppError('import.file_too_large', 413, { limit: details.limit });
    case 'file_required':
    case 'unexpected_field':
      // A file under another field name: say which field we read.
      return new AppError('import.file_required', 400, { field: details.field });
    case 'missing_columns':
      return new AppError('import.missing_columns', 400, { columns: (details.missing ?? []).join(', ') });
    case 'too_many_rows':
      return new AppError('import.too_many_rows', 400, { max: details.max });
    default:
      return new AppError(`import.${problem}`, 400);
  }
};
