import type { AppContext, JobHandler, JobType } from '@gatehouse/core';
import { adminReportHandler } from './admin-report.js';

/**
 * The handler of every job type this product runs, made for one context. A handler answers either
 * a file (`{ fileUrl }`, the stored file's id) or an import result (`success`, `totalElements`,
 * `importedElements`, `errors`, `warnings`); the finished job's notification carries it.
 */
export const jobHandlers: Partial<Record<JobType, (context: AppContext) => JobHandler<never>>> = {
  AdminReport: adminReportHandler,
};
