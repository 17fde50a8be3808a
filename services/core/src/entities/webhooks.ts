import { Check, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from '@gatehouse/contracts';
import { Application } from './applications.js';
import { Bool, CreatedAt, Int, Json, ModifiedOn, Text, TextArray, Timestamp, Uuid, Varchar, oneOf } from './columns.js';
import { User } from './identity.js';

/** Where the product posts the events an administrator chose: global, or for one application. */
@Entity('webhook_endpoints')
@Index('webhook_endpoints__application_id', ['applicationId'])
export class WebhookEndpoint {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_endpoints__pkey' })
  id: string;
  @Varchar('url', 2000)
  url: string;
  @Varchar('description', 500, { nullable: true })
  description: string | null;
  @TextArray('events')
  events: string[];
  @Varchar('application_id', 64, { nullable: true })
  applicationId: string | null;
  @ManyToOne(() => Application, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'webhook_endpoints__application_id__fkey' })
  application?: Relation<Application>;
  /** The signing secret (`whsec_…`), encrypted with the product's key. */
  @Text('secret_encrypted')
  secretEncrypted: string;
  /** The secret before the last rotation, still signed with until `previousSecretExpiresAt`. */
  @Text('previous_secret_encrypted', { nullable: true })
  previousSecretEncrypted: string | null;
  @Timestamp('previous_secret_expires_at', { nullable: true })
  previousSecretExpiresAt: Date | null;
  @Bool('enabled', true)
  enabled: boolean;
  /** Why the product turned it off (`failing`), or null. */
  @Varchar('disabled_reason', 50, { nullable: true })
  disabledReason: string | null;
  /** Since when its deliveries fail without one received; null while it answers. */
  @Timestamp('failing_since', { nullable: true })
  failingSince: Date | null;
  @Uuid('created_by', { nullable: true })
  createdBy: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'webhook_endpoints__created_by__fkey' })
  creator?: Relation<User>;
  @CreatedAt()
  createdAt: Date;
  @ModifiedOn()
  modifiedOn: Date;
}

/** An event, written in the transaction of the change it describes; its payload as delivered. */
@Entity('webhook_events')
@Index('webhook_events__created_at', ['createdAt'])
export class WebhookEvent {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_events__pkey' })
  id: string;
  @Varchar('type', 50)
  type: string;
  /** `{ type, timestamp, data }`, the body every endpoint receives. */
  @Json('payload')
  payload: Record<string, unknown>;
  /** The applications it concerns: their endpoints hear it too. */
  @TextArray('application_ids')
  applicationIds: string[];
  @CreatedAt()
  createdAt: Date;
}

/** One event's delivery to one endpoint: attempted until received, or given up after a day. */
@Entity('webhook_deliveries')
@Index('webhook_deliveries__endpoint_id_created_at', ['endpointId', 'createdAt'])
@Index('webhook_deliveries__event_id', ['eventId'])
@Index('webhook_deliveries__pending_endpoint_id_next_attempt_at', ['endpointId', 'nextAttemptAt'], { where: `"status" = 'Pending'` })
@Index('webhook_deliveries__leased_endpoint_id', ['endpointId', 'leasedUntil'], { where: `"status" = 'Pending' AND "leased_until" IS NOT NULL` })
@Check('webhook_deliveries__status__check', oneOf('status', WEBHOOK_DELIVERY_STATUSES))
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_deliveries__pkey' })
  id: string;
  @Uuid('endpoint_id')
  endpointId: string;
  @ManyToOne(() => WebhookEndpoint, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'webhook_deliveries__endpoint_id__fkey' })
  endpoint?: Relation<WebhookEndpoint>;
  @Uuid('event_id')
  eventId: string;
  @ManyToOne(() => WebhookEvent, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'webhook_deliveries__event_id__fkey' })
  event?: Relation<WebhookEvent>;
  @Varchar('status', 20, { default: 'Pending' })
  status: WebhookDeliveryStatus;
  @Int('attempts', { default: 0 })
  attempts: number;
  @Timestamp('next_attempt_at', { default: () => 'now()' })
  nextAttemptAt: Date;
  /** Until when the node attempting it holds it; another takes it up after (a node that stopped mid-attempt). */
  @Timestamp('leased_until', { nullable: true })
  leasedUntil: Date | null;
  @Timestamp('last_attempt_at', { nullable: true })
  lastAttemptAt: Date | null;
  @Int('last_status_code', { nullable: true })
  lastStatusCode: number | null;
  @Int('last_duration_ms', { nullable: true })
  lastDurationMs: number | null;
  @Varchar('last_error', 500, { nullable: true })
  lastError: string | null;
  @Timestamp('delivered_at', { nullable: true })
  deliveredAt: Date | null;
  @CreatedAt()
  createdAt: Date;
}
