import path from 'node:path';
import Router from '@koa/router';
import { BULK_OPERATION_REQUEST_PREFIXES } from '@gatehouse/contracts';
import { type AppContext } from '@gatehouse/core';
import { createBaseApp, koaJsonBody, koaSpa } from '@gatehouse/core/http';
import type Koa from 'koa';
import { createAdminContext, type AdminContext } from './admin-context.js';
import { accessTokenBearer, koaAdminAuth, type BearerVerifier } from './auth/koa-admin-auth.js';
import { personalAccessTokenBearer } from './auth/personal-access-token.js';
import { sessionTokenBearer } from './auth/session-token.js';
import { appRoleRoutes, applicationUserRoutes } from './features/app-roles/router.js';
import { applicationRoutes } from './features/applications/router.js';
import { samlApplicationRoutes } from './features/applications/saml-router.js';
import { clientRoutes } from './features/clients/router.js';
import { accountLockRoutes } from './features/account-lock/router.js';
import { areaRoutes } from './features/areas/router.js';
import { dashboardRoutes } from './features/dashboard/router.js';
import { koaExternalAuth } from './features/external/koa-external-auth.js';
import { externalRouter } from './features/external/router.js';
import { groupExcelRoutes } from './features/groups/excel/router.js';
import { groupRoutes, userGroupRoutes } from './features/groups/router.js';
import { identifyAsRoutes } from './features/identify-as/router.js';
import { keyRoutes } from './features/keys/router.js';
import { logRoutes } from './features/logs/router.js';
import { meRoutes } from './features/me/router.js';
import { notificationRoutes } from './features/notifications/router.js';
import { jobRoutes } from './features/jobs/router.js';
import { jobsViewLinkRoutes, jobsViewPageRoutes } from './features/jobs-view/router.js';
import { inspectorRouter } from './features/inspector/router.js';
import { bulkOperationRequestRoutes } from './features/operation-requests/bulk-router.js';
import { operationRequestRoutes } from './features/operation-requests/router.js';
import { rightsRequestRoutes } from './features/rights-requests/router.js';
import { scimRouter } from './features/scim/router.js';
import { scimTokenRoutes } from './features/scim/tokens-router.js';
import { securityConfigRouter } from './features/security-config/router.js';
import { configurationRouter } from './features/configuration/router.js';
import { serviceManagerRouter } from './features/service-manager/router.js';
import { tenantIdentityRoutes } from './features/tenant-identities/router.js';
import { tenantRoutes } from './features/tenants/router.js';
import { userExcelRoutes } from './features/users/excel/router.js';
import { userRoutes } from './features/users/router.js';
import { webhookRoutes } from './features/webhooks/router.js';
import { groupMembersImportJob } from './features/groups/excel/service.js';
import { adminReportHandler } from './features/jobs/admin-report.js';
import { runBackgroundJobs, type BackgroundJobs, type JobHandlers } from './features/jobs/runtime.js';
import { exportAuthenticationLogsHandler, exportSystemLogsHandler } from './features/logs/export.js';
import { bulkRequestsJob } from './features/operation-requests/bulk-import.js';
import { tenantRolesImportJob } from './features/tenant-identities/import.js';
import { exportMembersHandler, exportTenantsHandler } from './features/tenants/export.js';
import { changeUserNamesJob } from './features/users/excel/change-user-name.js';
import { bulkInsertUsersJob } from './features/users/excel/import.js';

/** Every route of the administration API lives under this prefix, behind bearer authentication. */
/**
 * The handler of every job type this product runs, made for one context. A handler answers either
 * a file (`{ fileUrl }`, the stored file's id) or an import result (`success`, `totalElements`,
 * `importedElements`, `errors`, `warnings`); the finished job's notification carries it. Kept here,
 * at the composition root: the jobs feature runs them and knows none of the features.
 */
export const jobHandlers: JobHandlers = {
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

/** Background jobs of this node, running every job type of the product: the queue's workers, their notifications, the purge of expired files. */
export function startBackgroundJobs(context: AdminContext, options: Parameters<typeof runBackgroundJobs>[2] = {}): Promise<BackgroundJobs> {
  return runBackgroundJobs(context, jobHandlers, options);
}

export const ADMIN_API_PREFIX = '/api/v1/admin';
/** Locking and unlocking accounts keep the spec's paths under /api/v1/account, with the same bearer authentication. */
export const ACCOUNT_LOCK_PATHS = ['/api/v1/account/lock', '/api/v1/account/unlock'];
/** The personal access tokens keep the spec's path, with the same bearer authentication. */
export const KEYS_API_PREFIX = '/api/v1/keys';
/** My Clients' bulk uploads keep the spec's paths under /api/v1/profile: they run as this service's jobs. */
export const BULK_REQUEST_PATHS: readonly string[] = BULK_OPERATION_REQUEST_PREFIXES;

/** The external API of business applications, authenticated by their own tokens (features/external). */
export const EXTERNAL_API_PREFIX = '/api/v1/external';

/** Whether a path belongs to the external API (and is authenticated first, as an application). */
export function isExternalApiPath(path: string): boolean {
  return path === EXTERNAL_API_PREFIX || path.startsWith(`${EXTERNAL_API_PREFIX}/`);
}

/** Whether a path belongs to the administration API (and is authenticated first). */
export function isAdminApiPath(path: string): boolean {
  return [ADMIN_API_PREFIX, ...ACCOUNT_LOCK_PATHS, KEYS_API_PREFIX, ...BULK_REQUEST_PATHS].some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

export interface AdminApiOptions {
  /** The admin console's build folder; defaults to frontends/admin/dist under the project root. */
  adminDist?: string;
  /**
   * Bearer token verifiers, tried in order; defaults to the provider's access tokens for the admin
   * API audience, personal access tokens and the portal's session tokens.
   */
  bearerVerifiers?: BearerVerifier[];
}

/** The administration API (`/api/v1/admin/*`, `/api/v1/keys`) and the admin console. */
export function createApp(appContext: AppContext | AdminContext, options: AdminApiOptions = {}): Koa {
  const context = createAdminContext(appContext);
  const app = createBaseApp(context);
  // Personal access tokens before portal tokens: both are opaque, but only PATs carry the prefix.
  const verifiers = options.bearerVerifiers ?? [
    accessTokenBearer(context.accessTokens),
    personalAccessTokenBearer(context),
    sessionTokenBearer(context),
  ];
  // Every admin API path is authenticated before anything else, bodies included: an anonymous
  // caller learns nothing, not even which routes exist.
  const auth = koaAdminAuth(verifiers, context.accountStates, context.dpop);
  // The one page a browser navigates to (the jobs view) has a cookie session of its own instead:
  // its router answers only GET on its path, anything else there falls through to the bearer check.
  app.use(jobsViewPageRoutes(context).routes());
  app.use((ctx, next) => (isAdminApiPath(ctx.path) ? auth(ctx, next) : next()));
  // The external API's callers are applications: their own tokens, checked as such before any body is read.
  const externalAuth = koaExternalAuth(context);
  app.use((ctx, next) => (isExternalApiPath(ctx.path) ? externalAuth(ctx, next) : next()));
  // SCIM provisioning (/scim/v2): its own tokens, bodies and error shape.
  app.use(scimRouter(context));
  app.use(koaJsonBody(context));
  for (const router of [adminRouter(context), accountRouter(context), externalRouter(context)]) app.use(router.routes()).use(router.allowedMethods());
  app.use(
    koaSpa({
      root: options.adminDist ?? path.join(context.config.rootDir, 'frontends/admin/dist'),
      basePath: '/admin',
      // A silent sign-in (prompt=none) comes back to the callback in a hidden frame of the console.
      framedBySelf: (p) => p === '/auth/callback',
    }),
  );
  return app;
}

/** Every feature's routes, each with its full path under ADMIN_API_PREFIX (authenticated by createApp before they run). */
export function adminRouter(context: AdminContext): Router {
  const admin = new Router();
  const features = [
    // Before the applications' routes: `PUT /applications/{id}/saml` is not a status.
    samlApplicationRoutes(context),
    applicationRoutes(context, { clientPortalAppId: context.config.portal.clientPortalAppId }),
    appRoleRoutes(context),
    applicationUserRoutes(context),
    areaRoutes(context),
    meRoutes(context),
    notificationRoutes(context),
    dashboardRoutes(context),
    identifyAsRoutes(context),
    jobRoutes(context),
    jobsViewLinkRoutes(context),
    // Fixed paths (users/export, groups/template/…) before the routers with `/:id` paths.
    userExcelRoutes(context),
    groupExcelRoutes(context),
    userRoutes(context),
    userGroupRoutes(context),
    groupRoutes(context),
    tenantRoutes(context),
    tenantIdentityRoutes(context),
    clientRoutes(context),
    bulkOperationRequestRoutes(context),
    rightsRequestRoutes(context),
    serviceManagerRouter(context),
    operationRequestRoutes(context),
    securityConfigRouter(context),
    configurationRouter(context),
    inspectorRouter(context),
    logRoutes(context),
    keyRoutes(context),
    webhookRoutes(context),
    scimTokenRoutes(context),
  ];
  for (const router of features) admin.use(router.routes(), router.allowedMethods());
  return admin;
}

/** `/api/v1/account/lock/{id}` and `/unlock/{id}` (authenticated by createApp like the admin API). */
export function accountRouter(context: AdminContext): Router {
  return accountLockRoutes(context);
}
