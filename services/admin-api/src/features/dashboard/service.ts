import { AppError, GLOBAL_TENANT_ID, type AppContext } from '@gatehouse/core';
import {
  CONNECTED_WINDOW_MINUTES,
  EXTERNAL_API_DEFAULT_DAYS,
  LOGIN_CHART_HOURS,
  type AdminsPerApplication,
  type AdminsPerArea,
  type ConnectedPerApplication,
  type DashboardSummary,
  type ExternalApiAccessCount,
  type LoginsPerHour,
} from '@gatehouse/contracts';
import {
  countAdministratorsPerArea,
  countConnectedUsersPerApplication,
  countDirectory,
  countExternalApiAccess,
  countGlobalAdministratorsPerApplication,
  countSuccessfulSignInsPerHour,
  filtersExist,
} from './repository.js';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const DAY_MS = 24 * HOUR_MS;

/** The console's dashboard: the count tiles and the usage reports. */
export class DashboardService {
  constructor(
    private readonly context: AppContext,
    private readonly now: () => Date = () => new Date(),
  ) {}

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

  /** Successful sign-ins per UTC hour: the hour under way and the 8 before it, oldest first. */
  async loginsPerHour(): Promise<LoginsPerHour[]> {
    const now = this.now();
    const first = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (LOGIN_CHART_HOURS - 1) * HOUR_MS);
    const rows = await countSuccessfulSignInsPerHour(this.context.dataSource, first, LOGIN_CHART_HOURS, now);
    return rows.map((row) => ({ hour: row.hour.toISOString(), count: row.count }));
  }

  /** Global administrators per application (those with an Administrator role, even when nobody holds it). */
  adminsPerApplication(): Promise<AdminsPerApplication[]> {
    return countGlobalAdministratorsPerApplication(this.context.dataSource);
  }

  /**
   * Administrators per area: of the Global tenant, or whose Administrator role applies in `tenantId`;
   * of any application or of `applicationId`. An unknown tenant or application is a 404, not an
   * empty chart that would read as "nobody".
   */
  async adminsPerArea(filters: { tenantId?: string; applicationId?: string }): Promise<AdminsPerArea[]> {
    const db = this.context.dataSource;
    const tenantId = filters.tenantId ?? null;
    const applicationId = filters.applicationId ?? null;
    const rows = await countAdministratorsPerArea(db, tenantId ?? GLOBAL_TENANT_ID, applicationId);
    // Only an empty answer can come from an unknown filter (the query answers nothing for an
    // unknown tenant): checked then, not on every call.
    if (rows.length === 0 && (tenantId || applicationId)) {
      const exists = await filtersExist(db, tenantId, applicationId);
      if (!exists.tenant) throw new AppError('users.tenant_not_found', 404);
      if (!exists.application) throw new AppError('applications.not_found', 404);
    }
    return rows;
  }

  /** Distinct users per application to whom a token was issued in the last 30 minutes. */
  connectedPerApplication(): Promise<ConnectedPerApplication[]> {
    const now = this.now();
    return countConnectedUsersPerApplication(this.context.dataSource, new Date(now.getTime() - CONNECTED_WINDOW_MINUTES * MINUTE_MS), now);
  }

  /** Calls per external API entry in the range; by default the last 30 days up to now. */
  externalApiAccess(range: { startDate?: Date; endDate?: Date }): Promise<ExternalApiAccessCount[]> {
    const end = range.endDate ?? this.now();
    const start = range.startDate ?? new Date(end.getTime() - EXTERNAL_API_DEFAULT_DAYS * DAY_MS);
    // Both given, the contract refuses an end before the start; a start alone can still be after now.
    if (end < start) throw new AppError('errors.validation', 400, {}, [{ field: range.endDate ? 'endDate' : 'startDate', code: 'validation.invalid' }]);
    return countExternalApiAccess(this.context.dataSource, start, end);
  }
}
