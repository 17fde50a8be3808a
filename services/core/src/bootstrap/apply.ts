import { readFile } from 'node:fs/promises';
import type { DataSource, EntityManager, ObjectLiteral, EntityTarget } from 'typeorm';
import { parse as parseYaml } from 'yaml';
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID } from '../domain/constants.js';
import { Application, Role, RoleScope } from '../entities/applications.js';
import { Area, Tenant, User } from '../entities/identity.js';
import { TenantMember, TenantMemberRole } from '../entities/membership.js';
import type { SecretBox } from '../security/secret-box.js';
import { generatePassword, hashPassword } from '../security/passwords.js';
import { bootstrapSchema, type BootstrapDocument } from './schema.js';

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

/**
 * Makes the database hold what the document declares, in one transaction. Rows are only written
 * when a declared value differs, so a second run changes nothing; nothing undeclared is removed.
 */
export async function applyBootstrap(
  dataSource: DataSource,
  doc: BootstrapDocument,
  options: { secrets: SecretBox; admin: BootstrapAdmin; file?: string },
): Promise<BootstrapResult> {
  return dataSource.transaction(async (em) => new Bootstrapper(em, options.secrets, options.file ?? 'bootstrap').run(doc, options.admin));
}

class Bootstrapper {
  private readonly result: BootstrapResult = { created: 0, updated: 0 };
  private readonly problems: string[] = [];

  constructor(
    private readonly em: EntityManager,
    private readonly secrets: SecretBox,
    private readonly file: string,
  ) {}

  async run(doc: BootstrapDocument, admin: BootstrapAdmin): Promise<BootstrapResult> {
    for (const area of doc.areas) {
      if (area.default) {
        // Only one default area may exist; moving the flag clears it elsewhere first.
        await this.em.createQueryBuilder().update(Area).set({ isDefault: false }).where('is_default AND name <> :name', { name: area.name }).execute();
      }
      await this.upsert(Area, { name: area.name }, { isDefault: area.default, isSystem: area.system });
    }
    await this.upsert(Tenant, { id: GLOBAL_TENANT_ID }, { title: 'Global', areaId: null, parentId: null }, { onlyCreate: true });
    for (const tenant of doc.tenants) await this.applyTenant(tenant);
    for (const app of doc.applications) await this.applyApplication(app);
    for (const user of doc.users) await this.applyUser(user);
    await this.applyAdmin(admin);
    if (this.problems.length) throw new BootstrapError(this.file, this.problems);
    return this.result;
  }

  private async applyTenant(tenant: BootstrapDocument['tenants'][number]) {
    const area = await this.area(tenant.area, `tenants.${tenant.title}.area`);
    let parentId: string | null = null;
    if (tenant.parent) {
      const parent = await this.tenant(tenant.parent, `tenants.${tenant.title}.parent`);
      parentId = parent?.id ?? null;
    }
    if (!area) return;
    await this.upsert(
      Tenant,
      { title: tenant.title, areaId: area.id },
      {
        parentId,
        taxNumber: tenant.taxNumber ?? null,
        viesNumber: tenant.viesNumber ?? null,
        creationType: tenant.creation,
        requiredTwoModeAuthentification: tenant.requiredTwoModeAuthentification,
      },
    );
  }

  private async applyApplication(app: BootstrapDocument['applications'][number]) {
    const existing = await this.em.findOneBy(Application, { id: app.id });
    // A secret is re-encrypted only when it changed: the ciphertext differs on every encryption.
    let clientSecretEncrypted = existing?.clientSecretEncrypted ?? null;
    if (!app.secret) clientSecretEncrypted = null;
    else if (!existing?.clientSecretEncrypted || this.secrets.decrypt(existing.clientSecretEncrypted) !== app.secret) {
      clientSecretEncrypted = this.secrets.encrypt(app.secret);
    }
    await this.upsert(
      Application,
      { id: app.id },
      {
        name: app.name,
        displayName: app.displayName,
        description: app.description ?? null,
        clientType: app.type,
        clientSecretEncrypted,
        isFirstParty: app.firstParty,
        redirectUris: app.redirectUris,
        postLogoutRedirectUris: app.postLogoutRedirectUris,
        backchannelLogoutUri: app.backchannelLogoutUri ?? null,
        grantTypes: app.grantTypes,
        idTokenSignedResponseAlg: app.idTokenAlgorithm,
        privateUrl: app.privateUrl ?? null,
        publicUrl: app.publicUrl ?? null,
        icon: app.icon ?? null,
        status: app.status,
        prerelease: app.prerelease,
        hideInUserList: app.hideInUserList,
      },
    );
    for (const role of app.roles) {
      const saved = await this.upsert(
        Role,
        { applicationId: app.id, name: role.name },
        { description: role.description ?? null, byHierarchy: role.byHierarchy },
      );
      for (const scope of role.scopes) await this.upsert(RoleScope, { roleId: saved.id, scope }, {});
    }
  }

  private async applyUser(user: BootstrapDocument['users'][number]) {
    const area = await this.area(user.area, `users.${user.userName}.area`);
    if (!area) return;
    const email = user.email ?? user.userName;
    const existing = await this.em.findOneBy(User, { normalizedUserName: user.userName.toLowerCase() });
    const saved = await this.upsert(
      User,
      { normalizedUserName: user.userName.toLowerCase() },
      {
        userName: user.userName,
        email,
        normalizedEmail: email.toLowerCase(),
        firstName: user.firstName ?? null,
        lastName: user.lastName ?? null,
        areaId: area.id,
        language: user.language,
      },
      existing ? {} : { create: await this.passwordFields(user.password) },
    );
    for (const membership of user.memberships) {
      await this.applyMembership(saved.id, membership, `users.${user.userName}.memberships`);
    }
  }

  private async applyAdmin(admin: BootstrapAdmin) {
    const normalized = admin.userName.toLowerCase();
    const existing = await this.em.findOneBy(User, { normalizedUserName: normalized });
    let userId = existing?.id;
    if (!existing) {
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
      userId!,
      { tenant: 'Global', application: IDENTITY_APPLICATION_ID, roles: ['Administrator', 'God'], inheritable: true },
      'administrator',
    );
  }

  private async applyMembership(
    userId: string,
    membership: { tenant: string; application: string; roles: string[]; inheritable: boolean },
    where: string,
  ) {
    const tenant = membership.tenant === 'Global' ? { id: GLOBAL_TENANT_ID } : await this.tenant(membership.tenant, `${where}.tenant`);
    if (!tenant) return;
    const member = await this.upsert(
      TenantMember,
      { tenantId: tenant.id, userId },
      { identityType: 'User', groupId: null, isInheritable: membership.inheritable },
    );
    for (const roleName of membership.roles) {
      const role = await this.em.findOneBy(Role, { applicationId: membership.application, name: roleName });
      if (!role) {
        this.problems.push(`${where}: role "${roleName}" does not exist in application "${membership.application}"`);
        continue;
      }
      await this.upsert(TenantMemberRole, { tenantMemberId: member.id, roleId: role.id }, {});
    }
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
   * Finds the row by its natural key; creates it, or updates the declared fields that differ.
   * `create` holds fields written only when the row is new (passwords).
   */
  private async upsert<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    key: Partial<T>,
    declared: Partial<T>,
    options: { onlyCreate?: boolean; create?: Partial<T> } = {},
  ): Promise<T> {
    const existing = await this.em.findOneBy(entity, key as never);
    if (!existing) {
      this.result.created++;
      return this.em.save(entity, this.em.create(entity, { ...key, ...declared, ...options.create } as never) as T);
    }
    if (options.onlyCreate) return existing;
    const changed = Object.entries(declared).filter(([field, value]) => !sameValue(existing[field], value));
    if (changed.length === 0) return existing;
    this.result.updated++;
    Object.assign(existing, Object.fromEntries(changed));
    return this.em.save(entity, existing);
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  return (a ?? null) === (b ?? null);
}
