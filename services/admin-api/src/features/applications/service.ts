import { applicationIcon, homeApplications, toListQuery, type AppContext } from '@gatehouse/core';
import type { ApplicationRoles, HomeInfo, applicationsRoutes } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { APPLICATION_ROLE_SORT, listApplicationRoles } from './repository.js';

type ApplicationRolesQuery = z.output<typeof applicationsRoutes.roles.query>;

export interface ApplicationsServiceOptions {
  /** Id of the client portal application, where customers without the Identity application are sent. */
  clientPortalAppId?: string | null;
}

/** The applications as the launcher and the console's role pickers see them. */
export class ApplicationsService {
  constructor(
    private readonly context: AppContext,
    private readonly options: ApplicationsServiceOptions = {},
  ) {}

  /** The home launcher: the caller's applications with access and favourite flags. */
  async homeInfo(caller: Caller): Promise<HomeInfo> {
    const items = await homeApplications(this.context, caller.userId);
    return { applications: { items, count: items.length }, clientPortalAppId: this.options.clientPortalAppId ?? null };
  }

  /** The roles of every application (or of one), for role pickers. */
  async roles(query: ApplicationRolesQuery): Promise<ApplicationRoles> {
    const { rows, count } = await listApplicationRoles(this.context.dataSource, toListQuery(query, APPLICATION_ROLE_SORT), query.applicationId ?? null);
    const items = rows.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      byHierarchy: r.by_hierarchy,
      applicationId: r.application_id,
      applicationName: r.application_name,
    }));
    return { items, count };
  }

  /** An application's icon, else the default one. */
  icon(appId: string): ReturnType<typeof applicationIcon> {
    return applicationIcon(this.context, appId);
  }
}
