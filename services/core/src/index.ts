// `@gatehouse/core`: the domain both services share (configuration, context, database, entities,
// errors, translations, security, roles, events). The Koa kit is `@gatehouse/core/http`, the mail
// outbox `@gatehouse/core/mail`, the bootstrap file `@gatehouse/core/bootstrap`.
export * from './applications/icons.js';
export * from './applications/launcher.js';
export * from './config/index.js';
export * from './context.js';
export * from './db/data-source.js';
export * from './db/embedded.js';
export * from './db/migrate.js';
export * from './db/sql-client.js';
export * from './domain/constants.js';
export * from './domain/application-protocol.js';
export * from './entities/index.js';
export * from './errors/index.js';
export * from './events/broadcast.js';
export * from './http/list-query.js';
export * from './http/metrics.js';
export * from './http/validation.js';
export * from './i18n/index.js';
export * from './jobs/index.js';
export * from './logging/audit.js';
export * from './logging/logger.js';
export * from './webhooks/index.js';
export * from './roles/effective-roles.js';
export * from './security/factors.js';
export * from './security/identify-as.js';
export * from './security/lockout.js';
export * from './security/password-policy.js';
export * from './security/passwords.js';
export * from './security/rate-limit.js';
export * from './security/recovery-codes.js';
export * from './security/secret-box.js';
export * from './security/settings.js';
export * from './security/signing-keys.js';
export * from './security/throttle.js';
export * from './security/totp.js';
export * from './security/user-tokens.js';
