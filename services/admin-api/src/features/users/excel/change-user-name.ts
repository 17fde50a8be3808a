import { newUserSchema } from '@gatehouse/contracts';
import { AppError, IDENTITY_APPLICATION_ID, resolveEffectiveRoles, type AppContext, type JobHandler } from '@gatehouse/core';
import ExcelJS from 'exceljs';
import type { EntityManager } from 'typeorm';
import { writeSystemLog } from '../../../audit/system-log.js';
import { readSheet, styleHeaderRow, workbookBuffer, type ColumnSpec, type SheetRow } from '../../../excel/workbook.js';
import { findUserName } from '../../directory/lookups.js';
import { uploadJob, type UploadJobPayload } from '../../jobs/upload-jobs.js';
import type { Actor } from '../access.js';
import { RowReport, clip, knownError, sheetImportOf, type ImportResult, type RowProblem, type SheetImportInput } from './messages.js';
import { findUserByNameForUpdate, renameUser, renamesOfJob, userNameHeldByOther } from './repository.js';

/** The columns of the change-user-name template. */
export const CHANGE_USER_NAME_COLUMNS = [
  { key: 'currentUserName', header: 'CurrentUserName', required: true },
  { key: 'newUserName', header: 'NewUserName', required: true },
  // Optional: an empty cell keeps the current e-mail.
  { key: 'newEmail', header: 'NewEmail', required: false },
] as const satisfies ReadonlyArray<ColumnSpec>;
export type ChangeUserNameColumn = (typeof CHANGE_USER_NAME_COLUMNS)[number]['key'];

/** Rows one file may hold, as for the users import. */
export const MAX_CHANGE_ROWS = 10_000;

// The same rules as a new user's, so a rename can never produce a name the form would refuse.
const userNameSchema = newUserSchema.shape.userName;
const emailSchema = newUserSchema.shape.email;

interface Change {
  row: number;
  currentUserName: string;
  newUserName: string;
  newEmail: string | null;
}

/** Checks one row's cells; every problem of the row is named, in column order. */
export function validateChangeRow(row: SheetRow<ChangeUserNameColumn>): { change?: Change; problems: RowProblem[] } {
  const { currentUserName, newUserName, newEmail } = row.cells;
  const problems: RowProblem[] = [];
  if (!currentUserName) problems.push({ key: 'import.required.currentUserName' });
  if (!newUserName) problems.push({ key: 'import.required.newUserName' });
  else if (!userNameSchema.safeParse(newUserName).success) problems.push({ key: 'import.too_long', params: { column: 'NewUserName', value: clip(newUserName, 40), max: 256 } });
  if (newEmail && !emailSchema.safeParse(newEmail).success) {
    const named = { column: 'NewEmail', value: clip(newEmail, 40) };
    problems.push(newEmail.length > 256 ? { key: 'import.too_long', params: { ...named, max: 256 } } : { key: 'import.invalid_email', params: named });
  }
  if (problems.length) return { problems };
  return { change: { row: row.row, currentUserName, newUserName, newEmail: newEmail || null }, problems };
}

export type ChangeUserNamesInput = SheetImportInput<ChangeUserNameColumn>;

/**
 * Renames users (and sets their e-mail when the row gives one), row by row in file order, so a
 * file may chain renames. Each row is its own transaction: the user is row-locked, the new name
 * checked against every other user (as the unique index compares them, without case), the change
 * and its ChangeUserName system log row written together, and `user.changed` published once it is
 * committed. Unknown users, names taken, and a second row for the same user are errors; a row that
 * changes nothing is a warning. Only God renames a God user: an Administrator who could change a
 * God's e-mail could reset their password. Renames are not idempotent (a later row may give the
 * name to another user), so when a job is taken up again after it stopped mid-run, the rows its
 * earlier attempt applied are skipped with a warning and counted, never applied twice.
 */
export async function changeUserNames(context: AppContext, input: ChangeUserNamesInput): Promise<ImportResult> {
  const report = new RowReport(context, input.language);
  const changes = distinctChanges(report, input.rows);
  const actor = { userId: input.caller.userId, userName: await findUserName(context.dataSource, input.caller.userId) };
  const { job } = input;
  const appliedBefore = job?.resumed ? await renamesOfJob(context.dataSource, job.id, job.resumed.since) : new Map<number, string>();
  const total = input.rows.length;
  let done = total - changes.length;
  input.progress?.(done, total);
  let changed = 0;
  // One by one: a later row may rename to a name an earlier row has just freed.
  for (const change of changes) {
    const renamed = appliedBefore.get(change.row);
    if (renamed) {
      changed++;
      report.warning(change.row, { key: 'import.already_imported' });
      context.broadcast.publish('user.changed', { userId: renamed });
    } else if (await renameRow(context, input, report, actor, change)) {
      changed++;
    }
    input.progress?.(++done, total);
  }
  return report.result(input.rows.length, changed);
}

/** Applies one row in a transaction of its own and reports it; answers whether the user was renamed. */
async function renameRow(context: AppContext, input: ChangeUserNamesInput, report: RowReport, actor: Actor, change: Change): Promise<boolean> {
  try {
    const outcome = await context.dataSource.transaction((em) => applyChange(em, input, actor, change));
    if ('userId' in outcome) {
      context.broadcast.publish('user.changed', { userId: outcome.userId });
      return true;
    }
    if (outcome.key === 'import.unchanged') report.warning(change.row, outcome);
    else report.error(change.row, outcome);
  } catch (error) {
    report.error(change.row, changeFailure(context, error, change, input.requestId));
  }
  return false;
}

/** The BulkChangeUsernameEmail job: applies the file kept by `POST /users/changeUserName`, with the requester's rights at run time. */
export function changeUserNamesJob(context: AppContext): JobHandler<UploadJobPayload> {
  return uploadJob(context, 'users.changeUserName', async (job) => {
    const rows = await readSheet(job.file.bytes, { columns: CHANGE_USER_NAME_COLUMNS, maxRows: MAX_CHANGE_ROWS });
    return changeUserNames(context, { ...sheetImportOf(job), rows });
  });
}

/** The valid rows, one per current user name: a later identical row is a warning, a different one an error. */
function distinctChanges(report: RowReport, rows: ReadonlyArray<SheetRow<ChangeUserNameColumn>>): Change[] {
  const changes: Change[] = [];
  const firstByUser = new Map<string, Change>();
  for (const row of rows) {
    const { change, problems } = validateChangeRow(row);
    if (!change) {
      report.error(row.row, problems);
      continue;
    }
    const first = firstByUser.get(change.currentUserName.toLowerCase());
    if (!first) {
      firstByUser.set(change.currentUserName.toLowerCase(), change);
      changes.push(change);
    } else if (first.newUserName === change.newUserName && first.newEmail === change.newEmail) {
      report.warning(row.row, { key: 'import.duplicate_row', params: { first: first.row } });
    } else {
      report.error(row.row, { key: 'import.duplicate_user_name', params: { userName: clip(change.currentUserName), first: first.row } });
    }
  }
  return changes;
}

/**
 * Renames `current` (row-locked by the caller, who checked the rules) to `newUserName`, its e-mail
 * kept, with its ChangeUserName row (plus `origin`): what a provisioning client's rename does. A name
 * another user holds is a 409.
 */
export async function renameUserAccount(em: EntityManager, actor: Actor, current: { id: string; user_name: string; email: string }, newUserName: string, origin: Record<string, unknown> = {}): Promise<void> {
  if (await userNameHeldByOther(em, newUserName, current.id)) {
    throw new AppError('errors.user_name_in_use', 409, {}, [{ field: 'userName', code: 'errors.user_name_in_use' }]);
  }
  await renameUser(em, current.id, newUserName, current.email, actor.userId);
  await writeSystemLog(em, {
    operation: 'ChangeUserName',
    ...actor,
    metadata: { targetUserId: current.id, from: { userName: current.user_name, email: current.email }, to: { userName: newUserName, email: current.email }, ...origin },
  });
}

/** One row's rename inside its transaction: the renamed user, or why the row changes nothing. */
async function applyChange(em: EntityManager, input: ChangeUserNamesInput, actor: Actor, change: Change): Promise<RowProblem | { userId: string }> {
  const user = await findUserByNameForUpdate(em, change.currentUserName);
  if (!user) return { key: 'import.unknown_user', params: { userName: clip(change.currentUserName) } };
  const email = change.newEmail ?? user.email;
  if (user.user_name === change.newUserName && user.email === email) return { key: 'import.unchanged' };
  if (!input.scope.isGod && (await holdsGod(em, user.id))) return { key: 'errors.forbidden' };
  if (await userNameHeldByOther(em, change.newUserName, user.id)) {
    return { key: 'import.user_name_exists', params: { userName: change.newUserName } };
  }
  await renameUser(em, user.id, change.newUserName, email, input.caller.userId);
  await writeSystemLog(em, {
    operation: 'ChangeUserName',
    ...actor,
    metadata: {
      targetUserId: user.id,
      from: { userName: user.user_name, email: user.email },
      to: { userName: change.newUserName, email },
      fileName: input.fileName,
      row: change.row,
      // The background job that made it: a later attempt of the job skips the row.
      ...(input.job ? { jobId: input.job.id } : {}),
    },
  });
  return { userId: user.id };
}

/** Why a row's rename failed, as a row problem. */
function changeFailure(context: AppContext, error: unknown, change: Change, requestId: string | undefined): RowProblem {
  // The unique index has the last word when another request took the name meanwhile.
  const known = knownError(error);
  if (known?.code === 'errors.user_name_in_use') return { key: 'import.user_name_exists', params: { userName: change.newUserName } };
  if (known) return { key: known.code, params: known.params };
  context.logger.error({ err: error, requestId, row: change.row }, 'user name change: a row failed unexpectedly');
  return { key: 'import.unexpected', params: { requestId } };
}

async function holdsGod(db: Parameters<typeof resolveEffectiveRoles>[0], userId: string): Promise<boolean> {
  const roles = await resolveEffectiveRoles(db, userId, { applicationId: IDENTITY_APPLICATION_ID });
  return roles.some((role) => role.roleName === 'God');
}

/** The change-user-name template: its three headers, each with a note in the caller's language. */
export async function changeUserNameTemplate(context: AppContext, language: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Gatehouse';
  const sheet = workbook.addWorksheet('Users', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = CHANGE_USER_NAME_COLUMNS.map((c) => ({ header: c.header, key: c.key, width: 36 }));
  styleHeaderRow(sheet.getRow(1));
  CHANGE_USER_NAME_COLUMNS.forEach((c, i) => {
    sheet.getCell(1, i + 1).note = context.i18n.t(`import.template.notes.${c.key}`, { lng: language }) as string;
  });
  return workbookBuffer(workbook);
}
