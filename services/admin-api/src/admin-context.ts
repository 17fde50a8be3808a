import { RateLimit, type AppContext, type JobQueue, type WebhookDeliverer } from '@gatehouse/core';
import { Mailer } from '@gatehouse/core/mail';
import { ADMIN_API_SCOPE, AccessTokenVerifier } from './auth/access-token.js';
import { AccountStates } from './auth/account-state.js';
import type { HubEmitter } from './features/notifications/notify.js';

/**
 * The administration API's context: the application context and what its routes, jobs and
 * notification hub share on this node. Built once (by the launcher, or by `createApp` when given a
 * bare application context) and handed down; no feature keeps a service of its own per context.
 */
export interface AdminContext extends AppContext {
  /**
   * Mails of the administration API. Its retry worker is not started: mails go to the shared
   * outbox and are sent at once when SMTP is configured, and the provider's worker retries failures.
   */
  readonly mailer: Mailer;
  /** Admin API access tokens: one key cache and one `keys.changed` listener. */
  readonly accessTokens: AccessTokenVerifier;
  /** Whether a caller's account is active now: one cache and one `user.changed` listener. */
  readonly accountStates: AccountStates;
  /** The external API's per-node count of calls per caller. */
  readonly externalRateLimit: RateLimit;
  /** This node's job queue, set while its background jobs run (`startBackgroundJobs`). */
  readonly jobs: { queue?: JobQueue };
  /** This node's notification hub, set while it is attached (`attachNotificationHub`). */
  readonly notifications: { hub?: HubEmitter };
  /** This node's webhook deliverer, set while its background jobs run. */
  readonly webhooks: { deliverer?: WebhookDeliverer };
}

const ADMIN = Symbol('admin context');

/**
 * Whether `context` is an admin context as built. A copy with a field replaced (`{ ...admin,
 * broadcast }`) is not: its services still listen to the original's broadcast and cache, so it
 * gets services of its own.
 */
export function isAdminContext(context: AppContext): context is AdminContext {
  return (context as Partial<Record<typeof ADMIN, unknown>>)[ADMIN] === context;
}

/** The administration API's context over `context` (answered as is when it is one already). */
export function createAdminContext(context: AppContext): AdminContext {
  if (isAdminContext(context)) return context;
  const admin: AdminContext & Partial<Record<typeof ADMIN, AdminContext>> = {
    ...context,
    mailer: new Mailer(context),
    accessTokens: new AccessTokenVerifier(context, { requiredScope: ADMIN_API_SCOPE }),
    accountStates: new AccountStates(context),
    externalRateLimit: new RateLimit({
      name: 'external-api',
      points: context.config.security.externalApiRequestsPerMinute,
      durationSeconds: 60,
      redis: context.redis,
      logger: context.logger,
      namespace: `${context.config.redis.keyPrefix}:${context.config.server.publicUrl}`,
    }),
    jobs: {},
    notifications: {},
    webhooks: {},
  };
  admin[ADMIN] = admin;
  return admin;
}
