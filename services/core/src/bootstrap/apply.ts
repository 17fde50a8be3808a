import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { en as messages } from '@gatehouse/contracts';
import { IsNull, type DataSource, type EntityManager, type ObjectLiteral, type EntityTarget } from 'typeorm';
import { parse as parseYaml } from 'yaml';
import { SYSTEM_AUTHORITY } from '../access/facts.js';
import { AccessChanges } from '../access/grants.js';
import type { IdentityRef } from '../access/grants.js';
import { BOOTSTRAP_VARIABLE_PREFIX } from '../config/loader.js';
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID } from '../domain/constants.js';
import { Application, ApplicationExchangeAudience, Disclaimer, Role, RoleScope } from '../entities/applications.js';
import { Area, Group, Tenant, User } from '../entities/identity.js';
import { SecurityConfig } from '../entities/platform.js';
import { WebhookEndpoint } from '../entities/webhooks.js';
import { ApplicationSamlSettings } from '../entities/saml.js';
import { writeSystemLog } from '../logging/audit.js';
import { webhookAddressProblem } from '../webhooks/addresses.js';
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

export interface BootstrapVariables {
  publicUrl: string;
  /** What `${env:NAME}` references read: the GATEHOUSE_… environment variables (config.bootstrap.variables); none by default. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** A reference to an environment variable, written where a secret goes: `${env:GATEHOUSE_APP_CRM_SECRET}`. */
const ENV_REFERENCE = /\$\{env:([^}]*)\}/g;
/** The variables a file may read: the product's own, never the deployment's others (DATABASE_URL…). */
const VARIABLE_NAME = new RegExp(`^${BOOTSTRAP_VARIABLE_PREFIX}[A-Z0-9_]+$`);

/** Whether a missing variable may be left out: a webhook's signing secret, which the product can generate. */
const generatedWhenMissing = (path: readonly (string | number)[]) => path.length === 3 && path[0] === 'webhooks' && path[2] === 'secret';

/**
 * Replaces `${publicUrl}` and every `${env:NAME}` in the document's strings. A variable that is not
 * set (or empty) is a problem naming it, except for a webhook's signing secret: that field is then
 * left out, and said so in `notices`.
 */
function interpolate(doc: unknown, vars: BootstrapVariables, problems: string[], notices: string[]): unknown {
  const env = vars.env ?? {};
  const walk = (value: unknown, path: (string | number)[]): unknown => {
    if (Array.isArray(value)) return value.map((item, index) => walk(item, [...path, index]));
    if (value && typeof value === 'object') {
      const entries = Object.entries(value).map(([key, field]) => [key, walk(field, [...path, key])] as const);
      return Object.fromEntries(entries.filter(([, field]) => field !== undefined));
    }
    if (typeof value !== 'string') return value;
    const where = path.join('.');
    let missing = false;
    const text = value.replaceAll('${publicUrl}', vars.publicUrl).replace(ENV_REFERENCE, (_, name: string) => {
      if (!VARIABLE_NAME.test(name)) {
        problems.push(`${where}: \${env:${name}} is not a variable a bootstrap file may read (their names start with ${BOOTSTRAP_VARIABLE_PREFIX} and hold capitals, digits and _)`);
        return '';
      }
      const found = env[name];
      if (found) return found;
      missing = true;
      if (generatedWhenMissing(path)) {
        notices.push(`${where}: ${name} is not set: a new endpoint gets a signing secret of its own (rotate it in the console to read it), an existing one keeps its own`);
      } else {
        problems.push(`${where}: the environment variable ${name} is not set`);
      }
      return '';
    });
    return missing && generatedWhenMissing(path) ? undefined : text;
  };
  return walk(doc, []);
}

/**
 * Reads and validates a bootstrap file; `${publicUrl}` and `${env:NAME}` in any string are replaced.
 * `notices` says what the file leaves to the product (a webhook secret it generates).
 */
export async function readBootstrap(file: string, vars: BootstrapVariables): Promise<{ document: BootstrapDocument; notices: string[] }> {
  let doc: unknown;
  try {
    doc = parseYaml(await readFile(file, 'utf8')) ?? {};
  } catch (error) {
    throw new BootstrapError(file, [(error as Error).message.split('\n')[0]!]);
  }
  const problems: string[] = [];
  const notices: string[] = [];
  const interpolated = interpolate(doc, vars, problems, notices);
  if (problems.length) throw new BootstrapError(file, problems);
  const parsed = bootstrapSchema.safeParse(interpolated);
  if (!parsed.success) {
    throw new BootstrapError(
      file,
      parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`),
    );
  }
  return { document: parsed.data, notices };
}

/** Reads and validates a bootstrap file (see {@link readBootstrap}), without its notices. */
export async function readBootstrapFile(file: string, vars: BootstrapVariables): Promise<BootstrapDocument> {
  return (await readBootstrap(file, vars)).document;
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
  options: { secrets: SecretBox; admin: BootstrapAdmin; file?: string; allowPrivateNetworkRequests?: boolean },
): Promise<BootstrapResult> {
  return dataSource.transaction(async (em) =>
    new Bootstrapper(em, options.secrets, options.file ?? 'bootstrap', options.allowPrivateNetworkRequests ?? false).run(doc, options.admin),
  );
}

/** A value with its objects' keys sorted (and undefined fields dropped), to compare or digest it whatever its key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, field]) => field !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, field]) => [key, canonical(field)]),
    );
  }
  return value;
}

/** SHA-256 of the document's canonical JSON (keys sorted): formatting and comments do not count. */
function bootstrapDigest(doc: BootstrapDocument): string {
  return createHash('sha256').update(JSON.stringify(canonical(doc))).digest('hex');
}

class Bootstrapper {
  private readonly result: BootstrapResult = { created: 0, updated: 0, unchanged: false };
  private readonly problems: string[] = [];

  constructor(
    private readonly em: EntityManager,
    private readonly secrets: SecretBox,
    private readonly file: string,
    /** Whether webhooks may be sent to private or loopback addresses (OIDC_ALLOW_PRIVATE_NETWORK). */
    private readonly allowPrivateNetworkRequests: boolean,
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
    for (const group of doc.groups) await this.applyGroup(group);
    if (doc.security) await this.applySecurity(doc.security);
    for (const webhook of doc.webhooks) await this.applyWebhook(webhook);
  }

  private async applyTenant(tenant: BootstrapDocument['tenants'][number]) {
    const area = await this.area(tenant.area, `tenants.${tenant.title}.area`);
    let parentId: string | undefined;
    if (tenant.parent) {
      const parent = await this.tenant(tenant.parent, `tenants.${tenant.title}.parent`);
      if (!parent) return;
      // As the console's change of parent: a tenant never goes under itself or one of its own descendants.
      if (tenant.id && (await this.isSelfOrAncestor(tenant.id, parent.id))) {
        this.problems.push(`tenants.${tenant.title}.parent: "${tenant.parent}" is the tenant itself or one of its descendants`);
        return;
      }
      parentId = parent.id;
    }
    if (!area) return;
    await this.upsert(
      Tenant,
      tenant.id ? { id: tenant.id } : { title: tenant.title, areaId: area.id },
      {
        ...(tenant.id ? { title: tenant.title, areaId: area.id } : {}),
        parentId,
        taxNumber: tenant.taxNumber,
        viesNumber: tenant.viesNumber,
        groupAlias: tenant.groupAlias,
        creationType: tenant.creation,
        requiredTwoModeAuthentification: tenant.requiredTwoModeAuthentification,
        phishingResistantOnly: tenant.phishingResistantOnly,
      },
      {
        defaults: {
          parentId: null,
          taxNumber: null,
          viesNumber: null,
          groupAlias: null,
          creationType: CREATE_DEFAULTS.tenant.creation,
          requiredTwoModeAuthentification: CREATE_DEFAULTS.tenant.requiredTwoModeAuthentification,
          phishingResistantOnly: false,
        },
      },
    );
  }

  /** Whether `tenantId` is `candidateId` or one of its ancestors. */
  private async isSelfOrAncestor(tenantId: string, candidateId: string): Promise<boolean> {
    const seen = new Set<string>();
    for (let id: string | null = candidateId; id && !seen.has(id); id = (await this.em.findOneBy(Tenant, { id }))?.parentId ?? null) {
      if (id === tenantId) return true;
      seen.add(id);
    }
    return false;
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
        // A SAML application has no client secret of its own: public, as the admin API makes it.
        clientType: app.protocol === 'saml' ? 'public' : app.type,
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
        enabled: app.enabled,
        protocol: app.protocol,
      },
      {
        defaults: {
          description: null,
          clientType: app.protocol === 'saml' ? 'public' : defaults.type,
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
          enabled: defaults.enabled,
          protocol: 'oidc',
        },
      },
    );
    await this.applyRoles(app);
    if (app.disclaimer) await this.applyDisclaimer(app.id, app.disclaimer);
    if (app.saml) await this.applySaml(app.id, app.saml);
  }

  /** A SAML application's settings: exactly as the file declares them. */
  private async applySaml(applicationId: string, saml: NonNullable<BootstrapDocument['applications'][number]['saml']>) {
    await this.upsert(ApplicationSamlSettings, { applicationId }, {
      entityId: saml.entityId,
      assertionConsumerServices: saml.assertionConsumerServices,
      singleLogoutUrl: saml.singleLogoutUrl ?? null,
      nameIdFormat: saml.nameIdFormat,
      attributeMapping: saml.attributes,
      certificate: saml.certificate ?? null,
      wantAuthnRequestsSigned: saml.wantAuthnRequestsSigned,
      encryptAssertions: saml.encryptAssertions,
      defaultRelayState: saml.defaultRelayState ?? null,
    });
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
      await this.applyMembership({ type: 'User', id: saved.id }, membership, `users.${user.userName}.memberships`);
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
      { type: 'User', id: userId },
      { tenant: 'Global', application: IDENTITY_APPLICATION_ID, roles: ['Administrator', 'God'], inheritable: true },
      'administrator',
    );
  }

  /** A group, found by its name in its area, and the roles it holds in tenants (added when missing; none is taken away). */
  private async applyGroup(group: BootstrapDocument['groups'][number]) {
    const area = await this.area(group.area, `groups.${group.name}.area`);
    if (!area) return;
    const saved = await this.upsert(Group, { areaId: area.id, name: group.name }, { description: group.description }, { defaults: { description: null } });
    for (const membership of group.memberships) {
      await this.applyMembership({ type: 'Group', id: saved.id }, membership, `groups.${group.name}.memberships`);
    }
  }

  /**
   * The security settings the file declares, each stored whole (keys left out hold their defaults),
   * written with a system log row when it differs from the stored one. Every node rereads them
   * within a minute.
   */
  private async applySecurity(security: NonNullable<BootstrapDocument['security']>) {
    for (const [title, body] of Object.entries(security)) {
      if (!body) continue;
      const existing = await this.em.findOneBy(SecurityConfig, { title });
      if (existing && JSON.stringify(canonical(existing.body)) === JSON.stringify(canonical(body))) continue;
      if (existing) {
        existing.body = body;
        existing.modifiedById = null;
        await this.em.save(existing);
        this.result.updated++;
      } else {
        await this.em.save(this.em.create(SecurityConfig, { title, description: null, body, modifiedById: null }));
        this.result.created++;
      }
      await writeSystemLog(this.em, { operation: 'UpdateSecurityConfig', userId: null, userName: null, metadata: { config: title, origin: 'bootstrap', body } });
    }
  }

  /**
   * A webhook endpoint, found by its id, else by its url and application. Its application stays as
   * created (as in the console); a new one without a declared secret gets one of its own.
   */
  private async applyWebhook(webhook: BootstrapDocument['webhooks'][number]) {
    const where = `webhooks.${webhook.id ?? webhook.url}`;
    const problem = webhookAddressProblem(webhook.url, this.allowPrivateNetworkRequests);
    if (problem) {
      this.problems.push(`${where}.url: ${problem === 'private' ? messages.webhooks.private_address : messages.webhooks.invalid_url}`);
      return;
    }
    const applicationId = webhook.application ?? null;
    if (applicationId && !(await this.em.existsBy(Application, { id: applicationId }))) {
      this.problems.push(`${where}.application: application "${applicationId}" does not exist`);
      return;
    }
    const existing = webhook.id
      ? await this.em.findOneBy(WebhookEndpoint, { id: webhook.id })
      : await this.em.findOne(WebhookEndpoint, { where: { url: webhook.url, applicationId: applicationId ?? IsNull() }, order: { createdAt: 'ASC' } });
    const settings = { url: webhook.url, description: webhook.description, events: [...new Set(webhook.events)], enabled: webhook.enabled };
    if (!existing) {
      const secret = webhook.secret ?? `whsec_${randomBytes(32).toString('base64')}`;
      const defaults = { description: null, enabled: true };
      await this.em.save(
        this.em.create(WebhookEndpoint, { ...(webhook.id ? { id: webhook.id } : {}), ...defaults, ...definedFields(settings), applicationId, secretEncrypted: this.secrets.encrypt(secret), createdBy: null }),
      );
      this.result.created++;
      return;
    }
    if (existing.applicationId !== applicationId) {
      this.problems.push(`${where}.application: an endpoint's application cannot change (it is "${existing.applicationId ?? 'none'}")`);
      return;
    }
    const changed = Object.entries(definedFields(settings)).filter(([field, value]) => !sameValue(existing[field as keyof WebhookEndpoint], value));
    const newSecret = webhook.secret !== undefined && this.secrets.decrypt(existing.secretEncrypted) !== webhook.secret;
    if (!changed.length && !newSecret) return;
    Object.assign(existing, Object.fromEntries(changed));
    if (newSecret) existing.secretEncrypted = this.secrets.encrypt(webhook.secret!);
    await this.em.save(existing);
    this.result.updated++;
  }

  /**
   * The identity's roles in the tenant, given through tenant access (the product itself: every rule
   * allows it) in this transaction: only what is missing is added, one Permission log row when it
   * is; the membership's inheritance changes only when the file declares it.
   */
  private async applyMembership(
    identity: IdentityRef,
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
        identity,
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

  /** The tenant a file names: by its id, or by its title (which must then be unique). */
  private async tenant(title: string, where: string): Promise<Tenant | null> {
    const byId = UUID.test(title) ? await this.em.findOneBy(Tenant, { id: title }) : null;
    if (byId) return byId;
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The same text in the same languages, whatever the order they are written in. */
function sameTexts(a: Record<string, string>, b: Record<string, string>): boolean {
  const languages = Object.keys(a);
  return languages.length === Object.keys(b).length && languages.every((language) => a[language] === b[language]);
}

/** The fields of an object that are set. */
function definedFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  return (a ?? null) === (b ?? null);
}
