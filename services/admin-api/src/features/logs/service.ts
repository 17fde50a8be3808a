import {
  LOG_EXPORT_MAX_ROWS,
  type AuthenticationLog,
  type AuthenticationLogQuery,
  type ExternalApiAccessLog,
  type ExternalApiAccessLogQuery,
  type LogInstant,
  type SessionLog,
  type SessionLogQuery,
  type SystemLog,
  type SystemLogQuery,
} from '@gatehouse/contracts';
import { AppError, type AppContext } from '@gatehouse/core';
import type { CallerScope } from '../../auth/scope.js';
import { keysetPages } from '../jobs/exports.js';
import {
  authenticationLogs,
  countLogs,
  externalApiAccessLogs,
  listLogs,
  logBatch,
  sessionLogs,
  systemLogs,
  type LogCursor,
  type LogFilter,
} from './repository.js';

type Page<T> = Promise<{ items: T[]; count: number }>;
/** A list query without its page: what an export takes. */
type Unpaged<Q> = Omit<Q, 'skip' | 'top'>;

/** What an export writes: how many rows, and the rows a page at a time. */
export interface LogExportRows<I> {
  count: number;
  pages: () => AsyncGenerator<I[]>;
}

/**
 * A range whose end comes before its start selects nothing: that is a mistake to say, not an
 * empty list. Equal ends are a range of one second (or one day).
 */
function assertRange(query: { startDate?: LogInstant; endDate?: LogInstant }): void {
  if (query.startDate && query.endDate && query.endDate.until.getTime() <= query.startDate.from.getTime()) {
    throw new AppError('errors.validation', 400, {}, [{ field: 'endDate', code: 'logs.end_before_start' }]);
  }
}

/** The Logs page: the four logs, filtered within the caller's areas, and the rows of the exports of two. */
export class LogsService {
  constructor(private readonly context: AppContext) {}

  private get db() {
    return this.context.dataSource;
  }

  private filter<Q extends { startDate?: LogInstant; endDate?: LogInstant }>(scope: CallerScope, query: Q): LogFilter<Q> {
    assertRange(query);
    return { query, areaIds: scope.areaIds };
  }

  authentication(scope: CallerScope, query: AuthenticationLogQuery): Page<AuthenticationLog> {
    return listLogs(this.db, authenticationLogs, this.filter(scope, query), query);
  }

  system(scope: CallerScope, query: SystemLogQuery): Page<SystemLog> {
    return listLogs(this.db, systemLogs, this.filter(scope, query), query);
  }

  session(scope: CallerScope, query: SessionLogQuery): Page<SessionLog> {
    return listLogs(this.db, sessionLogs, this.filter(scope, query), query);
  }

  externalApiAccess(scope: CallerScope, query: ExternalApiAccessLogQuery): Page<ExternalApiAccessLog> {
    return listLogs(this.db, externalApiAccessLogs, this.filter(scope, query), query);
  }

  /** The sign-in attempts an export of these filters holds, in the list's order. */
  async authenticationExport(scope: CallerScope, query: Unpaged<AuthenticationLogQuery>): Promise<LogExportRows<AuthenticationLog>> {
    const filter = this.filter(scope, query);
    return this.exportRows(countLogs(this.db, authenticationLogs, filter), (after, size) => logBatch(this.db, authenticationLogs, filter, after, size));
  }

  /** The administrative changes an export of these filters holds, in the list's order. */
  async systemExport(scope: CallerScope, query: Unpaged<SystemLogQuery>): Promise<LogExportRows<SystemLog>> {
    const filter = this.filter(scope, query);
    return this.exportRows(countLogs(this.db, systemLogs, filter), (after, size) => logBatch(this.db, systemLogs, filter, after, size));
  }

  /** An export holds at most LOG_EXPORT_MAX_ROWS rows: more is refused, naming both numbers, before anything is written. */
  private async exportRows<I>(counting: Promise<number>, read: (after: LogCursor | null, size: number) => Promise<Array<{ item: I; cursor: LogCursor }>>): Promise<LogExportRows<I>> {
    const count = await counting;
    if (count > LOG_EXPORT_MAX_ROWS) throw new AppError('logs.export_too_large', 400, { count, max: LOG_EXPORT_MAX_ROWS });
    return { count, pages: () => keysetPages(read) };
  }
}
