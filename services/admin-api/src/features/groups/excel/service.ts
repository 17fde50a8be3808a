import { type AppContext, type GroupPermission } from '@gatehouse/core';
import { writeSystemLog } from '../../../audit/system-log.js';
import type { Caller } from '../../../auth/koa-admin-auth.js';
import { inScope, type CallerScope } from '../../../auth/scope.js';
import { findUserName, insertMember, updateMemberPermission } from '../repository.js';
import { assertMayGrantGroupRoles, assertOwner, lockedGroup, visibleGroup } from '../service.js';
import { findUsersByLogin, inSavepoint, memberPermissions, type LoginMatch } from './repository.js';
import { memberTemplate, type MemberRow, type TemplateLabels } from './workbook.js';

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

  /** The template for one group the caller can see; its file name carries the group's name. */
  async template(caller: Caller, scope: CallerScope, groupId: string, labels: TemplateLabels): Promise<{ fileName: string; content: Buffer }> {
    const group = await visibleGroup(this.context.dataSource, caller, scope, groupId);
    const slug = group.name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'group';
    return { fileName: `${slug}-members-template.xlsx`, content: await memberTemplate(labels) };
  }

  /** Checked before the upload is read: a caller who may not import does not get to send 2 MB first. */
  async assertCanImport(caller: Caller, scope: CallerScope, groupId: string): Promise<void> {
    assertOwner(await visibleGroup(this.context.dataSource, caller, scope, groupId), scope);
    await assertMayGrantGroupRoles(this.context.dataSource, groupId, scope);
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
  async import(caller: Caller, scope: CallerScope, groupId: string, fileName: string, rows: MemberRow[]): Promise<ImportOutcome> {
    const outcome = await this.context.dataSource.transaction(async (em) => {
      const group = await lockedGroup(em, caller, scope, groupId);
      assertOwner(group, scope);
      // Every row adds or changes a member, who holds the group's roles.
      await assertMayGrantGroupRoles(em, groupId, scope);
      const callerName = await findUserName(em, caller.userId);
      const matches = await findUsersByLogin(em, [...new Set(rows.map((r) => r.user.toLowerCase()).filter(Boolean))]);
      const members = await memberPermissions(em, groupId);
      const firstRowOf = new Map<string, number>();
      const added: string[] = [];
      const result: ImportOutcome = { totalElements: rows.length, importedElements: 0, errors: [], warnings: [] };

      for (const row of rows) {
        const permission = row.permission ? PERMISSIONS[row.permission.toLowerCase()] : 'Reader';
        if (!permission) {
          result.errors.push({ row: row.row, code: 'groups.row_bad_permission', params: { value: row.permission } });
          continue;
        }
        const resolved = resolveUser(row, matches, scope);
        if ('issue' in resolved) {
          result.errors.push(resolved.issue);
          continue;
        }
        const { user } = resolved;
        const first = firstRowOf.get(user.id);
        if (first !== undefined) {
          result.warnings.push({ row: row.row, code: 'groups.row_duplicate', params: { row: first } });
          continue;
        }
        firstRowOf.set(user.id, row.row);

        const current = members.get(user.id);
        if (current === permission) {
          result.warnings.push({ row: row.row, code: 'groups.row_already_member', params: { permission } });
          continue;
        }
        const log = (operation: string, extra: Record<string, unknown>) =>
          writeSystemLog(em, {
            operation,
            userId: caller.userId,
            userName: callerName,
            metadata: { groupId, groupName: group.name, memberId: user.id, memberUserName: user.userName, permission, source: 'BulkInsert', fileName, row: row.row, ...extra },
          });
        try {
          await inSavepoint(em, async () => {
            if (current) {
              await updateMemberPermission(em, groupId, user.id, permission);
              await log('UpdateGroupMember', { previous: current });
            } else {
              await insertMember(em, groupId, user.id, permission);
              await log('AddGroupMember', {});
            }
          });
        } catch (error) {
          // The user went away since the lookup, or the database refused the row: it alone fails.
          this.context.logger.warn({ err: (error as Error).message, groupId, row: row.row }, 'group member import row failed');
          result.errors.push({ row: row.row, code: 'groups.row_failed' });
          continue;
        }
        members.set(user.id, permission);
        result.importedElements++;
        if (current) {
          result.warnings.push({ row: row.row, code: 'groups.row_permission_changed', params: { from: current, to: permission } });
        } else {
          added.push(user.id);
        }
      }

      await writeSystemLog(em, {
        operation: 'BulkInsert',
        userId: caller.userId,
        userName: callerName,
        metadata: {
          type: 'BulkInsertGroupMembers',
          groupId,
          groupName: group.name,
          fileName,
          totalElements: result.totalElements,
          importedElements: result.importedElements,
          errors: result.errors.length,
          warnings: result.warnings.length,
        },
      });
      return { result, affected: group.tenants.length ? added : [] };
    });
    for (const userId of outcome.affected) this.context.broadcast.publish('roles.changed', { userId });
    return outcome.result;
  }
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
