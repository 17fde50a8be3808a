import { AppError, GLOBAL_TENANT_ID, type AppContext, type JobHandler } from '@gatehouse/core';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Target } from '@gatehouse/core/access';
import { callerAuthority } from '../../access.js';
import { inScope, type CallerScope } from '../../auth/scope.js';
import { readSheet, type SheetRow } from '../../excel/workbook.js';
import { findUserName, findUsersByLogin, type LoginMatch } from '../directory/lookups.js';
import { GroupsService } from '../groups/service.js';
import { uploadJob, type UploadJobPayload } from '../jobs/upload-jobs.js';
import type { Actor } from '../users/access.js';
import { RowReport, clip, knownError, one, parseYesNo, sheetImportOf, type ImportResult, type RowProblem, type SheetImportInput } from '../users/excel/messages.js';
import { UserRolesService } from '../users/roles/service.js';
import { MAX_IMPORT_ROWS, importColumns, type IdentityKind, type ImportColumn } from './excel.js';
import { findApplicationsByKey, type ApplicationMatch, type RoleMatch } from '../directory/lookups.js';
import {
  findGroupsByKey,
  findOwnMembership,
  findTenantsByKey,
  type GroupMatch,
  type OwnMembership,
  type TenantMatch,
} from './repository.js';
import { userGrantRefusal, userTarget } from './rules.js';
import type { AdminContext } from '../../admin-context.js';

const MESSAGES = 'tenants.identities_import';

/** What an upload hands an import: who asks, the rows read from the file, and the answer's language. */
export type TenantRolesImportInput = SheetImportInput<ImportColumn>;

/** The columns every row shares, resolved: which role of which application, in which tenant, inheritable or not (undefined: not said). */
interface Grant {
  row: number;
  tenant: TenantMatch;
  application: ApplicationMatch;
  role: RoleMatch;
  inheritable: boolean | undefined;
}

/** What the rows name, read once for the whole file. */
interface Lookups {
  tenants: TenantMatch[];
  applications: ApplicationMatch[];
}

/**
 * Gives users roles in tenants, one row each (user, tenant, application, role, inheritable). Every
 * row is resolved and checked first: unknown names, a role the caller may not give (the user page's
 * rules: the Global tenant and the Identity application's roles for administrators, God for God, no
 * role granted through the hierarchy only) or a user who outranks the caller (the tenant page's
 * rule) are row errors; a second row for the same grant is a warning. Each good row then goes
 * through the tenant page's grant (UserRolesService.grantTenantRoles), in a transaction of its own
 * with its system log row and announcement, so one that fails never undoes the others; a role
 * already held is a warning. One BulkInsert row records the counts.
 */
export async function importUserTenantRoles(context: AppContext, userRoles: Pick<UserRolesService, 'grantTenantRoles'>, input: TenantRolesImportInput): Promise<ImportResult> {
  const db = context.dataSource;
  const { scope } = input;
  const report = new RowReport(context, input.language);
  const lookups = await loadLookups(context, input.rows);
  const users = await findUsersByLogin(db, distinctKeys(input.rows, 'user'));
  const authority = await callerAuthority(db, input.caller, scope);
  const targets = new Map<string, Promise<Target | undefined>>();
  const tracker = new GrantTracker(report);

  const planned: Array<Grant & { user: LoginMatch }> = [];
  for (const row of input.rows) {
    const problems: RowProblem[] = [];
    const user = resolveUser(row.cells.user ?? '', users, scope, problems);
    const grant = resolveGrant(context, input.language, row, lookups, scope, problems);
    if (!user || !grant) {
      report.error(row.row, problems);
      continue;
    }
    if (!targets.has(user.id)) targets.set(user.id, userTarget(db, user.id));
    const target = await targets.get(user.id);
    const refusal = target ? userGrantRefusal(authority, target, grant.tenant, { ...grant.role, applicationId: grant.application.id }) : new AppError('errors.not_found', 404);
    if (refusal) report.error(row.row, problemOf(refusal));
    else if (tracker.accept(user.id, grant)) planned.push({ ...grant, user });
  }

  let imported = 0;
  let done = input.rows.length - planned.length;
  input.progress?.(done, input.rows.length);
  for (const grant of planned) {
    const saved = await applyRow(context, report, grant, input.requestId, async () => {
      const before = await findOwnMembership(db, 'user_id', grant.user.id, grant.tenant.id);
      const { changed } = await userRoles.grantTenantRoles(input.caller, scope, grant.user.id, {
        tenantId: grant.tenant.id,
        roleIds: [grant.role.id],
        isInheritable: grant.inheritable,
      });
      return { before, changed };
    });
    if (saved) imported++;
    input.progress?.(++done, input.rows.length);
  }
  const result = report.result(input.rows.length, imported);
  await logImport(context, input, 'BulkInsertUsersWithTenant', result);
  return result;
}

/**
 * Gives groups roles in tenants, one row each (group, tenant, application, role, inheritable). Each
 * good row goes through the group page's own "Add Tenant Roles" (GroupsService.addTenantRoles), in
 * a transaction of its own, with its rules (the Users group, the Global tenant, the Identity
 * application's roles, God), its system log row and the announcement to the group's members. What
 * it refuses is the row's error; a role the group already holds is a warning.
 */
export async function importGroupTenantRoles(context: AppContext, groups: Pick<GroupsService, 'addTenantRoles'>, input: TenantRolesImportInput): Promise<ImportResult> {
  const db = context.dataSource;
  const { scope } = input;
  const report = new RowReport(context, input.language);
  const lookups = await loadLookups(context, input.rows);
  const matches = await findGroupsByKey(db, distinctKeys(input.rows, 'group'));
  const tracker = new GrantTracker(report);

  const planned: Array<Grant & { group: GroupMatch }> = [];
  for (const row of input.rows) {
    const problems: RowProblem[] = [];
    const group = resolveGroup(row.cells.group ?? '', matches, scope, problems);
    const grant = resolveGrant(context, input.language, row, lookups, scope, problems);
    if (!group || !grant) report.error(row.row, problems);
    else if (tracker.accept(group.id, grant)) planned.push({ ...grant, group });
  }

  let imported = 0;
  let done = input.rows.length - planned.length;
  input.progress?.(done, input.rows.length);
  for (const grant of planned) {
    const saved = await applyRow(context, report, grant, input.requestId, async () => {
      const before = await findOwnMembership(db, 'group_id', grant.group.id, grant.tenant.id);
      const { created } = await groups.addTenantRoles(input.caller, scope, grant.group.id, {
        tenantId: grant.tenant.id === GLOBAL_TENANT_ID ? null : grant.tenant.id,
        roleIds: [grant.role.id],
        isInheritable: grant.inheritable,
      });
      const changed = created || !before || !before.roleIds.includes(grant.role.id) || (grant.inheritable !== undefined && grant.inheritable !== before.isInheritable);
      return { before, changed };
    });
    if (saved) imported++;
    input.progress?.(++done, input.rows.length);
  }
  const result = report.result(input.rows.length, imported);
  await logImport(context, input, 'BulkInsertGroupsWithTenant', result);
  return result;
}

/**
 * The BulkInsertUsersWithTenant and BulkInsertGroupsWithTenant jobs: the files kept by
 * `POST /tenantIdentities/bulk_insert/{users|groups}`, imported with the requester's rights at run
 * time. A row an attempt cut short had applied is, on the next attempt, a role already held: a
 * warning, never a second grant.
 */
export function tenantRolesImportJob(context: AdminContext, kind: IdentityKind): JobHandler<UploadJobPayload> {
  const endpoint = kind === 'users' ? 'tenantIdentities.bulkInsertUsers' : 'tenantIdentities.bulkInsertGroups';
  const users = new UserRolesService(context);
  const groups = new GroupsService(context);
  return uploadJob(context, endpoint, async (job) => {
    const rows = await readSheet(job.file.bytes, { columns: importColumns(context, kind), maxRows: MAX_IMPORT_ROWS });
    const input = { ...sheetImportOf(job), rows };
    return kind === 'users' ? importUserTenantRoles(context, users, input) : importGroupTenantRoles(context, groups, input);
  });
}

/**
 * Writes one checked row with `save` (which answers the identity's membership of the tenant as it
 * was, and whether the grant changed anything) and reports it: a role already held is a warning, a
 * change of the membership's Inheritable too; a refusal is the row's error. Answers whether the
 * row changed something.
 */
async function applyRow(
  context: AppContext,
  report: RowReport,
  grant: Grant,
  requestId: string | undefined,
  save: () => Promise<{ before: OwnMembership | undefined; changed: boolean }>,
): Promise<boolean> {
  try {
    const { before, changed } = await save();
    if (!changed) {
      report.warning(grant.row, alreadyHeld(grant));
      return false;
    }
    if (before && grant.inheritable !== undefined && grant.inheritable !== before.isInheritable) report.warning(grant.row, inheritableNote(grant.tenant, grant.inheritable));
    return true;
  } catch (error) {
    report.error(grant.row, rowFailure(context, error, grant.row, requestId));
    return false;
  }
}

/**
 * Remembers each grant the file asks for: a second row for the same identity, tenant and role is a
 * warning and skipped; a row that says the opposite of an earlier one about the same membership's
 * Inheritable is an error (which of the two the file means cannot be guessed).
 */
class GrantTracker {
  private readonly firstRowOf = new Map<string, number>();
  private readonly inheritableOf = new Map<string, { row: number; value: boolean }>();

  constructor(private readonly report: RowReport) {}

  accept(identityId: string, grant: Grant): boolean {
    const membership = `${identityId}|${grant.tenant.id}`;
    const said = this.inheritableOf.get(membership);
    if (grant.inheritable !== undefined && said && said.value !== grant.inheritable) {
      this.report.error(grant.row, { key: `${MESSAGES}.row_inheritable_conflict`, params: { row: said.row } });
      return false;
    }
    const key = `${membership}|${grant.role.id}`;
    const first = this.firstRowOf.get(key);
    if (first !== undefined) {
      this.report.warning(grant.row, { key: 'import.duplicate_row', params: { first } });
      return false;
    }
    this.firstRowOf.set(key, grant.row);
    if (grant.inheritable !== undefined && !said) this.inheritableOf.set(membership, { row: grant.row, value: grant.inheritable });
    return true;
  }
}

/** The distinct lower-cased texts of one column. */
function distinctKeys(rows: ReadonlyArray<SheetRow<ImportColumn>>, column: ImportColumn): string[] {
  return [...new Set(rows.map((row) => (row.cells[column] ?? '').toLowerCase()).filter(Boolean))];
}

async function loadLookups(context: AppContext, rows: ReadonlyArray<SheetRow<ImportColumn>>): Promise<Lookups> {
  const [tenants, applications] = await Promise.all([
    findTenantsByKey(context.dataSource, distinctKeys(rows, 'tenant')),
    findApplicationsByKey(context.dataSource, distinctKeys(rows, 'application')),
  ]);
  return { tenants, applications };
}

/** The tenant, application, role and Inheritable of a row; undefined, with the row's problems added, when one is wrong. */
function resolveGrant(context: AppContext, language: string, row: SheetRow<ImportColumn>, lookups: Lookups, scope: CallerScope, problems: RowProblem[]): Grant | undefined {
  const tenant = resolveTenant(row.cells.tenant ?? '', lookups.tenants, scope, problems);
  const application = resolveApplication(row.cells.application ?? '', lookups.applications, problems);
  const role = application && resolveRole(row.cells.role ?? '', application, problems);
  if (!application && !row.cells.role) problems.push({ key: `${MESSAGES}.row_role_required` });
  const text = row.cells.inheritable ?? '';
  const inheritable = text ? parseYesNo(text.normalize('NFD').replace(/\p{M}/gu, '')) : undefined;
  if (text && inheritable === undefined) {
    const column = context.i18n.t(`${MESSAGES}.columns.inheritable`, { lng: language }) as string;
    problems.push({ key: 'import.invalid_yes_no', params: { column, value: clip(text) } });
  }
  if (!tenant || !application || !role || problems.length) return undefined;
  return { row: row.row, tenant, application, role, inheritable };
}

/**
 * A tenant by id, or by title (any case; the exact spelling wins when titles differ only by case).
 * Tenants outside the caller's areas read as unknown; the Global tenant is judged by the grant rules.
 */
function resolveTenant(text: string, tenants: TenantMatch[], scope: CallerScope, problems: RowProblem[]): TenantMatch | undefined {
  if (!text) return void problems.push({ key: `${MESSAGES}.row_tenant_required` });
  const key = text.toLowerCase();
  const visible = tenants.filter((t) => t.id === GLOBAL_TENANT_ID || inScope(scope, t.areaId));
  const byId = visible.find((t) => t.id === key);
  if (byId) return byId;
  const named = visible.filter((t) => t.title.toLowerCase() === key);
  const exact = named.filter((t) => t.title === text);
  const found = one(exact) ?? one(named);
  if (found) return found;
  problems.push({ key: `${MESSAGES}.${named.length ? 'row_tenant_ambiguous' : 'row_tenant_not_found'}`, params: { tenant: clip(text) } });
  return undefined;
}

/**
 * An application by id or name (both unique), else by display name when only one has it; the row's
 * problem, under `messages` (the import's phrases), when none is.
 */
export function resolveApplication(text: string, applications: ApplicationMatch[], problems: RowProblem[], messages = MESSAGES): ApplicationMatch | undefined {
  if (!text) return void problems.push({ key: `${messages}.row_application_required` });
  const key = text.toLowerCase();
  const found =
    applications.find((a) => a.id === text) ?? one(applications.filter((a) => a.name.toLowerCase() === key)) ?? one(applications.filter((a) => a.displayName.toLowerCase() === key));
  if (!found) problems.push({ key: `${messages}.row_application_not_found`, params: { application: clip(text) } });
  return found;
}

/** A role of the application by name (any case; the exact spelling wins). */
function resolveRole(text: string, application: ApplicationMatch, problems: RowProblem[]): RoleMatch | undefined {
  if (!text) return void problems.push({ key: `${MESSAGES}.row_role_required` });
  const named = application.roles.filter((r) => r.name.toLowerCase() === text.toLowerCase());
  const found = one(named.filter((r) => r.name === text)) ?? one(named);
  if (!found) problems.push({ key: `${MESSAGES}.row_role_not_found`, params: { application: application.name, role: clip(text) } });
  return found;
}

/**
 * The row's user: by user name first (unique), else by e-mail when exactly one user of the
 * caller's areas has it. A user outside the caller's areas reads as unknown.
 */
function resolveUser(text: string, matches: LoginMatch[], scope: CallerScope, problems: RowProblem[]): LoginMatch | undefined {
  if (!text) return void problems.push({ key: `${MESSAGES}.row_user_required` });
  const login = text.toLowerCase();
  const byName = matches.find((m) => m.normalizedUserName === login && inScope(scope, m.areaId));
  if (byName) return byName;
  const byEmail = matches.filter((m) => m.normalizedEmail === login && inScope(scope, m.areaId));
  if (byEmail.length === 1) return byEmail[0];
  problems.push({ key: `${MESSAGES}.${byEmail.length > 1 ? 'row_user_ambiguous' : 'row_user_not_found'}`, params: { user: clip(text) } });
  return undefined;
}

/** A group by id, or by name (any case; names are unique only within an area, so several are ambiguous). */
function resolveGroup(text: string, matches: GroupMatch[], scope: CallerScope, problems: RowProblem[]): GroupMatch | undefined {
  if (!text) return void problems.push({ key: `${MESSAGES}.row_group_required` });
  const key = text.toLowerCase();
  const visible = matches.filter((g) => inScope(scope, g.areaId));
  const byId = visible.find((g) => g.id === key);
  if (byId) return byId;
  const named = visible.filter((g) => g.name.toLowerCase() === key);
  const found = one(named.filter((g) => g.name === text)) ?? one(named);
  if (found) return found;
  problems.push({ key: `${MESSAGES}.${named.length ? 'row_group_ambiguous' : 'row_group_not_found'}`, params: { group: clip(text) } });
  return undefined;
}

function alreadyHeld(grant: Grant): RowProblem {
  return { key: `${MESSAGES}.row_already_held`, params: { role: grant.role.name, application: grant.application.name, tenant: grant.tenant.title } };
}

function inheritableNote(tenant: TenantMatch, isInheritable: boolean): RowProblem {
  return { key: `${MESSAGES}.${isInheritable ? 'row_now_inheritable' : 'row_no_longer_inheritable'}`, params: { tenant: tenant.title } };
}

function problemOf(error: AppError): RowProblem {
  return { key: error.code, params: error.params };
}

/** Why a checked row could not be written: the caller's fault in their words, or an unexpected failure with its reference. */
function rowFailure(context: AppContext, error: unknown, row: number, requestId?: string): RowProblem {
  const known = knownError(error);
  if (known) return problemOf(known);
  context.logger.error({ err: error, requestId, row }, 'tenant roles import: a row failed unexpectedly');
  return { key: 'import.unexpected', params: { requestId } };
}

async function logImport(context: AppContext, input: TenantRolesImportInput, type: string, result: ImportResult): Promise<void> {
  const actor: Actor = { userId: input.caller.userId, userName: await findUserName(context.dataSource, input.caller.userId) };
  await writeSystemLog(context.dataSource, {
    operation: 'BulkInsert',
    ...actor,
    metadata: {
      type,
      fileName: input.fileName,
      totalElements: result.totalElements,
      importedElements: result.importedElements,
      errors: result.errors.length,
      warnings: result.warnings.length,
    },
  });
}
