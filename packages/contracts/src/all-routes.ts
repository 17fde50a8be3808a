import { appRolesRoutes, applicationUsersRoutes } from './admin/app-roles.js';
import { applicationsRoutes } from './admin/applications.js';
import { areasRoutes } from './admin/areas.js';
import { dashboardRoutes } from './admin/dashboard.js';
import { fileStorageRoutes } from './admin/files.js';
import { groupsRoutes } from './admin/groups.js';
import { keysRoutes } from './admin/keys.js';
import { logsRoutes } from './admin/logs.js';
import { inspectorRoutes } from './admin/inspector.js';
import { jobsViewRoutes } from './admin/jobs.js';
import { meRoutes } from './admin/me.js';
import { notificationsRoutes } from './admin/notifications.js';
import { rightsRequestsRoutes } from './admin/rights-requests.js';
import { operationRequestsRoutes } from './admin/operation-requests.js';
import { bulkOperationRequestsRoutes } from './admin/bulk-operation-requests.js';
import { serviceManagerRoutes } from './admin/service-manager.js';
import { clientsRoutes } from './admin/clients.js';
import { securityConfigRoutes } from './admin/security-config.js';
import { configurationRoutes } from './admin/configuration.js';
import { webhooksRoutes } from './admin/webhooks.js';
import { scimTokensRoutes } from './admin/scim-tokens.js';
import { samlApplicationsRoutes } from './admin/saml-applications.js';
import { tenantIdentitiesRoutes, tenantsRoutes } from './admin/tenants.js';
import { usersRoutes } from './admin/users.js';
import { externalLoginRoutes } from './account/external-login.js';
import { samlRoutes } from './account/saml.js';
import { identifyAsRoutes } from './account/identify-as.js';
import { signInRoutes } from './account/sign-in.js';
import { docsRoutes } from './docs.js';
import { externalRoutes } from './external.js';
import { portalApplicationsRoutes } from './portal/applications.js';
import { avatarRoutes } from './portal/avatar.js';
import { configRoutes } from './portal/config.js';
import { disclaimersRoutes } from './portal/disclaimers.js';
import { myDataRoutes } from './portal/my-data.js';
import { profileRoutes } from './portal/profile.js';
import { rightsRoutes } from './portal/rights.js';
import { securityRoutes } from './portal/security.js';
import type { RouteContract } from './route.js';

/** Every route the product serves: what the API document lists and what the servers must bind. */
export const ALL_ROUTES: readonly RouteContract[] = [
  usersRoutes,
  groupsRoutes,
  tenantsRoutes,
  tenantIdentitiesRoutes,
  areasRoutes,
  samlApplicationsRoutes,
  applicationsRoutes,
  meRoutes,
  dashboardRoutes,
  rightsRequestsRoutes,
  operationRequestsRoutes,
  bulkOperationRequestsRoutes,
  serviceManagerRoutes,
  clientsRoutes,
  securityConfigRoutes,
  configurationRoutes,
  webhooksRoutes,
  scimTokensRoutes,
  inspectorRoutes,
  logsRoutes,
  notificationsRoutes,
  fileStorageRoutes,
  jobsViewRoutes,
  keysRoutes,
  appRolesRoutes,
  applicationUsersRoutes,
  signInRoutes,
  externalLoginRoutes,
  samlRoutes,
  identifyAsRoutes,
  profileRoutes,
  securityRoutes,
  rightsRoutes,
  portalApplicationsRoutes,
  configRoutes,
  disclaimersRoutes,
  avatarRoutes,
  myDataRoutes,
  docsRoutes,
  externalRoutes,
].flatMap((routes) => Object.values(routes as Record<string, RouteContract>));
