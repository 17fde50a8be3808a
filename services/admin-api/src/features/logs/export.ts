import { logsRoutes, type AuthenticationLog, type SystemLog } from '@gatehouse/contracts';
import type { AppContext, JobHandler } from '@gatehouse/core';
import { exportJob, type ExportColumn, type ExportSheet } from '../jobs/exports.js';
import { LogsService, type LogExportRows } from './service.js';
import type { AdminContext } from '../../admin-context.js';

/** The columns of AuthenticationLogs.xlsx; results as the console names them (FullUserLocked: "Permanent lock"). */
export function authenticationColumns(context: AppContext, language: string): Array<ExportColumn<AuthenticationLog>> {
  const result = (value: AuthenticationLog['result']) => context.i18n.t(`logs.export.results.${value}`, { lng: language }) as string;
  return [
    { key: 'date', width: 20, value: (l) => new Date(l.date), date: true },
    { key: 'userName', width: 32, value: (l) => l.userName },
    { key: 'result', width: 16, value: (l) => result(l.result) },
    { key: 'provider', width: 12, value: (l) => l.authenticationProvider },
    { key: 'reason', width: 40, value: (l) => l.reason },
    { key: 'applicationName', width: 20, value: (l) => l.applicationName },
    { key: 'returnUrl', width: 40, value: (l) => l.returnUrl },
    { key: 'ip', width: 16, value: (l) => l.ip },
    { key: 'userAgent', width: 40, value: (l) => l.userAgent },
  ];
}

/** The columns of SystemLogs.xlsx; the metadata as JSON text. */
export const SYSTEM_COLUMNS: Array<ExportColumn<SystemLog>> = [
  { key: 'date', width: 20, value: (l) => new Date(l.date), date: true },
  { key: 'userName', width: 32, value: (l) => l.userName },
  { key: 'tenantName', width: 28, value: (l) => l.tenantName },
  { key: 'operation', width: 24, value: (l) => l.operation },
  { key: 'metadata', width: 80, value: (l) => JSON.stringify(l.metadata) },
];

/** The pages of an export's logs, each log one row of the sheet. */
async function* singleRows<I>(rows: LogExportRows<I>): AsyncGenerator<I[][]> {
  for await (const page of rows.pages()) yield page.map((item) => [item]);
}

/** A log export's sheet: its name and headers in `language`, its columns, and its rows a page at a time. */
function logSheet<I>(context: AppContext, language: string, kind: 'authentication' | 'system', columns: Array<ExportColumn<I>>, rows: LogExportRows<I>): Omit<ExportSheet<I>, 'fileName'> {
  const t = (key: string) => context.i18n.t(`logs.export.${key}`, { lng: language }) as string;
  return { sheetName: t(`${kind}_sheet`), header: (key) => t(`${kind}_columns.${key}`), columns, total: rows.count, pages: singleRows(rows) };
}

/**
 * The ExportAuthenticationLogs job: AuthenticationLogs.xlsx, the sign-in attempts the filters
 * select in the list's order, within the requester's areas as they are when it runs.
 */
export function exportAuthenticationLogsHandler(context: AdminContext): JobHandler {
  const service = new LogsService(context);
  return exportJob(context, logsRoutes.authenticationExport, async ({ scope, query, language }) => ({
    fileName: 'AuthenticationLogs.xlsx',
    ...logSheet(context, language, 'authentication', authenticationColumns(context, language), await service.authenticationExport(scope, query)),
  }));
}

/** The ExportSystemLogs job: SystemLogs.xlsx, the administrative changes the filters select, within the requester's areas. */
export function exportSystemLogsHandler(context: AdminContext): JobHandler {
  const service = new LogsService(context);
  return exportJob(context, logsRoutes.systemExport, async ({ scope, query, language }) => ({
    fileName: 'SystemLogs.xlsx',
    ...logSheet(context, language, 'system', SYSTEM_COLUMNS, await service.systemExport(scope, query)),
  }));
}
