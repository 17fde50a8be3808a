import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CONFIG_KEYS } from './definition.js';

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  /** Folder the configuration files were read from; relative paths resolve against its parent. */
  rootDir: string;
  server: {
    port: number;
    host: string;
    publicUrl: string;
    trustProxy: boolean;
    bodyLimit: string;
    shutdownTimeoutMs: number;
  };
  database: { url?: string; poolSize: number; connectTimeoutMs: number; statementTimeoutMs: number; dataDir: string; embeddedPort: number };
  redis: { url?: string; keyPrefix: string; commandTimeoutMs: number };
  mail: { smtpUrl?: string; from: string; dataProtectionEmail?: string };
  /** `/metrics`: the token the public port requires, and the loopback port that serves it without one. */
  metrics: { token?: string; port?: number };
  /** Traces: sent to this OTLP/HTTP collector when set, not made at all otherwise. */
  tracing: { otlpEndpoint?: string; otlpTracesEndpoint?: string; disabled: boolean };
  /** The Logs page's tables: how long their rows are kept (0: forever) and how often older ones are deleted. */
  logs: { retentionDays: number; purgeIntervalMs: number };
  jobs: { expireSeconds: number };
  files: { lifetimeDays: number; purgeIntervalMs: number };
  log: { level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'; format: 'auto' | 'json' | 'pretty' };
  security: {
    encryptionKey?: string;
    hashConcurrency?: number;
    hashQueueLimit: number;
    signInRequestsPerMinute: number;
    failuresPerAddressPerHour: number;
    failuresPerAccountAndAddressPerDay: number;
    mailsPerAccountPerHour: number;
    externalApiRequestsPerMinute: number;
  };
  signIn: { groupDomains: string[]; groupDomainFragment?: string };
  /** The Microsoft (Entra ID) sign-in; `enabled` only when the tenant, the client and one credential are all set. */
  microsoft: {
    enabled: boolean;
    tenantId?: string;
    clientId?: string;
    clientSecret?: string;
    certificateThumbprint?: string;
    certificateKeyFile?: string;
    /** Without a trailing slash, `{tenantId}` replaced. */
    authority: string;
    autoProvisionDomains: string[];
    /** Area name; the default area when unset. */
    provisionArea?: string;
    timeoutMs: number;
  };
  oidc: { issuer: string; adminApiAudience: string; externalApiAudience: string; sweepIntervalMs: number; allowPrivateNetworkRequests: boolean; portalClientId: string; adminClientId: string };
  app: { environment: string };
  /** Signing in as another user (Identify As): off unless enabled; `maxMinutes` bounds each one. */
  identifyAs: { enabled: boolean; maxMinutes: number };
  portal: { clientPortalAppId?: string; helpdeskUrl?: string; supportUrl?: string; termsOfUseUrl?: string; cookiePolicyUrl?: string };
  /** Users' pictures: `store` is `database` or a folder. */
  avatar: { store: string; maxBytes: number };
  bootstrap: {
    file: string;
    adminUserName: string;
    adminPassword?: string;
    /** The environment variables named GATEHOUSE_…: the only ones a bootstrap file's `${env:NAME}` may read (its secrets). */
    variables: Readonly<Record<string, string>>;
  };
}

/** What the names of the variables a bootstrap file may read start with: any other (DATABASE_URL…) stays out of its reach. */
export const BOOTSTRAP_VARIABLE_PREFIX = 'GATEHOUSE_';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export interface LoadConfigOptions {
  /** Environment variables; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Folder holding default.yaml, <NODE_ENV>.yaml and local.yaml. Defaults to CONFIG_DIR or ./config. */
  configDir?: string;
  /** Values that win over everything (tests). Dotted keys. */
  overrides?: Record<string, unknown>;
}

/**
 * Reads defaults, then `config/default.yaml`, `config/<NODE_ENV>.yaml` and `config/local.yaml`,
 * then environment variables. Every problem is collected and reported at once, by key, before
 * anything starts.
 */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const configDir = path.resolve(options.configDir ?? env.CONFIG_DIR ?? 'config');
  const problems: string[] = [];
  const known = new Map(CONFIG_KEYS.map((k) => [k.key, k]));

  const raw = new Map<string, { value: unknown; source: string }>();
  const nodeEnv = env.NODE_ENV ?? 'development';
  for (const file of ['default.yaml', `${nodeEnv}.yaml`, 'local.yaml']) {
    const filePath = path.join(configDir, file);
    if (!existsSync(filePath)) continue;
    let doc: unknown;
    try {
      doc = parseYaml(readFileSync(filePath, 'utf8')) ?? {};
    } catch (error) {
      problems.push(`${filePath}: not valid YAML (${(error as Error).message.split('\n')[0]})`);
      continue;
    }
    for (const [key, value] of flatten(doc)) {
      if (!known.has(key)) problems.push(`${key} (in ${file}): unknown configuration key`);
      else raw.set(key, { value, source: file });
    }
  }
  for (const def of CONFIG_KEYS) {
    const value = env[def.env];
    if (value !== undefined) raw.set(def.key, { value, source: `env ${def.env}` });
  }
  for (const [key, value] of Object.entries(options.overrides ?? {})) {
    if (!known.has(key)) problems.push(`${key}: unknown configuration key`);
    else raw.set(key, { value, source: 'override' });
  }

  const result: Record<string, unknown> = {};
  for (const def of CONFIG_KEYS) {
    const entry = raw.get(def.key);
    const parsed = def.schema.safeParse(entry?.value);
    if (parsed.success) {
      setPath(result, def.key, parsed.data);
    } else {
      const reason = parsed.error.issues.map((i) => i.message).join('; ');
      problems.push(`${def.key} (${def.env}${entry ? `, from ${entry.source}` : ''}): ${reason}`);
    }
  }

  const config = result as unknown as Config;
  if (problems.length === 0) {
    config.rootDir = path.dirname(configDir);
    config.server.publicUrl = (config.server.publicUrl ?? `http://localhost:${config.server.port}`).replace(/\/+$/, '');
    config.oidc.issuer = (config.oidc.issuer ?? `${config.server.publicUrl}/oidc`).replace(/\/+$/, '');
    deriveValues(config, env);
    if (config.nodeEnv === 'production' && !config.security.encryptionKey) {
      problems.push('security.encryptionKey (IDP_ENCRYPTION_KEY): required when NODE_ENV is production');
    }
    const { microsoft } = config;
    const incomplete = microsoftProblems(microsoft);
    problems.push(...incomplete);
    microsoft.enabled = Boolean(microsoft.tenantId) && incomplete.length === 0;
    microsoft.authority = (microsoft.authority ?? 'https://login.microsoftonline.com/{tenantId}').replace(/\/+$/, '');
    if (microsoft.tenantId) microsoft.authority = microsoft.authority.replaceAll('{tenantId}', microsoft.tenantId);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** What follows from the rest: the APIs' audiences, the variables a bootstrap file may read. */
function deriveValues(config: Config, env: Record<string, string | undefined>): void {
  deriveApiAudiences(config);
  config.bootstrap.variables = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[0].startsWith(BOOTSTRAP_VARIABLE_PREFIX) && entry[1] !== undefined),
  );
}

/** The APIs' resource indicators (audiences) not configured: under the public URL. */
function deriveApiAudiences(config: Config): void {
  config.oidc.adminApiAudience ??= `${config.server.publicUrl}/api/v1/admin`;
  config.oidc.externalApiAudience ??= `${config.server.publicUrl}/api/v1/external`;
}

/**
 * The Microsoft sign-in is all or nothing: once any of its identifying keys is set, the tenant, the
 * client and exactly one credential must be, so a half-configured deployment stops at start-up
 * instead of showing a button that cannot work.
 */
function microsoftProblems(ms: Config['microsoft']): string[] {
  const key = (name: keyof Config['microsoft'], env: string) => `microsoft.${name} (${env})`;
  const anySet = [ms.tenantId, ms.clientId, ms.clientSecret, ms.certificateThumbprint, ms.certificateKeyFile].some(Boolean);
  if (!anySet) return [];
  const missing: string[] = [];
  if (!ms.tenantId) missing.push(key('tenantId', 'ENTRA_TENANT_ID'));
  if (!ms.clientId) missing.push(key('clientId', 'ENTRA_CLIENT_ID'));
  const certificate = Boolean(ms.certificateThumbprint || ms.certificateKeyFile);
  if (!ms.clientSecret && !certificate) {
    missing.push(`${key('clientSecret', 'ENTRA_CLIENT_SECRET')} or ${key('certificateThumbprint', 'ENTRA_CERT_THUMBPRINT')} with ${key('certificateKeyFile', 'ENTRA_CERT_KEY_FILE')}`);
  } else if (certificate) {
    if (!ms.certificateThumbprint) missing.push(key('certificateThumbprint', 'ENTRA_CERT_THUMBPRINT'));
    if (!ms.certificateKeyFile) missing.push(key('certificateKeyFile', 'ENTRA_CERT_KEY_FILE'));
  }
  const problems = missing.length ? [`microsoft: the Microsoft sign-in is partly configured; missing ${missing.join(', ')}`] : [];
  if (ms.clientSecret && certificate) {
    problems.push(`microsoft: set either ${key('clientSecret', 'ENTRA_CLIENT_SECRET')} or the certificate, not both`);
  }
  return problems;
}

function flatten(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return prefix ? [[prefix, value]] : [];
  return Object.entries(value).flatMap(([k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? flatten(v, key) : [[key, v] as [string, unknown]];
  });
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown) {
  const parts = dotted.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1]!] = value;
}

/** Resolves a configured path (data folder, bootstrap file) against the project root. */
export function resolveConfigPath(config: Config, p: string): string {
  return path.isAbsolute(p) ? p : path.resolve(config.rootDir, p);
}
