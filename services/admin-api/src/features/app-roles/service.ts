import { ROLE_SCOPE_PATTERN, type AppRole, type ApplicationPermission, type RoleScope } from '@gatehouse/contracts';
import { AppError, IDENTITY_APPLICATION_ID, IDENTITY_ROLES, type AppContext, type ListQuery } from '@gatehouse/core';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { Queryable } from '../../db.js';
import { findUserName } from '../directory/lookups.js';
import {
  deleteRole,
  deleteScope,
  findApplication,
  findRole,
  findScope,
  insertRole,
  insertScope,
  listPermissions,
  listRoles,
  listScopes,
  lockRole,
  updateRole,
  updateScope,
  type ApplicationRecord,
  type RoleFields as RoleBody,
  type RoleRow,
  type ScopeRow,
} from './repository.js';

const applicationNotFound = () => new AppError('appRoles.application_not_found', 404);
const roleNotFound = () => new AppError('appRoles.role_not_found', 404);
const nameInUse = () => new AppError('errors.role_name_in_use', 409, {}, [{ field: 'name', code: 'errors.role_name_in_use' }]);

/** The Identity application's roles the product's own permissions are written with (ENDPOINT_ROLES, the console's menu). */
function isSystemRole(role: Pick<RoleRow, 'application_id' | 'name'>): boolean {
  return role.application_id === IDENTITY_APPLICATION_ID && (IDENTITY_ROLES as readonly string[]).includes(role.name);
}

function systemRoleError(role: RoleRow, field?: string): AppError {
  const params = { name: role.name };
  return new AppError('appRoles.system_role', 409, params, field ? [{ field, code: 'appRoles.system_role', params }] : []);
}

/** A scope made only of what the spec allows (lowercase letters, numbers and . / : _ -). */
function assertScope(scope: string): void {
  if (!ROLE_SCOPE_PATTERN.test(scope)) throw new AppError('errors.validation', 400, {}, [{ field: 'scope', code: 'validation.invalid_scope' }]);
}

export function presentRole(row: RoleRow): AppRole {
  return {
    id: row.id,
    applicationId: row.application_id,
    applicationName: row.application_name,
    name: row.name,
    description: row.description,
    byHierarchy: row.by_hierarchy,
    operationRequestVisibility: row.operation_request_visibility,
    serviceManagerVisibility: row.service_manager_visibility,
    holders: Number(row.holders),
    scopesCount: Number(row.scopes_count),
    system: isSystemRole(row),
  };
}

const presentScope = (row: ScopeRow): RoleScope => ({ id: row.id, roleId: row.role_id, scope: row.scope });

/** Who changes a role, and where: what every system log row of this feature names. */
interface Change {
  caller: Caller;
  application: ApplicationRecord;
}

/**
 * An application's roles and their access scopes. Every change runs in one transaction with its
 * system log row. Renaming or deleting a role changes what its holders' tokens carry: every node is
 * told to forget the role names it cached once the change has committed.
 */
export class AppRolesService {
  constructor(private readonly context: AppContext) {}

  private get db() {
    return this.context.dataSource;
  }

  async application(appId: string, db: Queryable = this.db): Promise<ApplicationRecord> {
    const application = await findApplication(db, appId);
    if (!application) throw applicationNotFound();
    return application;
  }

  /** The role of the application, else a 404 (a role of another application is not found either). */
  async role(appId: string, roleId: string, db: Queryable = this.db): Promise<RoleRow> {
    await this.application(appId, db);
    const role = await findRole(db, appId, roleId);
    if (!role) throw roleNotFound();
    return role;
  }

  async list(appId: string, query: ListQuery): Promise<{ items: AppRole[]; count: number }> {
    await this.application(appId);
    const { rows, count } = await listRoles(this.db, appId, query);
    return { items: rows.map(presentRole), count };
  }

  async get(appId: string, roleId: string): Promise<AppRole> {
    return presentRole(await this.role(appId, roleId));
  }

  /** Creates the role; another role of the application with the same name, whatever its case, is a 409. */
  async create(caller: Caller, appId: string, body: RoleBody): Promise<AppRole> {
    const id = await this.db.transaction(async (em) => {
      const application = await this.application(appId, em);
      const id = await insertRole(em, appId, body);
      if (!id) throw nameInUse();
      await this.log(em, { caller, application }, 'CreateRole', { roleId: id, roleName: body.name, ...roleFlags(body) });
      return id;
    });
    return this.get(appId, id);
  }

  /** Changes the role's properties. The Identity application's own roles keep their names. */
  async update(caller: Caller, appId: string, roleId: string, body: RoleBody): Promise<AppRole> {
    const renamed = await this.db.transaction(async (em) => {
      const application = await this.application(appId, em);
      const role = await lockRole(em, appId, roleId);
      if (!role) throw roleNotFound();
      if (isSystemRole(role) && body.name !== role.name) throw systemRoleError(role, 'name');
      if (!(await updateRole(em, appId, roleId, body))) throw nameInUse();
      await this.log(em, { caller, application }, 'UpdateRole', {
        roleId,
        roleName: body.name,
        ...roleFlags(body),
        previous: { roleName: role.name, ...roleFlags(presentRole(role)) },
      });
      return body.name !== role.name && Number(role.holders) > 0;
    });
    if (renamed) this.rolesChanged();
    return this.get(appId, roleId);
  }

  /**
   * Deletes the role with its scopes. Whoever holds it (users and groups, in any tenant) loses it:
   * the console says how many before asking for confirmation, and the system log keeps the number.
   * The Identity application's own roles cannot be deleted.
   */
  async remove(caller: Caller, appId: string, roleId: string): Promise<void> {
    const held = await this.db.transaction(async (em) => {
      const application = await this.application(appId, em);
      const role = await lockRole(em, appId, roleId);
      if (!role) throw roleNotFound();
      if (isSystemRole(role)) throw systemRoleError(role);
      await deleteRole(em, roleId);
      const holders = Number(role.holders);
      await this.log(em, { caller, application }, 'DeleteRole', { roleId, roleName: role.name, holders, scopesCount: Number(role.scopes_count) });
      return holders > 0;
    });
    if (held) this.rolesChanged();
  }

  async scopes(appId: string, roleId: string, query: ListQuery): Promise<{ items: RoleScope[]; count: number }> {
    await this.role(appId, roleId);
    const { rows, count } = await listScopes(this.db, roleId, query);
    return { items: rows.map(presentScope), count };
  }

  async createScope(caller: Caller, appId: string, roleId: string, scope: string): Promise<RoleScope> {
    assertScope(scope);
    return this.db.transaction(async (em) => {
      const { application, role } = await this.lockedRole(em, appId, roleId);
      const created = await insertScope(em, roleId, scope);
      await this.log(em, { caller, application }, 'CreateRoleScope', { roleId, roleName: role.name, scopeId: created.id, scope });
      return presentScope(created);
    });
  }

  async updateScope(caller: Caller, appId: string, roleId: string, scopeId: string, scope: string): Promise<RoleScope> {
    assertScope(scope);
    return this.db.transaction(async (em) => {
      const { application, role } = await this.lockedRole(em, appId, roleId);
      const current = await findScope(em, roleId, scopeId);
      if (!current) throw new AppError('appRoles.scope_not_found', 404);
      const updated = await updateScope(em, scopeId, scope);
      await this.log(em, { caller, application }, 'UpdateRoleScope', { roleId, roleName: role.name, scopeId, scope, previous: { scope: current.scope } });
      return presentScope(updated);
    });
  }

  async removeScope(caller: Caller, appId: string, roleId: string, scopeId: string): Promise<void> {
    await this.db.transaction(async (em) => {
      const { application, role } = await this.lockedRole(em, appId, roleId);
      const current = await findScope(em, roleId, scopeId);
      if (!current) throw new AppError('appRoles.scope_not_found', 404);
      await deleteScope(em, scopeId);
      await this.log(em, { caller, application }, 'DeleteRoleScope', { roleId, roleName: role.name, scopeId, scope: current.scope });
    });
  }

  /** Every role of the application with the scopes it grants. */
  async permissions(appId: string): Promise<{ items: ApplicationPermission[]; count: number }> {
    await this.application(appId);
    const rows = await listPermissions(this.db, appId);
    return { items: rows.map((row) => ({ roleId: row.id, roleName: row.name, scopes: row.scopes })), count: rows.length };
  }

  /** The role locked while one of its scopes changes, so a concurrent delete of the role waits. */
  private async lockedRole(em: Queryable, appId: string, roleId: string): Promise<{ application: ApplicationRecord; role: RoleRow }> {
    const application = await this.application(appId, em);
    const role = await lockRole(em, appId, roleId);
    if (!role) throw roleNotFound();
    return { application, role };
  }

  private async log(em: Queryable, { caller, application }: Change, operation: string, metadata: Record<string, unknown>): Promise<void> {
    await writeSystemLog(em, {
      operation,
      userId: caller.userId,
      userName: await findUserName(em, caller.userId),
      metadata: { applicationId: application.id, applicationName: application.name, ...metadata },
    });
  }

  /** Role names are cached with each user's roles (the provider's tokens): every node drops them. */
  private rolesChanged(): void {
    this.context.broadcast.publish('roles.changed', {});
  }
}

function roleFlags(role: Pick<RoleBody, 'description' | 'byHierarchy' | 'operationRequestVisibility' | 'serviceManagerVisibility'>) {
  return {
    description: role.description,
    byHierarchy: role.byHierarchy,
    operationRequestVisibility: role.operationRequestVisibility,
    serviceManagerVisibility: role.serviceManagerVisibility,
  };
}
