import {
  CLIENT_USER_REQUIRED,
  clientUserBodySchema,
  isFreeMailAddress,
  type BulkRequestColumn,
  type BulkRequestKind,
  type ClientUserBody,
} from '@gatehouse/contracts';
import { AppError, LANGUAGES, PermanentJobError, type AppContext, type JobHandler } from '@gatehouse/core';
import type { z } from 'zod';
import { writeSystemLog } from '../../audit/system-log.js';
import { readSheet, type SheetRow } from '../../excel/workbook.js';
import { ClientsService } from '../clients/service.js';
import {
  clientTenantExists,
  findApplicationsByKey,
  findUserName,
  findUsersByLogin,
  listClientAreas,
  type ApplicationMatch,
  type LoginMatch,
  type RoleMatch,
} from '../directory/lookups.js';
import { uploadJob, type UploadJobPayload } from '../jobs/upload-jobs.js';
import { resolveApplication } from '../tenant-identities/import.js';
import { RowReport, clip, knownError, one, sheetImportOf, type ImportResult, type RowProblem, type SheetImportInput } from '../users/excel/messages.js';
import { consults, type RequestActor } from './access.js';
import { MAX_BULK_REQUEST_ROWS, bulkColumns, columnHeader } from './bulk-excel.js';
import { findRequestMadeSince, findUsersCreatedForTenantSince } from './bulk-repository.js';
import { findRequestRoles, type RequestableRole } from './repository.js';
import { OperationRequestsService, requestRoleRefusal } from './service.js';
import type { AdminContext } from '../../admin-context.js';

const MESSAGES = 'operationRequests.bulk_import';

/** What the import is handed: the rows read from the file, who asks, the tenant, and the answer's language. */
export interface BulkRequestsInput extends SheetImportInput<BulkRequestColumn> {
  kind: BulkRequestKind;
  tenantId: string;
}

/** The services an import goes through, so that each row follows the rules of My Clients and of operation requests. */
export interface BulkRequestServices {
  requests: Pick<OperationRequestsService, 'actor' | 'permissions' | 'create'>;
  clients: Pick<ClientsService, 'create'>;
}

/** The columns of a new user's details, in the full template. */
const DETAIL_COLUMNS = ['firstName', 'lastName', 'language', 'area', 'phoneNumber', 'jobTitle', 'manager', 'teams'] as const satisfies readonly BulkRequestColumn[];

/** The column of each field of a new user, for messages. */
const COLUMN_OF_FIELD: Partial<Record<keyof ClientUserBody, BulkRequestColumn>> = {
  userName: 'email',
  email: 'email',
  firstName: 'firstName',
  lastName: 'lastName',
  language: 'language',
  areaId: 'area',
  phoneNumber: 'phoneNumber',
  jobTitle: 'jobTitle',
  manager: 'manager',
  teams: 'teams',
};

/** Who a row is for: a user who exists, or a new one (by e-mail) created from the details of one of its rows. */
type Target = { kind: 'existing'; key: string; userId: string; login: string } | { kind: 'new'; key: string; email: string };

/** A row that passed every check made before writing. */
interface PlannedRow {
  row: number;
  target: Target;
  application: ApplicationMatch;
  role: RequestableRole;
  /** The row also gave details for a user who already exists: they are not applied. */
  detailsIgnored: boolean;
}

/** A new user's details, as the first row of the e-mail that gives any gave them. */
interface NewUserDetails {
  row: number;
  fingerprint: string;
  body?: ClientUserBody;
}

/**
 * The tenant of an upload, if the actor consults for it (a client tenant: never the Global one);
 * undefined otherwise, so that a tenant outside the caller's scope and a missing one look alike.
 */
export async function consultedTenant(context: AppContext, actor: RequestActor, tenantId: string): Promise<{ id: string; title: string } | undefined> {
  const tenant = await clientTenantExists(context.dataSource, tenantId);
  return tenant && consults(actor, tenant.id) ? tenant : undefined;
}

/**
 * Turns the rows of an upload into operation requests in the tenant, one per user, through the
 * operation requests service (its visibility rules, its notifications to the approvers; never
 * approved here). The full template first creates each new user through My Clients (a draft of a
 * non-system area, no free-mail address, the default-area-only fields), and reuses a user who
 * already exists. A user's request names the roles they already hold there (own) plus the rows'
 * roles, so that approving it only adds. Every row is checked first and reported by its Excel row
 * number: an unknown user, application or role, a role that cannot be requested, a duplicate, a
 * role already held, a request already waiting. An attempt taken up again after its node stopped
 * finds the requests and users the earlier one made and makes none twice. One BulkInsert system log
 * row records the counts.
 */
export async function importBulkRequests(context: AppContext, services: BulkRequestServices, input: BulkRequestsInput): Promise<ImportResult> {
  const actor = await services.requests.actor(input.caller, input.language);
  const tenant = await consultedTenant(context, actor, input.tenantId);
  // Checked when the file was uploaded; gone since (the role taken away, the tenant deleted): nothing is imported.
  if (!tenant) throw new AppError('operationRequests.bulk_import.tenant_gone', 404);
  const report = new RowReport(context, input.language);
  const header = (column: BulkRequestColumn) => columnHeader(context, input.language, column);
  const { planned, details } = await planRows(context, input, tenant, report, header);

  const total = input.rows.length;
  let done = total - planned.length;
  input.progress?.(done, total);
  let imported = 0;
  for (const group of byTarget(planned)) {
    const target = group[0]!.target;
    const newUser = target.kind === 'new' ? details.get(target.key)! : undefined;
    // A new user whose details are wrong is reported on the row that gave them; their other rows point to it.
    if (newUser && !newUser.body) {
      for (const row of group) report.error(row.row, { key: `${MESSAGES}.row_user_not_created`, params: { user: clip(row.target.kind === 'new' ? row.target.email : ''), first: newUser.row } });
    } else {
      for (const row of group) if (row.detailsIgnored) report.warning(row.row, { key: `${MESSAGES}.row_user_reused`, params: { user: clip(target.kind === 'existing' ? target.login : '') } });
      imported += await requestFor(context, services, { actor, tenant, report, input, header }, group, newUser?.body);
    }
    done += group.length;
    input.progress?.(done, total);
  }
  const result = report.result(total, imported);
  await logImport(context, input, tenant, result);
  return result;
}

/**
 * Checks every row before anything is written: who it is for, its application and role, a new
 * user's details (from the row that gives them), duplicates. The bad rows are reported; the good
 * ones are answered with each new user's details.
 */
async function planRows(
  context: AppContext,
  input: BulkRequestsInput,
  tenant: { id: string },
  report: RowReport,
  header: (column: BulkRequestColumn) => string,
): Promise<{ planned: PlannedRow[]; details: Map<string, NewUserDetails> }> {
  const db = context.dataSource;
  const { rows, kind } = input;
  const applications = await findApplicationsByKey(db, distinct(rows, 'application'));
  const logins = await findUsersByLogin(db, distinct(rows, 'email'));
  const areas = kind === 'fullUsers' ? await listClientAreas(db) : [];
  const requestable = await requestableRoles(db, rows, applications);
  const resumed = input.job?.resumed;
  // Users an earlier attempt of this import created are its own, not users who already existed.
  const createdBefore = resumed ? await findUsersCreatedForTenantSince(db, [...new Set(logins.map((login) => login.id))], tenant.id, resumed.since) : new Set<string>();
  const detailsRowOf = newUserDetailRows(kind, rows, logins);
  const details = new Map<string, NewUserDetails>();
  const firstRowOf = new Map<string, number>();
  const planned: PlannedRow[] = [];
  for (const row of rows) {
    const problems: RowProblem[] = [];
    const target = resolveTarget(kind, row, logins, problems);
    const application = resolveApplication(row.cells.application ?? '', applications, problems, MESSAGES);
    const role = application && resolveRole(row.cells.role ?? '', application, requestable, problems);
    let detailsIgnored = false;
    if (target?.kind === 'new') {
      const detailsRow = detailsRowOf.get(target.key)!;
      const mine = rowDetails(row);
      if (detailsRow === row) details.set(target.key, newUserDetails(row, target.email, areas, header, problems));
      else if (mine.given && mine.fingerprint !== rowDetails(detailsRow).fingerprint) {
        problems.push({ key: `${MESSAGES}.row_other_details`, params: { first: detailsRow.row, user: clip(target.email) } });
      }
    } else if (target && kind === 'fullUsers') {
      detailsIgnored = rowDetails(row).given && !createdBefore.has(target.userId);
    }
    if (!target || !application || !role || problems.length) {
      report.error(row.row, problems);
      continue;
    }
    const key = `${target.key}|${role.roleId}`;
    const first = firstRowOf.get(key);
    if (first !== undefined) {
      report.warning(row.row, { key: 'import.duplicate_row', params: { first } });
      continue;
    }
    firstRowOf.set(key, row.row);
    planned.push({ row: row.row, target, application, role, detailsIgnored });
  }
  return { planned, details };
}

async function logImport(context: AppContext, input: BulkRequestsInput, tenant: { id: string; title: string }, result: ImportResult): Promise<void> {
  const db = context.dataSource;
  await writeSystemLog(db, {
    operation: 'BulkInsert',
    userId: input.caller.userId,
    userName: await findUserName(db, input.caller.userId),
    tenantId: tenant.id,
    tenantName: tenant.title,
    metadata: {
      type: input.kind === 'fullUsers' ? 'BulkInsertUserAndPermisionRequestForTenant' : 'BulkInsertPermisionRequestForTenant',
      fileName: input.fileName,
      tenantId: tenant.id,
      totalElements: result.totalElements,
      importedElements: result.importedElements,
      errors: result.errors.length,
      warnings: result.warnings.length,
    },
  });
}

interface GroupContext {
  actor: RequestActor;
  tenant: { id: string; title: string };
  report: RowReport;
  input: BulkRequestsInput;
  header: (column: BulkRequestColumn) => string;
}

/**
 * The request of one user's rows (creating the user first when new): the rows' roles the user
 * does not hold yet, with those they hold. Answers how many rows it applied.
 */
async function requestFor(context: AppContext, services: BulkRequestServices, g: GroupContext, rows: PlannedRow[], newUser: ClientUserBody | undefined): Promise<number> {
  const { report, tenant } = g;
  const failed = (error: unknown, failing: PlannedRow[] = rows) => {
    for (const row of failing) report.error(row.row, rowFailure(context, error, g.header, row.row, g.input.requestId));
    return 0;
  };
  const target = rows[0]!.target;
  let userId: string;
  if (target.kind === 'existing') userId = target.userId;
  else {
    try {
      userId = (await services.clients.create(g.input.caller, tenant.id, newUser!)).id;
    } catch (error) {
      return failed(error);
    }
  }

  const resumed = g.input.job?.resumed;
  const earlier = resumed ? await findRequestMadeSince(context.dataSource, { tenantId: tenant.id, userId, createdById: g.input.caller.userId, since: resumed.since }) : undefined;
  if (earlier) {
    let applied = 0;
    for (const row of rows) {
      if (earlier.payload.roles?.includes(row.role.roleId)) {
        report.warning(row.row, { key: 'import.already_imported' });
        applied++;
      } else report.warning(row.row, alreadyHeld(row, tenant.title));
    }
    return applied;
  }

  let view: Awaited<ReturnType<BulkRequestServices['requests']['permissions']>>;
  try {
    view = await services.requests.permissions(g.actor, tenant.id, { type: 'User', id: userId });
  } catch (error) {
    return failed(error);
  }
  const held = new Map(view.applications.flatMap((application) => application.roles.map((role) => [role.roleId, role] as const)));
  const wanted = rows.filter((row) => {
    if (!held.get(row.role.roleId)?.held) return true;
    report.warning(row.row, alreadyHeld(row, tenant.title));
    return false;
  });
  if (wanted.length === 0) return 0;
  if (view.waitingRequest) return failed(new AppError('operationRequests.already_waiting', 409), wanted);
  // What the user holds there in their own name stays: a request names the complete set.
  const kept = [...held.values()].filter((role) => (role.held === 'Own' || role.held === 'Both') && role.editable).map((role) => role.roleId);
  try {
    await services.requests.create(g.actor, {
      tenantId: tenant.id,
      identityType: 'User',
      identityId: userId,
      isInheritable: view.isInheritable,
      roles: [...new Set([...kept, ...wanted.map((row) => row.role.roleId)])],
      autoApprove: false,
      type: 'BulkInsert',
    });
  } catch (error) {
    return failed(error, wanted);
  }
  return wanted.length;
}

/**
 * The BulkInsertPermisionRequestForTenant and BulkInsertUserAndPermisionRequestForTenant jobs: the
 * files kept by `POST /api/v1/profile/bulk_insert/operationRequests/{tenantId}` and
 * `…/full_bulk_insert/…`, imported with the requester's rights at run time.
 */
export function bulkRequestsJob(context: AdminContext, kind: BulkRequestKind): JobHandler<UploadJobPayload> {
  const endpoint = kind === 'fullUsers' ? 'operationRequests.fullBulkInsert' : 'operationRequests.bulkInsert';
  const mailer = context.mailer;
  const services: BulkRequestServices = { requests: new OperationRequestsService(context, mailer), clients: new ClientsService(context, mailer) };
  return uploadJob(context, endpoint, async (job) => {
    const tenantId = job.params.tenantId;
    if (!tenantId) throw new PermanentJobError('the import names no tenant');
    const rows = await readSheet(job.file.bytes, { columns: bulkColumns(context, kind), maxRows: MAX_BULK_REQUEST_ROWS });
    return importBulkRequests(context, services, { ...sheetImportOf(job), rows, kind, tenantId });
  });
}

/** The distinct lower-cased texts of one column. */
function distinct(rows: ReadonlyArray<SheetRow<BulkRequestColumn>>, column: BulkRequestColumn): string[] {
  return [...new Set(rows.map((row) => (row.cells[column] ?? '').toLowerCase()).filter(Boolean))];
}

/** The rows' roles as the operation requests service judges them, read once for the whole file. */
async function requestableRoles(db: AppContext['dataSource'], rows: ReadonlyArray<SheetRow<BulkRequestColumn>>, applications: ApplicationMatch[]): Promise<Map<string, RequestableRole>> {
  const names = new Set(distinct(rows, 'role'));
  const ids = applications.flatMap((application) => application.roles.filter((role) => names.has(role.name.toLowerCase())).map((role) => role.id));
  return new Map((await findRequestRoles(db, [...new Set(ids)])).map((role) => [role.roleId, role]));
}

/**
 * Who a row is for: an existing user by user name, else by e-mail when only one user has it; in
 * the full template, a new user when nobody has it.
 */
function resolveTarget(kind: BulkRequestKind, row: SheetRow<BulkRequestColumn>, logins: LoginMatch[], problems: RowProblem[]): Target | undefined {
  const text = row.cells.email ?? '';
  if (!text) return void problems.push({ key: `${MESSAGES}.row_email_required` });
  const login = text.toLowerCase();
  const byName = logins.find((match) => match.normalizedUserName === login);
  const byEmail = logins.filter((match) => match.normalizedEmail === login);
  const found = byName ?? (byEmail.length === 1 ? byEmail[0] : undefined);
  if (found) return { kind: 'existing', key: found.id, userId: found.id, login: text };
  if (byEmail.length > 1) return void problems.push({ key: `${MESSAGES}.row_user_ambiguous`, params: { user: clip(text) } });
  if (kind === 'requests') return void problems.push({ key: `${MESSAGES}.row_user_not_found`, params: { user: clip(text) } });
  return { kind: 'new', key: `new:${login}`, email: text };
}

/** A role of the application by name (any case; the exact spelling wins) that a request may name. */
function resolveRole(text: string, application: ApplicationMatch, requestable: Map<string, RequestableRole>, problems: RowProblem[]): RequestableRole | undefined {
  if (!text) return void problems.push({ key: `${MESSAGES}.row_role_required` });
  const named = application.roles.filter((r: RoleMatch) => r.name.toLowerCase() === text.toLowerCase());
  const match = one(named.filter((r) => r.name === text)) ?? one(named);
  const role = match && requestable.get(match.id);
  if (!role) return void problems.push({ key: `${MESSAGES}.row_role_not_found`, params: { application: application.name, role: clip(text) } });
  const refusal = requestRoleRefusal(role);
  if (refusal) return void problems.push({ key: refusal.code, params: refusal.params });
  return role;
}

/**
 * The row that gives each new user's details (by the target's key): the first row of the e-mail
 * that gives any, else its first row (whose empty details are then reported as missing).
 */
function newUserDetailRows(kind: BulkRequestKind, rows: ReadonlyArray<SheetRow<BulkRequestColumn>>, logins: LoginMatch[]): Map<string, SheetRow<BulkRequestColumn>> {
  const rowOf = new Map<string, SheetRow<BulkRequestColumn>>();
  if (kind !== 'fullUsers') return rowOf;
  for (const row of rows) {
    const target = resolveTarget(kind, row, logins, []);
    if (target?.kind !== 'new') continue;
    const chosen = rowOf.get(target.key);
    if (!chosen || (!rowDetails(chosen).given && rowDetails(row).given)) rowOf.set(target.key, row);
  }
  return rowOf;
}

/** The details a row gives for a new user, and whether it gives any. */
function rowDetails(row: SheetRow<BulkRequestColumn>): { given: boolean; fingerprint: string } {
  const cells = DETAIL_COLUMNS.map((column) => (row.cells[column] ?? '').trim());
  return { given: cells.some(Boolean), fingerprint: JSON.stringify(cells.map((cell, i) => (DETAIL_COLUMNS[i] === 'language' || DETAIL_COLUMNS[i] === 'area' ? cell.toLowerCase() : cell))) };
}

/**
 * A new user's details from the first row of their e-mail, checked as the My Clients form checks
 * them (the same schema and messages), plus what only a spreadsheet needs: the area by name, the
 * language code in any case. Problems are added to the row's.
 */
function newUserDetails(
  row: SheetRow<BulkRequestColumn>,
  email: string,
  areas: ReadonlyArray<{ id: string; name: string }>,
  header: (column: BulkRequestColumn) => string,
  problems: RowProblem[],
): NewUserDetails {
  const cells = row.cells;
  const found = new Map<BulkRequestColumn, RowProblem>();
  const areaText = cells.area ?? '';
  const area = areas.find((a) => a.name === areaText) ?? areas.find((a) => a.name.toLowerCase() === areaText.toLowerCase());
  if (!areaText) found.set('area', { key: CLIENT_USER_REQUIRED.areaId });
  else if (!area) found.set('area', { key: 'import.unknown_area', params: { column: header('area'), area: clip(areaText) } });
  const languageText = cells.language ?? '';
  const language = LANGUAGES.find((code) => code.toLowerCase() === languageText.toLowerCase());
  if (!languageText) found.set('language', { key: CLIENT_USER_REQUIRED.language });
  else if (!language) found.set('language', { key: 'import.unknown_language', params: { column: header('language'), language: clip(languageText), languages: LANGUAGES.join(', ') } });
  // A free-mail address is refused for a new user (spec 5), whatever else is right.
  if (isFreeMailAddress(email)) found.set('email', { key: 'import.invalid_email', params: { column: header('email'), value: clip(email, 40) } });

  const teams = (cells.teams ?? '')
    .split(/[;\n]/)
    .map((team) => team.trim())
    .filter(Boolean);
  // The area and the language were judged above on what the person typed; stand-ins let the schema judge the rest.
  const parsed = clientUserBodySchema.safeParse({
    userName: email,
    email,
    firstName: cells.firstName || undefined,
    lastName: cells.lastName || undefined,
    language: language ?? 'en',
    areaId: area?.id ?? '00000000-0000-0000-0000-000000000000',
    phoneNumber: cells.phoneNumber || null,
    jobTitle: cells.jobTitle || null,
    manager: cells.manager || null,
    teams: teams.length ? teams : null,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof ClientUserBody;
      const column = COLUMN_OF_FIELD[field];
      if (!column || found.has(column)) continue;
      found.set(column, issueProblem(field, column, issue, cells[column] ?? '', header));
    }
  }
  const ordered = (['email', ...DETAIL_COLUMNS] as BulkRequestColumn[]).flatMap((column) => (found.has(column) ? [found.get(column)!] : []));
  problems.push(...ordered);
  return { row: row.row, fingerprint: rowDetails(row).fingerprint, body: ordered.length ? undefined : parsed.data };
}

function issueProblem(field: keyof ClientUserBody, column: BulkRequestColumn, issue: z.core.$ZodIssue, typed: string, header: (column: BulkRequestColumn) => string): RowProblem {
  const required = CLIENT_USER_REQUIRED[field as keyof typeof CLIENT_USER_REQUIRED];
  if (!typed && required) return { key: required };
  const named = { column: header(column), value: clip(typed, 40) };
  if (issue.code === 'too_big') return { key: 'import.too_long', params: { ...named, max: issue.maximum } };
  return { key: column === 'email' ? 'import.invalid_email' : 'import.invalid', params: named };
}

/** The planned rows by user, in the order of each user's first row. */
function byTarget(rows: PlannedRow[]): PlannedRow[][] {
  const groups = new Map<string, PlannedRow[]>();
  for (const row of rows) groups.set(row.target.key, [...(groups.get(row.target.key) ?? []), row]);
  return [...groups.values()];
}

function alreadyHeld(row: PlannedRow, tenantTitle: string): RowProblem {
  return { key: `${MESSAGES}.row_already_held`, params: { role: row.role.roleName, application: row.application.name, tenant: tenantTitle } };
}

/**
 * Why a user's rows could not be written: the refusal in the caller's words (a field of the new
 * user named by its column), or an unexpected failure with its reference.
 */
function rowFailure(context: AppContext, error: unknown, header: (column: BulkRequestColumn) => string, row: number, requestId?: string): RowProblem[] {
  const known = knownError(error);
  if (!known) {
    context.logger.error({ err: error, requestId, row }, 'bulk operation requests: a row failed unexpectedly');
    return [{ key: 'import.unexpected', params: { requestId } }];
  }
  if (!known.errors.length) return [{ key: known.code, params: known.params }];
  return known.errors.map((fieldError) => {
    const column = COLUMN_OF_FIELD[fieldError.field as keyof ClientUserBody];
    return { key: fieldError.code, params: { ...fieldError.params, ...(column && fieldError.params?.field ? { field: header(column) } : {}) } };
  });
}
