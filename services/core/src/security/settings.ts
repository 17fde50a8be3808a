import {
  SECURITY_SETTINGS,
  groupDomainsSchema,
  lockoutSettingsSchema,
  passwordPolicySchema,
  tokenLifetimesSchema,
  type SecuritySettingName,
  type SecuritySettingValues,
} from '@gatehouse/contracts';
import type { z } from 'zod';
import type { Config } from '../config/loader.js';
import type { AppContext } from '../context.js';

export type { SecuritySettingName, SecuritySettingValues };

/** The stored settings are reread at least this often, so a change made on a node that could not tell this one (no Redis) is seen. */
export const SETTINGS_MAX_AGE_MS = 60_000;

// Reading what is stored is lenient (an unknown key is dropped): only what a God user writes is checked strictly.
const STORED_SCHEMAS: { [N in SecuritySettingName]: z.ZodType<SecuritySettingValues[N]> } = {
  GroupDomains: groupDomainsSchema,
  Lockout: lockoutSettingsSchema,
  PasswordPolicy: passwordPolicySchema,
  TokenLifetimes: tokenLifetimesSchema,
};

/**
 * The values that apply while a setting was never saved: the product's defaults, and for the
 * group domains the deployment's configuration (GROUP_EMAIL_DOMAINS, GROUP_DOMAIN_FRAGMENT).
 */
export function defaultSecuritySettings(config: Pick<Config, 'signIn'>): SecuritySettingValues {
  return {
    GroupDomains: { domains: [...config.signIn.groupDomains], domainFragment: config.signIn.groupDomainFragment ?? null },
    Lockout: lockoutSettingsSchema.parse({}),
    PasswordPolicy: passwordPolicySchema.parse({}),
    TokenLifetimes: tokenLifetimesSchema.parse({}),
  };
}

export function isSecuritySettingName(name: string): name is SecuritySettingName {
  return (SECURITY_SETTINGS as readonly string[]).includes(name);
}

type SettingsContext = Pick<AppContext, 'config' | 'dataSource' | 'broadcast' | 'logger'>;

/**
 * The security settings in force, changed at run time by a God user: read from
 * `security_configs` over the defaults, cached, and reread when any node broadcasts
 * `settings.changed` (or when the cache is a minute old). `get()` answers the values in force;
 * `current()` answers synchronously, for the provider's token lifetimes, and refreshes in the
 * background. A stored document that no longer validates counts as its defaults, never as
 * something weaker.
 */
export class SecuritySettings {
  private snapshot: SecuritySettingValues;
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: { generation: number; promise: Promise<SecuritySettingValues> } | undefined;
  /** Bumped on every change heard: a read that started before it must not be kept as fresh. */
  private generation = 0;
  private readonly defaults: SecuritySettingValues;
  private readonly stopListening: () => void;

  constructor(
    private readonly context: SettingsContext,
    private readonly now: () => number = Date.now,
  ) {
    this.defaults = defaultSecuritySettings(context.config);
    this.snapshot = this.defaults;
    this.stopListening = context.broadcast.on('settings.changed', () => this.invalidate());
  }

  /** The values that apply to a setting never saved. */
  get defaultValues(): SecuritySettingValues {
    return this.defaults;
  }

  /** The values in force: the cached ones while fresh, else read now (the last known ones if the read fails). */
  async get(): Promise<SecuritySettingValues> {
    if (!this.isStale()) return this.snapshot;
    try {
      return await this.refresh();
    } catch (error) {
      this.context.logger.warn({ err: (error as Error).message }, 'security settings could not be read: the last known values apply');
      return this.snapshot;
    }
  }

  /** The last values read (the defaults before the first read), without waiting; old ones are reread in the background. */
  current(): SecuritySettingValues {
    if (this.isStale()) void this.get();
    return this.snapshot;
  }

  /** Reads the stored settings now; callers at the same time share one read. */
  refresh(): Promise<SecuritySettingValues> {
    if (this.loading && this.loading.generation === this.generation) return this.loading.promise;
    const generation = this.generation;
    const promise = this.read().then(
      (values) => {
        if (this.loading?.promise === promise) this.loading = undefined;
        // A change heard during the read may not be in it: a later read decides.
        if (generation === this.generation) {
          this.snapshot = values;
          this.loadedAt = this.now();
        }
        return values;
      },
      (error: unknown) => {
        if (this.loading?.promise === promise) this.loading = undefined;
        throw error;
      },
    );
    this.loading = { generation, promise };
    return promise;
  }

  /** Stops listening to changes (the context's broadcast drops every listener when it closes anyway). */
  close(): void {
    this.stopListening();
  }

  private isStale(): boolean {
    return this.now() - this.loadedAt >= SETTINGS_MAX_AGE_MS;
  }

  private invalidate(): void {
    this.generation += 1;
    this.loadedAt = Number.NEGATIVE_INFINITY;
  }

  private async read(): Promise<SecuritySettingValues> {
    const rows: Array<{ title: string; body: unknown }> = await this.context.dataSource.query(
      'SELECT title, body FROM security_configs WHERE title = ANY($1)',
      [[...SECURITY_SETTINGS]],
    );
    const values = { ...this.defaults };
    for (const row of rows) {
      if (isSecuritySettingName(row.title)) Object.assign(values, { [row.title]: this.stored(row.title, row.body) });
    }
    return values;
  }

  private stored<N extends SecuritySettingName>(name: N, body: unknown): SecuritySettingValues[N] {
    const document = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    const parsed = STORED_SCHEMAS[name].safeParse({ ...this.defaults[name], ...document });
    if (parsed.success) return parsed.data;
    this.context.logger.warn({ setting: name }, 'stored security setting is not valid: its defaults apply');
    return this.defaults[name];
  }
}

const instances = new WeakMap<object, SecuritySettings>();

/** The context's one settings cache (one listener, one read at a time, however many apps use it). */
export function securitySettings(context: SettingsContext): SecuritySettings {
  let settings = instances.get(context);
  if (!settings) {
    settings = new SecuritySettings(context);
    instances.set(context, settings);
  }
  return settings;
}
