import { Entity, Index, JoinColumn, ManyToOne, OneToOne, PrimaryColumn, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Application } from './applications.js';
import { CreatedAt, Json, ModifiedOn, Timestamp, Uuid, Varchar } from './columns.js';
import { Area, Group, User } from './identity.js';

/**
 * A SCIM provisioning token: issued by an administrator to an application for one area, shown
 * once and stored as its SHA-256. It acts with its issuer's authority, narrowed to its area and to
 * what an application may do; it goes with its issuer, its application or its area.
 */
@Entity('scim_tokens')
@Index('scim_tokens__token_hash', ['tokenHash'], { unique: true })
@Index('scim_tokens__application_id', ['applicationId'])
export class ScimToken {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'scim_tokens__pkey' })
  id: string;
  @Varchar('application_id', 64)
  applicationId: string;
  @ManyToOne(() => Application, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'scim_tokens__application_id__fkey' })
  application?: Relation<Application>;
  @Uuid('area_id')
  areaId: string;
  @ManyToOne(() => Area, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'area_id', foreignKeyConstraintName: 'scim_tokens__area_id__fkey' })
  area?: Relation<Area>;
  @Varchar('name', 200)
  name: string;
  @Varchar('token_hash', 64)
  tokenHash: string;
  /** The token's last characters, to tell tokens apart in the console. */
  @Varchar('token_last_chars', 8)
  tokenLastChars: string;
  @Uuid('created_by')
  createdBy: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'scim_tokens__created_by__fkey' })
  creator?: Relation<User>;
  @Timestamp('expires_at', { nullable: true })
  expiresAt: Date | null;
  @Timestamp('last_used_at', { nullable: true })
  lastUsedAt: Date | null;
  @CreatedAt()
  createdAt: Date;
}

/** What SCIM keeps on a user beyond the product's columns: the client's external id and the other attributes it sent. */
@Entity('scim_users')
@Index('scim_users__external_id', ['externalId'])
export class ScimUser {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'scim_users__pkey' })
  userId: string;
  @OneToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'scim_users__user_id__fkey' })
  user?: Relation<User>;
  @Varchar('external_id', 256, { nullable: true })
  externalId: string | null;
  @Json('attributes', { default: () => "'{}'" })
  attributes: Record<string, unknown>;
  /** The application whose token provisioned it last. */
  @Varchar('application_id', 64, { nullable: true })
  applicationId: string | null;
  @ManyToOne(() => Application, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'scim_users__application_id__fkey' })
  application?: Relation<Application>;
  @ModifiedOn()
  modifiedOn: Date;
}

/** What SCIM keeps on a group beyond the product's columns. */
@Entity('scim_groups')
@Index('scim_groups__external_id', ['externalId'])
export class ScimGroup {
  @PrimaryColumn({ name: 'group_id', type: 'uuid', primaryKeyConstraintName: 'scim_groups__pkey' })
  groupId: string;
  @OneToOne(() => Group, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'scim_groups__group_id__fkey' })
  group?: Relation<Group>;
  @Varchar('external_id', 256, { nullable: true })
  externalId: string | null;
  @Json('attributes', { default: () => "'{}'" })
  attributes: Record<string, unknown>;
  @Varchar('application_id', 64, { nullable: true })
  applicationId: string | null;
  @ManyToOne(() => Application, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'scim_groups__application_id__fkey' })
  application?: Relation<Application>;
  @ModifiedOn()
  modifiedOn: Date;
}
