import { sortRoleOrigins, type ApplicationUser } from '@gatehouse/contracts';
import type { AppContext, ListQuery } from '@gatehouse/core';
import type { CallerScope } from '../../auth/scope.js';
import type { AppRolesService } from './service.js';
import { findUserRoles, listApplicationUsers, type ApplicationUserFilter } from './users-repository.js';

/** The users holding an application's roles, each with those roles (the application's Users tab). */
export class ApplicationUsersService {
  constructor(
    private readonly context: AppContext,
    private readonly roles: AppRolesService,
  ) {}

  /**
   * A page of the users holding roles of the application, on their own membership or through a
   * group, within the caller's areas; each with the roles they hold, flagged global when held in
   * the Global tenant.
   */
  async list(scope: CallerScope, appId: string, query: ListQuery, filter: Omit<ApplicationUserFilter, 'areaIds'>): Promise<{ items: ApplicationUser[]; count: number }> {
    const db = this.context.dataSource;
    await this.roles.application(appId);
    const { rows, count } = await listApplicationUsers(db, appId, { ...filter, areaIds: scope.areaIds }, query);
    const roles = await findUserRoles(db, appId, rows.map((row) => row.id));
    const items = rows.map((row) => ({
      id: row.id,
      userName: row.user_name,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      areaName: row.area_name,
      roles: roles
        .filter((role) => role.user_id === row.id)
        .map((role) => ({ id: role.id, name: role.name, description: role.description, isGlobal: role.is_global, origins: sortRoleOrigins(role.origins) })),
    }));
    return { items, count };
  }
}
