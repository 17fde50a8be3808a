import {
  SECURITY_SETTINGS,
  SECURITY_SETTING_SCHEMAS,
  type PasswordPolicy,
  type securityConfigRoutes,
  type securityConfigSchema,
} from '@gatehouse/contracts';
import {
  AppError,
  isSecuritySettingName,
  parseInput,
  securitySettings,
  type AppContext,
  type FieldError,
  type SecuritySettingName,
  type SecuritySettingValues,
} from '@gatehouse/core';
import YAML from 'yaml';
import type { z } from 'zod';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { findUserName } from '../directory/lookups.js';
import { findSecurityConfigs, lockSecurityConfig, saveSecurityConfig, type SecurityConfigRow } from './repository.js';

type ListQuery = z.output<typeof securityConfigRoutes.list.query>;
/** A configuration as handlers answer it (dates as dates; the contract writes them out). */
type SecurityConfig = z.input<typeof securityConfigSchema>;

/** What each setting governs (the API document's wording; the console shows its own translation). */
const DESCRIPTIONS: Record<SecuritySettingName, string> = {
  GroupDomains: "E-mail domains, and a fragment of user names, of the group's staff: they must sign in with their Microsoft account",
  Lockout: 'Wrong passwords or codes in a row that lock an account, for how many minutes, and which lock becomes permanent',
  PasswordPolicy: 'What a new password must contain, how many days it lasts and how many previous passwords cannot be used again',
  TokenLifetimes: 'How many seconds the tokens and the sign-in session the provider issues stay valid',
};

/** One key's values before and after a change, for the system log. */
type Diff = Record<string, { before: unknown; after: unknown }>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The keys whose value changed, with both values (defaults included: what applied before, what applies now). */
export function diffSettings(before: object, after: object): Diff {
  const diff: Diff = {};
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    const [was, is] = [(before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key]];
    if (!same(was, is)) diff[key] = { before: was ?? null, after: is ?? null };
  }
  return diff;
}

/**
 * The document a God user wrote: YAML (JSON included) holding a mapping of the setting's keys.
 * Anything else is "Invalid yaml format"; aliases are bounded so a small document cannot expand
 * into a huge one.
 */
export function parseYamlDocument(text: string): Record<string, unknown> {
  let document: unknown;
  try {
    document = YAML.parse(text, { uniqueKeys: true, maxAliasCount: 50, prettyErrors: false });
  } catch {
    throw new AppError('securityConfig.invalid_yaml', 400, {}, [{ field: 'body', code: 'securityConfig.invalid_yaml' }]);
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) {
    throw new AppError('securityConfig.not_a_mapping', 400, {}, [{ field: 'body', code: 'securityConfig.not_a_mapping' }]);
  }
  return document as Record<string, unknown>;
}

/** Validates a document against its setting: unknown keys are named one by one, with the keys the setting accepts. */
function validateDocument<N extends SecuritySettingName>(name: N, document: Record<string, unknown>, defaults: SecuritySettingValues): SecuritySettingValues[N] {
  const schema = SECURITY_SETTING_SCHEMAS[name];
  try {
    return parseInput(schema, { ...defaults[name], ...document }) as SecuritySettingValues[N];
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const keys = Object.keys(schema.shape).join(', ');
    const errors = error.errors.flatMap((fieldError): FieldError[] =>
      fieldError.code === 'validation.unknown_field'
        ? fieldError.field.split(', ').map((field) => ({ field, code: 'securityConfig.unknown_key', params: { keys } }))
        : [fieldError],
    );
    throw new AppError('errors.validation', 400, {}, errors);
  }
}

function displayNameOf(row: SecurityConfigRow): string | null {
  const fullName = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return fullName || row.user_name;
}

/** The security settings a God user reads and changes, applied at once on every node. */
export class SecurityConfigService {
  constructor(private readonly context: AppContext) {}

  private get settings() {
    return securitySettings(this.context);
  }

  /** The configurations (all four, saved or not) matching the search, sorted by title, one page. */
  async list(query: ListQuery): Promise<{ items: SecurityConfig[]; count: number }> {
    const all = await this.presentAll();
    const search = query.$search?.toLowerCase();
    const matching = all.filter((config) => !search || config.title.toLowerCase().includes(search));
    matching.sort((a, b) => a.title.localeCompare(b.title) * (query.orderBy.direction === 'desc' ? -1 : 1));
    return { items: matching.slice(query.skip, query.skip + query.top), count: matching.length };
  }

  async get(id: string): Promise<SecurityConfig> {
    const name = this.nameOf(id);
    const config = (await this.presentAll()).find((item) => item.id === name);
    return config!;
  }

  /** The password policy in force, for the rules the SPAs show. */
  async policy(): Promise<PasswordPolicy> {
    return (await this.settings.get()).PasswordPolicy;
  }

  /**
   * Replaces one setting with a YAML document (keys left out take their defaults). The change and
   * its audit row (the keys that changed, before and after) are one transaction; then every node
   * is told, and this one rereads before answering, so the next sign-in here already applies it.
   */
  async update(caller: Caller, id: string, text: string): Promise<SecurityConfig> {
    const name = this.nameOf(id);
    const document = parseYamlDocument(text);
    const defaults = this.settings.defaultValues;
    const value = validateDocument(name, document, defaults);
    const changed = await this.context.dataSource.transaction(async (em) => {
      const stored = await lockSecurityConfig(em, name);
      const before = { ...defaults[name], ...(stored?.body ?? {}) };
      const diff = diffSettings(before, value);
      if (Object.keys(diff).length === 0) return false;
      await saveSecurityConfig(em, { title: name, description: DESCRIPTIONS[name], body: value, modifiedById: caller.userId });
      const userName = await findUserName(em, caller.userId);
      await writeSystemLog(em, { operation: 'UpdateSecurityConfig', userId: caller.userId, userName, metadata: { config: name, changes: diff } });
      return true;
    });
    if (changed) {
      this.context.broadcast.publish('settings.changed', { name });
      await this.settings.refresh();
    }
    return this.get(name);
  }

  private nameOf(id: string): SecuritySettingName {
    if (!isSecuritySettingName(id)) throw new AppError('errors.not_found', 404);
    return id;
  }

  /** Every setting as the console shows it: the values in force, and who saved it last (none while never saved). */
  private async presentAll(): Promise<SecurityConfig[]> {
    const [values, rows] = await Promise.all([this.settings.refresh(), findSecurityConfigs(this.context.dataSource, SECURITY_SETTINGS)]);
    return SECURITY_SETTINGS.map((name) => {
      const row = rows.find((r) => r.title === name);
      return {
        id: name,
        title: name,
        description: DESCRIPTIONS[name],
        body: JSON.stringify(values[name]),
        yaml: YAML.stringify(values[name]),
        modifiedByDisplayName: row ? displayNameOf(row) : null,
        modifiedOn: row ? row.modified_on : null,
      };
    });
  }
}
