import type { AppContext } from '@gatehouse/core';
import type { DashboardSummary } from '@gatehouse/contracts';
import { countDirectory } from './repository.js';

/** The console's dashboard. */
export class DashboardService {
  constructor(private readonly context: AppContext) {}

  /** The count tiles (spec: Dashboard summary). */
  async summary(): Promise<DashboardSummary> {
    const counts = await countDirectory(this.context.dataSource);
    return {
      usersCount: counts.users,
      groupsCount: counts.groups,
      appsCount: counts.apps,
      areasCount: counts.areas,
      tenantsCount: counts.tenants,
    };
  }
}
