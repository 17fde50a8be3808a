import { z } from 'zod';

/**
 * Every configuration key: where it comes from, its default and what it means. The loader, the
 * validation messages and the README's configuration table are all derived from this list.
 */
export interface ConfigKey {
  /** Dotted path in the YAML files and in the resulting object. */
  key: string;
  /** Environment variable that overrides the files. */
  env: string;
  schema: z.ZodType;
  /** Shown in the README; `undefined` means "unset". */
  defaultText?: string;
  description: string;
}

const boolFromString = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => ['true', '1', 'yes'].includes(v)),
]);
const commaList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((d) => d.trim().toLowerCase()).filter(Boolean) : v),
  z.array(z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'expected domain names such as example.com')),
);
const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const url = z.url({ protocol: /^https?$/ });
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
// msal-node and Entra ID need TLS; plain http is only for an authority on this machine (tests).
const authorityUrl = url.refine((v) => {
  const parsed = new URL(v);
  return parsed.protocol === 'https:' || LOOPBACK_HOSTS.has(parsed.hostname);
}, 'expected an https:// URL (http:// only on a loopback address)');

export const CONFIG_KEYS: ConfigKey[] = [
  { key: 'nodeEnv', env: 'NODE_ENV', schema: z.enum(['development', 'production', 'test']).default('development'), defaultText: 'development', description: 'Runtime mode. `production` requires an explicit encryption key.' },
  { key: 'server.port', env: 'PORT', schema: port.default(3000), defaultText: '3000', description: 'Port the HTTP server listens on (0 picks a free one).' },
  { key: 'server.host', env: 'HOST', schema: z.string().min(1).default('127.0.0.1'), defaultText: '127.0.0.1', description: 'Address the HTTP server binds to; `0.0.0.0` in a container.' },
  { key: 'server.publicUrl', env: 'PUBLIC_URL', schema: optional(url), defaultText: 'http://localhost:{port}', description: 'Address users reach the product at; a path (`https://example.com/identity`) mounts everything under it. The OIDC issuer and links in mails derive from it.' },
  { key: 'server.trustProxy', env: 'TRUST_PROXY', schema: boolFromString.default(false), defaultText: 'false', description: 'Trust `X-Forwarded-*` headers (behind a reverse proxy or ingress).' },
  { key: 'server.bodyLimit', env: 'BODY_LIMIT', schema: z.string().regex(/^\d+(b|kb|mb)$/i, 'expected a size such as 1mb or 512kb').default('1mb'), defaultText: '1mb', description: 'Largest JSON or form body accepted; larger requests get 413.' },
  { key: 'server.shutdownTimeoutMs', env: 'SHUTDOWN_TIMEOUT_MS', schema: positiveInt.default(10000), defaultText: '10000', description: 'How long a stop (SIGTERM) may take: requests in flight get this less up to 2 s (a fifth at most) for closing the rest.' },
  { key: 'database.url', env: 'DATABASE_URL', schema: optional(z.string().regex(/^postgres(ql)?:\/\//, 'expected a postgres:// URL')), description: 'PostgreSQL connection URL. Unset: an embedded PostgreSQL (PGlite) runs in-process.' },
  { key: 'database.poolSize', env: 'DATABASE_POOL_SIZE', schema: positiveInt.max(200).default(10), defaultText: '10', description: 'Connections in the pool of each service.' },
  { key: 'database.connectTimeoutMs', env: 'DATABASE_CONNECT_TIMEOUT_MS', schema: positiveInt.max(600_000).default(10_000), defaultText: '10000', description: 'Longest wait for a database connection (a new one, or a free one of the pool); past it the request answers 503 with Retry-After.' },
  { key: 'database.statementTimeoutMs', env: 'DATABASE_STATEMENT_TIMEOUT_MS', schema: positiveInt.max(3_600_000).default(30_000), defaultText: '30000', description: "Longest a statement may run (PostgreSQL's `statement_timeout`), a transaction may stay idle, and the driver waits for the database's answer; past it the statement fails and the request answers 503 with Retry-After. Migrations are not bounded." },
  { key: 'database.dataDir', env: 'DATA_DIR', schema: z.string().min(1).default('./data'), defaultText: './data', description: 'Folder of the embedded database and of the generated development encryption key.' },
  { key: 'database.embeddedPort', env: 'EMBEDDED_DB_PORT', schema: port.default(0), defaultText: '0', description: 'Loopback port the embedded database is served on (0 picks a free one).' },
  { key: 'redis.url', env: 'REDIS_URL', schema: optional(z.string().regex(/^rediss?:\/\//, 'expected a redis:// URL')), description: 'Redis for rate limits, cache invalidations and live notifications shared by several nodes. Unset: in-process (each node reaches its own consoles only).' },
  { key: 'redis.keyPrefix', env: 'REDIS_KEY_PREFIX', schema: z.string().regex(/^[\w.-]{1,64}$/, 'expected letters, digits, dots, dashes or underscores').default('gatehouse'), defaultText: '`gatehouse`', description: 'First part of every Redis key and channel this deployment uses (rate limits, job queues, live notifications, cache invalidations), before its public URL: two deployments sharing one Redis keep apart by their URLs, or by this.' },
  { key: 'redis.commandTimeoutMs', env: 'REDIS_COMMAND_TIMEOUT_MS', schema: positiveInt.max(60_000).default(1000), defaultText: '1000', description: "Longest wait for Redis's answer to a command; past it the rate limits count in the node's memory and `/health/ready` answers 503. A connection that stays silent for three times this is opened again." },
  { key: 'mail.smtpUrl', env: 'SMTP_URL', schema: optional(z.string().regex(/^smtps?:\/\//, 'expected an smtp:// or smtps:// URL')), description: 'SMTP server mails are sent through, with retries. Unset: mails are kept in the outbox table (and, in development, printed).' },
  { key: 'mail.from', env: 'MAIL_FROM', schema: z.string().min(3).default('Gatehouse <no-reply@gatehouse.local>'), defaultText: 'Gatehouse <no-reply@gatehouse.local>', description: 'Sender of every mail.' },
  { key: 'mail.dataProtectionEmail', env: 'DATA_PROTECTION_EMAIL', schema: optional(z.email()), description: 'Address the data-protection rights requests of the portal are mailed to: a summary, the identification documents staying in the product. Unset: requests are only stored, for Administrators to read in the administration API.' },
  { key: 'log.level', env: 'LOG_LEVEL', schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'), defaultText: 'info', description: 'Minimum level of the logs. Requests to `/health/*` and `/metrics` are logged at `debug`.' },
  { key: 'log.format', env: 'LOG_FORMAT', schema: z.enum(['auto', 'json', 'pretty']).default('auto'), defaultText: 'auto', description: '`json`: one JSON object per line, for a log collector. `pretty`: one readable line per entry (time, level, message). `auto`: pretty when the standard output is a terminal, JSON otherwise.' },
  { key: 'logs.retentionDays', env: 'LOG_RETENTION_DAYS', schema: z.coerce.number().int().min(0).max(36500).default(365), defaultText: '365', description: 'Days the rows of the Logs page (authentication, system, session and external API access logs) are kept; older ones are deleted in batches by the admin API. 0 keeps them forever.' },
  { key: 'logs.purgeIntervalMs', env: 'LOG_PURGE_INTERVAL_MS', schema: positiveInt.min(1000).default(3600000), defaultText: '3600000', description: 'How often the admin API deletes the log rows older than the retention; with several nodes, one deletes at a time.' },
  { key: 'jobs.expireSeconds', env: 'JOB_EXPIRE_SECONDS', schema: positiveInt.min(1).max(86400).default(900), defaultText: '900', description: 'Longest run of one attempt of a background job (reports, imports, exports); a job whose process stopped mid-run is tried again after it, up to three attempts.' },
  { key: 'files.lifetimeDays', env: 'FILE_LIFETIME_DAYS', schema: positiveInt.min(1).max(3650).default(7), defaultText: '7', description: 'Days the files produced by background jobs (reports, exports) can be downloaded; expired files are deleted by the admin API.' },
  { key: 'files.purgeIntervalMs', env: 'FILE_PURGE_INTERVAL_MS', schema: positiveInt.min(1000).default(3600000), defaultText: '3600000', description: 'How often the admin API deletes the expired files of background jobs.' },
  { key: 'metrics.token', env: 'METRICS_TOKEN', schema: optional(z.string().min(16, 'must be at least 16 characters')), description: 'Bearer token `/metrics` requires on the public port (`Authorization: Bearer <token>`). Unset: the public port serves `/metrics` to anyone in development and test, and not at all (404) when `NODE_ENV` is `production`.' },
  { key: 'metrics.port', env: 'METRICS_PORT', schema: optional(port), description: 'A second port, on 127.0.0.1 only, that serves `/metrics` (and nothing else) without a token, to a scraper or agent on the same machine; 0 picks a free one. Unset: no such port.' },
  { key: 'tracing.otlpEndpoint', env: 'OTEL_EXPORTER_OTLP_ENDPOINT', schema: optional(url), description: 'OpenTelemetry collector that receives traces over OTLP/HTTP (JSON), posted to `<endpoint>/v1/traces`: a span per request, sign-in step, database statement and background job. The standard `OTEL_*` variables apply (`OTEL_SERVICE_NAME`, default `gatehouse`, `gatehouse-idp` or `gatehouse-admin-api` by the services run; `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_TRACES_SAMPLER`, …). Unset (and `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` unset): no tracing.' },
  { key: 'tracing.otlpTracesEndpoint', env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', schema: optional(url), description: 'The full address spans are posted to (OTLP/HTTP), used as given; wins over `OTEL_EXPORTER_OTLP_ENDPOINT`, as the OpenTelemetry specification says.' },
  { key: 'tracing.disabled', env: 'OTEL_SDK_DISABLED', schema: boolFromString.default(false), defaultText: 'false', description: 'Turns tracing off whatever endpoint is set (the OpenTelemetry SDK switch).' },
  { key: 'security.encryptionKey', env: 'IDP_ENCRYPTION_KEY', schema: optional(z.string().refine((v) => Buffer.from(v, 'base64').length === 32, 'expected 32 bytes in base64')), description: 'Key that encrypts signing keys and client secrets at rest (32 bytes, base64). Unset outside production: generated once into the data folder.' },
  { key: 'oidc.issuer', env: 'OIDC_ISSUER', schema: optional(url), defaultText: '{publicUrl}/oidc', description: 'Issuer identifier of the OpenID provider.' },
  { key: 'oidc.adminApiAudience', env: 'ADMIN_API_AUDIENCE', schema: optional(url), defaultText: '{publicUrl}/api/v1/admin', description: 'Resource indicator (audience) of the admin API; its access tokens are JWTs.' },
  { key: 'oidc.externalApiAudience', env: 'EXTERNAL_API_AUDIENCE', schema: optional(url), defaultText: '{publicUrl}/api/v1/external', description: 'Resource indicator (audience) of the external API: business applications get JWTs for it through `client_credentials`.' },
  { key: 'oidc.sweepIntervalMs', env: 'OIDC_SWEEP_INTERVAL_MS', schema: positiveInt.default(600000), defaultText: '600000', description: 'How often expired sessions, codes and tokens are deleted.' },
  { key: 'oidc.allowPrivateNetworkRequests', env: 'OIDC_ALLOW_PRIVATE_NETWORK', schema: boolFromString.default(false), defaultText: 'false', description: 'Let the provider call applications on private or loopback addresses (back-channel logout); off, such calls are refused as SSRF protection.' },
  { key: 'oidc.portalClientId', env: 'PORTAL_CLIENT_ID', schema: z.string().min(1).default('portal'), defaultText: 'portal', description: 'client_id of the portal SPA (declared in the bootstrap file).' },
  { key: 'oidc.adminClientId', env: 'ADMIN_CLIENT_ID', schema: z.string().min(1).default('admin-console'), defaultText: 'admin-console', description: 'client_id of the admin console SPA (declared in the bootstrap file).' },
  { key: 'signIn.groupDomains', env: 'GROUP_EMAIL_DOMAINS', schema: commaList.default([]), defaultText: '', description: "Comma-separated e-mail domains of the group's own staff: they must sign in with Microsoft, never with a password. The default of the `GroupDomains` security configuration, which a God user can change at run time." },
  { key: 'signIn.groupDomainFragment', env: 'GROUP_DOMAIN_FRAGMENT', schema: optional(z.string().min(3)), description: 'A fragment (the Spanish group domain) that, found in a user name, also requires the Microsoft sign-in. The default of the `GroupDomains` security configuration.' },
  { key: 'microsoft.tenantId', env: 'ENTRA_TENANT_ID', schema: optional(z.guid('expected the directory (tenant) ID, a GUID')), description: "Directory (tenant) ID of the group's Entra ID. With the client ID and one credential it turns on the Microsoft sign-in; unset, the sign-in and its button are off." },
  { key: 'microsoft.clientId', env: 'ENTRA_CLIENT_ID', schema: optional(z.guid('expected the application (client) ID, a GUID')), description: 'Application (client) ID of the Entra app registration, whose Web redirect URI must be `{publicUrl}/api/v1/account/externalLogin/callback`.' },
  { key: 'microsoft.clientSecret', env: 'ENTRA_CLIENT_SECRET', schema: optional(z.string().min(1)), description: 'Client secret of the app registration. Set either this or the certificate (thumbprint and key file).' },
  { key: 'microsoft.certificateThumbprint', env: 'ENTRA_CERT_THUMBPRINT', schema: optional(z.string().regex(/^([0-9a-f]{40}|[0-9a-f]{64})$/i, 'expected the hex SHA-1 (40) or SHA-256 (64) thumbprint')), description: 'Thumbprint of the certificate uploaded to the app registration, instead of a client secret.' },
  { key: 'microsoft.certificateKeyFile', env: 'ENTRA_CERT_KEY_FILE', schema: optional(z.string().min(1)), description: 'PEM file holding the private key of that certificate (read at start).' },
  { key: 'microsoft.authority', env: 'ENTRA_AUTHORITY', schema: optional(authorityUrl), defaultText: 'https://login.microsoftonline.com/{tenantId}', description: 'Entra authority (another cloud, for instance). `{tenantId}` is replaced; https only, except on a loopback address (a local test authority).' },
  { key: 'microsoft.autoProvisionDomains', env: 'ENTRA_AUTO_PROVISION_DOMAINS', schema: commaList.default([]), defaultText: '', description: "Comma-separated e-mail domains whose unknown Microsoft users of the tenant get an account at their first sign-in; others are refused unless a group-domain account matches." },
  { key: 'microsoft.provisionArea', env: 'ENTRA_PROVISION_AREA', schema: optional(z.string().min(1).max(200)), defaultText: 'the default area', description: 'Name of the area accounts created at a first Microsoft sign-in are put in.' },
  { key: 'microsoft.timeoutMs', env: 'ENTRA_TIMEOUT_MS', schema: positiveInt.max(60000).default(4000), defaultText: '4000', description: 'Longest wait for Microsoft (discovery and code redemption together) before the sign-in ends on an error page.' },
  { key: 'security.hashConcurrency', env: 'HASH_CONCURRENCY', schema: positiveInt.max(64).optional(), defaultText: 'number of CPUs', description: 'Password hashes computed at once; more wait, so a flood of sign-ins cannot starve token requests.' },
  { key: 'security.hashQueueLimit', env: 'HASH_QUEUE_LIMIT', schema: positiveInt.max(10000).default(64), defaultText: '64', description: 'Password hashes that may wait at once; past it, sign-ins answer 429 with Retry-After instead of queueing.' },
  { key: 'security.signInRequestsPerMinute', env: 'SIGN_IN_RATE_LIMIT', schema: positiveInt.max(1_000_000).default(120), defaultText: '120', description: 'Requests per minute from one address (IPv6: one /64) to the sign-in, code, password and reset calls; past it, 429 with Retry-After.' },
  { key: 'security.failuresPerAddressPerHour', env: 'SIGN_IN_FAILURE_LIMIT', schema: positiveInt.max(1_000_000).default(100), defaultText: '100', description: 'Wrong passwords and codes per hour from one address, over all accounts (password spraying).' },
  { key: 'security.failuresPerAccountAndAddressPerDay', env: 'SIGN_IN_ACCOUNT_FAILURE_LIMIT', schema: positiveInt.max(1_000_000).default(10), defaultText: '10', description: 'Wrong passwords and codes per day from one address on one account, cleared by a success from there. At 10, one address alone causes at most two temporary lockouts of an account a day, so never the permanent one (the third) within a day.' },
  { key: 'security.mailsPerAccountPerHour', env: 'SIGN_IN_MAIL_LIMIT', schema: positiveInt.max(1000).default(5), defaultText: '5', description: 'Reset mails per account per hour (at most one a minute); more requests get the same answer and send nothing.' },
  { key: 'security.externalApiRequestsPerMinute', env: 'EXTERNAL_API_RATE_LIMIT', schema: positiveInt.max(1_000_000).default(300), defaultText: '300', description: "Calls per minute of the external API by one caller (an application with its client credentials, or one user's personal access tokens for an application); past it, 429 with Retry-After." },
  { key: 'identifyAs.enabled', env: 'IDENTIFY_AS_ENABLED', schema: boolFromString.default(false), defaultText: 'false', description: 'Lets a God user sign in as another user from the console (Identify As) for a bounded time; every token and log row of that session names the God user as the actor. Off: the console offers nothing and the API answers 404.' },
  { key: 'identifyAs.maxMinutes', env: 'IDENTIFY_AS_MAX_MINUTES', schema: positiveInt.max(480).default(30), defaultText: '30', description: 'Minutes a God user stays signed in as another user at most (1 to 480); the tokens of that session expire by then and are not renewed after it.' },
  { key: 'portal.clientPortalAppId', env: 'CLIENT_PORTAL_APP_ID', schema: optional(z.string().min(1).max(64)), description: 'Application id of the client portal, where Customers-area users without the Identity application are sent from the home page.' },
  { key: 'portal.helpdeskUrl', env: 'HELPDESK_URL', schema: optional(url), description: 'Helpdesk link of the portal’s top bar (hidden when unset).' },
  { key: 'portal.supportUrl', env: 'SUPPORT_URL', schema: optional(url), description: '“Problems to access? Contact Us!” link of the sign-in pages (hidden when unset).' },
  { key: 'portal.termsOfUseUrl', env: 'TERMS_OF_USE_URL', schema: optional(url), description: 'Terms-of-use link of the portal’s footer (hidden when unset).' },
  { key: 'portal.cookiePolicyUrl', env: 'COOKIE_POLICY_URL', schema: optional(url), description: 'Cookie-policy link of the portal’s footer (hidden when unset).' },
  { key: 'avatar.store', env: 'AVATAR_STORE', schema: z.string().min(1).default('database'), defaultText: 'database', description: 'Where users’ pictures are kept: `database`, or a folder (relative to the project root) holding one file per picture, named by its SHA-256.' },
  { key: 'avatar.maxBytes', env: 'AVATAR_MAX_BYTES', schema: positiveInt.max(20 * 1024 * 1024).default(2 * 1024 * 1024), defaultText: '2097152', description: 'Largest picture a user may upload (bytes); larger uploads are refused with a 400.' },
  { key: 'app.environment', env: 'IDP_ENVIRONMENT', schema: z.string().min(1).default('development'), defaultText: 'development', description: 'Environment name shown to the SPAs by `/api/v1/config`.' },
  { key: 'bootstrap.file', env: 'IDP_BOOTSTRAP', schema: z.string().min(1).default('config/bootstrap.yaml'), defaultText: 'config/bootstrap.yaml', description: 'Bootstrap declarations (areas, applications, users), applied at start when the file has changed; only the fields it declares.' },
  { key: 'bootstrap.adminUserName', env: 'IDP_ADMIN_USERNAME', schema: z.email().default('admin@gatehouse.local'), defaultText: 'admin@gatehouse.local', description: 'Login name (an e-mail) of the first administrator.' },
  { key: 'bootstrap.adminPassword', env: 'IDP_ADMIN_PASSWORD', schema: optional(z.string().min(12, 'must be at least 12 characters')), description: 'Initial password of the first administrator. Unset: generated at first start, printed once, only its hash stored.' },
];
