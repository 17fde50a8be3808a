import type { AppContext, JobHandler, JobType } from '@gatehouse/core';
import { groupMembersImportJob } from '../groups/excel/service.js';
import { exportAuthenticationLogsHandler, exportSystemLogsHandler } from '../logs/export.js';
import { bulkRequestsJob } from '../operation-requests/bulk-import.js';
import { tenantRolesImportJob } from '../tenant-identities/import.js';
import { exportMembersHandler, exportTenantsHandler } from '../tenants/export.js';
import { changeUserNamesJob } from '../users/excel/change-user-name.js';
import { bulkInsertUsersJob } from '../users/excel/import.js';
import { adminReportHandler } from './admin-report.js';

/**
 * The handler of every job type this product runs, made for one context. A handler answers either
 * a file (`{ fileUrl }`, the stored file's id) or an import result (`success`, `totalElements`,
 * `importedElements`, `errors`, `warnings`); the finished job's notification carries it.
 */
export const jobHandlers: Partial<Record<JobType, (context: AppContext) => JobHandler<never>>> = {
  AdminReport: adminReportHandler,
  ExportTenants: exportTenantsHandler,
  ExportMembers: exportMembersHandler,
  ExportAuthenticationLogs: exportAuthenticationLogsHandler,
  ExportSystemLogs: exportSystemLogsHandler,
  BulkInsertUsers: bulkInsertUsersJob,
  BulkChangeUsernameEmail: changeUserNamesJob,
  BulkInsertGroupMembers: groupMembersImportJob,
  BulkInsertUsersWithTenant: (context) => tenantRolesImportJob(context, 'users'),
  BulkInsertGroupsWithTenant: (context) => tenantRolesImportJob(context, 'groups'),
  BulkInsertPermisionRequestForTenant: (context) => bulkRequestsJob(context, 'requests'),
  BulkInsertUserAndPermisionRequestForTenant: (context) => bulkRequestsJob(context, 'fullUsers'),
};
