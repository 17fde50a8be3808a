import { BULK_REQUEST_COLUMNS, type BulkRequestColumn, type BulkRequestKind } from '@gatehouse/contracts';
import { LANGUAGES, type AppContext } from '@gatehouse/core';
import ExcelJS from 'exceljs';
import { styleHeaderRow, workbookBuffer, type ColumnSpec } from '../../excel/workbook.js';
import { listClientAreas } from '../directory/lookups.js';
import { findRequestableRoleValues } from './bulk-repository.js';

/** Rows one file may hold, as in the other imports. */
export const MAX_BULK_REQUEST_ROWS = 10_000;
/** Template rows prepared with drop-down lists. */
const TEMPLATE_ROWS = 1000;

const MESSAGES = 'operationRequests.bulk_import';

/** Headers every file may use besides the template's own (in any of the product's languages). */
const ENGLISH_ALIASES: Record<BulkRequestColumn, string[]> = {
  email: ['E-mail', 'Mail', 'UserName', 'User name', 'User', 'Login'],
  firstName: ['FirstName', 'GivenName'],
  lastName: ['LastName', 'Surname'],
  language: ['Lang', 'PreferredLanguage'],
  area: ['AreaName'],
  phoneNumber: ['Phone', 'PhoneNumber', 'Telephone'],
  jobTitle: ['JobTitle', 'Job title', 'Position'],
  manager: ['Manager'],
  teams: ['Teams', 'Departments', 'Department'],
  application: ['ApplicationName', 'App'],
  role: ['RoleName'],
};

/** The columns whose header a file must have; the others may be left out. */
const REQUIRED: ReadonlySet<BulkRequestColumn> = new Set(['email', 'firstName', 'lastName', 'language', 'area', 'application', 'role']);

export const bulkText = (context: AppContext, language: string, key: string, params: Record<string, unknown> = {}) =>
  context.i18n.t(`${MESSAGES}.${key}`, { lng: language, ...params }) as string;

/** A column's header in a language. */
export const columnHeader = (context: AppContext, language: string, column: BulkRequestColumn) => bulkText(context, language, `columns.${column}`);

/**
 * The columns an import reads, found by their header in the first row, in any order: the
 * template's header in any of the product's languages, or a plain English name.
 */
export function bulkColumns(context: AppContext, kind: BulkRequestKind): Array<ColumnSpec<BulkRequestColumn>> {
  return BULK_REQUEST_COLUMNS[kind].map((key) => ({
    key,
    header: columnHeader(context, 'en', key),
    aliases: [...new Set([...LANGUAGES.map((language) => columnHeader(context, language, key)), ...ENGLISH_ALIASES[key]])],
    required: REQUIRED.has(key),
  }));
}

/** The note under each header of a template. */
function noteOf(context: AppContext, language: string, kind: BulkRequestKind, column: BulkRequestColumn, sheet: string): string {
  const note = (key: string) => bulkText(context, language, `notes.${key}`, { sheet });
  switch (column) {
    case 'email':
      return note(kind === 'fullUsers' ? 'email_full' : 'email');
    case 'firstName':
    case 'lastName':
      return note('name');
    case 'phoneNumber':
      return note('phone');
    case 'jobTitle':
    case 'manager':
      return note('profile');
    default:
      return note(column);
  }
}

/**
 * The template of one bulk upload: its headers in the caller's language with a note on each, and a
 * second sheet listing the roles a request may name (application name, display name, role); the
 * full template also lists the languages and the areas a new user may be given, offered as
 * drop-down lists in their columns.
 */
export async function bulkRequestTemplate(context: AppContext, kind: BulkRequestKind, language: string): Promise<Buffer> {
  const db = context.dataSource;
  const [roles, areas] = await Promise.all([findRequestableRoleValues(db), kind === 'fullUsers' ? listClientAreas(db) : Promise.resolve([])]);

  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Gatehouse';
  const sheetName = bulkText(context, language, kind === 'fullUsers' ? 'users_sheet' : 'requests_sheet').slice(0, 31);
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  const valuesName = bulkText(context, language, 'values_sheet').slice(0, 31);
  const values = workbook.addWorksheet(valuesName);

  const columns = BULK_REQUEST_COLUMNS[kind] as readonly BulkRequestColumn[];
  sheet.columns = columns.map((key) => ({ header: columnHeader(context, language, key), key, width: key === 'email' ? 36 : 22 }));
  styleHeaderRow(sheet.getRow(1));
  columns.forEach((key, i) => {
    sheet.getCell(1, i + 1).note = noteOf(context, language, kind, key, valuesName);
  });

  const value = (key: string) => bulkText(context, language, `values.${key}`);
  values.columns = [
    { header: value('application'), width: 28 },
    { header: value('display_name'), width: 32 },
    { header: value('role'), width: 28 },
    ...(kind === 'fullUsers' ? [{ header: value('language'), width: 12 }, { header: value('area'), width: 28 }] : []),
  ];
  styleHeaderRow(values.getRow(1));
  const rows = Math.max(roles.length, kind === 'fullUsers' ? Math.max(LANGUAGES.length, areas.length) : 0, 1);
  for (let i = 0; i < rows; i++) {
    const role = roles[i];
    const cells: Array<string | null> = [role?.applicationName ?? null, role?.applicationDisplayName ?? null, role?.roleName ?? null];
    if (kind === 'fullUsers') cells.push(LANGUAGES[i] ?? null, areas[i]?.name ?? null);
    values.addRow(cells);
  }

  if (kind === 'fullUsers') {
    const quoted = `'${valuesName.replace(/'/g, "''")}'`;
    const letter = (key: BulkRequestColumn) => String.fromCharCode(65 + columns.indexOf(key));
    const list = (key: BulkRequestColumn, source: string) =>
      // exceljs' types leave out the sheet-level validations; a per-cell one would write a cell per row.
      (sheet as unknown as { dataValidations: { add(range: string, rule: ExcelJS.DataValidation): void } }).dataValidations.add(
        `${letter(key)}2:${letter(key)}${TEMPLATE_ROWS + 1}`,
        { type: 'list', allowBlank: true, formulae: [source], showErrorMessage: false },
      );
    list('language', `${quoted}!$D$2:$D$${LANGUAGES.length + 1}`);
    if (areas.length) list('area', `${quoted}!$E$2:$E$${areas.length + 1}`);
  }
  return workbookBuffer(workbook);
}
