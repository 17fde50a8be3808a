import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { GLOBAL_TENANT_ID } from '../domain/constants.js';
import { Application, Role } from '../entities/applications.js';
import { Area, Group, GroupMember, Tenant, User } from '../entities/identity.js';
import { TenantMember, TenantMemberRole } from '../entities/membership.js';

type Db = DataSource | EntityManager;
const unique = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

// Factories build exactly what a test asks for, with unique names, so tests never collide.

export async function buildArea(db: Db, overrides: Partial<Area> = {}): Promise<Area> {
  return db.getRepository(Area).save({ name: unique('area'), ...overrides });
}

export async function buildTenant(db: Db, overrides: Partial<Tenant> = {}): Promise<Tenant> {
  const areaId = overrides.areaId ?? (await buildArea(db)).id;
  return db.getRepository(Tenant).save({ title: unique('tenant'), areaId, ...overrides });
}

export async function ensureGlobalTenant(db: Db): Promise<void> {
  await db.query(`INSERT INTO tenants (id, title) VALUES ($1, 'Global') ON CONFLICT (id) DO NOTHING`, [GLOBAL_TENANT_ID]);
}

export async function buildUser(db: Db, overrides: Partial<User> = {}): Promise<User> {
  const userName = overrides.userName ?? `${unique('user')}@example.com`;
  const areaId = overrides.areaId ?? (await buildArea(db)).id;
  return db.getRepository(User).save({
    userName,
    normalizedUserName: userName.toLowerCase(),
    email: userName,
    normalizedEmail: userName.toLowerCase(),
    areaId,
    ...overrides,
  });
}

export async function buildGroup(db: Db, overrides: Partial<Group> & { members?: User[] } = {}): Promise<Group> {
  const { members = [], ...fields } = overrides;
  const areaId = fields.areaId ?? (await buildArea(db)).id;
  const group = await db.getRepository(Group).save({ name: unique('group'), areaId, ...fields });
  for (const member of members) await db.getRepository(GroupMember).save({ groupId: group.id, userId: member.id });
  return group;
}

export async function buildApplication(
  db: Db,
  overrides: Partial<Application> & { roles?: string[] } = {},
): Promise<Application & { roleByName: Record<string, Role> }> {
  const { roles = [], ...fields } = overrides;
  const id = fields.id ?? unique('app');
  const app = await db.getRepository(Application).save({ id, name: fields.name ?? id, displayName: id, ...fields });
  const roleByName: Record<string, Role> = {};
  for (const name of roles) roleByName[name] = await db.getRepository(Role).save({ applicationId: app.id, name });
  return Object.assign(app, { roleByName });
}

/** Grants roles to a user or a group in a tenant. */
export async function grant(
  db: Db,
  options: { tenant: Tenant | string; user?: User; group?: Group; roles: Role[]; inheritable?: boolean },
): Promise<TenantMember> {
  const tenantId = typeof options.tenant === 'string' ? options.tenant : options.tenant.id;
  const member = await db.getRepository(TenantMember).save({
    tenantId,
    identityType: options.user ? 'User' : 'Group',
    userId: options.user?.id ?? null,
    groupId: options.group?.id ?? null,
    isInheritable: options.inheritable ?? true,
  });
  for (const role of options.roles) await db.getRepository(TenantMemberRole).save({ tenantMemberId: member.id, roleId: role.id });
  return member;
}
