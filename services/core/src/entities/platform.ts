import { Check, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import {
  JOB_STATUSES,
  JOB_TYPES,
  MAIL_STATUSES,
  RIGHTS_REQUEST_TYPES,
  SIGNING_KEY_STATUSES,
} from '../domain/constants.js';
import { CreatedAt, Int, Json, ModifiedOn, Text, TextArray, Timestamp, Uuid, Varchar, oneOf } from './columns.js';
import { User } from './identity.js';

/** A named security setting document (edited as YAML, stored as JSON). */
@Entity('security_configs')
@Index('security_configs__title', ['title'], { unique: true })
export class SecurityConfig {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'security_configs__pkey' })
  id: string;
  @Varchar('title', 200)
  title: string;
  @Varchar('description', 1000, { nullable: true })
  description: string | null;
  @Json('body', { default: () => "'{}'" })
  body: Record<string, unknown>;
  @Uuid('modified_by_id', { nullable: true })
  modifiedById: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'modified_by_id', foreignKeyConstraintName: 'security_configs__modified_by_id__fkey' })
  modifiedBy?: Relation<User>;
  @CreatedAt()
  createdAt: Date;
  @ModifiedOn()
  modifiedOn: Date;
}

@Entity('notifications')
@Index('notifications__user_id_created_at', ['userId', 'createdAt'])
export class Notification {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'notifications__pkey' })
  id: string;
  @Uuid('user_id')
  userId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'notifications__user_id__fkey' })
  user?: Relation<User>;
  @Varchar('type', 50)
  type: string;
  @Varchar('description', 1000, { nullable: true })
  description: string | null;
  @Json('data', { nullable: true })
  data: Record<string, unknown> | null;
  /** The message as a phrase key and its parameters, written in the reader's language when listed. */
  @Json('message', { nullable: true })
  message: { key: string; params: Record<string, unknown> } | null;
  @Timestamp('read_at', { nullable: true })
  readAt: Date | null;
  @CreatedAt()
  createdAt: Date;
}

/** A user-visible background process (import, export, report) and its outcome. */
@Entity('background_jobs')
@Index('background_jobs__user_id_created_at', ['userId', 'createdAt'])
@Index('background_jobs__status', ['status'])
@Index('background_jobs__created_at', ['createdAt'])
@Check('background_jobs__type__check', oneOf('type', JOB_TYPES))
@Check('background_jobs__status__check', oneOf('status', JOB_STATUSES))
export class BackgroundJob {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'background_jobs__pkey' })
  id: string;
  @Varchar('type', 60)
  type: (typeof JOB_TYPES)[number];
  @Varchar('status', 20, { default: 'Queued' })
  status: (typeof JOB_STATUSES)[number];
  @Uuid('user_id', { nullable: true })
  userId: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'background_jobs__user_id__fkey' })
  user?: Relation<User>;
  @Int('progress', { default: 0 })
  progress: number;
  @Int('total', { nullable: true })
  total: number | null;
  @Json('payload', { default: () => "'{}'" })
  payload: Record<string, unknown>;
  @Json('result', { nullable: true })
  result: Record<string, unknown> | null;
  @Text('error', { nullable: true })
  error: string | null;
  @CreatedAt()
  createdAt: Date;
  @Timestamp('started_at', { nullable: true })
  startedAt: Date | null;
  @Timestamp('finished_at', { nullable: true })
  finishedAt: Date | null;
}

/** A data-subject rights request (access, correction, erasure, …). */
@Entity('rights_requests')
@Index('rights_requests__user_id', ['userId'])
@Index('rights_requests__created_at', ['createdAt'])
@Check('rights_requests__request_type__check', oneOf('request_type', RIGHTS_REQUEST_TYPES))
export class RightsRequest {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'rights_requests__pkey' })
  id: string;
  @Uuid('user_id', { nullable: true })
  userId: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'rights_requests__user_id__fkey' })
  user?: Relation<User>;
  @Text('request_date', { type: 'date' })
  requestDate: string;
  @Varchar('full_name', 200)
  fullName: string;
  @Varchar('email', 256)
  email: string;
  @Varchar('request_type', 20)
  requestType: (typeof RIGHTS_REQUEST_TYPES)[number];
  @Varchar('representative_data', 2000, { nullable: true })
  representativeData: string | null;
  @TextArray('rights')
  rights: string[];
  @Text('request_details', { nullable: true })
  requestDetails: string | null;
  @CreatedAt()
  createdAt: Date;
}

@Entity('rights_request_files')
@Index('rights_request_files__rights_request_id', ['rightsRequestId'])
export class RightsRequestFile {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'rights_request_files__pkey' })
  id: string;
  @Uuid('rights_request_id')
  rightsRequestId: string;
  @ManyToOne(() => RightsRequest, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'rights_request_id', foreignKeyConstraintName: 'rights_request_files__rights_request_id__fkey' })
  rightsRequest?: Relation<RightsRequest>;
  @Varchar('file_name', 260)
  fileName: string;
  @Varchar('content_type', 100)
  contentType: string;
  @Int('size')
  size: number;
  @Text('content', { type: 'bytea' })
  content: Buffer;
  @CreatedAt()
  createdAt: Date;
}

/**
 * Mail waiting to be sent (or kept, when no SMTP server is configured). Subject and bodies carry
 * links with secrets (reset tokens, sign-in codes): `html` and `text` hold them encrypted.
 */
@Entity('mail_outbox')
@Index('mail_outbox__status_next_attempt_at', ['status', 'nextAttemptAt'])
@Check('mail_outbox__status__check', oneOf('status', MAIL_STATUSES))
export class MailOutbox {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'mail_outbox__pkey' })
  id: string;
  @Varchar('to_address', 256)
  toAddress: string;
  @Varchar('subject', 500)
  subject: string;
  @Text('html')
  html: string;
  @Text('text')
  text: string;
  @Varchar('template', 50)
  template: string;
  @Varchar('language', 10)
  language: string;
  @Varchar('status', 20, { default: 'Pending' })
  status: (typeof MAIL_STATUSES)[number];
  @Int('attempts', { default: 0 })
  attempts: number;
  @Text('last_error', { nullable: true })
  lastError: string | null;
  @Timestamp('next_attempt_at', { default: () => 'now()' })
  nextAttemptAt: Date;
  @CreatedAt()
  createdAt: Date;
  @Timestamp('sent_at', { nullable: true })
  sentAt: Date | null;
}

/** A token-signing key; the private half is encrypted with the configured key. */
@Entity('signing_keys')
@Index('signing_keys__status', ['status'])
@Check('signing_keys__status__check', oneOf('status', SIGNING_KEY_STATUSES))
export class SigningKey {
  @PrimaryColumn({ name: 'kid', type: 'varchar', length: 64, primaryKeyConstraintName: 'signing_keys__pkey' })
  kid: string;
  @Varchar('alg', 10)
  alg: string;
  @Json('public_jwk')
  publicJwk: Record<string, unknown>;
  @Text('private_jwk_encrypted')
  privateJwkEncrypted: string;
  @Varchar('status', 10, { default: 'active' })
  status: (typeof SIGNING_KEY_STATUSES)[number];
  @CreatedAt()
  createdAt: Date;
  /** When a retiring key's last tokens expire and it leaves the JWKS. */
  @Timestamp('retire_at', { nullable: true })
  retireAt: Date | null;
}

/** Storage for every oidc-provider model (sessions, interactions, codes, tokens, grants). */
@Entity('oidc_model_instances')
@Index('oidc_model_instances__model_grant_id', ['model', 'grantId'])
@Index('oidc_model_instances__model_uid', ['model', 'uid'])
@Index('oidc_model_instances__model_user_code', ['model', 'userCode'])
@Index('oidc_model_instances__expires_at', ['expiresAt'])
// On the session a token was issued in (an expression the entity cannot declare): a user ends one session.
@Index('oidc_model_instances__session_uid', { synchronize: false })
export class OidcModelInstance {
  @PrimaryColumn({ name: 'model', type: 'varchar', length: 40, primaryKeyConstraintName: 'oidc_model_instances__pkey' })
  model: string;
  @PrimaryColumn({ name: 'id', type: 'varchar', length: 255, primaryKeyConstraintName: 'oidc_model_instances__pkey' })
  id: string;
  @Json('payload')
  payload: Record<string, unknown>;
  @Varchar('grant_id', 255, { nullable: true })
  grantId: string | null;
  @Varchar('user_code', 255, { nullable: true })
  userCode: string | null;
  @Varchar('uid', 255, { nullable: true })
  uid: string | null;
  @Timestamp('expires_at', { nullable: true })
  expiresAt: Date | null;
  @Timestamp('consumed_at', { nullable: true })
  consumedAt: Date | null;
}

/** A file a background job produced (a report, an export), downloadable by its owner until it expires. */
@Entity('stored_files')
@Index('stored_files__owner_id', ['ownerId'])
@Index('stored_files__expires_at', ['expiresAt'])
export class StoredFile {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'stored_files__pkey' })
  id: string;
  @Uuid('owner_id')
  ownerId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'owner_id', foreignKeyConstraintName: 'stored_files__owner_id__fkey' })
  owner?: Relation<User>;
  @Varchar('file_name', 260)
  fileName: string;
  @Varchar('media_type', 100)
  mediaType: string;
  @Text('bytes', { type: 'bytea' })
  bytes: Buffer;
  @CreatedAt()
  createdAt: Date;
  @Timestamp('expires_at')
  expiresAt: Date;
}
