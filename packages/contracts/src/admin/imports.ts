import { z } from 'zod';

/** One problem of an import, on a row of the spreadsheet (its number as Excel shows it). */
export const rowMessageSchema = z.object({ row: z.number().int(), reason: z.string() });

/** The answer of an Excel import (spec 3, "Import result"): users, user-name changes, group members. */
export const importResultSchema = z.object({
  /** No row failed: every row was applied, or knowingly skipped with a warning. */
  success: z.boolean(),
  /** Non-empty data rows in the file. */
  totalElements: z.number().int(),
  /** Rows applied. */
  importedElements: z.number().int(),
  errors: z.array(rowMessageSchema),
  warnings: z.array(rowMessageSchema),
});
export type ImportResult = z.output<typeof importResultSchema>;
