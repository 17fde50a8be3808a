import { BULK_OPERATION_REQUEST_PREFIXES } from '@gatehouse/contracts';
export { createAdminContext, type AdminContext } from './admin-context.js';
export { createApp, startBackgroundJobs, type AdminApiOptions } from './app.js';
export { startLogRetention, type LogRetention } from './features/logs/retention.js';
export { attachNotificationHub, type NotificationHub } from './features/notifications/hub.js';
export { announceProcess, notify, type NewNotification } from './features/notifications/notify.js';
export { type BackgroundJobs } from './features/jobs/runtime.js';
/** Path prefixes this service answers when several services share one origin. */
export const ROUTE_PREFIXES = [
  '/api/v1/admin',
  '/api/v1/keys',
  '/api/v1/account/lock',
  '/api/v1/account/unlock',
  // The external API of business applications.
  '/api/v1/external',
  // SCIM provisioning.
  '/scim/v2',
  // My Clients' bulk uploads, under the profile API's prefix as the spec names them.
  ...BULK_OPERATION_REQUEST_PREFIXES,
  '/admin',
  '/hubs/notifications',
];
