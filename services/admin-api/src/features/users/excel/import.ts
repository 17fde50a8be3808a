import { NEW_USER_REQUIRED, newUserSchema, type NewUser } from '@gatehouse/contracts';
import { LANGUAGES, loadPasswordPolicy, type AppContext, type JobHandler, type Language, type PasswordPolicy } from '@gatehouse/core';
import ExcelJS from 'exceljs';
import type { z } from 'zod';
import { writeSystemLog } from '../../../audit/system-log.js';
import type { CallerScope } from '../../../auth/scope.js';
import { forEachConcurrently } from '../../../excel/concurrency.js';
import { readSheet, styleHeaderRow, workbookBuffer, type ColumnSpec, type SheetRow } from '../../../excel/workbook.js';
import { findUserName } from '../../directory/lookups.js';
import { uploadJob, type UploadJobPayload } from '../../jobs/upload-jobs.js';
import type { Actor } from '../access.js';
import { UsersService, createUser } from '../service.js';
import { RowReport, clip, knownError, parseYesNo, sheetImportOf, type ImportResult, type RowProblem, type SheetImportInput } from './messages.js';
import { areasInScope, existingUserNames, userNamesCreatedBy, type AreaRow } from './repository.js';
import type { AdminContext } from '../../../admin-context.js';

/** The columns of the users template, in order; headers are matched without case or spaces. */
export const IMPORT_COLUMNS = [
  { key: 'userName', header: 'UserName', aliases: ['Login'], required: true },
  { key: 'email', header: 'Email', aliases: ['Mail'], required: true },
  { key: 'firstName', header: 'FirstName', required: true },
  { key: 'lastName', header: 'LastName', required: true },
  { key: 'area', header: 'Area', aliases: ['AreaName'], required: true },
  { key: 'language', header: 'Language', required: true },
  // Optional: without it nobody is invited, as the New user form's default.
  { key: 'sendEmailInvite', header: 'SendEmailInvite', aliases: ['Invite', 'SendInvite'], required: false },
] as const satisfies ReadonlyArray<ColumnSpec>;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number]['key'];

/**
 * Rows one file may hold. Each row hashes a generated password (argon2, tens of ms of CPU), so a
 * file is bounded in time as much as in memory; bigger imports are several files.
 */
export const MAX_IMPORT_ROWS = 10_000;

/** Template rows prepared with drop-down lists (areas, languages, Yes/No). */
const TEMPLATE_ROWS = 1000;

const HEADER_OF = Object.fromEntries(IMPORT_COLUMNS.map((c) => [c.key, c.header])) as Record<ImportColumn, string>;

/** The spreadsheet's column of each field of newUserSchema, for messages. */
const COLUMN_OF_FIELD: Partial<Record<keyof NewUser, ImportColumn>> = {
  userName: 'userName',
  email: 'email',
  firstName: 'firstName',
  lastName: 'lastName',
  areaId: 'area',
  language: 'language',
  sendEmailInvite: 'sendEmailInvite',
};

/** The spec's own "required" message of the New user form for a column (the users feature's phrases). */
const requiredOf = (column: Exclude<ImportColumn, 'sendEmailInvite'>): string => NEW_USER_REQUIRED[column === 'area' ? 'areaId' : column];

/** A row that passed validation, ready for createUser. */
interface ValidRow {
  row: number;
  input: NewUser;
  /** The row's content as compared for duplicates (case of user name and e-mail ignored). */
  fingerprint: string;
}

/**
 * Checks one row as the New user form would (newUserSchema, so the same rules and limits), plus
 * what only a spreadsheet needs: the area by name among the caller's areas, the language code in
 * any case, Yes/No. Every problem of the row is reported, in column order.
 */
export function validateImportRow(row: SheetRow<ImportColumn>, findArea: AreaFinder): { input?: NewUser; problems: RowProblem[] } {
  const cells = row.cells;
  const problems = new Map<ImportColumn, RowProblem>();

  const area = cells.area ? findArea(cells.area) : undefined;
  // An area outside the caller's scope reads as unknown: an area administrator learns nothing of others.
  if (!cells.area) problems.set('area', { key: requiredOf('area') });
  else if (!area) problems.set('area', { key: 'import.unknown_area', params: { column: HEADER_OF.area, area: clip(cells.area) } });

  const language = LANGUAGES.find((code) => code.toLowerCase() === cells.language.toLowerCase());
  if (!cells.language) problems.set('language', { key: requiredOf('language') });
  else if (!language) problems.set('language', { key: 'import.unknown_language', params: { column: HEADER_OF.language, language: clip(cells.language), languages: LANGUAGES.join(', ') } });

  const invite = cells.sendEmailInvite ? parseYesNo(cells.sendEmailInvite) : false;
  if (invite === undefined) problems.set('sendEmailInvite', { key: 'import.invalid_yes_no', params: { column: HEADER_OF.sendEmailInvite, value: clip(cells.sendEmailInvite) } });

  const parsed = newUserSchema.safeParse(
    {
      userName: cells.userName || undefined,
      email: cells.email || undefined,
      firstName: cells.firstName || undefined,
      lastName: cells.lastName || undefined,
      areaId: area?.id,
      language,
      sendEmailInvite: invite ?? false,
    },
    { reportInput: true },
  );
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const column = COLUMN_OF_FIELD[issue.path[0] as keyof NewUser];
      // Area, language and invite were judged above on what the person typed.
      if (!column || problems.has(column) || column === 'area' || column === 'language' || column === 'sendEmailInvite') continue;
      problems.set(column, problemOf(column, issue, cells[column]));
    }
  }
  const ordered = IMPORT_COLUMNS.flatMap((c) => (problems.has(c.key) ? [problems.get(c.key)!] : []));
  return parsed.success && ordered.length === 0 ? { input: parsed.data, problems: [] } : { problems: ordered };
}

/** Finds an area by the name typed in a row. */
export type AreaFinder = (name: string) => AreaRow | undefined;

/**
 * Area names are matched exactly first, then without case (people retype them); names are
 * unique only with case, so an exact match must win over a case-insensitive one.
 */
export function areaFinder(areas: readonly AreaRow[]): AreaFinder {
  const exact = new Map(areas.map((a) => [a.name, a]));
  const loose = new Map<string, AreaRow>();
  for (const area of areas) if (!loose.has(area.name.toLowerCase())) loose.set(area.name.toLowerCase(), area);
  return (name) => exact.get(name) ?? loose.get(name.toLowerCase());
}

function problemOf(column: ImportColumn, issue: z.core.$ZodIssue, typed: string): RowProblem {
  if (!typed && column !== 'sendEmailInvite') return { key: requiredOf(column) };
  const named = { column: HEADER_OF[column], value: clip(typed, 40) };
  if (issue.code === 'too_big') return { key: 'import.too_long', params: { ...named, max: issue.maximum } };
  return { key: column === 'email' ? 'import.invalid_email' : 'import.invalid', params: named };
}

export interface ImportUsersInput extends SheetImportInput<ImportColumn> {
  /** Sends the invitations asked for by SendEmailInvite, after each user is committed. */
  users: Pick<UsersService, 'invite'>;
}

/**
 * Imports the rows of a users template. Every row is validated first; duplicates within the file
 * (the first valid row wins; an identical later row is a warning, a different one with the same user
 * name an error) and user names that already exist are errors. Each good row is then created by
 * createUser in a transaction of its own, so a row that fails (a user name taken meanwhile) is
 * reported and never undoes or stops the others. One BulkInsert system log row records the counts.
 */
export async function importUsers(context: AppContext, input: ImportUsersInput): Promise<ImportResult> {
  const report = new RowReport(context, input.language);
  const findArea = areaFinder(await areasInScope(context.dataSource, input.scope.areaIds));
  const unique = firstOfEachUserName(report, validRows(report, input.rows, findArea));
  const actor = { userId: input.caller.userId, userName: await findUserName(context.dataSource, input.caller.userId) };
  const { toCreate, createdBefore } = await newUserNamesOnly(context, report, unique, actor, input.job?.resumed);
  const imported = createdBefore + (await createRows(context, input, report, actor, toCreate));
  const result = report.result(input.rows.length, imported);
  await writeSystemLog(context.dataSource, {
    operation: 'BulkInsert',
    ...actor,
    metadata: {
      type: 'BulkInsertUsers',
      fileName: input.fileName,
      totalElements: result.totalElements,
      importedElements: result.importedElements,
      errors: result.errors.length,
      warnings: result.warnings.length,
    },
  });
  return result;
}

/** The BulkInsertUsers job: imports the users file kept by `POST /users/bulk_insert`, with the requester's rights at run time. */
export function bulkInsertUsersJob(context: AdminContext): JobHandler<UploadJobPayload> {
  const users = new UsersService(context, context.mailer);
  return uploadJob(context, 'users.bulkInsert', async (job) => {
    const rows = await readSheet(job.file.bytes, { columns: IMPORT_COLUMNS, maxRows: MAX_IMPORT_ROWS });
    return importUsers(context, { ...sheetImportOf(job), rows, users });
  });
}

/** The rows that pass validation; the others are reported. */
function validRows(report: RowReport, rows: ReadonlyArray<SheetRow<ImportColumn>>, findArea: AreaFinder): ValidRow[] {
  const valid: ValidRow[] = [];
  for (const row of rows) {
    const { input: user, problems } = validateImportRow(row, findArea);
    if (!user) report.error(row.row, problems);
    else valid.push({ row: row.row, input: user, fingerprint: fingerprint(user) });
  }
  return valid;
}

/** The first row of each user name: a later identical row is a warning, a different one an error. */
function firstOfEachUserName(report: RowReport, valid: ValidRow[]): ValidRow[] {
  const firstByName = new Map<string, ValidRow>();
  const unique: ValidRow[] = [];
  for (const candidate of valid) {
    const name = candidate.input.userName.toLowerCase();
    const first = firstByName.get(name);
    if (!first) {
      firstByName.set(name, candidate);
      unique.push(candidate);
    } else if (first.fingerprint === candidate.fingerprint) {
      report.warning(candidate.row, { key: 'import.duplicate_row', params: { first: first.row } });
    } else {
      report.error(candidate.row, { key: 'import.duplicate_user_name', params: { userName: candidate.input.userName, first: first.row } });
    }
  }
  return unique;
}

/**
 * The rows whose user name nobody holds yet; the others are reported. When the import is taken up
 * again after it stopped mid-run, a user the caller created from the file since it first started
 * is the row applied by the earlier attempt: a warning, counted as imported, never a second user.
 */
async function newUserNamesOnly(
  context: AppContext,
  report: RowReport,
  unique: ValidRow[],
  actor: Actor,
  resumed: { since: Date } | undefined,
): Promise<{ toCreate: ValidRow[]; createdBefore: number }> {
  const taken = await existingUserNames(context.dataSource, unique.map((c) => c.input.userName));
  const earlier = resumed && taken.size ? await userNamesCreatedBy(context.dataSource, actor.userId, resumed.since, [...taken]) : new Set<string>();
  let createdBefore = 0;
  const toCreate = unique.filter((candidate) => {
    if (!taken.has(candidate.input.userName)) return true;
    if (earlier.has(candidate.input.userName)) {
      createdBefore++;
      report.warning(candidate.row, { key: 'import.already_imported' });
    } else {
      report.error(candidate.row, { key: 'import.user_name_exists', params: { userName: candidate.input.userName } });
    }
    return false;
  });
  return { toCreate, createdBefore };
}

/** Creates each row's user in a transaction of its own, then sends the invitation it asks for; answers how many were created. */
async function createRows(context: AppContext, input: ImportUsersInput, report: RowReport, actor: Actor, toCreate: ValidRow[]): Promise<number> {
  const policy = await loadPasswordPolicy(context.dataSource);
  const total = input.rows.length;
  // The rows reported already are dealt with.
  let done = total - toCreate.length;
  input.progress?.(done, total);
  let imported = 0;
  await forEachConcurrently(toCreate, importConcurrency(context), async (candidate) => {
    if (await createRow(context, input, report, actor, policy, candidate)) imported++;
    input.progress?.(++done, total);
  });
  return imported;
}

/** Creates one row's user in a transaction of its own, then sends the invitation it asks for; answers whether it was created. */
async function createRow(context: AppContext, input: ImportUsersInput, report: RowReport, actor: Actor, policy: PasswordPolicy, candidate: ValidRow): Promise<boolean> {
  let userId: string;
  try {
    const user = await context.dataSource.transaction((em) =>
      createUser(context, em, candidate.input, actor, { areaIds: input.scope.areaIds, policy, withoutGeneratedPassword: true }),
    );
    userId = user.id;
  } catch (error) {
    report.error(candidate.row, rowFailure(context, error, candidate, input.requestId));
    return false;
  }
  context.broadcast.publish('user.changed', { userId });
  if (candidate.input.sendEmailInvite) {
    // The user is in: a failed invitation is a warning, and the invite action can be used again.
    await input.users.invite(input.caller, input.scope, userId).catch(() => {
      report.warning(candidate.row, { key: 'import.invitation_failed', params: { userName: candidate.input.userName } });
    });
  }
  return true;
}

/** Why createUser refused a row that passed validation, as a row problem in the caller's language. */
function rowFailure(context: AppContext, error: unknown, candidate: ValidRow, requestId?: string): RowProblem | RowProblem[] {
  const known = knownError(error);
  if (known) {
    // The unique index has the last word when another request took the name meanwhile.
    if (known.code === 'errors.user_name_in_use') return { key: 'import.user_name_exists', params: { userName: candidate.input.userName } };
    const fields = known.errors.map((fe) => ({ key: fe.code, params: { field: fe.field, ...fe.params } }));
    return fields.length ? fields : { key: known.code, params: known.params };
  }
  context.logger.error({ err: error, requestId, row: candidate.row }, 'users import: a row failed unexpectedly');
  return { key: 'import.unexpected', params: { requestId } };
}

function fingerprint(user: NewUser): string {
  return JSON.stringify([
    user.userName.toLowerCase(),
    user.email.toLowerCase(),
    user.firstName,
    user.lastName,
    user.areaId,
    user.language,
    user.sendEmailInvite,
  ]);
}

/**
 * How many rows are created at once. Rows spend most of their time hashing a password, which
 * PostgreSQL can overlap across pooled connections; the embedded PGlite runs one transaction at a
 * time for every connection, so there rows go one by one.
 */
function importConcurrency(context: AppContext): number {
  if (context.pglite) return 1;
  return Math.max(1, Math.min(4, context.config.database.poolSize - 2));
}

/**
 * The users template: the import's headers on the first sheet with a note on each, drop-down lists
 * for area, language and SendEmailInvite, and a second sheet listing the caller's areas and the
 * languages (codes and names in the caller's language).
 */
export async function usersTemplate(context: AppContext, scope: CallerScope, language: string): Promise<Buffer> {
  const t = (key: string, params: Record<string, unknown> = {}) => context.i18n.t(key, { lng: language, ...params }) as string;
  const areas = await areasInScope(context.dataSource, scope.areaIds);
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Gatehouse';
  const sheet = workbook.addWorksheet('Users', { views: [{ state: 'frozen', ySplit: 1 }] });
  const valuesName = t('import.template.values_sheet');
  const values = workbook.addWorksheet(valuesName);

  sheet.columns = IMPORT_COLUMNS.map((c) => ({ header: c.header, key: c.key, width: c.key === 'email' || c.key === 'userName' ? 32 : 18 }));
  styleHeaderRow(sheet.getRow(1));
  IMPORT_COLUMNS.forEach((c, i) => {
    sheet.getCell(1, i + 1).note = t(`import.template.notes.${c.key}`, { sheet: valuesName });
  });

  values.columns = [
    { header: t('import.template.areas'), width: 30 },
    { header: t('import.template.languages'), width: 12 },
    { header: t('import.template.language_names'), width: 24 },
    { header: HEADER_OF.sendEmailInvite, width: 18 },
  ];
  styleHeaderRow(values.getRow(1));
  const names = new Intl.DisplayNames([language], { type: 'language' });
  const rows = Math.max(areas.length, LANGUAGES.length, 2);
  for (let i = 0; i < rows; i++) {
    const code: Language | undefined = LANGUAGES[i];
    values.addRow([areas[i]?.name ?? null, code ?? null, code ? names.of(code) ?? code : null, ['Yes', 'No'][i] ?? null]);
  }

  const quoted = `'${valuesName.replace(/'/g, "''")}'`;
  const column = (key: ImportColumn) => String.fromCharCode(65 + IMPORT_COLUMNS.findIndex((c) => c.key === key));
  const list = (key: ImportColumn, source: string) =>
    (sheet as unknown as { dataValidations: { add(range: string, rule: ExcelJS.DataValidation): void } }).dataValidations.add(
      `${column(key)}2:${column(key)}${TEMPLATE_ROWS + 1}`,
      {
        type: 'list',
        allowBlank: true,
        formulae: [source],
        showErrorMessage: true,
        errorStyle: 'stop',
        errorTitle: t('import.template.invalid_value_title'),
        error: t('import.template.invalid_value'),
      },
    );
  if (areas.length) list('area', `${quoted}!$A$2:$A$${areas.length + 1}`);
  list('language', `${quoted}!$B$2:$B$${LANGUAGES.length + 1}`);
  list('sendEmailInvite', `${quoted}!$D$2:$D$3`);
  return workbookBuffer(workbook);
}
