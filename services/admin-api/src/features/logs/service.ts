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
import type { Context } from 'koa';
import type { Readable } from 'node:stream';
import type { CallerScope } from '../../auth/scope.js';
import { EXPORT_BATCH_SIZE, SYSTEM_COLUMNS, authenticationColumns, streamLogExport, type ExportColumn } from './export.js';
import {
  authenticationLogs,
  countLogs,
  externalApiAccessLogs,
  listLogs,
  logBatch,
  sessionLogs,
  systemLogs,
  type LogFilter,
} from './repository.js';

type Page<T> = Promise<{ items: T[]; count: number }>;
/** A list query without its page: what an export takes. */
type Unpaged<Q> = Omit<Q, 'skip' | 'top'>;

/**
 * A range whose end comes before its start selects nothing: that is a mistake to say, not an
 * empty list. Equal ends are a range of one second (or one day).
 */
function assertRange(query: { startDate?: LogInstant; endDate?: LogInstant }): void {
  if (query.startDate && query.endDate && query.endDate.until.getTime() <= query.startDate.from.getTime()) {
    throw new AppError('errors.validation', 400, {}, [{ field: 'endDate', code: 'logs.end_before_start' }]);
  }
}

/** The Logs page: the four logs, filtered within the caller's areas, and the exports of two. */
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

  /** AuthenticationLogs.xlsx: the sign-in attempts the filters select, in the list's order. */
  async exportAuthentication(ctx: Context, scope: CallerScope, query: Unpaged<AuthenticationLogQuery>, language: string): Promise<Readable> {
    const filter = this.filter(scope, query);
    await this.assertExportable(countLogs(this.db, authenticationLogs, filter));
    return this.stream(ctx, language, 'authentication', authenticationColumns(this.context, language), (after) =>
      logBatch(this.db, authenticationLogs, filter, after, EXPORT_BATCH_SIZE),
    );
  }

  /** SystemLogs.xlsx: the administrative changes the filters select, in the list's order. */
  async exportSystem(ctx: Context, scope: CallerScope, query: Unpaged<SystemLogQuery>, language: string): Promise<Readable> {
    const filter = this.filter(scope, query);
    await this.assertExportable(countLogs(this.db, systemLogs, filter));
    return this.stream(ctx, language, 'system', SYSTEM_COLUMNS, (after) => logBatch(this.db, systemLogs, filter, after, EXPORT_BATCH_SIZE));
  }

  /** An export holds at most LOG_EXPORT_MAX_ROWS rows: more is refused, naming both numbers, before anything is written. */
  private async assertExportable(counting: Promise<number>): Promise<void> {
    const count = await counting;
    if (count > LOG_EXPORT_MAX_ROWS) throw new AppError('logs.export_too_large', 400, { count, max: LOG_EXPORT_MAX_ROWS });
  }

  private stream<R>(
    ctx: Context,
    language: string,
    kind: 'authentication' | 'system',
    columns: Array<ExportColumn<R>>,
    read: Parameters<typeof streamLogExport<R>>[1]['read'],
  ): Promise<Readable> {
    const t = (key: string) => this.context.i18n.t(`logs.export.${key}`, { lng: language }) as string;
    return streamLogExport(ctx, {
      sheetName: t(`${kind}_sheet`),
      header: (key) => t(`${kind}_columns.${key}`),
      columns,
      read,
      batchSize: EXPORT_BATCH_SIZE,
    });
  }
}
