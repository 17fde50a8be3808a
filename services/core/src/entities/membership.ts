import { Check, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import {
  IDENTITY_TYPES,
  OPERATION_REQUEST_STATUSES,
  OPERATION_REQUEST_TYPES,
  type IdentityType,
} from '../domain/constants.js';
import { Role } from './applications.js';
import { Bool, CreatedAt, Int, Json, ModifiedOn, Timestamp, Uuid, Varchar, oneOf } from './columns.js';
import { Group, Tenant, User } from './identity.js';

/**
 * A user or a group in a tenant, with roles. An inheritable membership also grants its roles in
 * every descendant tenant. Exactly one of user_id / group_id is set, matching identity_type.
 */
@Entity('tenant_members')
@Index('tenant_members__tenant_id_user_id', ['tenantId', 'userId'], { unique: true })
@Index('tenant_members__tenant_id_group_id', ['tenantId', 'groupId'], { unique: true })
@Index('tenant_members__user_id', ['userId'])
@Index('tenant_members__group_id', ['groupId'])
@Check('tenant_members__identity_type__check', oneOf('identity_type', IDENTITY_TYPES))
@Check(
  'tenant_members__identity__check',
  `("identity_type" = 'User' AND "user_id" IS NOT NULL AND "group_id" IS NULL) OR ("identity_type" = 'Group' AND "group_id" IS NOT NULL AND "user_id" IS NULL)`,
)
export class TenantMember {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'tenant_members__pkey' })
  id: string;
  @Uuid('tenant_id')
  tenantId: string;
  @ManyToOne(() => Tenant, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'tenant_members__tenant_id__fkey' })
  tenant?: Relation<Tenant>;
  @Varchar('identity_type', 10)
  identityType: IdentityType;
  @Uuid('user_id', { nullable: true })
  userId: string | null;
  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'tenant_members__user_id__fkey' })
  user?: Relation<User>;
  @Uuid('group_id', { nullable: true })
  groupId: string | null;
  @ManyToOne(() => Group, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'tenant_members__group_id__fkey' })
  group?: Relation<Group>;
  @Bool('is_inheritable', true)
  isInheritable: boolean;
  @CreatedAt()
  createdAt: Date;
  @ModifiedOn()
  modifiedOn: Date;
}

@Entity('tenant_member_roles')
@Index('tenant_member_roles__role_id', ['roleId'])
export class TenantMemberRole {
  @PrimaryColumn({ name: 'tenant_member_id', type: 'uuid', primaryKeyConstraintName: 'tenant_member_roles__pkey' })
  tenantMemberId: string;
  @PrimaryColumn({ name: 'role_id', type: 'uuid', primaryKeyConstraintName: 'tenant_member_roles__pkey' })
  roleId: string;
  @ManyToOne(() => TenantMember, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'tenant_member_id', foreignKeyConstraintName: 'tenant_member_roles__tenant_member_id__fkey' })
  tenantMember?: Relation<TenantMember>;
  @ManyToOne(() => Role, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'role_id', foreignKeyConstraintName: 'tenant_member_roles__role_id__fkey' })
  role?: Relation<Role>;
}

/** A proposed permission change awaiting approval. */
@Entity('operation_requests')
@Index('operation_requests__tenant_id_status', ['tenantId', 'status'])
@Index('operation_requests__created_by_id', ['createdById'])
@Index('operation_requests__user_id', ['userId'])
@Index('operation_requests__group_id', ['groupId'])
// One waiting request per identity and tenant: a second one edits the first instead.
@Index('operation_requests__waiting_user', ['tenantId', 'userId'], { unique: true, where: `"status" = 'WaitingForApprover' AND "user_id" IS NOT NULL` })
@Index('operation_requests__waiting_group', ['tenantId', 'groupId'], { unique: true, where: `"status" = 'WaitingForApprover' AND "group_id" IS NOT NULL` })
@Check('operation_requests__type__check', oneOf('type', OPERATION_REQUEST_TYPES))
@Check('operation_requests__status__check', oneOf('status', OPERATION_REQUEST_STATUSES))
@Check('operation_requests__identity_type__check', oneOf('identity_type', IDENTITY_TYPES))
export class OperationRequest {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'operation_requests__pkey' })
  id: string;
  @Varchar('type', 40)
  type: (typeof OPERATION_REQUEST_TYPES)[number];
  @Varchar('status', 30, { default: 'WaitingForApprover' })
  status: (typeof OPERATION_REQUEST_STATUSES)[number];
  @Uuid('tenant_id')
  tenantId: string;
  @ManyToOne(() => Tenant, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'operation_requests__tenant_id__fkey' })
  tenant?: Relation<Tenant>;
  @Varchar('identity_type', 10)
  identityType: IdentityType;
  @Uuid('user_id', { nullable: true })
  userId: string | null;
  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'operation_requests__user_id__fkey' })
  user?: Relation<User>;
  @Uuid('group_id', { nullable: true })
  groupId: string | null;
  @ManyToOne(() => Group, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'operation_requests__group_id__fkey' })
  group?: Relation<Group>;
  /** The requested change: roles, isInheritable, and the previous state for a roll-back. */
  @Json('payload', { default: () => "'{}'" })
  payload: Record<string, unknown>;
  /** Counts the changes of the payload: an approval names the version its approver saw. */
  @Int('version', { default: 1 })
  version: number;
  /** Why it was rejected (as the approver wrote it) or rolled back (what refused the change). */
  @Varchar('reason', 1000, { nullable: true })
  reason: string | null;
  @Uuid('created_by_id', { nullable: true })
  createdById: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by_id', foreignKeyConstraintName: 'operation_requests__created_by_id__fkey' })
  createdBy?: Relation<User>;
  @CreatedAt()
  createdAt: Date;
  @ModifiedOn()
  modifiedOn: Date;
}

@Entity('operation_request_history')
@Index('operation_request_history__operation_request_id_date', ['operationRequestId', 'date'])
export class OperationRequestHistory {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'operation_request_history__pkey' })
  id: string;
  @Uuid('operation_request_id')
  operationRequestId: string;
  @ManyToOne(() => OperationRequest, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({
    name: 'operation_request_id',
    foreignKeyConstraintName: 'operation_request_history__operation_request_id__fkey',
  })
  operationRequest?: Relation<OperationRequest>;
  @Varchar('status', 30)
  status: string;
  @Varchar('request_type', 40)
  requestType: string;
  @Uuid('actor_id', { nullable: true })
  actorId: string | null;
  @Varchar('actor_email', 256, { nullable: true })
  actorEmail: string | null;
  @Timestamp('date', { default: () => 'now()' })
  date: Date;
}
