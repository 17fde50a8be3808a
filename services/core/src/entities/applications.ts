import type { JsonWebKey } from 'node:crypto';
import { Check, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import {
  APPLICATION_STATUSES,
  CLIENT_AUTHENTICATIONS,
  CLIENT_TYPES,
  ID_TOKEN_ALGORITHMS,
  type ApplicationStatus,
  type ClientAuthentication,
  type ClientType,
} from '../domain/constants.js';
import { APPLICATION_PROTOCOLS, type ApplicationProtocol } from '../domain/saml.js';
import { Bool, CreatedAt, Int, Json, ModifiedOn, Text, TextArray, Timestamp, Uuid, Varchar, oneOf } from './columns.js';
import { User } from './identity.js';

/** An OIDC client and its catalogue entry. `name` is the client_id. */
@Entity('applications')
@Index('applications__name', ['name'], { unique: true })
@Check('applications__status__check', oneOf('status', APPLICATION_STATUSES))
@Check('applications__client_type__check', oneOf('client_type', CLIENT_TYPES))
@Check('applications__client_authentication__check', oneOf('client_authentication', CLIENT_AUTHENTICATIONS))
@Check('applications__id_token_signed_response_alg__check', oneOf('id_token_signed_response_alg', ID_TOKEN_ALGORITHMS))
@Check('applications__protocol__check', oneOf('protocol', APPLICATION_PROTOCOLS))
export class Application {
  @PrimaryColumn({ name: 'id', type: 'varchar', length: 64, primaryKeyConstraintName: 'applications__pkey' })
  id: string;
  @Varchar('name', 200)
  name: string;
  @Varchar('display_name', 200)
  displayName: string;
  @Varchar('description', 1000, { nullable: true })
  description: string | null;
  @Varchar('client_type', 20, { default: 'confidential' })
  clientType: ClientType;
  /** AES-256-GCM ciphertext of the client secret (never stored in plain text). */
  @Text('client_secret_encrypted', { nullable: true })
  clientSecretEncrypted: string | null;
  @Bool('enabled', true)
  enabled: boolean;
  /** First-party applications skip the consent screen. */
  @Bool('is_first_party')
  isFirstParty: boolean;
  @TextArray('redirect_uris')
  redirectUris: string[];
  @TextArray('post_logout_redirect_uris')
  postLogoutRedirectUris: string[];
  @TextArray('grant_types', { default: () => "'{authorization_code,refresh_token}'" })
  grantTypes: string[];
  /** It may also sign users in on devices without a browser of their own (RFC 8628 device code). */
  @Bool('device_flow')
  deviceFlow: boolean;
  /** Its tokens must be bound to its key (DPoP, RFC 9449): a token request without a proof is refused. */
  @Bool('require_dpop')
  requireDpop: boolean;
  /** Its authorization requests must be pushed first (PAR, RFC 9126). */
  @Bool('require_par')
  requirePar: boolean;
  /** Its authorization requests must be request objects signed with one of its keys (JAR, RFC 9101). */
  @Bool('require_signed_request_object')
  requireSignedRequestObject: boolean;
  /** How a confidential application authenticates at the token endpoint. */
  @Varchar('client_authentication', 30, { default: 'client_secret_basic' })
  clientAuthentication: ClientAuthentication;
  /** Its public keys by value (a JWK Set): for `private_key_jwt` and signed request objects. */
  @Json('jwks', { nullable: true })
  jwks: { keys: JsonWebKey[] } | null;
  /** Where its public keys are read, instead of `jwks`. */
  @Varchar('jwks_uri', 2000, { nullable: true })
  jwksUri: string | null;
  /** The FAPI 2.0 Security Profile applies to it. */
  @Bool('fapi2')
  fapi2: boolean;
  /** Where the provider posts logout tokens when a user signs out (OIDC back-channel logout). */
  @Varchar('backchannel_logout_uri', 2000, { nullable: true })
  backchannelLogoutUri: string | null;
  @Varchar('id_token_signed_response_alg', 10, { default: 'RS256' })
  idTokenSignedResponseAlg: (typeof ID_TOKEN_ALGORITHMS)[number];
  @Varchar('private_url', 2000, { nullable: true })
  privateUrl: string | null;
  @Varchar('public_url', 2000, { nullable: true })
  publicUrl: string | null;
  /** Icon name or URL; an uploaded image lives in icon_data. */
  @Varchar('icon', 2000, { nullable: true })
  icon: string | null;
  @Text('icon_data', { type: 'bytea', nullable: true })
  iconData: Buffer | null;
  @Varchar('icon_content_type', 100, { nullable: true })
  iconContentType: string | null;
  @Varchar('status', 20, { default: 'Running' })
  status: ApplicationStatus;
  /** How users sign in to it: OpenID Connect, or SAML 2.0 (its settings in application_saml_settings). */
  @Varchar('protocol', 10, { default: 'oidc' })
  protocol: ApplicationProtocol;
  @Bool('prerelease')
  prerelease: boolean;
  @Bool('hide_in_user_list')
  hideInUserList: boolean;
  @CreatedAt()
  createdAt: Date;
  @ModifiedOn()
  modifiedOn: Date;
}

/** An application whose API another one may call for a signed-in user, by exchanging the user's token (RFC 8693). */
@Entity('application_exchange_audiences')
@Index('application_exchange_audiences__audience_id', ['audienceId'])
export class ApplicationExchangeAudience {
  @PrimaryColumn({ name: 'application_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'application_exchange_audiences__pkey' })
  applicationId: string;
  @PrimaryColumn({ name: 'audience_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'application_exchange_audiences__pkey' })
  audienceId: string;
  @ManyToOne(() => Application, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'application_exchange_audiences__application_id__fkey' })
  application?: Relation<Application>;
  @ManyToOne(() => Application, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'audience_id', foreignKeyConstraintName: 'application_exchange_audiences__audience_id__fkey' })
  audience?: Relation<Application>;
  @CreatedAt()
  createdAt: Date;
}

@Entity('application_owners')
@Index('application_owners__user_id', ['userId'])
export class ApplicationOwner {
  @PrimaryColumn({ name: 'application_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'application_owners__pkey' })
  applicationId: string;
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'application_owners__pkey' })
  userId: string;
  @ManyToOne(() => Application, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'application_owners__application_id__fkey' })
  application?: Relation<Application>;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'application_owners__user_id__fkey' })
  user?: Relation<User>;
}

@Entity('roles')
@Index('roles__application_id_name', ['applicationId', 'name'], { unique: true })
export class Role {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'roles__pkey' })
  id: string;
  @Varchar('application_id', 64)
  applicationId: string;
  @ManyToOne(() => Application, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'roles__application_id__fkey' })
  application?: Relation<Application>;
  @Varchar('name', 200)
  name: string;
  @Varchar('description', 1000, { nullable: true })
  description: string | null;
  /** Only grantable through the hierarchy, never picked directly. */
  @Bool('by_hierarchy')
  byHierarchy: boolean;
  @Bool('operation_request_visibility')
  operationRequestVisibility: boolean;
  @Bool('service_manager_visibility')
  serviceManagerVisibility: boolean;
  @CreatedAt()
  createdAt: Date;
  @ModifiedOn()
  modifiedOn: Date;
}

@Entity('role_scopes')
@Index('role_scopes__role_id_scope', ['roleId', 'scope'], { unique: true })
@Check('role_scopes__scope__check', `"scope" ~ '^[a-z0-9./:_-]+$'`)
export class RoleScope {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'role_scopes__pkey' })
  id: string;
  @Uuid('role_id')
  roleId: string;
  @ManyToOne(() => Role, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'role_id', foreignKeyConstraintName: 'role_scopes__role_id__fkey' })
  role?: Relation<Role>;
  @Varchar('scope', 200)
  scope: string;
  @CreatedAt()
  createdAt: Date;
}

/** An account whose access to one application that application ended (LockUser of the external API). */
@Entity('application_user_blocks')
@Index('application_user_blocks__user_id', ['userId'])
export class ApplicationUserBlock {
  @PrimaryColumn({ name: 'application_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'application_user_blocks__pkey' })
  applicationId: string;
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'application_user_blocks__pkey' })
  userId: string;
  @ManyToOne(() => Application, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'application_user_blocks__application_id__fkey' })
  application?: Relation<Application>;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'application_user_blocks__user_id__fkey' })
  user?: Relation<User>;
  @CreatedAt()
  createdAt: Date;
}

@Entity('user_favorite_applications')
@Index('user_favorite_applications__application_id', ['applicationId'])
export class UserFavoriteApplication {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'user_favorite_applications__pkey' })
  userId: string;
  @PrimaryColumn({
    name: 'application_id',
    type: 'varchar',
    length: 64,
    primaryKeyConstraintName: 'user_favorite_applications__pkey',
  })
  applicationId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_favorite_applications__user_id__fkey' })
  user?: Relation<User>;
  @ManyToOne(() => Application, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'user_favorite_applications__application_id__fkey' })
  application?: Relation<Application>;
  @CreatedAt()
  createdAt: Date;
}

/** Terms a user must accept before using an application; a new version asks again. */
@Entity('disclaimers')
@Index('disclaimers__application_id_version', ['applicationId', 'version'], { unique: true })
export class Disclaimer {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'disclaimers__pkey' })
  id: string;
  @Varchar('application_id', 64)
  applicationId: string;
  @ManyToOne(() => Application, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'disclaimers__application_id__fkey' })
  application?: Relation<Application>;
  @Int('version', { default: 1 })
  version: number;
  /** Text per language: { en: '…', fr: '…' }. */
  @Json('content')
  content: Record<string, string>;
  @CreatedAt()
  createdAt: Date;
}

@Entity('disclaimer_acceptances')
@Index('disclaimer_acceptances__user_id', ['userId'])
export class DisclaimerAcceptance {
  @PrimaryColumn({ name: 'disclaimer_id', type: 'uuid', primaryKeyConstraintName: 'disclaimer_acceptances__pkey' })
  disclaimerId: string;
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'disclaimer_acceptances__pkey' })
  userId: string;
  @ManyToOne(() => Disclaimer, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'disclaimer_id', foreignKeyConstraintName: 'disclaimer_acceptances__disclaimer_id__fkey' })
  disclaimer?: Relation<Disclaimer>;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'disclaimer_acceptances__user_id__fkey' })
  user?: Relation<User>;
  @Timestamp('accepted_at', { default: () => 'now()' })
  acceptedAt: Date;
}

/** A personal access token: only its SHA-256 hash, its prefix and its last characters are kept. */
@Entity('personal_access_tokens')
@Index('personal_access_tokens__token_hash', ['tokenHash'], { unique: true })
@Index('personal_access_tokens__user_id', ['userId'])
export class PersonalAccessToken {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'personal_access_tokens__pkey' })
  id: string;
  @Varchar('name', 200)
  name: string;
  @Uuid('user_id')
  userId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'personal_access_tokens__user_id__fkey' })
  user?: Relation<User>;
  @Varchar('application_id', 64)
  applicationId: string;
  @ManyToOne(() => Application, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'personal_access_tokens__application_id__fkey' })
  application?: Relation<Application>;
  @Varchar('token_hash', 64)
  tokenHash: string;
  @Varchar('token_prefix', 16)
  tokenPrefix: string;
  /** The value's last characters, shown to tell tokens apart. */
  @Varchar('token_last_chars', 4, { nullable: true })
  tokenLastChars: string | null;
  @Timestamp('expires_at', { nullable: true })
  expiresAt: Date | null;
  @Timestamp('last_used_at', { nullable: true })
  lastUsedAt: Date | null;
  @Uuid('created_by_id', { nullable: true })
  createdById: string | null;
  @CreatedAt()
  createdAt: Date;
}
