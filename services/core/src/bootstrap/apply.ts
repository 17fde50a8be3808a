import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { DataSource, EntityManager, ObjectLiteral, EntityTarget } from 'typeorm';
import { parse as parseYaml } from 'yaml';
import { SYSTEM_AUTHORITY } from '../access/facts.js';
import { AccessChanges } from '../access/grants.js';
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID } from '../domain/constants.js';
import { Application, ApplicationExchangeAudience, Disclaimer, Role, RoleScope } from '../entities/applications.js';
import { Area, Tenant, User } from '../entities/identity.js';
import type { SecretBox } from '../security/secret-box.js';
import { generatePassword, hashPassword } from '../security/passwords.js';
import { CREATE_DEFAULTS, bootstrapSchema, type BootstrapDocument } from './schema.js';

/** An application's declared protocol settings; the FAPI 2.0 profile turns on pushed requests and DPoP. */
function protocolOf(app: BootstrapDocument['applications'][number]) {
  return {
    requireDpop: app.fapi2 ? true : app.requireDpop,
    requirePar: app.fapi2 ? true : app.requirePar,
    requireSignedRequestObject: app.requireSignedRequestObject,
    clientAuthentication: app.clientAuthentication,
    jwks: app.jwks,
    jwksUri: app.jwksUri,
    fapi2: app.fapi2,
  };
}

/** What a new application gets for the protocol settings the file leaves out. */
const PROTOCOL_DEFAULTS = {
  requireDpop: CREATE_DEFAULTS.application.requireDpop,
  requirePar: CREATE_DEFAULTS.application.requirePar,
  requireSignedRequestObject: CREATE_DEFAULTS.application.requireSignedRequestObject,
  clientAuthentication: CREATE_DEFAULTS.application.clientAuthentication,
  jwks: null,
  jwksUri: null,
  fapi2: CREATE_DEFAULTS.application.fapi2,
};

export class BootstrapError extends Error {
  constructor(readonly file: string, readonly problems: string[]) {
    super(`Invalid bootstrap file ${file}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'BootstrapError';
  }
}

export interface BootstrapAdmin {
  userName: string;
  /** Used only when the administrator is created. */
  password?: string;
}

export interface BootstrapResult {
  created: number;
  updated: number;
  /** The document is the one last applied to this database: it was skipped whole. */
  unchanged: boolean;
  /** Set only on the start that created the administrator with a generated password. */
  generatedAdminPassword?: string;
}

/** Reads and validates a bootstrap file; `${publicUrl}` in any string is replaced. */
export async function readBootstrapFile(file: string, vars: { publicUrl: string }): Promise<BootstrapDocument> {
  let doc: unknown;
  try {
    doc = parseYaml(await readFile(file, 'utf8')) ?? {};
  } catch (error) {
    throw new BootstrapError(file, [(error as Error).message.split('\n')[0]!]);
  }
  const interpolated = JSON.parse(JSON.stringify(doc), (_key, value: unknown) =>
    typeof value === 'string' ? value.replaceAll('${publicUrl}', vars.publicUrl) : value,
  );
  const parsed = bootstrapSchema.safeParse(interpolated);
  if (!parsed.success) {
    throw new BootstrapError(
      file,
      parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`),
    );
  }
  return parsed.data;
}

/** Any constant shared by every node: nodes starting together apply the file one after the other. */
const BOOTSTRAP_LOCK = 7_418_220_012;

/** The row of `bootstrap_state`: what the bootstrap last did to this database. */
interface BootstrapState {
  document_sha256: string | null;
  administrator_provisioned_at: Date | null;
}

/**
 * Makes the database hold what the document declares, in one transaction. Only the fields the
 * document sets are written, and only where they differ; a field it leaves out keeps the value
 * the database holds (a new row takes CREATE_DEFAULTS). A document identical to the last one
 * applied is skipped whole, so a restart never undoes what administrators changed since. The
 * administrator is provisioned once per database: created with Administrator and God in Global
 * when no account has its name, and never recreated or given those roles again afterwards.
 * Nothing undeclared is removed.
 */
export async function applyBootstrap(
  dataSource: DataSource,
  doc: BootstrapDocument,
  options: { secrets: SecretBox; admin: BootstrapAdmin; file?: string },
): Promise<BootstrapResult> {
  return dataSource.transaction(async (em) => new Bootstrapper(em, options.secrets, options.file ?? 'bootstrap').run(doc, options.admin));
}

/** SHA-256 of the document's canonical JSON (keys sorted): formatting and comments do not count. */
function bootstrapDigest(doc: BootstrapDocument): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([, field]) => field !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([key, field]) => [key, canonical(field)]),
      );
    }
    return value;
  };
  return createHash('sha256').update(JSON.stringify(canonical(doc))).digest('hex');
}

class Bootstrapper {
  private readonly result: BootstrapResult = { created: 0, updated: 0, unchanged: false };
  private readonly problems: string[] = [];

  constructor(
    private readonly em: EntityManager,
    private readonly secrets: SecretBox,
    private readonly file: string,
  ) {}

  async run(doc: BootstrapDocument, admin: BootstrapAdmin): Promise<BootstrapResult> {
    await this.em.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK]);
    const [state] = (await this.em.query('SELECT document_sha256, administrator_provisioned_at FROM bootstrap_state WHERE id = 1')) as BootstrapState[];
    const digest = bootstrapDigest(doc);
    this.result.unchanged = state?.document_sha256 === digest;
    const provisionAdmin = !state?.administrator_provisioned_at;
    if (this.result.unchanged && !provisionAdmin) return this.result;

    // Whether the administrator's account was there before this run (a database bootstrapped
    // before this state was kept): it is then recorded as provisioned, its roles left as they are.
    const adminExisted = provisionAdmin && (await this.em.existsBy(User, { normalizedUserName: admin.userName.toLowerCase() }));
    if (!this.result.unchanged) await this.applyDocument(doc);
    if (provisionAdmin && !adminExisted) await this.applyAdmin(admin);
    if (this.problems.length) throw new BootstrapError(this.file, this.problems);
    await this.em.query(
      `INSERT INTO bootstrap_state (id, document_sha256, applied_at, administrator_user_name, administrator_provisioned_at)
       VALUES (1, $1, now(), $2, now())
       ON CONFLICT (id) DO UPDATE SET
         document_sha256 = EXCLUDED.document_sha256,
         applied_at = CASE WHEN bootstrap_state.document_sha256 IS DISTINCT FROM EXCLUDED.document_sha256 THEN now() ELSE bootstrap_state.applied_at END,
         administrator_user_name = COALESCE(bootstrap_state.administrator_user_name, EXCLUDED.administrator_user_name),
         administrator_provisioned_at = COALESCE(bootstrap_state.administrator_provisioned_at, now())`,
      [digest, admin.userName],
    );
    return this.result;
  }

  private async applyDocument(doc: BootstrapDocument) {
    for (const area of doc.areas) {
      if (area.default) {
        // Only one default area may exist; moving the flag clears it elsewhere first.
        await this.em.createQueryBuilder().update(Area).set({ isDefault: false }).where('is_default AND name <> :name', { name: area.name }).execute();
      }
      await this.upsert(
        Area,
        { name: area.name },
        { isDefault: area.default, isSystem: area.system },
        { defaults: { isDefault: CREATE_DEFAULTS.area.default, isSystem: CREATE_DEFAULTS.area.system } },
      );
    }
    await this.upsert(Tenant, { id: GLOBAL_TENANT_ID }, { title: 'Global', areaId: null, parentId: null }, { onlyCreate: true });
    for (const tenant of doc.tenants) await this.applyTenant(tenant);
    for (const app of doc.applications) await this.applyApplication(app);
    // Once every declared application exists: the audiences may be declared after the application naming them.
    for (const app of doc.applications) if (app.tokenExchangeAudiences) await this.applyExchangeAudiences(app.id, app.tokenExchangeAudiences);
    for (const user of doc.users) await this.applyUser(user);
  }

  private async applyTenant(tenant: BootstrapDocument['tenants'][number]) {
    const area = await this.area(tenant.area, `tenants.${tenant.title}.area`);
    let parentId: string | undefined;
    if (tenant.parent) {
      const parent = await this.tenant(tenant.parent, `tenants.${tenant.title}.parent`);
      if (!parent) return;
      parentId = parent.id;
    }
    if (!area) return;
    await this.upsert(
      Tenant,
      { title: tenant.title, areaId: area.id },
      {
        parentId,
        taxNumber: tenant.taxNumber,
        viesNumber: tenant.viesNumber,
        creationType: tenant.creation,
        requiredTwoModeAuthentification: tenant.requiredTwoModeAuthentification,
      },
      {
        defaults: {
          parentId: null,
          taxNumber: null,
          viesNumber: null,
          creationType: CREATE_DEFAULTS.tenant.creation,
          requiredTwoModeAuthentification: CREATE_DEFAULTS.tenant.requiredTwoModeAuthentification,
        },
      },
    );
  }

  /**
   * The encrypted secret to store, or undefined to keep the stored one. A secret is re-encrypted only
   * when it changed: the ciphertext differs on every encryption.
   */
  private async clientSecretOf(app: BootstrapDocument['applications'][number]): Promise<string | null | undefined> {
    if (!app.secret) {
      // A public client holds no secret.
      return app.type === 'public' ? null : undefined;
    }
    const existing = await this.em.findOneBy(Application, { id: app.id });
    const unchanged = existing?.clientSecretEncrypted && this.secrets.decrypt(existing.clientSecretEncrypted) === app.secret;
    return unchanged ? undefined : this.secrets.encrypt(app.secret);
  }

  /** The applications this one may exchange users' tokens for: exactly those the file names. */
  private async applyExchangeAudiences(applicationId: string, audienceIds: string[]) {
    await this.em.delete(ApplicationExchangeAudience, { applicationId });
    if (audienceIds.length) await this.em.insert(ApplicationExchangeAudience, [...new Set(audienceIds)].map((audienceId) => ({ applicationId, audienceId })));
  }

  private async applyApplication(app: BootstrapDocument['applications'][number]) {
    const clientSecretEncrypted = await this.clientSecretOf(app);
    const defaults = CREATE_DEFAULTS.application;
    await this.upsert(
      Application,
      { id: app.id },
      {
        name: app.name,
        displayName: app.displayName,
        description: app.description,
        clientType: app.type,
        clientSecretEncrypted,
        isFirstParty: app.firstParty,
        redirectUris: app.redirectUris,
        postLogoutRedirectUris: app.postLogoutRedirectUris,
        backchannelLogoutUri: app.backchannelLogoutUri,
        grantTypes: app.grantTypes,
        deviceFlow: app.deviceFlow,
        ...protocolOf(app),
        idTokenSignedResponseAlg: app.idTokenAlgorithm,
        privateUrl: app.privateUrl,
        publicUrl: app.publicUrl,
        icon: app.icon,
        status: app.status,
        prerelease: app.prerelease,
        hideInUserList: app.hideInUserList,
      },
      {
        defaults: {
          description: null,
          clientType: defaults.type,
          clientSecretEncrypted: null,
          isFirstParty: defaults.firstParty,
          redirectUris: defaults.redirectUris,
          postLogoutRedirectUris: defaults.postLogoutRedirectUris,
          backchannelLogoutUri: null,
          grantTypes: defaults.grantTypes,
          deviceFlow: defaults.deviceFlow,
          ...PROTOCOL_DEFAULTS,
          idTokenSignedResponseAlg: defaults.idTokenAlgorithm,
          privateUrl: null,
          publicUrl: null,
          icon: null,
          status: defaults.status,
          prerelease: defaults.prerelease,
          hideInUserList: defaults.hideInUserList,
        },
      },
    );
    await this.applyRoles(app);
    if (app.disclaimer) await this.applyDisclaimer(app.id, app.disclaimer);
  }

  /**
   * The application's disclaimer: version 1 when it has none, a new version when the declared text
   * differs from the latest one (users then accept it again), nothing when it is the same.
   */
  private async applyDisclaimer(applicationId: string, declared: Partial<Record<string, string>>) {
    const texts = Object.fromEntries(Object.entries(declared).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const [latest] = await this.em.find(Disclaimer, { where: { applicationId }, order: { version: 'DESC' }, take: 1 });
    if (latest && sameTexts(latest.content, texts)) return;
    await this.em.save(this.em.create(Disclaimer, { applicationId, version: (latest?.version ?? 0) + 1, content: texts }));
    this.result.created++;
  }

  private async applyRoles(app: BootstrapDocument['applications'][number]) {
    for (const role of app.roles) {
      const saved = await this.upsert(
        Role,
        { applicationId: app.id, name: role.name },
        {
          description: role.description,
          byHierarchy: role.byHierarchy,
          operationRequestVisibility: role.operationRequestVisibility,
          serviceManagerVisibility: role.serviceManagerVisibility,
        },
        { defaults: { description: null, ...CREATE_DEFAULTS.role } },
      );
      for (const scope of role.scopes) await this.upsert(RoleScope, { roleId: saved.id, scope }, {});
    }
  }

  private async applyUser(user: BootstrapDocument['users'][number]) {
    const area = await this.area(user.area, `users.${user.userName}.area`);
    if (!area) return;
    const normalizedUserName = user.userName.toLowerCase();
    const existing = await this.em.findOneBy(User, { normalizedUserName });
    const normalizedEmail = user.email?.toLowerCase();
    const saved = await this.upsert(
      User,
      { normalizedUserName },
      {
        userName: user.userName,
        email: user.email,
        normalizedEmail,
        // A new address is not verified, whoever set it.
        emailVerified: existing && normalizedEmail !== undefined && normalizedEmail !== existing.normalizedEmail ? false : undefined,
        firstName: user.firstName,
        lastName: user.lastName,
        areaId: area.id,
        language: user.language,
        internalCategory: user.internalCategory,
      },
      {
        defaults: { email: user.userName, normalizedEmail: normalizedUserName, firstName: null, lastName: null, language: CREATE_DEFAULTS.user.language },
        create: existing ? {} : await this.passwordFields(user.password),
      },
    );
    for (const membership of user.memberships) {
      await this.applyMembership(saved.id, membership, `users.${user.userName}.memberships`);
    }
  }

  /** Creates the administrator with Administrator and God in Global: once per database. */
  private async applyAdmin(admin: BootstrapAdmin) {
    const normalized = admin.userName.toLowerCase();
    // The document may declare the administrator itself, created just now.
    let userId = (await this.em.findOneBy(User, { normalizedUserName: normalized }))?.id;
    if (!userId) {
      const area = await this.em.findOneBy(Area, { isDefault: true });
      if (!area) {
        this.problems.push('areas: a default area is required to create the administrator');
        return;
      }
      const password = admin.password ?? generatePassword();
      if (!admin.password) this.result.generatedAdminPassword = password;
      const created = await this.em.save(
        this.em.create(User, {
          userName: admin.userName,
          normalizedUserName: normalized,
          email: admin.userName,
          normalizedEmail: normalized,
          firstName: 'Administrator',
          lastName: null,
          areaId: area.id,
          emailVerified: true,
          ...(await this.passwordFields(password)),
        }),
      );
      this.result.created++;
      userId = created.id;
    }
    await this.applyMembership(
      userId,
      { tenant: 'Global', application: IDENTITY_APPLICATION_ID, roles: ['Administrator', 'God'], inheritable: true },
      'administrator',
    );
  }

  /**
   * The user's roles in the tenant, given through tenant access (the product itself: every rule
   * allows it) in this transaction: only what is missing is added, one Permission log row when it
   * is; the membership's inheritance changes only when the file declares it.
   */
  private async applyMembership(
    userId: string,
    membership: { tenant: string; application: string; roles: string[]; inheritable?: boolean },
    where: string,
  ) {
    const tenant = membership.tenant === 'Global' ? await this.em.findOneBy(Tenant, { id: GLOBAL_TENANT_ID }) : await this.tenant(membership.tenant, `${where}.tenant`);
    if (!tenant) return;
    const roleIds: string[] = [];
    for (const roleName of membership.roles) {
      const role = await this.em.findOneBy(Role, { applicationId: membership.application, name: roleName });
      if (role) roleIds.push(role.id);
      else this.problems.push(`${where}: role "${roleName}" does not exist in application "${membership.application}"`);
    }
    if (this.problems.length) return;
    const change = await new AccessChanges(this.em).grant(
      { authority: SYSTEM_AUTHORITY, path: 'bootstrap', log: { userId: null, userName: null } },
      {
        identity: { type: 'User', id: userId },
        tenant: { id: tenant.id, title: tenant.title, areaId: tenant.areaId },
        roleIds,
        isInheritable: membership.inheritable,
        newMembershipInheritable: CREATE_DEFAULTS.membership.inheritable,
      },
    );
    if (change.membershipCreated) this.result.created++;
    else if (change.changed) this.result.updated++;
  }

  private async passwordFields(password: string | undefined) {
    if (!password) return { passwordHash: null, passwordChangedAt: null };
    return { passwordHash: await hashPassword(password), passwordChangedAt: new Date() };
  }

  private async area(name: string, where: string): Promise<Area | null> {
    const area = await this.em.findOneBy(Area, { name });
    if (!area) this.problems.push(`${where}: area "${name}" does not exist`);
    return area;
  }

  private async tenant(title: string, where: string): Promise<Tenant | null> {
    const matches = await this.em.findBy(Tenant, { title });
    if (matches.length !== 1) this.problems.push(`${where}: ${matches.length ? 'several tenants are' : 'no tenant is'} titled "${title}"`);
    return matches.length === 1 ? matches[0]! : null;
  }

  /**
   * Finds the row by its natural key; creates it, or updates the declared fields that differ. A
   * field declared `undefined` is one the file leaves out: never written to an existing row.
   * `defaults` fill what the file leaves out of a new row; `create` holds fields written only
   * when the row is new (passwords).
   */
  private async upsert<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    key: Partial<T>,
    declared: { [F in keyof T]?: T[F] | undefined },
    options: { onlyCreate?: boolean; defaults?: Partial<T>; create?: Partial<T> } = {},
  ): Promise<T> {
    const fields = Object.entries(declared).filter(([, value]) => value !== undefined);
    const existing = await this.em.findOneBy(entity, key as never);
    if (!existing) {
      this.result.created++;
      return this.em.save(entity, this.em.create(entity, { ...key, ...options.defaults, ...Object.fromEntries(fields), ...options.create } as never) as T);
    }
    if (options.onlyCreate) return existing;
    const changed = fields.filter(([field, value]) => !sameValue(existing[field], value));
    if (changed.length === 0) return existing;
    this.result.updated++;
    Object.assign(existing, Object.fromEntries(changed));
    return this.em.save(entity, existing);
  }
}

/** The same text in the same languages, whatever the order they are written in. */
function sameTexts(a: Record<string, string>, b: Record<string, string>): boolean {
  const languages = Object.keys(a);
  return languages.length === Object.keys(b).length && languages.every((language) => a[language] === b[language]);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  return (a ?? null) === (b ?? null);
}
