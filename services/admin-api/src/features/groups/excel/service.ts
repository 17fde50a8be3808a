import type { GroupImportOutcome } from '@gatehouse/contracts';
import { PermanentJobError, type AppContext, type GroupPermission, type JobHandler } from '@gatehouse/core';
import { writeSystemLog } from '../../../audit/system-log.js';
import type { Caller } from '../../../auth/koa-admin-auth.js';
import { inScope, type CallerScope } from '../../../auth/scope.js';
import type { Queryable } from '../../../db.js';
import type { UploadedWorkbook } from '../../../excel/upload.js';
import { findUserName, findUsersByLogin, type LoginMatch } from '../../directory/lookups.js';
import { uploadJob, type UploadJobPayload } from '../../jobs/upload-jobs.js';
import { insertMember, updateMemberPermission, type GroupRecord } from '../repository.js';
import { assertMayHandOutGroupRoles, assertOwner, lockedGroup, visibleGroup } from '../service.js';
import { inSavepoint, memberPermissions } from './repository.js';
import { PERMISSION_HEADER, memberTemplate, readMemberRows, type MemberRow, type TemplateLabels } from './workbook.js';

/** A row's problem: `code` is an i18n key under `groups.`, rendered in the caller's language. */
export interface RowIssue {
  row: number;
  code: string;
  params?: Record<string, unknown>;
}

export interface ImportOutcome {
  totalElements: number;
  /** Rows that changed something: a new member, or a member whose permission the file changed. */
  importedElements: number;
  errors: RowIssue[];
  warnings: RowIssue[];
}

/** Spellings a permission cell may take: the names, and the console's No (Reader) / Yes (Owner). */
const PERMISSIONS: Record<string, GroupPermission> = { reader: 'Reader', owner: 'Owner', no: 'Reader', yes: 'Owner' };

type Resolved = { user: LoginMatch } | { issue: RowIssue };

/** The Excel template and bulk insert of a group's members. */
export class GroupMembersExcel {
  constructor(private readonly context: AppContext) {}

  /** The template for one group the caller can see; its file name carries the group's name, its notes the caller's language. */
  async template(caller: Caller, scope: CallerScope, groupId: string, language?: string): Promise<{ fileName: string; content: Buffer }> {
    const group = await visibleGroup(this.context.dataSource, caller, scope, groupId);
    const slug = group.name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'group';
    const labels: TemplateLabels = {
      sheet: this.t(language, 'groups.template_sheet'),
      userNote: this.t(language, 'groups.template_user_note'),
      permissionNote: this.t(language, 'groups.template_permission_note'),
    };
    return { fileName: `${slug}-members-template.xlsx`, content: await memberTemplate(labels) };
  }

  /** Checked before the upload is read: a caller who may not import does not get to send 2 MB first. */
  async assertCanImport(caller: Caller, scope: CallerScope, groupId: string): Promise<void> {
    assertOwner(await visibleGroup(this.context.dataSource, caller, scope, groupId), scope);
    await assertMayHandOutGroupRoles(this.context.dataSource, caller, scope, groupId);
  }

  /**
   * Adds the file's rows as members, in one transaction with each row's writes in a savepoint. A
   * caller who may not grant the group's tenant roles may not import into it at all (403).
   * Rules, row by row: a row whose user is unknown, ambiguous or outside the caller's areas, or
   * whose permission is neither Reader nor Owner (empty means Reader), is an error and changes
   * nothing; a second row for the same user is a warning and is ignored (the first wins); a user
   * who is already a member is a warning, and their permission is set to the file's when it
   * differs (the file is what the caller wants the group to look like).
   */
  async import(
    caller: Caller,
    scope: CallerScope,
    groupId: string,
    fileName: string,
    rows: MemberRow[],
    progress?: (done: number, total: number) => void,
  ): Promise<ImportOutcome> {
    const outcome = await this.context.dataSource.transaction(async (em) => {
      const run = await startImport(em, caller, scope, groupId, fileName, rows);
      let done = 0;
      for (const row of rows) {
        const planned = planRow(run, row);
        if (planned && (await this.saveRow(run, row, planned))) recordSaved(run, row, planned);
        progress?.(++done, rows.length);
      }
      await logImport(run);
      return { result: run.result, affected: run.group.tenants.length ? run.added : [] };
    });
    for (const userId of outcome.affected) this.context.broadcast.publish('roles.changed', { userId });
    return outcome.result;
  }

  /**
   * The upload of a members file, checked as far as it can be at once: the caller may import into
   * the group (before `receive` reads the file), and the file reads as a members sheet. Answers the
   * file, to be imported in the background.
   */
  async checkUpload(caller: Caller, scope: CallerScope, groupId: string, receive: () => Promise<UploadedWorkbook>): Promise<UploadedWorkbook> {
    await this.assertCanImport(caller, scope, groupId);
    const file = await receive();
    await readMemberRows(file.buffer);
    return file;
  }

  /**
   * Imports a members file kept by the upload, with the caller's rights as they are now (the group
   * is looked up and checked again), and answers the outcome with each row's problem in the
   * upload's language.
   */
  async importFile(
    caller: Caller,
    scope: CallerScope,
    groupId: string,
    file: { name: string; bytes: Buffer },
    language: string,
    progress?: (done: number, total: number) => void,
  ): Promise<GroupImportOutcome> {
    const outcome = await this.import(caller, scope, groupId, file.name, await readMemberRows(file.bytes), progress);
    const render = (issue: RowIssue) => ({ row: issue.row, reason: this.t(language, issue.code, issue.params) });
    return {
      success: outcome.errors.length === 0,
      totalElements: outcome.totalElements,
      importedElements: outcome.importedElements,
      errors: outcome.errors.map(render),
      warnings: outcome.warnings.map(render),
    };
  }

  /**
   * Writes one row (a new member, or a new permission) with its audit row in a savepoint; answers
   * false, with the row's error, when the database refused it.
   */
  private async saveRow(run: ImportRun, row: MemberRow, { user, permission, current }: PlannedRow): Promise<boolean> {
    const log = (operation: string, extra: Record<string, unknown>) =>
      writeSystemLog(run.em, {
        operation,
        userId: run.caller.userId,
        userName: run.callerName,
        metadata: { groupId: run.group.id, groupName: run.group.name, memberId: user.id, memberUserName: user.userName, permission, source: 'BulkInsert', fileName: run.fileName, row: row.row, ...extra },
      });
    try {
      await inSavepoint(run.em, async () => {
        if (current) {
          await updateMemberPermission(run.em, run.group.id, user.id, permission);
          await log('UpdateGroupMember', { previous: current });
        } else {
          await insertMember(run.em, run.group.id, user.id, permission);
          await log('AddGroupMember', {});
        }
      });
      return true;
    } catch (error) {
      // The user went away since the lookup, or the database refused the row: it alone fails.
      this.context.logger.warn({ err: (error as Error).message, groupId: run.group.id, row: row.row }, 'group member import row failed');
      run.result.errors.push({ row: row.row, code: 'groups.row_failed' });
      return false;
    }
  }

  private t(language: string | undefined, key: string, params: Record<string, unknown> = {}): string {
    return this.context.i18n.t(key, { lng: language, ...params }) as string;
  }
}

/**
 * The BulkInsertGroupMembers job: imports the members file kept by `POST /groups/bulk_insert/{groupId}`.
 * The whole file is one transaction, so an attempt cut short leaves nothing behind and a later
 * attempt starts afresh.
 */
export function groupMembersImportJob(context: AppContext): JobHandler<UploadJobPayload> {
  const excel = new GroupMembersExcel(context);
  return uploadJob(context, 'groups.bulkInsert', async (job) => {
    const { groupId } = job.params;
    if (!groupId) throw new PermanentJobError('the members import does not name its group');
    return excel.importFile(job.caller, job.scope, groupId, job.file, job.language, job.progress);
  });
}

/** One import in progress: its transaction, what it looked up once, and what it has done so far. */
interface ImportRun {
  em: Queryable;
  caller: Caller;
  callerName: string | null;
  scope: CallerScope;
  group: GroupRecord;
  fileName: string;
  matches: LoginMatch[];
  /** The group's members as the import leaves them, row after row. */
  members: Map<string, GroupPermission>;
  /** The first row of each user: a later row for the same user is a duplicate. */
  firstRowOf: Map<string, number>;
  /** The users the import made members. */
  added: string[];
  result: ImportOutcome;
}

/** A row that changes something: a user to add with a permission, or whose permission changes from `current`. */
interface PlannedRow {
  user: LoginMatch;
  permission: GroupPermission;
  current: GroupPermission | undefined;
}

/** Locks the group, checks the caller may import into it, and reads the users and members the rows name. */
async function startImport(em: Queryable, caller: Caller, scope: CallerScope, groupId: string, fileName: string, rows: MemberRow[]): Promise<ImportRun> {
  const group = await lockedGroup(em, caller, scope, groupId);
  assertOwner(group, scope);
  // Every row adds or changes a member, who holds the group's roles.
  await assertMayHandOutGroupRoles(em, caller, scope, groupId);
  return {
    em,
    caller,
    callerName: await findUserName(em, caller.userId),
    scope,
    group,
    fileName,
    matches: await findUsersByLogin(em, [...new Set(rows.map((r) => r.user.toLowerCase()).filter(Boolean))]),
    members: await memberPermissions(em, groupId),
    firstRowOf: new Map(),
    added: [],
    result: { totalElements: rows.length, importedElements: 0, errors: [], warnings: [] },
  };
}

/** What the row asks for, or undefined when it changes nothing (its error or warning is recorded). */
function planRow(run: ImportRun, row: MemberRow): PlannedRow | undefined {
  const { result } = run;
  const permission = row.permission ? PERMISSIONS[row.permission.toLowerCase()] : 'Reader';
  if (!permission) {
    result.errors.push({ row: row.row, code: 'groups.row_bad_permission', params: { column: PERMISSION_HEADER, value: row.permission.slice(0, 80) } });
    return undefined;
  }
  const resolved = resolveUser(row, run.matches, run.scope);
  if ('issue' in resolved) {
    result.errors.push(resolved.issue);
    return undefined;
  }
  const { user } = resolved;
  // Nobody gives themself the group's roles (tenant access): someone else adds them.
  if (user.id === run.caller.userId && run.group.tenants.length) {
    result.errors.push({ row: row.row, code: 'access.own_group_roles' });
    return undefined;
  }
  const first = run.firstRowOf.get(user.id);
  if (first !== undefined) {
    result.warnings.push({ row: row.row, code: 'groups.row_duplicate', params: { row: first } });
    return undefined;
  }
  run.firstRowOf.set(user.id, row.row);
  const current = run.members.get(user.id);
  if (current === permission) {
    result.warnings.push({ row: row.row, code: 'groups.row_already_member', params: { permission } });
    return undefined;
  }
  return { user, permission, current };
}

/** Counts a saved row; a changed permission is also a warning, so the caller sees what the file changed. */
function recordSaved(run: ImportRun, row: MemberRow, { user, permission, current }: PlannedRow): void {
  run.members.set(user.id, permission);
  run.result.importedElements++;
  if (current) {
    run.result.warnings.push({ row: row.row, code: 'groups.row_permission_changed', params: { from: current, to: permission } });
  } else {
    run.added.push(user.id);
  }
}

/** The import's own audit row, with its counts. */
async function logImport(run: ImportRun): Promise<void> {
  const { result, group } = run;
  await writeSystemLog(run.em, {
    operation: 'BulkInsert',
    userId: run.caller.userId,
    userName: run.callerName,
    metadata: {
      type: 'BulkInsertGroupMembers',
      groupId: group.id,
      groupName: group.name,
      fileName: run.fileName,
      totalElements: result.totalElements,
      importedElements: result.importedElements,
      errors: result.errors.length,
      warnings: result.warnings.length,
    },
  });
}

/**
 * The row's user: by user name first (unique), else by e-mail when exactly one user has it. A user
 * outside the caller's areas reads as unknown, as everywhere else in the admin API.
 */
function resolveUser(row: MemberRow, matches: LoginMatch[], scope: CallerScope): Resolved {
  if (!row.user) return { issue: { row: row.row, code: 'groups.row_user_required' } };
  const login = row.user.toLowerCase();
  const byName = matches.find((m) => m.normalizedUserName === login);
  const byEmail = matches.filter((m) => m.normalizedEmail === login && inScope(scope, m.areaId));
  const user = byName ?? (byEmail.length === 1 ? byEmail[0] : undefined);
  if (!byName && byEmail.length > 1) return { issue: { row: row.row, code: 'groups.row_user_ambiguous', params: { user: row.user } } };
  if (!user || !inScope(scope, user.areaId)) return { issue: { row: row.row, code: 'groups.row_user_not_found', params: { user: row.user } } };
  return { user };
}
