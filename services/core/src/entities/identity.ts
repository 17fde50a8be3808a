import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import {
  GROUP_PERMISSIONS,
  TENANT_CREATION_TYPES,
  USER_TOKEN_PURPOSES,
  type GroupPermission,
} from '../domain/constants.js';
import { Bool, CreatedAt, Int, Json, ModifiedOn, Text, Timestamp, Uuid, Varchar, oneOf } from './columns.js';

@Entity('areas')
@Index('areas__name', ['name'], { unique: true })
@Index('areas__is_default', ['isDefault'], { unique: true, where: '"is_default"' })
export class Area {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'areas__pkey' })
  id: string;
  @Varchar('name', 200)
  name: string;
  @Bool('is_default')
  isDefault: boolean;
  @Bool('is_system')
  isSystem: boolean;
  @CreatedAt()
  createdAt: Date;
  @ModifiedOn()
  modifiedOn: Date;
}

@Entity('tenants')
@Index('tenants__parent_id', ['parentId'])
@Index('tenants__area_id', ['areaId'])
@Index('tenants__title', ['title'])
@Check('tenants__creation_type__check', oneOf('creation_type', TENANT_CREATION_TYPES))
@Check('tenants__parent_id__check', '"parent_id" <> "id"')
export class Tenant {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'tenants__pkey' })
  id: string;
  @Varchar('title', 200)
  title: string;
  /** Null only for the Global tenant, which belongs to no area. */
  @Uuid('area_id', { nullable: true })
  areaId: string | null;
  @ManyToOne(() => Area, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'area_id', foreignKeyConstraintName: 'tenants__area_id__fkey' })
  area?: Relation<Area>;
  @Uuid('parent_id', { nullable: true })
  parentId: string | null;
  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'parent_id', foreignKeyConstraintName: 'tenants__parent_id__fkey' })
  parent?: Relation<Tenant>;
  @Varchar('tax_number', 50, { nullable: true })
  taxNumber: string | null;
  @Varchar('vies_number', 50, { nullable: true })
  viesNumber: string | null;
  @Varchar('group_alias', 200, { nullable: true })
  groupAlias: string | null;
  @Varchar('creation_type', 10, { default: 'Manual' })
  creationType: (typeof TENANT_CREATION_TYPES)[number];
  @Bool('is_user_customized')
  isUserCustomized: boolean;
  @Bool('required_two_mode_authentification')
  requiredTwoModeAuthentification: boolean;
  /** The second factor must resist phishing: a passkey, or signing in with Microsoft. */
  @Bool('phishing_resistant_only')
  phishingResistantOnly: boolean;
  @Uuid('modified_by_id', { nullable: true })
  modifiedById: string | null;
  @CreatedAt()
  createdAt: Date;
  @ModifiedOn()
  modifiedOn: Date;
}

@Entity('users')
@Index('users__normalized_user_name', ['normalizedUserName'], { unique: true })
@Index('users__normalized_email', ['normalizedEmail'])
// The users lists' orders, (modified_on DESC, id) and (area_id, modified_on DESC, id) (migration
// 1765800800000-user-list-indexes): TypeORM cannot describe a descending column, so the schema
// comparison leaves these two alone.
@Index('users__modified_on_id', { synchronize: false })
@Index('users__area_id_modified_on_id', { synchronize: false })
@Index('users__user_name_id', ['userName', 'id'])
@Index('users__email_id', ['email', 'id'])
@Index('users__current_company_id', ['currentCompanyId'])
@Index('users__created_for_tenant_id', ['createdForTenantId'])
@Check('users__user_type__check', '"user_type" IN (1, 2)')
export class User {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'users__pkey' })
  id: string;
  /** The login name: an e-mail address, kept as entered. */
  @Varchar('user_name', 256)
  userName: string;
  /** Lower-cased user name; sign-in and uniqueness are case-insensitive. */
  @Varchar('normalized_user_name', 256)
  normalizedUserName: string;
  @Varchar('email', 256)
  email: string;
  @Varchar('normalized_email', 256)
  normalizedEmail: string;
  @Bool('email_verified')
  emailVerified: boolean;
  @Varchar('first_name', 100, { nullable: true })
  firstName: string | null;
  @Varchar('last_name', 100, { nullable: true })
  lastName: string | null;
  @Varchar('phone_number', 50, { nullable: true })
  phoneNumber: string | null;
  @Varchar('job_title', 200, { nullable: true })
  jobTitle: string | null;
  @Varchar('manager', 200, { nullable: true })
  manager: string | null;
  @Json('teams', { default: () => "'[]'" })
  teams: string[];
  /** Preferred language (one of LANGUAGES). */
  @Varchar('language', 10, { default: 'fr' })
  language: string;
  /**
   * When the person chose `language` in their own profile; null while it is the one an
   * administrator, an import or the bootstrap gave the account. Only a chosen language follows the
   * person to every device at sign-in (the `locale_chosen` claim).
   */
  @Timestamp('language_chosen_on', { nullable: true })
  languageChosenOn: Date | null;
  @Uuid('area_id')
  areaId: string;
  @ManyToOne(() => Area, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'area_id', foreignKeyConstraintName: 'users__area_id__fkey' })
  area?: Relation<Area>;
  /** 1 internal, 2 external. */
  @Int('user_type', { type: 'smallint', default: 1 })
  userType: number;
  /** Profile category (InternalCategory claim), e.g. "Project Manager". */
  @Varchar('internal_category', 100, { nullable: true })
  internalCategory: string | null;
  /** Restricted: client access is validated against the role scopes. */
  @Bool('validate_scopes')
  validateScopes: boolean;
  /** Pending approval: cannot sign in. */
  @Bool('draft')
  draft: boolean;
  /** Permanent lock: only an administrator can lift it. */
  @Bool('locked')
  locked: boolean;
  /** End of the current temporary lockout, if any. */
  @Timestamp('lockout_end', { nullable: true })
  lockoutEnd: Date | null;
  /** Consecutive failed sign-in attempts since the last success or lockout. */
  @Int('failed_attempts', { default: 0 })
  failedAttempts: number;
  /** Temporary lockouts so far; the next one past the limit becomes permanent. */
  @Int('lockout_count', { default: 0 })
  lockoutCount: number;
  /** argon2id hash; null for users who sign in only through a federated provider. */
  @Text('password_hash', { nullable: true })
  passwordHash: string | null;
  @Timestamp('password_changed_at', { nullable: true })
  passwordChangedAt: Date | null;
  @Bool('two_factor_enabled')
  twoFactorEnabled: boolean;
  /** Authenticator-app (TOTP) secret, encrypted; null when none is enrolled. */
  @Text('totp_secret_encrypted', { nullable: true })
  totpSecretEncrypted: string | null;
  @Timestamp('totp_enabled_at', { nullable: true })
  totpEnabledAt: Date | null;
  /** Last accepted TOTP time step: a code is accepted once per step. */
  @Column({ name: 'totp_last_step', type: 'bigint', nullable: true })
  totpLastStep: string | null;
  /** When the user's current recovery codes were made; null when they have none. */
  @Timestamp('recovery_codes_generated_at', { nullable: true })
  recoveryCodesGeneratedAt: Date | null;
  @Timestamp('last_login_at', { nullable: true })
  lastLoginAt: Date | null;
  /** The company (tenant) the user chose to work for now; forgotten when the tenant is deleted. */
  @Uuid('current_company_id', { nullable: true })
  currentCompanyId: string | null;
  @ManyToOne(() => Tenant, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'current_company_id', foreignKeyConstraintName: 'users__current_company_id__fkey' })
  currentCompany?: Relation<Tenant>;
  /** The client tenant a consultant created this user for (My Clients); forgotten when the tenant is deleted. */
  @Uuid('created_for_tenant_id', { nullable: true })
  createdForTenantId: string | null;
  @ManyToOne(() => Tenant, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_for_tenant_id', foreignKeyConstraintName: 'users__created_for_tenant_id__fkey' })
  createdForTenant?: Relation<Tenant>;
  /** The business application that created the account through the external API (InviteUsers). */
  @Varchar('created_by_application_id', 64, { nullable: true })
  createdByApplicationId: string | null;
  @ManyToOne('Application', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by_application_id', foreignKeyConstraintName: 'users__created_by_application_id__fkey' })
  createdByApplication?: unknown;
  @Uuid('modified_by_id', { nullable: true })
  modifiedById: string | null;
  @CreatedAt()
  createdAt: Date;
  @ModifiedOn()
  modifiedOn: Date;
}

@Entity('user_password_history')
@Index('user_password_history__user_id_created_at', ['userId', 'createdAt'])
export class UserPasswordHistory {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'user_password_history__pkey' })
  id: string;
  @Uuid('user_id')
  userId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_password_history__user_id__fkey' })
  user?: Relation<User>;
  @Text('password_hash')
  passwordHash: string;
  @CreatedAt()
  createdAt: Date;
}

/** A federated identity linked to a user, keyed by the provider's tenant and object ids. */
@Entity('user_external_logins')
@Index('user_external_logins__provider_tid_oid', ['provider', 'tid', 'oid'], { unique: true })
@Index('user_external_logins__user_id', ['userId'])
export class UserExternalLogin {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'user_external_logins__pkey' })
  id: string;
  @Uuid('user_id')
  userId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_external_logins__user_id__fkey' })
  user?: Relation<User>;
  @Varchar('provider', 50)
  provider: string;
  @Varchar('tid', 100)
  tid: string;
  @Varchar('oid', 200)
  oid: string;
  @Varchar('email', 256, { nullable: true })
  email: string | null;
  @Timestamp('last_used_at', { nullable: true })
  lastUsedAt: Date | null;
  @CreatedAt()
  createdAt: Date;
}

/** Single-use secrets mailed to a user (reset links, invitations, sign-in codes): SHA-256 only. */
@Entity('user_tokens')
@Index('user_tokens__token_hash', ['tokenHash'], { unique: true })
@Index('user_tokens__user_id_purpose', ['userId', 'purpose'])
@Index('user_tokens__expires_at', ['expiresAt'])
@Check('user_tokens__purpose__check', oneOf('purpose', USER_TOKEN_PURPOSES))
export class UserToken {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'user_tokens__pkey' })
  id: string;
  @Uuid('user_id')
  userId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_tokens__user_id__fkey' })
  user?: Relation<User>;
  @Varchar('purpose', 30)
  purpose: (typeof USER_TOKEN_PURPOSES)[number];
  @Varchar('token_hash', 64)
  tokenHash: string;
  /** What the token is bound to (e.g. the sign-in interaction of a code). */
  @Json('context', { nullable: true })
  context: Record<string, unknown> | null;
  @Int('attempts', { default: 0 })
  attempts: number;
  @Timestamp('expires_at')
  expiresAt: Date;
  @Timestamp('consumed_at', { nullable: true })
  consumedAt: Date | null;
  @CreatedAt()
  createdAt: Date;
}

@Entity('groups')
@Index('groups__area_id_name', ['areaId', 'name'], { unique: true })
export class Group {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'groups__pkey' })
  id: string;
  @Varchar('name', 200)
  name: string;
  @Varchar('description', 1000, { nullable: true })
  description: string | null;
  @Uuid('area_id')
  areaId: string;
  @ManyToOne(() => Area, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'area_id', foreignKeyConstraintName: 'groups__area_id__fkey' })
  area?: Relation<Area>;
  @CreatedAt()
  createdAt: Date;
  @ModifiedOn()
  modifiedOn: Date;
}

@Entity('group_members')
@Index('group_members__user_id', ['userId'])
@Index('group_members__group_id_permission_user_id', ['groupId', 'permission', 'userId'])
@Check('group_members__permission__check', oneOf('permission', GROUP_PERMISSIONS))
export class GroupMember {
  @PrimaryColumn({ name: 'group_id', type: 'uuid', primaryKeyConstraintName: 'group_members__pkey' })
  groupId: string;
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'group_members__pkey' })
  userId: string;
  @ManyToOne(() => Group, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'group_members__group_id__fkey' })
  group?: Relation<Group>;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'group_members__user_id__fkey' })
  user?: Relation<User>;
  @Varchar('permission', 10, { default: 'Reader' })
  permission: GroupPermission;
  @CreatedAt()
  createdAt: Date;
}

/**
 * Failed sign-ins for user names that match no account. They lock exactly like real accounts, so
 * answers never reveal whether an account exists. Rows are swept once idle.
 */
@Entity('sign_in_attempts')
@Index('sign_in_attempts__updated_at', ['updatedAt'])
export class SignInAttempt {
  @PrimaryColumn({ name: 'normalized_user_name', type: 'varchar', length: 256, primaryKeyConstraintName: 'sign_in_attempts__pkey' })
  normalizedUserName: string;
  @Int('failed_attempts', { default: 0 })
  failedAttempts: number;
  @Int('lockout_count', { default: 0 })
  lockoutCount: number;
  @Timestamp('lockout_end', { nullable: true })
  lockoutEnd: Date | null;
  @Bool('locked')
  locked: boolean;
  @Timestamp('updated_at', { default: () => 'now()' })
  updatedAt: Date;
}
